package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/internal/suggest"
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
	// browserWide: the step needs the browser's download events, not only
	// its tab's: Chrome tells a download in a tab the step opened to the
	// browser's sessions and that tab's only, and the tab's websocket can
	// attach to the new tab only once it is announced, when its first
	// response may already have begun the download. The browser's keeper
	// brings them to a batch over its tab's own websocket (tab.Options.
	// Relay); without a keeper such a batch uses the browser's websocket.
	// A batch without one talks to its tab alone (chrome.DialTab), which
	// costs Chrome far less.
	browserWide
	// script: the step runs the agent's code in the page, which may
	// change it: the changes summary names the step when it did.
	script
	// holdsTabs: the step opens, switches, lists or names the call's tabs
	// (a click's new tabs get aliases), so its executor gets the tab
	// table (env.tabs).
	holdsTabs
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
	verb string
	// decode reads the params; a step that names files reads or checks
	// them with the call's files (relative paths are its working
	// directory's).
	decode func(raw json.RawMessage, f capture.Files) (any, error)
	run    func(ctx context.Context, e *env, params any) (output, error)
	// aliases are the names agents carry over from other tools for what
	// this step does; an unknown step so named is answered with the
	// alias's form of this step.
	aliases []alias
}

// alias is a name agents try for a step (Playwright's, Puppeteer's, their
// MCP servers'), and the step's form to write instead. A "…" in use
// stands for the agent's own value when that is a string.
type alias struct {
	name, use string
}

func (s *step) has(f flags) bool { return s.flags&f != 0 }

// did sets the verb a changes summary starts with after this step.
func (s step) did(verb string) step {
	s.verb = verb
	return s
}

// also declares names agents try for this step: an unknown step so named
// is answered with use, this step's form of what they meant.
func (s step) also(use string, names ...string) step {
	s.aliases = slices.Clone(s.aliases)
	for _, n := range names {
		s.aliases = append(s.aliases, alias{n, use})
	}
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
	run func(context.Context, *env, P) (output, error)) step {
	return defineFiles(name, usage, summary, f,
		func(raw json.RawMessage, _ capture.Files) (P, error) { return decode(raw) }, run)
}

// defineFiles is define for a step whose params name files, which its
// decoder reads or checks where the call's files are.
func defineFiles[P any](name, usage, summary string, f flags,
	decode func(json.RawMessage, capture.Files) (P, error),
	run func(context.Context, *env, P) (output, error)) step {
	return step{
		name: name, usage: usage, summary: summary, flags: f,
		decode: func(raw json.RawMessage, files capture.Files) (any, error) { return decode(raw, files) },
		run: func(ctx context.Context, e *env, p any) (output, error) {
			return run(ctx, e, p.(P))
		},
	}
}

var registry = map[string]*step{}

// byLooseName and aliases find a step by a name an agent wrote: a step's
// name written loosely (get_title, browser_click, page.goto), or a name
// other tools give what a step does (evaluate for pageFunction). Only a
// step the registry lacks needs them, so looseIndex builds them on first
// use rather than at every call's start.
var (
	byLooseName map[string]*step
	aliases     map[string]alias
	looseOnce   sync.Once
)

func init() {
	for i := range steps {
		s := &steps[i]
		registry[s.name] = s
	}
}

// looseIndex builds byLooseName and aliases, once.
func looseIndex() {
	looseOnce.Do(func() {
		byLooseName = make(map[string]*step, len(steps))
		aliases = map[string]alias{}
		for i := range steps {
			s := &steps[i]
			byLooseName[looseName(s.name)] = s
		}
		for _, s := range steps {
			for _, a := range s.aliases {
				n := looseName(a.name)
				if _, dup := aliases[n]; dup || byLooseName[n] != nil {
					panic("runner: alias " + a.name + " of " + s.name + " names another step or alias")
				}
				aliases[n] = a
			}
		}
	})
}

// looseName is how names agents write are compared: case aside, without
// an object's prefix ("page.", "keyboard."), an MCP tool's "browser_",
// or the separators of snake and kebab case.
func looseName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimPrefix(s, "browser_")
	return looseSeps.Replace(s)
}

// looseSeps drops the separators looseName ignores.
var looseSeps = strings.NewReplacer("_", "", "-", "", " ", "")

// unknownStepHint answers a step named k that the registry lacks: the
// step it names loosely, else the step other tools call k (with the
// agent's value v in its form), else the nearest name. Empty when
// nothing is near.
func unknownStepHint(k string, v json.RawMessage) string {
	looseIndex()
	n := looseName(k)
	if s := byLooseName[n]; s != nil {
		return fmt.Sprintf("; did you mean %q?", s.name)
	}
	if a, ok := aliases[n]; ok {
		use := a.use
		if s, ok := asString(v); ok && strings.Contains(use, `"…"`) {
			var q bytes.Buffer
			enc := json.NewEncoder(&q)
			enc.SetEscapeHTML(false) // "() => a > b" reads as written
			_ = enc.Encode(s)
			use = strings.Replace(use, `"…"`, strings.TrimSpace(q.String()), 1)
		}
		return "; did you mean " + use + "?"
	}
	if s := suggest.Nearest(k, append(stepNames(), fieldNames(onStep)...)); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
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
