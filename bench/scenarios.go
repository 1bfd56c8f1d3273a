package main

import (
	"fmt"
	"strings"
)

// scenario is one kind of agent call, measured against its floor.
type scenario struct {
	name string
	// path is the fixture page the scenario's tabs load.
	path string
	// setup is steps run once on the CLI's tab, untimed.
	setup string
	// steps is the timed call's steps on the CLI's tab; empty for open,
	// whose call opens a tab of its own.
	steps  string
	open   bool
	floor  floor
	target target
}

// maxRSSKB: a call's process must stay under 30 MB resident.
const maxRSSKB = 30 * 1024

// The batch scenario's steps, shared with its floor.
var (
	batchFills = []struct{ selector, value string }{
		{"#first", "Ada"}, {"#last", "Lovelace"}, {"#email", "ada@example.com"}, {"#city", "London"},
	}
	batchExpr = "document.querySelectorAll('input:checked').length"
)

func batchSteps() string {
	var steps []string
	for _, f := range batchFills {
		steps = append(steps, fmt.Sprintf(`{"fill":{"selector":%q,"value":%q}}`, f.selector, f.value))
	}
	steps = append(steps, `{"click":"#agree"}`, `{"click":"#save"}`, `{"press":"Enter"}`,
		`{"scroll":"#bottom"}`, `{"hover":"#help"}`, fmt.Sprintf(`{"pageFunction":%q}`, batchExpr))
	return strings.Join(steps, ",")
}

// refsPage holds 6,000 refs once snapshotted.
const refsPage = "/buttons?n=6000"

// scenarios are the single-call scenarios, in the report's order. Every
// target also asks for no failed call and a peak RSS under maxRSSKB
// (added in main).
func scenarios() []scenario {
	return []scenario{
		{name: "open", path: "/small.html", open: true, floor: openFloor()},
		{name: "pageFunction", path: "/small.html",
			steps: `{"pageFunction":"document.title"}`, floor: evalFloor("document.title"),
			target: target{ms: 15}},
		{name: "click-report", path: "/small.html",
			steps: `{"click":"#sub"}`, floor: clickFloor("#sub"),
			target: target{ms: 80, xFloor: 1.5}},
		{name: "batch-10", path: "/form.html",
			steps: batchSteps(), floor: batchFloor(),
			target: target{ms: 300}},
		snapshotScenario("1k", 1000, 50),
		snapshotScenario("10k", 10000, 150),
		snapshotScenario("50k", 50000, 600),
		{name: "click-diff", path: "/change.html",
			steps: `{"click":"#go"}`, floor: clickFloor("#go")},
		// The refs are made by a whole-page snapshot; inlineLimit 1 keeps
		// its YAML out of the harness's way.
		{name: "noop-6000refs", path: refsPage,
			setup: `{"snapshot":{"root":"body","inlineLimit":1}}`,
			steps: `{"getTitle":true}`, floor: refsFloor("document.title"),
			target: target{ms: 30}},
	}
}

// snapshotScenario: a default snapshot of a generated page of about n
// elements.
func snapshotScenario(label string, n int, limitMS float64) scenario {
	return scenario{name: "snapshot-" + label, path: fmt.Sprintf("/generated?n=%d", n),
		steps: `{"snapshot":true}`, floor: snapshotFloor(), target: target{ms: limitMS}}
}
