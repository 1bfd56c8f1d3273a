// Package runner runs one agent call: it parses and validates the whole
// batch against the step and field registries, attaches the tab the call
// names, runs the steps in order under their deadlines, settles the page
// after each action, and builds the result — per-step outputs, the page's
// context, the viewport snapshot and its diff, the screenshot, console
// errors and, on failure, diagnostics — as one JSON document.
package runner
