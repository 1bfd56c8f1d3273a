package capture

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

//go:embed js/element_rect.js
var elementRectJS string

// ElementTarget names the element of an element screenshot.
type ElementTarget struct {
	Selector string  `json:"selector,omitempty"`
	Ref      string  `json:"ref,omitempty"`
	Padding  float64 `json:"padding,omitempty"` // CSS pixels around the box
}

// ElementError is an element screenshot whose element could not be used.
type ElementError struct {
	Target ElementTarget
	Reason string // notFound, stale, noBox
	Detail string
}

func (e *ElementError) Error() string {
	return "screenshot of an element: " + e.Detail
}

// ErrorName maps the reason to the spec's subtypes; an element without a
// box has none.
func (e *ElementError) ErrorName() string {
	switch e.Reason {
	case "notFound":
		return "ElementNotFoundError"
	case "stale":
		return "StaleElementError"
	}
	return ""
}

// ElementClip is the region an element screenshot captures: the
// element's box plus padding, in the top document's coordinates. It looks
// in p's current frame; an element in a frame is measured in the frame's
// document and moved by where the frame sits, scrolled into view.
func ElementClip(ctx context.Context, p *page.Page, t ElementTarget) (*Rect, error) {
	var res struct {
		Rect
		ScrollX float64 `json:"scrollX"`
		ScrollY float64 `json:"scrollY"`
		Error   string  `json:"error"`
		Detail  string  `json:"detail"`
	}
	if err := p.CallJS(ctx, elementRectJS, &res, t); err != nil {
		return nil, fmt.Errorf("capture: find element: %w", err)
	}
	if res.Error == "invalidSelector" {
		return nil, &invalid.Selector{Selector: t.Selector, Reason: res.Detail}
	}
	if res.Error != "" {
		return nil, &ElementError{Target: t, Reason: res.Error, Detail: res.Detail}
	}
	if p.Frame == nil {
		return &res.Rect, nil
	}
	dx, dy, err := p.FrameOffset(ctx, true)
	if err != nil {
		return nil, err
	}
	var top struct{ X, Y float64 }
	if err := p.Top().CallJS(ctx, "() => ({X: scrollX, Y: scrollY})", &top); err != nil {
		return nil, fmt.Errorf("capture: top document's scroll: %w", err)
	}
	r := res.Rect
	r.X += dx + top.X - res.ScrollX
	r.Y += dy + top.Y - res.ScrollY
	return &r, nil
}
