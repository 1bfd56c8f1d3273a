// Package aria builds the accessibility snapshot agents read (SPEC 7): a
// YAML-like tree of roles, names and states, with refs on the elements an
// agent can act on. The walk runs inside the page (js/snapshot.js) in one
// call; refs live in the page under the contract package dom resolves.
package aria

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/cdpskill/cdpskill/page"
)

//go:embed js/snapshot.js
var snapshotJS string

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
// the defaults, which js/snapshot.js applies.
type Options struct {
	// Root is a CSS selector, or role=<role> optionally followed by a
	// quoted name ("role=navigation \"Main Menu\""). Empty auto-scopes to
	// main when the page has one (SPEC 7.4).
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
	// Internal marks a snapshot taken for cdpskill's own use (diff,
	// search): it hands out refs but does not start a new snapshot number.
	Internal bool `json:"internal,omitempty"`
}

// Validate checks the options without touching Chrome, so a runner can
// reject a bad step before it runs anything.
func (o Options) Validate() error {
	switch o.Detail {
	case "", DetailFull, DetailInteractive, DetailSummary:
	default:
		return &OptionError{Field: "detail", Value: o.Detail, Reason: `must be "full", "interactive" or "summary"`}
	}
	switch o.Mode {
	case "", ModeAI, ModePlain:
	default:
		return &OptionError{Field: "mode", Value: o.Mode, Reason: `must be "ai" or "plain"`}
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"maxDepth", o.MaxDepth}, {"maxElements", o.MaxElements}, {"maxNameLength", o.MaxNameLength}} {
		if f.v < 0 {
			return &OptionError{Field: f.name, Value: fmt.Sprint(f.v), Reason: "must not be negative"}
		}
	}
	return nil
}

// Result is one snapshot.
type Result struct {
	YAML string `json:"yaml"`
	// SnapshotID is "s<N>", the namespace of the refs this snapshot
	// created; empty in plain mode.
	SnapshotID string `json:"snapshotId"`
	// Refs counts the elements shown with a ref.
	Refs      int  `json:"refCount"`
	Truncated bool `json:"truncated,omitempty"`
}

// jsResult is what js/snapshot.js returns: a Result or an error report.
type jsResult struct {
	Result
	Error   string `json:"error"`
	Message string `json:"message"`
}

// Snapshot builds the snapshot of p's current document.
func Snapshot(ctx context.Context, p *page.Page, opts Options) (*Result, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	var res jsResult
	if err := p.CallJS(ctx, snapshotJS, &res, opts); err != nil {
		return nil, fmt.Errorf("aria: snapshot: %w", err)
	}
	switch res.Error {
	case "":
		return &res.Result, nil
	case "invalidSelector":
		return nil, &InvalidSelectorError{Selector: opts.Root, Reason: res.Message}
	case "notFound":
		return nil, &RootNotFoundError{Root: opts.Root}
	default:
		return nil, fmt.Errorf("aria: snapshot: %s: %s", res.Error, res.Message)
	}
}
