// Package audit checks a page's accessibility with axe-core, vendored in
// axe/ (MPL-2.0) and run in cdpskill's helper world of each frame, where
// the page can neither see nor alter it. It answers the rules broken,
// each with the elements that break it as refs and snapshot lines
// (package aria), so the agent can act on them at once.
package audit

import (
	"cmp"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/suggest"
	"github.com/cdpskill/cdpskill/page"
)

//go:embed js/run.js
var runJS string

// Options are the audit step's parameters.
type Options struct {
	// Root is a CSS selector: only that element's subtree of the current
	// document is audited, and no frame. Empty: the current document and
	// every frame below it.
	Root string `json:"root,omitempty"`
	// Rules are axe rule ids ("color-contrast"): only those run.
	Rules []string `json:"rules,omitempty"`
	// Level picks the rules of a conformance level (Levels); empty runs
	// axe's defaults: WCAG 2.x A and AA, and best practices.
	Level string `json:"level,omitempty"`

	// SnapshotFloor and ElementFloor are the tab's ref counters as the
	// runner last saw them (aria.Options).
	SnapshotFloor int `json:"-"`
	ElementFloor  int `json:"-"`
}

// Levels maps a level to the axe tags of its rules: a level takes in the
// ones below it.
var Levels = map[string][]string{
	"wcag2a":        {"wcag2a"},
	"wcag2aa":       {"wcag2a", "wcag2aa"},
	"wcag21aa":      {"wcag2a", "wcag2aa", "wcag21a", "wcag21aa"},
	"wcag22aa":      {"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"},
	"best-practice": {"best-practice"},
}

// Validate checks the options without touching Chrome.
func (o Options) Validate() error {
	if o.Level != "" {
		if _, ok := Levels[o.Level]; !ok {
			return &invalid.Option{Field: "level", Value: o.Level, Reason: "must be one of " + levelNames()}
		}
		if o.Rules != nil {
			return &invalid.Option{Field: "rules", Reason: `give "rules" or "level", not both`}
		}
	}
	if o.Rules != nil && len(o.Rules) == 0 {
		return &invalid.Option{Field: "rules", Reason: `empty: name the rules to run, e.g. ["color-contrast", "label"], or leave "rules" out for all`}
	}
	for _, r := range o.Rules {
		if slices.Contains(ownRules, r) {
			return &invalid.Option{Field: "rule", Value: r, Reason: "is axe's check that it reached the frames itself; cdpskill audits each frame on its own"}
		}
		if knownRule(r) {
			continue
		}
		reason := "not a rule of axe-core " + Version
		if s := suggest.Nearest(r, Rules); s != "" {
			reason += fmt.Sprintf("; did you mean %q?", s)
		}
		return &invalid.Option{Field: "rule", Value: r, Reason: reason}
	}
	return nil
}

func levelNames() string {
	return strings.Join(slices.Sorted(maps.Keys(Levels)), ", ")
}

// Result is what the audit found.
type Result struct {
	// Violations are the rules broken, the gravest first.
	Violations []*Violation `json:"violations"`
	// Passes counts the rules some element passed; Incomplete those axe
	// could not decide, which a person should check.
	Passes     int `json:"passes"`
	Incomplete int `json:"incomplete"`
	// Frames counts the frames audited besides the current document;
	// Skipped says which could not be, and why.
	Frames  int      `json:"frames,omitempty"`
	Skipped []string `json:"skipped,omitempty"`

	// LastSnapshot and LastElement are the ref counters after the refs
	// the audit handed out, for the tab registry.
	LastSnapshot int `json:"-"`
	LastElement  int `json:"-"`
}

// Violation is one rule broken: Count elements break it, the first
// PerRule of which are listed.
type Violation struct {
	Rule     string     `json:"rule"`
	Impact   string     `json:"impact"`
	Help     string     `json:"help"`
	Count    int        `json:"count"`
	Elements []*Element `json:"elements"`
}

// Element is one element that breaks a rule: its ref and its snapshot
// line, and the frame it is in when not the current document. The
// document itself (no title, no main landmark) has a line and no ref.
type Element struct {
	Ref   string `json:"ref,omitempty"`
	Line  string `json:"line"`
	Frame string `json:"frame,omitempty"`
}

// PerRule is how many elements a violation lists: enough to see the
// pattern and act on the first; Count says how many more there are.
const PerRule = 5

// ownRules are axe's rules about axe reaching frames itself, which
// cdpskill does (each frame is audited in its own world), so they never
// run: frame-tested would call every frame untested.
var ownRules = []string{"frame-tested"}

// pageRules are the rules about the page as a whole: its title,
// language and viewport, a hidden body (which axe checks only in the
// document it was started in), a main landmark, a first heading, a way
// past repeated blocks and content outside landmarks (which it judges
// across frames). A frame is audited without them: the document audited
// first answers for the page.
var pageRules = []string{"document-title", "html-has-lang", "meta-viewport", "meta-viewport-large", "aria-hidden-body",
	"landmark-one-main", "page-has-heading-one", "bypass", "region"}

// frameWait bounds the audit of one frame, so that a frame that hangs
// costs its own results, not the audit; the last reserve of the step's
// time is kept for answering with what was found.
const (
	frameWait = 10 * time.Second
	reserve   = time.Second
)

// RootNotFoundError means the audit's root matched no element.
type RootNotFoundError struct{ Root string }

func (e *RootNotFoundError) Error() string {
	return fmt.Sprintf("audit root %q matches no element", e.Root)
}

// ErrorName is the SPEC 16.2 subtype the runner reports.
func (e *RootNotFoundError) ErrorName() string { return "ElementNotFoundError" }

// Run audits p's current document (under opts.Root, if given) and,
// without a root, each frame below it in turn, each in its own world.
func Run(ctx context.Context, p *page.Page, opts Options) (*Result, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	a := &auditor{opts: opts, snap: opts.SnapshotFloor, elem: opts.ElementFloor, byRule: map[string]*Violation{},
		passes: map[string]bool{}, incomplete: map[string]bool{}}
	if err := a.document(ctx, p, ""); err != nil {
		return nil, err
	}
	if opts.Root == "" {
		if err := a.frames(ctx, p); err != nil {
			return nil, err
		}
	}
	return a.result(), nil
}

// auditor gathers the results of the documents audited, and the ref
// counters they use up in turn.
type auditor struct {
	opts               Options
	snap, elem         int
	order              []*Violation
	byRule             map[string]*Violation
	passes, incomplete map[string]bool
	frameCount         int
	skipped            []string
}

// frames audits the frames below p's current one, in tree order. Only
// the end of ctx is an error.
func (a *auditor) frames(ctx context.Context, p *page.Page) error {
	list, err := p.Frames(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		a.skipped = append(a.skipped, fmt.Sprintf("frames: could not list them: %v", err))
		return nil
	}
	below := map[string]bool{list.CurrentFrameID: true}
	for _, f := range list.Frames { // parents come before their children
		if !below[f.ParentID] || f.ID == list.CurrentFrameID {
			continue
		}
		below[f.ID] = true
		if err := a.frame(ctx, p, f); err != nil {
			return err
		}
	}
	return nil
}

// frame audits f, for frameWait at most and never into the step's
// reserve; a frame that cannot be audited is skipped and said to be.
// Only the end of ctx is an error.
func (a *auditor) frame(ctx context.Context, p *page.Page, f *page.Frame) error {
	wait := frameWait
	if end, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(end)-reserve)
	}
	if wait <= 0 {
		a.skip(f, `the step's time ran out (give it a longer "timeout")`)
		return nil
	}
	fp := p.Top()
	fp.Enter(f)
	fctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	err := a.document(fctx, fp, frameLabel(f))
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		a.skip(f, "no answer within "+wait.Round(time.Millisecond).String())
	case err != nil:
		a.skip(f, err.Error())
	default:
		a.frameCount++
	}
	return nil
}

func (a *auditor) skip(f *page.Frame, why string) {
	a.skipped = append(a.skipped, fmt.Sprintf("frame %q: not audited: %s", frameLabel(f), why))
}

// frameLabel names a frame for the agent: its name, else its URL.
func frameLabel(f *page.Frame) string {
	return cmp.Or(f.Name, f.URL)
}

// runIn is what run.js takes.
type runIn struct {
	Version string   `json:"version"`
	Root    string   `json:"root,omitempty"`
	Rules   []string `json:"rules,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Skip    []string `json:"skip,omitempty"`
	Cap     int      `json:"cap"`
	Key     string   `json:"key"`
	Held    string   `json:"held"`
}

// runOut is what run.js returns.
type runOut struct {
	Error      string    `json:"error"`
	Message    string    `json:"message"`
	Violations []ruleOut `json:"violations"`
	Passes     []string  `json:"passes"`
	Incomplete []string  `json:"incomplete"`
}

// ruleOut is a rule broken in one document: Count elements break it, the
// first Held of which wait for aria.Describe.
type ruleOut struct {
	Rule   string `json:"rule"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Count  int    `json:"count"`
	Held   int    `json:"held"`
}

// document audits p's current document; frame names it for its
// elements, "" for the current one.
func (a *auditor) document(ctx context.Context, p *page.Page, frame string) error {
	in, ok := a.input(frame != "")
	if !ok {
		return nil
	}
	out, err := run(ctx, p, in)
	if err != nil {
		return err
	}
	var items []*aria.Described
	if slices.ContainsFunc(out.Violations, func(v ruleOut) bool { return v.Held > 0 }) {
		d, err := aria.Describe(ctx, p, aria.DescribeRequest{Held: in.Held, SnapshotFloor: a.snap, ElementFloor: a.elem})
		if err != nil {
			return err
		}
		items, a.snap, a.elem = d.Items, max(a.snap, d.LastSnapshot), max(a.elem, d.LastElement)
	}
	a.add(out, items, frame)
	return nil
}

// input is what run.js takes for a document, a frame's or not; false
// when none of the rules asked for is the document's to judge.
func (a *auditor) input(frame bool) (runIn, bool) {
	in := runIn{Version: Version, Root: a.opts.Root, Rules: a.opts.Rules, Tags: Levels[a.opts.Level],
		Skip: ownRules, Cap: PerRule, Key: aria.HeldKey, Held: page.Token()}
	if frame {
		in.Skip = slices.Concat(ownRules, pageRules)
	}
	if in.Rules != nil {
		// Rules asked for by name run whatever Skip says.
		in.Rules = slices.DeleteFunc(slices.Clone(in.Rules), func(r string) bool { return slices.Contains(in.Skip, r) })
	}
	return in, in.Rules == nil || len(in.Rules) > 0
}

// add merges a document's results in: its violations by rule, with the
// elements described in items (those of each rule in turn).
func (a *auditor) add(out *runOut, items []*aria.Described, frame string) {
	for _, v := range out.Violations {
		got := a.byRule[v.Rule]
		if got == nil {
			got = &Violation{Rule: v.Rule, Impact: v.Impact, Help: v.Help, Elements: []*Element{}}
			a.byRule[v.Rule] = got
			a.order = append(a.order, got)
		}
		got.Count += v.Count
		if rank(v.Impact) < rank(got.Impact) {
			got.Impact = v.Impact
		}
		n := min(v.Held, len(items))
		for _, it := range items[:n] {
			if it != nil && len(got.Elements) < PerRule {
				got.Elements = append(got.Elements, &Element{Ref: it.Ref, Line: it.Line, Frame: frame})
			}
		}
		items = items[n:]
	}
	for _, id := range out.Passes {
		a.passes[id] = true
	}
	for _, id := range out.Incomplete {
		a.incomplete[id] = true
	}
}

// run calls run.js in p's current document, loading axe there first when
// the document does not have it yet.
func run(ctx context.Context, p *page.Page, in runIn) (*runOut, error) {
	var out runOut
	if err := p.CallJS(ctx, runJS, &out, in); err != nil {
		return nil, fmt.Errorf("running axe-core: %w", err)
	}
	if out.Error == "noAxe" {
		if err := load(ctx, p); err != nil {
			return nil, err
		}
		out = runOut{}
		if err := p.CallJS(ctx, runJS, &out, in); err != nil {
			return nil, fmt.Errorf("running axe-core: %w", err)
		}
	}
	switch out.Error {
	case "":
		return &out, nil
	case "invalidSelector":
		return nil, &invalid.Selector{Field: "audit root", Selector: in.Root, Reason: out.Message}
	case "notFound":
		return nil, &RootNotFoundError{Root: in.Root}
	case "running":
		return nil, errors.New("an earlier audit of this page, which ran out of time, is still running in it: wait a moment, or audit less at once (root, rules)")
	case "noAxe":
		return nil, errors.New("axe-core did not stay loaded in the page: did it navigate? Audit again once it has loaded")
	default:
		return nil, fmt.Errorf("axe-core failed: %s", out.Message)
	}
}

// impacts are axe's impacts, gravest first.
var impacts = []string{"critical", "serious", "moderate", "minor"}

// rank orders impacts gravest first; an unknown one last.
func rank(impact string) int {
	if i := slices.Index(impacts, impact); i >= 0 {
		return i
	}
	return len(impacts)
}

func (a *auditor) result() *Result {
	vs := append([]*Violation{}, a.order...) // [] when none, not null
	slices.SortStableFunc(vs, func(x, y *Violation) int {
		return cmp.Or(cmp.Compare(rank(x.Impact), rank(y.Impact)), cmp.Compare(y.Count, x.Count), strings.Compare(x.Rule, y.Rule))
	})
	return &Result{Violations: vs, Passes: len(a.passes), Incomplete: len(a.incomplete), Frames: a.frameCount,
		Skipped: a.skipped, LastSnapshot: a.snap, LastElement: a.elem}
}
