package dom

import (
	"context"
	_ "embed"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

var (
	//go:embed js/input-overlays.js
	inputOverlaysJS string
	inputOverlaysFn = bind(inputOverlaysJS)
)

// HoverRequest is one hover step (SPEC 9.5).
type HoverRequest struct {
	// Target is a CSS selector or a ref.
	Target string
	// Duration holds the mouse there this long before the step ends, for
	// menus and tooltips that open after a delay.
	Duration time.Duration
	// CaptureResult reports the menus, tooltips and popovers the hover
	// made visible.
	CaptureResult bool
	Force         bool
	// Timeout is the actionability timeout; DefaultTimeout when zero.
	Timeout time.Duration
}

// HoverResult is what the hover did.
type HoverResult struct {
	Hovered        bool      `json:"hovered"`
	ReResolved     bool      `json:"reResolved,omitempty"`
	AutoForced     bool      `json:"autoForced,omitempty"`
	CapturedResult *Captured `json:"capturedResult,omitempty"`
	Warning        string    `json:"warning,omitempty"`
}

// Captured lists the overlay elements that became visible.
type Captured struct {
	// VisibleElements is empty, not absent, when nothing appeared: that
	// is the answer to the question asked.
	VisibleElements []Overlay `json:"visibleElements"`
	// Total counts them all when there were more than were listed.
	Total int `json:"total,omitempty"`
}

// Overlay is one element a hover made visible.
type Overlay struct {
	Tag      string `json:"tag"`
	Role     string `json:"role,omitempty"`
	Selector string `json:"selector"`
	Ref      string `json:"ref,omitempty"`
	Text     string `json:"text,omitempty"`
}

// Hover waits for the target to be visible, moves the mouse to the centre
// of its box with a CDP mouseMoved (so :hover, mouseover and mouseenter
// all happen), and holds it there for Duration. With CaptureResult it
// compares the visible overlay-type elements before and after (after two
// more frames); a tooltip that opens on a timer needs a Duration at least
// that long.
func Hover(ctx context.Context, p *page.Page, req HoverRequest) (*HoverResult, error) {
	target := ParseTarget(req.Target)
	el, err := WaitActionable(ctx, p, ActionRequest{Target: target, Action: ActionHover, Force: req.Force, Timeout: req.Timeout})
	if err != nil {
		return nil, err
	}
	defer release(ctx, p, el)
	if el.Point == nil {
		return nil, &ActionabilityError{Target: target, Action: ActionHover, Reason: &NotVisibleError{Detail: "no box to hover"}}
	}
	res := &HoverResult{ReResolved: el.ReResolved, AutoForced: el.AutoForced}
	switch {
	case el.AutoForced:
		res.Warning = el.forcedNote("hovered anyway")
	case !el.Clickable:
		res.Warning = "another element is on top of it at its centre, so that element is what the mouse is over"
	}
	if !req.CaptureResult {
		if err := hoverAt(ctx, p, *el.Point, req.Duration); err != nil {
			return nil, err
		}
		res.Hovered = true
		return res, nil
	}
	c, err := captureOverlays(ctx, p, el, func() error { return hoverAt(ctx, p, *el.Point, req.Duration) })
	if err != nil {
		return nil, err
	}
	res.Hovered, res.CapturedResult = true, c
	return res, nil
}

// hoverAt moves the mouse to pt and holds it there for d.
func hoverAt(ctx context.Context, p *page.Page, pt Point, d time.Duration) error {
	if err := mouseMove(ctx, p, pt, "none", 0); err != nil {
		return err
	}
	return sleep(ctx, d)
}

// captureOverlays records the visible overlays, runs act, and reports the
// ones that appeared. The page's record is dropped even when act fails.
func captureOverlays(ctx context.Context, p *page.Page, el *Element, act func() error) (*Captured, error) {
	rec := &Element{token: page.Token()}
	if err := p.CallJS(ctx, inputOverlaysFn, nil, overlaysArg{Phase: "before", Token: rec.token, Target: el.token}); err != nil {
		return nil, err
	}
	if err := act(); err != nil {
		release(ctx, p, rec)
		return nil, err
	}
	var c Captured
	if err := p.CallJS(ctx, inputOverlaysFn, &c, overlaysArg{Phase: "after", Token: rec.token, Target: el.token}); err != nil {
		release(ctx, p, rec)
		return nil, err
	}
	if c.VisibleElements == nil {
		c.VisibleElements = []Overlay{}
	}
	if c.Total <= len(c.VisibleElements) {
		c.Total = 0
	}
	return &c, nil
}

type overlaysArg struct {
	Phase  string `json:"phase"`
	Token  string `json:"token"`
	Target string `json:"target,omitempty"`
}

// mouseMove moves the mouse to pt with button held as buttons says
// (button "none" and 0 for a plain move).
func mouseMove(ctx context.Context, p *page.Page, pt Point, button string, buttons int) error {
	return p.S.Call(ctx, "Input.dispatchMouseEvent", mouseEvent{Type: "mouseMoved", X: pt.X, Y: pt.Y, Button: button, Buttons: buttons}, nil)
}
