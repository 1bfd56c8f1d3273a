package runner

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
)

// flags say how the runner treats a step.
type flags uint16

const (
	// needsTab: the step runs against an attached tab.
	needsTab flags = 1 << iota
	// visual: the step changes what is on screen, so the call ends with a
	// screenshot.
	visual
	// hooks: the step takes readyWhen/settledWhen/observe.
	hooks
	// sized: the step keeps its own output small (spilling to a file
	// itself), so the runner's generic spill leaves it alone.
	sized
	// field: the step acts on a form field, so its failure context lists
	// fields rather than buttons.
	field
	// navigates: the step loads another document, so no diff spans it.
	navigates
	// rendered: the action itself waits for the page to render a frame
	// after it (dom's effects watch), so the settle looks at once.
	rendered
	// browserWide: the step needs the browser's websocket, not only its
	// tab's: Chrome tells a download in a tab the step opened to the
	// browser's sessions and that tab's only. A batch without one talks
	// to its tab alone (cdp.DialTab), which costs Chrome far less.
	browserWide
	// script: the step runs the agent's code in the page, which may
	// change it: the changes summary names the step when it did.
	script
)

// step is one entry of the step registry. Validation, dispatch, the
// "did you mean" list and the --help table all come from the registry.
type step struct {
	name    string
	usage   string // the accepted forms, for --help and SKILL.md
	summary string
	// output is the shape of the step's output, for SKILL.md: fields
	// ending in ? are sometimes absent, | separates alternatives.
	output string
	flags  flags
	// verb is what the action did, for the changes summary ("Clicked").
	verb   string
	decode func(raw json.RawMessage) (any, error)
	run    func(ctx context.Context, c *Call, params any) (any, error)
}

func (s *step) has(f flags) bool { return s.flags&f != 0 }

// did sets the verb a changes summary starts with after this step.
func (s step) did(verb string) step {
	s.verb = verb
	return s
}

// out sets the documented shape of the step's output.
func (s step) out(shape string) step {
	s.output = shape
	return s
}

// define builds a registry entry with typed params.
func define[P any](name, usage, summary string, f flags,
	decode func(json.RawMessage) (P, error),
	run func(context.Context, *Call, P) (any, error)) step {
	return step{
		name: name, usage: usage, summary: summary, flags: f,
		decode: func(raw json.RawMessage) (any, error) { return decode(raw) },
		run: func(ctx context.Context, c *Call, p any) (any, error) {
			return run(ctx, c, p.(P))
		},
	}
}

var registry = map[string]*step{}

func init() {
	for i := range steps {
		registry[steps[i].name] = &steps[i]
	}
}

func stepByName(name string) *step { return registry[name] }

func stepNames() []string {
	names := make([]string, 0, len(steps))
	for _, s := range steps {
		names = append(names, s.name)
	}
	sort.Strings(names)
	return names
}

// StepInfo describes one step for documentation.
type StepInfo struct {
	Name, Usage, Summary, Output string
	NeedsTab, Visual             bool
}

// Does is what the step does and the shape of its output, the output
// between open and close (code marks, for markdown).
func (s StepInfo) Does(open, close string) string {
	if s.Output == "" {
		return s.Summary
	}
	return strings.TrimSpace(s.Summary + " → " + open + s.Output + close)
}

// Steps lists the registry in table order.
func Steps() []StepInfo {
	out := make([]StepInfo, len(steps))
	for i, s := range steps {
		out[i] = StepInfo{s.name, s.usage, s.summary, s.output, s.has(needsTab), s.has(visual)}
	}
	return out
}
