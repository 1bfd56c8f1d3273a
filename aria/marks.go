package aria

import (
	"context"
	"fmt"

	"github.com/cdpskill/cdpskill/aria/js"
	"github.com/cdpskill/cdpskill/page"
)

// Region is a part of the tab's viewport, in CSS pixels.
type Region struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Mark is an interactive element an annotated screenshot boxes: its ref,
// what it is, and the part of its box that shows.
type Mark struct {
	Ref  string `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name"`
	Region
}

// MarksOptions ask for the marks of a captured region.
type MarksOptions struct {
	// Clip is the captured part of the tab.
	Clip Region `json:"clip"`
	// SnapshotFloor and ElementFloor are the tab's ref counters (see
	// Options).
	SnapshotFloor int `json:"snapshotFloor,omitempty"`
	ElementFloor  int `json:"elementFloor,omitempty"`
}

// Marks are the interactive elements in a region, in reading order, with
// the refs the report's snapshots give them (js/marks.js, js/boxes.js),
// found in one evaluation that leaves the page's DOM as it was: nothing
// is drawn in the page. The current frame's elements are the ones marked,
// as its snapshots are the agent's. The report finds those of the screen
// in its own walk (ReportOptions.Marks).
type Marks struct {
	Marks        []Mark `json:"marks"`
	LastSnapshot int    `json:"lastSnapshot"`
	LastElement  int    `json:"lastElement"`
}

// TakeMarks finds the marks of opts.Clip.
func TakeMarks(ctx context.Context, p *page.Page, opts MarksOptions) (*Marks, error) {
	// The page speaks in its frame's viewport; the tab's is the image's.
	dx, dy, err := p.FrameOffset(ctx, false)
	if err != nil {
		return nil, fmt.Errorf("aria: marks: %w", err)
	}
	opts.Clip.X, opts.Clip.Y = opts.Clip.X-dx, opts.Clip.Y-dy
	page.ExposeClickHandlers(ctx, p)
	var m Marks
	if err := p.CallJS(ctx, js.Marks(), &m, opts); err != nil {
		return nil, fmt.Errorf("aria: marks: %w", err)
	}
	moveMarks(m.Marks, dx, dy)
	return &m, nil
}

// moveMarks moves marks the page gave in its frame's viewport into the
// tab's, the frame's being at dx, dy.
func moveMarks(marks []Mark, dx, dy float64) {
	for i := range marks {
		marks[i].X += dx
		marks[i].Y += dy
	}
}
