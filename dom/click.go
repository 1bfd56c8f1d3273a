package dom

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/page"
)

// Click methods, as reported in ClickResult.Method (SPEC 9.1).
const (
	MethodCDP         = "cdp"          // real mouse events that reached the target
	MethodJSClick     = "jsClick"      // element.click(), as asked
	MethodJSClickAuto = "jsClick-auto" // element.click(), because CDP could not reach the target
)

// ClickRequest is one click (SPEC 9.1).
type ClickRequest struct {
	// Target is a CSS selector or a ref. Empty means a click at X, Y in
	// the viewport; with a target, X and Y are an offset from the top-left
	// of the element's box instead of its centre.
	Target string
	X, Y   *float64
	// Force skips the actionability checks.
	Force bool
	// Button is left (default), right, middle, back or forward.
	Button string
	// ClickCount presses the button that many times (default 1);
	// DoubleClick is ClickCount 2.
	ClickCount  int
	DoubleClick bool
	// JSClick uses element.click() only; NativeOnly forbids falling back
	// to it.
	JSClick    bool
	NativeOnly bool
	// Timeout is the actionability timeout; DefaultTimeout when zero.
	Timeout time.Duration
}

// ClickResult is what the click did.
type ClickResult struct {
	Clicked bool   `json:"clicked"`
	Method  string `json:"method"`
	// ReResolved: the ref's element had been replaced and was found again.
	ReResolved bool `json:"reResolved,omitempty"`
	// AutoForced: the element never became actionable and was clicked anyway.
	AutoForced bool `json:"autoForced,omitempty"`
	// CDPAttempted: mouse events were sent before the JavaScript fallback.
	CDPAttempted bool `json:"cdpAttempted,omitempty"`
	// TargetReceived: the mouse events reached the target or a descendant.
	TargetReceived bool `json:"targetReceived,omitempty"`
	// Warning says what the agent should know about a forced or missed click.
	Warning string `json:"warning,omitempty"`
}

// Click waits for the target to be actionable and clicks it with CDP mouse
// events at its centre, verifying with a listener installed beforehand
// that the events reached it; when they did not, it falls back to
// element.click() unless NativeOnly. Navigation and new tabs are the
// caller's to detect.
func Click(ctx context.Context, p *page.Page, req ClickRequest) (*ClickResult, error) {
	button, count, err := clickInput(req)
	if err != nil {
		return nil, err
	}
	if req.Target == "" {
		if err := mouseClick(ctx, p.S, Point{*req.X, *req.Y}, button, count); err != nil {
			return nil, err
		}
		return &ClickResult{Clicked: true, Method: MethodCDP}, nil
	}
	ar := ActionRequest{Target: ParseTarget(req.Target), Action: ActionClick, Force: req.Force, Timeout: req.Timeout, probe: !req.JSClick}
	if req.X != nil {
		ar.Offset = &Point{*req.X, *req.Y}
	}
	el, err := WaitActionable(ctx, p, ar)
	if err != nil {
		return nil, err
	}
	defer release(ctx, p, el)
	c := clicker{p: p, el: el, target: ar.Target, button: button, count: count}
	return c.click(ctx, req)
}

// clickInput validates the button and coordinates and derives the count.
func clickInput(req ClickRequest) (button string, count int, err error) {
	button = req.Button
	if button == "" {
		button = "left"
	}
	if _, ok := mouseButtons[button]; !ok {
		return "", 0, &InvalidArgumentError{Field: "button", Message: fmt.Sprintf("unknown mouse button %q (left, right, middle, back, forward)", button)}
	}
	if (req.X == nil) != (req.Y == nil) {
		return "", 0, &InvalidArgumentError{Field: "x, y", Message: "give both coordinates or neither"}
	}
	if req.Target == "" && req.X == nil {
		return "", 0, &InvalidArgumentError{Field: "target", Message: "give a selector, a ref, or x and y"}
	}
	count = max(req.ClickCount, 1)
	if req.DoubleClick {
		count = 2
	}
	return button, count, nil
}

// forcedPastPointer: the element was auto-forced for a reason that means
// real mouse events would go to some other element.
func forcedPastPointer(el *Element) bool {
	var covered *CoveredError
	var none *PointerEventsNoneError
	var hidden *NotVisibleError
	return el.AutoForced && (errors.As(el.Forced, &covered) || errors.As(el.Forced, &none) || errors.As(el.Forced, &hidden))
}

// clicker holds one click's element between its page calls.
type clicker struct {
	p      *page.Page
	el     *Element
	target Target
	button string
	count  int
}

// click picks the method: element.click() when asked, or when CDP could
// not reach the element anyway; otherwise CDP mouse events, verified.
func (c clicker) click(ctx context.Context, req ClickRequest) (*ClickResult, error) {
	res := &ClickResult{ReResolved: c.el.ReResolved, AutoForced: c.el.AutoForced}
	// element.click() can only press the left button.
	jsAllowed := !req.NativeOnly && c.button == "left"
	switch {
	case req.JSClick:
		return c.js(ctx, res, MethodJSClick)
	case jsAllowed && c.el.Point == nil:
		res.Warning = "the element has no box to click; clicked with element.click()"
		if c.el.AutoForced {
			res.Warning = c.el.forcedNote("clicked with element.click()")
		}
		return c.js(ctx, res, MethodJSClickAuto)
	case jsAllowed && forcedPastPointer(c.el):
		res.Warning = c.el.forcedNote("clicked with element.click(), since mouse events would not reach it")
		return c.js(ctx, res, MethodJSClickAuto)
	case c.el.Point == nil:
		return nil, &ActionabilityError{Target: c.target, Action: ActionClick, Reason: &NotVisibleError{Detail: "no box to click"}}
	}
	if c.el.AutoForced {
		res.Warning = c.el.forcedNote("clicked anyway")
	}
	return c.native(ctx, res, jsAllowed)
}

// native sends the mouse events, reads the probe, and falls back to
// element.click() if they missed and that is allowed.
func (c clicker) native(ctx context.Context, res *ClickResult, jsAllowed bool) (*ClickResult, error) {
	if err := mouseClick(ctx, c.p.S, *c.el.Point, c.button, c.count); err != nil {
		return nil, err
	}
	received, err := c.verify(ctx)
	if err != nil {
		return nil, err
	}
	if received || !jsAllowed {
		res.Clicked, res.Method, res.TargetReceived = true, MethodCDP, received
		if !received {
			res.Warning = "the mouse events did not reach the target (another element is on top of it)"
		}
		return res, nil
	}
	res.CDPAttempted = true
	return c.js(ctx, res, MethodJSClickAuto)
}

// verify reads the probe. A page that navigated away took the click.
func (c clicker) verify(ctx context.Context) (bool, error) {
	var r struct {
		Received bool `json:"received"`
	}
	err := c.p.CallJS(ctx, verifyClickFn, &r, c.el.token)
	if cdp.IsContextDestroyed(err) {
		return true, nil
	}
	return r.Received, err
}

// js clicks with element.click() and completes res.
func (c clicker) js(ctx context.Context, res *ClickResult, method string) (*ClickResult, error) {
	var r struct {
		Detached bool `json:"detached"`
	}
	err := c.p.CallJS(ctx, jsClickFn, &r, map[string]any{"token": c.el.token, "count": c.count})
	if err != nil && !cdp.IsContextDestroyed(err) {
		return nil, err
	}
	if r.Detached {
		return nil, &ActionabilityError{Target: c.target, Action: ActionClick, Reason: &DetachedError{}}
	}
	res.Clicked, res.Method = true, method
	return res, nil
}
