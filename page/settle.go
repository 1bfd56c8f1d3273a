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
}

// ArmSettle starts counting the DOM changes and scrolls of the current
// frame's document, before an action; AwaitQuiet stops it.
func ArmSettle(ctx context.Context, p *Page) error {
	return p.CallJS(ctx, settleJS, nil, map[string]any{"op": "arm"})
}

// AwaitQuiet waits until the DOM has not changed for window, at most
// max: counted from the last change or, with fresh, from now. Without
// fresh it first lets the page render a frame, and answers then when
// nothing changed since ArmSettle.
func AwaitQuiet(ctx context.Context, p *Page, window, max time.Duration, fresh bool) (Quiet, error) {
	var q Quiet
	err := p.CallJS(ctx, settleJS, &q, map[string]any{
		"op": "quiet", "window": window.Milliseconds(), "max": max.Milliseconds(), "fresh": fresh,
	})
	return q, err
}
