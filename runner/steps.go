package runner

import "slices"

// steps is the step registry: one entry per step. Each family's entries
// sit at the top of its steps_*.go file, next to their decoders and
// executors; this line fixes the order they are listed in.
var steps = slices.Concat(tabSteps, navSteps, waitSteps, evalSteps, frameSteps, ariaSteps, querySteps, auditSteps, vitalsSteps, interactSteps, inputSteps, uploadSteps, factSteps, captureSteps, historySteps, routeSteps, recordSteps, emulateSteps, envSteps, stateSteps, swSteps, profileSteps)
