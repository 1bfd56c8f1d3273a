// Package aria builds the accessibility snapshot agents read (SPEC 7): a
// YAML-like tree of roles, names and states, with refs on the elements an
// agent can act on; it also searches that tree and queries elements by
// role. The work runs inside the page (package aria/js), one call per
// operation; refs live in the page under the contract package dom
// resolves.
package aria

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/cdpskill/cdpskill/aria/js"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// Detail levels (SPEC 7.3).
const (
	DetailFull        = "full"
	DetailInteractive = "interactive"
	DetailSummary     = "summary"
)

// Modes: ModeAI annotates interactive elements with refs; ModePlain
// renders the same tree without refs and leaves the ref counters alone.
const (
	ModeAI    = "ai"
	ModePlain = "plain"
)

// Options are the snapshot step's parameters (SPEC 11.1). Zero values mean
// the defaults, which the page code applies.
type Options struct {
	// Root is a CSS selector, or role=<role> optionally followed by a
	// quoted name ("role=navigation \"Main Menu\""). Empty auto-scopes to
	// main when the page has one (SPEC 7.4), else to the app beside a long
	// sidebar when there is one (js/scope.js).
	Root string `json:"root,omitempty"`
	// Detail is full (default), interactive or summary.
	Detail string `json:"detail,omitempty"`
	// Mode is ai (default) or plain.
	Mode string `json:"mode,omitempty"`
	// MaxDepth caps the depth of the output tree (default 50); wrappers
	// that are flattened away do not count.
	MaxDepth int `json:"maxDepth,omitempty"`
	// MaxElements caps the rendered DOM elements walked (default
	// unlimited); reaching it sets Result.Truncated.
	MaxElements int `json:"maxElements,omitempty"`
	// MaxNameLength cuts accessible names and link URLs, with "…"
	// (default 150).
	MaxNameLength int `json:"maxNameLength,omitempty"`
	// IncludeText keeps text lines and inline text (default true).
	IncludeText *bool `json:"includeText,omitempty"`
	// ViewportOnly keeps elements intersecting the viewport and the
	// ancestors that give them structure.
	ViewportOnly bool `json:"viewportOnly,omitempty"`
	// PierceShadow walks open shadow roots (nested ones too) in place of
	// their hosts' light children, and slots' assigned nodes (SPEC 7.7):
	// default true, since a web component's controls are the page a person
	// sees; false shows the light DOM alone.
	PierceShadow *bool `json:"pierceShadow,omitempty"`
	// IncludeFrames shows frames as document nodes with their content and
	// refs (SPEC 7.8), cross-origin ones too, marked [cross-origin]: they
	// are snapshotted in their own context and spliced in (frames.go).
	// The frames of a <frameset> are always included: they are all such a
	// page has.
	IncludeFrames bool `json:"includeFrames,omitempty"`
	// Since is a snapshot id ("s3"): when the page has not changed since
	// that snapshot, Result.Unchanged is set and nothing is rendered
	// (SPEC 7.5).
	Since string `json:"since,omitempty"`
	// Internal marks a snapshot taken for cdpskill's own use (diff,
	// search): it hands out refs but does not start a new snapshot number.
	Internal bool `json:"internal,omitempty"`

	// InlineLimit is handled by the runner (SPEC 7.6). PreserveRefs false
	// forgets the refs of earlier snapshots before this one hands out new
	// numbers (SPEC 7.9); by default refs accumulate.
	InlineLimit  int   `json:"inlineLimit,omitempty"`
	PreserveRefs *bool `json:"preserveRefs,omitempty"`

	// SnapshotFloor and ElementFloor are the tab's ref counters as the
	// runner last saw them: a fresh document numbers its refs above them.
	SnapshotFloor int `json:"-"`
	ElementFloor  int `json:"-"`
	// RefMapAbove asks for Result.RefMap when the snapshot shows more refs
	// than this (0: never).
	RefMapAbove int `json:"-"`
	// ViewportAbove asks for Result.Viewport when the YAML is longer than
	// this (0: never).
	ViewportAbove int `json:"-"`
}

var snapshotIDRE = regexp.MustCompile(`^s[0-9]+$`)

// Validate checks the options without touching Chrome, so a runner can
// reject a bad step before it runs anything.
func (o Options) Validate() error {
	switch o.Detail {
	case "", DetailFull, DetailInteractive, DetailSummary:
	default:
		return &invalid.Option{Field: "detail", Value: o.Detail, Reason: `must be "full", "interactive" or "summary"`}
	}
	switch o.Mode {
	case "", ModeAI, ModePlain:
	default:
		return &invalid.Option{Field: "mode", Value: o.Mode, Reason: `must be "ai" or "plain"`}
	}
	if o.Since != "" && !snapshotIDRE.MatchString(o.Since) {
		return &invalid.Option{Field: "since", Value: o.Since, Reason: `must be a snapshot id such as "s3"`}
	}
	return nonNegative(map[string]int{"maxDepth": o.MaxDepth, "maxElements": o.MaxElements,
		"maxNameLength": o.MaxNameLength, "inlineLimit": o.InlineLimit})
}

// nonNegative rejects the first negative value, in name order.
func nonNegative(fields map[string]int) error {
	for _, name := range sortedKeys(fields) {
		if v := fields[name]; v < 0 {
			return &invalid.Option{Field: name, Value: fmt.Sprint(v), Reason: "must not be negative"}
		}
	}
	return nil
}

// Result is one snapshot.
type Result struct {
	YAML string `json:"yaml"`
	// SnapshotID is "s<N>", the namespace of the refs this snapshot
	// created; empty in plain mode. With Unchanged, it is Options.Since.
	SnapshotID string `json:"snapshotId"`
	// Refs counts the elements shown with a ref.
	Refs      int  `json:"refCount"`
	Truncated bool `json:"truncated,omitempty"`
	// Unchanged: the page is as it was at Options.Since; YAML is empty.
	Unchanged bool `json:"unchanged,omitempty"`

	// LastSnapshot and LastElement are the page's ref counters after the
	// call, for the tab registry.
	LastSnapshot int `json:"-"`
	LastElement  int `json:"-"`
	// RefMap is the JSON of {ref: RefMeta} for the refs shown, when there
	// are more than Options.RefMapAbove: a refs map file's content.
	RefMap json.RawMessage `json:"-"`
	// Previous is the YAML of the snapshot Options.Since named, when the
	// page changed since then and that snapshot, taken with the same
	// options, is still known to the document.
	Previous string `json:"-"`
	// onScreen is the page's answer to the part of the snapshot on
	// screen, for Viewport.
	onScreen *page.PendingJS
	p        *page.Page
	token    string
}

// Viewport is the part of the snapshot on screen, as ViewportOnly would
// show it, from the same walk; asked for by Options.ViewportAbove, and
// "" when not had (frames were spliced in, or another detail). The page
// works it out once it has handed the snapshot over, so reading it
// waits for that; the file writes a caller does first overlap it.
func (r *Result) Viewport(ctx context.Context) string {
	if r.onScreen == nil {
		return ""
	}
	var y *string
	err := r.onScreen.Wait(ctx, &y)
	if err == nil && y == nil {
		// The page lacked snapshot.js and ran this call first.
		err = r.p.CallJS(ctx, js.OnScreen(), &y, r.token)
	}
	r.onScreen = nil
	if err != nil || y == nil {
		return ""
	}
	return *y
}

// RefMeta is what the page records about a ref, for re-resolution (SPEC
// 6.3): the element's CSS selector in its own document or shadow root,
// who it is to the agent (role, name, tag, an input's type, and its place
// when the name does not tell it apart: js/refs.js), and the shadow hosts
// and frames that lead to it.
type RefMeta struct {
	Role       string   `json:"role"`
	Name       string   `json:"name"`
	Selector   string   `json:"selector"`
	Tag        string   `json:"tag,omitempty"`
	Type       string   `json:"type,omitempty"`
	Place      *string  `json:"place,omitempty"`
	ShadowPath []string `json:"shadowPath,omitempty"`
	Frame      []string `json:"frame,omitempty"`
}

// jsError is the error report every page entry point may return.
type jsError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// Snapshot builds the snapshot of p's current document. Frames the page
// may not read (cross-origin) are snapshotted on their own and shown in
// place (frames.go).
func Snapshot(ctx context.Context, p *page.Page, opts Options) (*Result, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	in := snapshotIn{Options: opts, SnapshotFloor: opts.SnapshotFloor,
		ElementFloor: opts.ElementFloor, RefMapOver: opts.RefMapAbove, ViewportOver: opts.ViewportAbove, FrameMark: frameMark}
	if in.ViewportOver > 0 {
		in.ViewLater = strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	out, onScreen, err := callSnapshot(ctx, p, in)
	if err != nil {
		return nil, err
	}
	switch out.Error {
	case "":
	case "invalidSelector":
		return nil, &invalid.Selector{Field: "snapshot root", Selector: opts.Root, Reason: out.Message}
	case "notFound":
		return nil, &RootNotFoundError{Root: opts.Root}
	default:
		return nil, fmt.Errorf("aria: snapshot: %s: %s", out.Error, out.Message)
	}
	res := out.result()
	if out.ViewLater {
		res.onScreen, res.p, res.token = onScreen, p, in.ViewLater
	} else if onScreen != nil {
		_ = onScreen.Wait(ctx, nil) // answered at once: nothing was left
	}
	if len(out.XFrames) > 0 {
		if err := addFrames(ctx, p, opts, out, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// snapshotIn is what snapshot.js takes: the options and what cdpskill
// adds to them.
type snapshotIn struct {
	Options
	SnapshotFloor int    `json:"snapshotFloor,omitempty"`
	ElementFloor  int    `json:"elementFloor,omitempty"`
	RefMapOver    int    `json:"refMapOver,omitempty"`
	ViewportOver  int    `json:"viewportOver,omitempty"`
	FrameMark     string `json:"frameMark,omitempty"`
	// ViewLater is the token under which the page keeps the part on
	// screen for onscreen.js.
	ViewLater string `json:"viewLater,omitempty"`
	// For the snapshot of a frame on its own (frames.go).
	Frame      bool  `json:"frame,omitempty"`
	FreshFrame bool  `json:"freshFrame,omitempty"`
	RefMapAll  bool  `json:"refMapAll,omitempty"`
	Origin     *xy   `json:"origin,omitempty"`
	Clip       *rect `json:"clip,omitempty"`
}

// snapshotOut is what snapshot.js returns.
type snapshotOut struct {
	Result
	jsError
	LastSnapshot int        `json:"lastSnapshot"`
	LastElement  int        `json:"lastElement"`
	RefMap       refMapText `json:"refMap"`
	Elements     int        `json:"elements"`
	XFrames      []xframe   `json:"xframes"`
	Title        string     `json:"title"`
	Previous     string     `json:"previous"`
	ViewLater    bool       `json:"viewLater"`
}

// refMapText is the refs map as snapshot.js returns it, {ref: RefMeta}
// stringified in the page: Chrome hands one string over much faster than
// the object it was made from, and Go keeps it as it is.
type refMapText string

func (t refMapText) decode() (map[string]RefMeta, error) {
	var m map[string]RefMeta
	if t == "" {
		return m, nil
	}
	err := json.Unmarshal([]byte(t), &m)
	return m, err
}

func (o *snapshotOut) result() *Result {
	res := o.Result
	res.LastSnapshot, res.LastElement, res.Previous = o.LastSnapshot, o.LastElement, o.Previous
	if o.RefMap != "" {
		res.RefMap = json.RawMessage(o.RefMap)
	}
	return &res
}

// callSnapshot runs snapshot.js and, with in.ViewLater, sends
// onscreen.js right behind it.
func callSnapshot(ctx context.Context, p *page.Page, in snapshotIn) (*snapshotOut, *page.PendingJS, error) {
	page.ExposeClickHandlers(ctx, p)
	first := p.StartJS(ctx, js.Snapshot(), in)
	var onScreen *page.PendingJS
	if in.ViewLater != "" {
		onScreen = p.StartJS(ctx, js.OnScreen(), in.ViewLater)
	}
	var out snapshotOut
	if err := first.Wait(ctx, &out); err != nil {
		return nil, nil, fmt.Errorf("aria: snapshot: %w", err)
	}
	return &out, onScreen, nil
}

// Fingerprint is a hash of p's current document that any change to its
// DOM, a field's value, its scroll position or the viewport alters (what
// Options.Since compares); the first call starts the count of DOM changes.
func Fingerprint(ctx context.Context, p *page.Page) (string, error) {
	var h string
	if err := p.CallJS(ctx, js.Fingerprint(), &h); err != nil {
		return "", fmt.Errorf("aria: fingerprint: %w", err)
	}
	return h, nil
}
