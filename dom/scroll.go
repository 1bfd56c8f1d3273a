package dom

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

var (
	//go:embed js/input-scroll.js
	inputScrollJS string
	inputScrollFn = bind(inputScrollJS)
)

// ScrollStep is how far "up" and "down" scroll.
const ScrollStep = 300

// ScrollRequest is one scroll step (SPEC 9.7); set exactly one of To,
// Target, a delta, or X and Y.
type ScrollRequest struct {
	// To is "top", "bottom", "up" or "down".
	To string
	// Target is a CSS selector or a ref to scroll to the viewport centre.
	Target string
	// DeltaX, DeltaY scroll by that many pixels.
	DeltaX, DeltaY float64
	// X, Y scroll to that position.
	X, Y *float64
	// Timeout is how long Target may take to appear; DefaultTimeout when
	// zero.
	Timeout time.Duration
}

// ScrollResult is the scroll position after the step.
type ScrollResult struct {
	ScrollX float64 `json:"scrollX"`
	ScrollY float64 `json:"scrollY"`
	// Element names the container scrolled, when the document itself
	// could not scroll; the position is that container's.
	Element string `json:"element,omitempty"`
	// Scrolled: the target was not in the page until a container was
	// scrolled to it (a virtualized grid's row); which one, how far.
	Scrolled *Scrolled `json:"scrolled,omitempty"`
	Found
}

// Scroll scrolls the page, or its main scrolling container when the
// document cannot scroll, and reports the position. A target element is
// waited for (it need not be visible, only attached), looked for through
// the page's scrolling containers when it is nowhere (a virtualized
// grid's row), and centred; the position is then its container's.
func Scroll(ctx context.Context, p *page.Page, req ScrollRequest) (*ScrollResult, error) {
	arg := map[string]any{}
	switch req.To {
	case "top", "bottom":
		arg["mode"] = req.To
	case "up", "down":
		dy := float64(ScrollStep)
		if req.To == "up" {
			dy = -dy
		}
		arg["mode"], arg["dx"], arg["dy"] = "by", 0, dy
	case "":
		switch {
		case req.Target != "":
			return scrollToElement(ctx, p, req)
		case req.X != nil || req.Y != nil:
			arg["mode"], arg["x"], arg["y"] = "to", req.X, req.Y // null keeps that axis
		default:
			arg["mode"], arg["dx"], arg["dy"] = "by", req.DeltaX, req.DeltaY
		}
	default:
		return nil, &invalid.Option{Field: "scroll", Reason: fmt.Sprintf("unknown direction %q (top, bottom, up, down)", req.To)}
	}
	return runScroll(ctx, p, arg)
}

func scrollToElement(ctx context.Context, p *page.Page, req ScrollRequest) (*ScrollResult, error) {
	target := ParseTarget(req.Target)
	res, replaced, err := reResolving(req.Timeout, target, ActionScroll, func(timeout time.Duration, again bool) (*ScrollResult, error) {
		el, err := WaitActionable(ctx, p, ActionRequest{Target: target, Action: ActionScroll, Force: true, Timeout: timeout,
			Describe: again, AgentTimeout: req.Timeout > 0, ScrollSearch: true})
		if err != nil {
			return nil, err
		}
		defer release(ctx, p, el)
		res, err := runScroll(ctx, p, map[string]any{"mode": "element", "token": el.token})
		if res != nil {
			res.Found, res.Scrolled = el.Found, el.Scrolled
		}
		return res, err
	})
	if res != nil {
		res.or(replaced)
	}
	return res, err
}

func runScroll(ctx context.Context, p *page.Page, arg map[string]any) (*ScrollResult, error) {
	var r struct {
		ScrollResult
		Detached bool `json:"detached"`
	}
	if err := p.CallJS(ctx, inputScrollFn(), &r, arg); err != nil {
		return nil, err
	}
	if r.Detached {
		return nil, errReplaced
	}
	return &r.ScrollResult, nil
}
