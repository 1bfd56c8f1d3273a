package query

import (
	"context"
	"fmt"
	"math"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/page"
)

// Point is a position in viewport pixels, rounded.
type Point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// RefBox is getBox's answer for one ref (SPEC 11.8): the box and its
// centre, or Error "not found", "stale" (with Message) or "hidden" (with
// the Box it has).
type RefBox struct {
	*Rect
	Error   string    `json:"error,omitempty"`
	Message string    `json:"message,omitempty"`
	Box     *page.Box `json:"box,omitempty"`
}

// Rect is a visible element's box in viewport pixels and its centre.
type Rect struct {
	page.Box
	Center Point `json:"center"`
}

// CheckRefs rejects anything that is not a ref, before anything runs.
func CheckRefs(refs []string) error {
	if len(refs) == 0 {
		return fmt.Errorf("give at least one ref")
	}
	for _, r := range refs {
		if !dom.IsRef(r) {
			return fmt.Errorf("%q is not a ref such as s1e4 (getBox takes refs from a snapshot or elementsAt; for a CSS selector use query with \"metadata\": true)", r)
		}
	}
	return nil
}

// GetBox reports the box of each ref, keyed by ref. A ref that is unknown,
// stale or hidden is reported in its entry, not as an error.
func GetBox(ctx context.Context, p *page.Page, refs []string) (map[string]RefBox, error) {
	if err := CheckRefs(refs); err != nil {
		return nil, err
	}
	var out struct {
		Boxes map[string]RefBox `json:"boxes"`
	}
	if err := call(ctx, p, getBoxFn(), "", refs, &out); err != nil {
		return nil, err
	}
	dx, dy, err := p.FrameOffset(ctx, false)
	if err != nil {
		return nil, err
	}
	for ref, b := range out.Boxes {
		if b.Rect != nil {
			shift(&b.Rect.Box, dx, dy)
			b.Rect.Center.X += int(math.Round(dx))
			b.Rect.Center.Y += int(math.Round(dy))
		}
		if b.Box != nil {
			shift(b.Box, dx, dy)
		}
		out.Boxes[ref] = b
	}
	return out.Boxes, nil
}

// shift moves a box reported in the current frame's viewport by the
// frame's offset in the tab's: coordinates the agent sees and gives are
// the tab's, as in its screenshots.
func shift(b *page.Box, dx, dy float64) {
	b.X += int(math.Round(dx))
	b.Y += int(math.Round(dy))
}

// Element is an element found at or near a point (SPEC 11.9). Existing
// says its ref came from an earlier snapshot or call; Distance, from the
// query point to its centre, is set by ElementsNear.
type Element struct {
	Ref       string   `json:"ref"`
	Existing  bool     `json:"existing"`
	Tag       string   `json:"tag"`
	Selector  string   `json:"selector"`
	Clickable bool     `json:"clickable"`
	Role      string   `json:"role,omitempty"`
	Name      string   `json:"name,omitempty"`
	Distance  *int     `json:"distance,omitempty"`
	Box       page.Box `json:"box"`
}

// Counters are the page's ref counters after a call that may mint refs,
// for the tab registry: a new document starts above them.
type Counters struct {
	Snapshot int  `json:"snapshot"`
	Element  int  `json:"element"`
	Minted   bool `json:"minted"`
}

// PointRequest asks for the elements at Points, or near one.
type PointRequest struct {
	Points []FloatPoint
	// Floors are the tab's ref counters as last recorded: refs minted on
	// a document that has none yet start above them.
	Floors Counters
}

// FloatPoint is a point as the agent gives it.
type FloatPoint struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// CheckPoint rejects coordinates that cannot be in the viewport.
func CheckPoint(pt FloatPoint) error {
	if pt.X < 0 || pt.Y < 0 || math.IsInf(pt.X, 0) || math.IsInf(pt.Y, 0) {
		return fmt.Errorf("(%v, %v) is outside the viewport: x and y are viewport pixels, 0 or more", pt.X, pt.Y)
	}
	return nil
}

// hit is one answer of js/elements_at.js.
type hit struct {
	Element
	Error string `json:"error"`
}

type hits struct {
	Hits     []hit    `json:"hits"`
	Counters Counters `json:"counters"`
}

// Batch is what ElementsAt reports: Count points had an element.
type Batch struct {
	Count    int          `json:"count"`
	Elements []BatchEntry `json:"elements"`
	Counters Counters     `json:"-"`
}

// BatchEntry is the element at one queried point, or Error.
type BatchEntry struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	*Element
	Error string `json:"error,omitempty"`
}

// ElementsAt finds the topmost element at each point, minting refs for
// those that have none.
func ElementsAt(ctx context.Context, p *page.Page, req PointRequest) (*Batch, error) {
	for _, pt := range req.Points {
		if err := CheckPoint(pt); err != nil {
			return nil, err
		}
	}
	page.ExposeClickHandlers(ctx, p) // clickable counts script handlers
	dx, dy, err := p.FrameOffset(ctx, false)
	if err != nil {
		return nil, err
	}
	local := make([]FloatPoint, len(req.Points))
	for i, pt := range req.Points {
		local[i] = FloatPoint{pt.X - dx, pt.Y - dy}
	}
	var res hits
	arg := map[string]any{"points": local, "floors": req.Floors}
	if err := call(ctx, p, elementsAtFn(), "", arg, &res); err != nil {
		return nil, err
	}
	out := &Batch{Elements: make([]BatchEntry, len(res.Hits)), Counters: res.Counters}
	for i, h := range res.Hits {
		e := BatchEntry{X: req.Points[i].X, Y: req.Points[i].Y, Error: h.Error}
		if h.Error == "" {
			shift(&h.Element.Box, dx, dy)
			e.Element = &h.Element
			out.Count++
		}
		out.Elements[i] = e
	}
	return out, nil
}

// ElementAt is ElementsAt for one point: no element there is an
// ElementNotFoundError.
func ElementAt(ctx context.Context, p *page.Page, pt FloatPoint, floors Counters) (*Element, Counters, error) {
	b, err := ElementsAt(ctx, p, PointRequest{Points: []FloatPoint{pt}, Floors: floors})
	if err != nil {
		return nil, Counters{}, err
	}
	if b.Elements[0].Element == nil {
		return nil, b.Counters, &NoElementAtError{X: pt.X, Y: pt.Y}
	}
	return b.Elements[0].Element, b.Counters, nil
}

// NearRequest is elementsAt's nearby search.
type NearRequest struct {
	X, Y float64
	// Radius in pixels (default 50); Limit caps the elements (default 20).
	Radius float64
	Limit  int
	Floors Counters
}

// Nearby is what ElementsNear reports, closest first.
type Nearby struct {
	Center   FloatPoint `json:"center"`
	Radius   float64    `json:"radius"`
	Count    int        `json:"count"`
	Elements []Element  `json:"elements"`
	Counters Counters   `json:"-"`
}

// ElementsNear finds the visible elements whose centre lies within the
// radius of the point, minting refs for those that have none.
func ElementsNear(ctx context.Context, p *page.Page, req NearRequest) (*Nearby, error) {
	if err := CheckPoint(FloatPoint{req.X, req.Y}); err != nil {
		return nil, err
	}
	if req.Radius < 0 || req.Limit < 0 {
		return nil, fmt.Errorf("radius and limit must be positive")
	}
	if req.Radius == 0 {
		req.Radius = 50
	}
	if req.Limit == 0 {
		req.Limit = 20
	}
	page.ExposeClickHandlers(ctx, p)
	dx, dy, err := p.FrameOffset(ctx, false)
	if err != nil {
		return nil, err
	}
	near := map[string]any{"x": req.X - dx, "y": req.Y - dy, "radius": req.Radius, "limit": req.Limit}
	var res hits
	if err := call(ctx, p, elementsAtFn(), "", map[string]any{"near": near, "floors": req.Floors}, &res); err != nil {
		return nil, err
	}
	out := &Nearby{Center: FloatPoint{req.X, req.Y}, Radius: req.Radius, Elements: make([]Element, len(res.Hits)), Counters: res.Counters}
	for i, h := range res.Hits {
		shift(&h.Element.Box, dx, dy)
		out.Elements[i] = h.Element
	}
	out.Count = len(out.Elements)
	return out, nil
}
