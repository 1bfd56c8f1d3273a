package page

import (
	"context"
	_ "embed"
	"time"
)

//go:embed js/settle.js
var settleJS string

// Quiet is the result of a wait for the DOM to stop changing.
type Quiet struct {
	// Moved: the DOM changed since ArmSettle, or this is a new document.
	Moved bool `json:"moved"`
	// Settled: the quiet window was reached before the time ran out.
	Settled bool `json:"settled"`
	// NewDocument: the document was replaced since ArmSettle.
	NewDocument bool `json:"newDocument"`
	// Scrolled: the page or an element in it scrolled since ArmSettle.
	Scrolled bool `json:"scrolled"`
	// Seen is when, on the document's clock (SettleClock), anything last
	// changed or scrolled since ArmSettle, a style or an identical
	// rebuild too; 0 if nothing did.
	Seen float64 `json:"seen"`
}

// SettleClock reads the clock of the document ArmSettle watches
// (performance.now(), in the helper world, where the page cannot
// replace it).
func SettleClock(ctx context.Context, p *Page) (float64, error) {
	var now float64
	err := p.CallJS(ctx, settleJS, &now, map[string]any{"op": "now"})
	return now, err
}

// ArmSettle starts counting the DOM changes and scrolls of the current
// frame's document, before an action; AwaitQuiet stops it. call names
// the call the action is part of: what its actions add to the page is
// gathered for its report (see js/settle.js).
func ArmSettle(ctx context.Context, p *Page, call string) error {
	return p.CallJS(ctx, settleJS, nil, map[string]any{"op": "arm", "call": call})
}

// QuietStart says where AwaitQuiet's wait starts.
type QuietStart int

const (
	// AfterFrame lets the page render a frame after the action first, and
	// answers then when nothing changed since ArmSettle.
	AfterFrame QuietStart = iota
	// Rendered is AfterFrame for an action that already waited for the
	// page to render a frame after it: it looks at once.
	Rendered
	// Fresh counts the quiet window from now, not from the last change.
	Fresh
)

// AwaitQuiet waits until the DOM has not changed for window, at most
// max: counted from the last change or, when start is Fresh, from now.
func AwaitQuiet(ctx context.Context, p *Page, window, max time.Duration, start QuietStart) (Quiet, error) {
	var q Quiet
	err := p.CallJS(ctx, settleJS, &q, map[string]any{
		"op": "quiet", "window": window.Milliseconds(), "max": max.Milliseconds(),
		"fresh": start == Fresh, "rendered": start == Rendered,
	})
	return q, err
}
