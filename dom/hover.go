package dom

import (
	"context"
	_ "embed"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
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
	Hovered bool `json:"hovered"`
	Found
	AutoForced     bool      `json:"autoForced,omitempty"`
	CapturedResult *Captured `json:"capturedResult,omitempty"`
	Note
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
// all happen), and holds it there for Duration. A target replaced before
// the mouse reached it is found again and hovered anew. With
// CaptureResult it compares the visible overlay-type elements before and
// after (after two more frames); a tooltip that opens on a timer needs a
// Duration at least that long.
func Hover(ctx context.Context, p *page.Page, req HoverRequest) (*HoverResult, error) {
	target := ParseTarget(req.Target)
	var rec *Element // the overlays seen before the first move
	res, replaced, err := reResolving(req.Timeout, target, ActionHover, func(timeout time.Duration, again bool) (*HoverResult, error) {
		el, err := WaitActionable(ctx, p, ActionRequest{Target: target, Action: ActionHover, Force: req.Force, Timeout: timeout, Describe: again, AgentTimeout: req.Timeout > 0, probe: true})
		if err != nil {
			return nil, err
		}
		defer release(ctx, p, el)
		if el.Point == nil {
			return nil, &ActionabilityError{Target: target, Action: ActionHover, Reason: &NotVisibleError{Detail: "no box to hover"}}
		}
		if req.CaptureResult && rec == nil {
			if rec, err = overlaysBefore(ctx, p, el); err != nil {
				return nil, err
			}
		}
		standIn, err := hoverOn(ctx, p, el, target, req.Duration)
		if err != nil {
			return nil, err
		}
		res := &HoverResult{Hovered: true, Found: el.Found, AutoForced: el.AutoForced, Note: Note{hoverNote(el)}}
		if standIn != nil {
			res.Found = *standIn
		}
		if rec != nil {
			res.CapturedResult, err = overlaysAfter(ctx, p, rec, el)
		}
		return res, err
	})
	if rec != nil {
		release(ctx, p, rec)
	}
	if res != nil {
		res.or(replaced)
	}
	return res, err
}

func hoverNote(el *Element) string {
	switch {
	case el.AutoForced:
		return el.forcedNote("hovered anyway")
	case !el.Clickable:
		return "another element is on top of it at its centre, so that element is what the mouse is over"
	}
	return ""
}

// hoverOn moves the mouse onto el and holds it there for d. The probe
// says where the move landed: on el, or on the element that replaced it
// (standIn, described); errReplaced when el was replaced before the mouse
// came and the move missed what stands for it now. A hover whose own
// effect re-renders the target has still hovered it.
func hoverOn(ctx context.Context, p *page.Page, el *Element, target Target, d time.Duration) (standIn *Found, err error) {
	if err := mouseMove(ctx, p, *el.Point, "none", 0); err != nil {
		return nil, err
	}
	v, err := verifyProbe(ctx, p, el, target)
	switch {
	case err != nil:
		return nil, err
	case v.Replaced:
		return nil, errReplaced
	case v.Gone:
		return nil, &ActionabilityError{Target: target, Action: ActionHover, Reason: &DetachedError{}}
	case v.ReResolved:
		standIn = &Found{ReResolved: true, Target: v.Target}
	}
	return standIn, xcontext.Sleep(ctx, d)
}

// overlaysBefore records the overlays visible before the hover, under a
// token of their own.
func overlaysBefore(ctx context.Context, p *page.Page, el *Element) (*Element, error) {
	rec := &Element{token: page.Token()}
	if err := p.CallJS(ctx, inputOverlaysFn(), nil, overlaysArg{Phase: "before", Token: rec.token, Target: el.token}); err != nil {
		release(ctx, p, rec)
		return nil, err
	}
	return rec, nil
}

// overlaysAfter reports the overlays that appeared since rec, leaving
// out el's own ancestors.
func overlaysAfter(ctx context.Context, p *page.Page, rec, el *Element) (*Captured, error) {
	var c Captured
	if err := p.CallJS(ctx, inputOverlaysFn(), &c, overlaysArg{Phase: "after", Token: rec.token, Target: el.token}); err != nil {
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
	return proto.InputDispatchMouseEvent{Type: "mouseMoved", X: pt.X, Y: pt.Y, Button: button, Buttons: buttons}.Do(ctx, p.S)
}
