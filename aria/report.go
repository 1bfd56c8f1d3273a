package aria

import (
	"context"
	"fmt"

	"github.com/cdpskill/cdpskill/aria/js"
	"github.com/cdpskill/cdpskill/page"
)

// ReportOptions ask for the snapshots of a call's report.
type ReportOptions struct {
	// Viewport asks for what is on screen, Full for the whole page.
	Viewport bool `json:"viewport,omitempty"`
	Full     bool `json:"full,omitempty"`
	// Print asks for the page's fingerprint beside the viewport.
	Print bool `json:"print,omitempty"`
	// Elsewhere, the name of the call (page.ArmSettle), asks beside the
	// viewport for what the call's actions put on the page out of view.
	Elsewhere string `json:"elsewhere,omitempty"`
	// Marks asks beside the viewport for the boxes of its interactive
	// elements, for an annotated screenshot (see TakeMarks).
	Marks bool `json:"marks,omitempty"`
	// SnapshotFloor and ElementFloor are the tab's ref counters (see
	// Options).
	SnapshotFloor int `json:"snapshotFloor,omitempty"`
	ElementFloor  int `json:"elementFloor,omitempty"`
}

// Report is what a call's report shows of the page (SPEC 14): internal
// snapshots of the current document's body that keep every earlier ref
// and start no new snapshot number.
type Report struct {
	// Viewport is what is on screen at full detail, for the diff: the
	// elements without refs carry [uid=N] there.
	Viewport string `json:"viewport"`
	// Lean is the same screen as the agent reads it inline: interactive
	// elements, headings, messages and notices (render.js, lean).
	Lean string `json:"lean"`
	// Full is the whole page.
	Full string `json:"full"`
	// Doc tells this document from the next one its frame loads (its
	// time origin).
	Doc float64 `json:"doc"`
	// Scroll is the window's scroll position, [x, y].
	Scroll [2]int `json:"scroll"`
	// Print is the page's fingerprint (Fingerprint) with the viewport,
	// when asked for.
	Print string `json:"print"`
	// Elsewhere is what the call's actions put on the page out of view,
	// when asked for.
	Elsewhere []Away `json:"elsewhere"`
	// Marks are the viewport's interactive elements with their refs and
	// boxes, in the tab's viewport, when asked for.
	Marks        []Mark `json:"marks"`
	LastSnapshot int    `json:"lastSnapshot"`
	LastElement  int    `json:"lastElement"`
}

// Away is a change out of view: on which side of the screen (below,
// above, left, right), in which region (`region "Response"`), and what it
// reads, cut short.
type Away struct {
	Side   string `json:"side"`
	Region string `json:"region"`
	Text   string `json:"text"`
}

// TakeReport snapshots the screen, the whole page or both, in one
// evaluation.
func TakeReport(ctx context.Context, p *page.Page, opts ReportOptions) (*Report, error) {
	var r Report
	page.ExposeClickHandlers(ctx, p)
	if err := p.CallJS(ctx, js.Report(), &r, opts); err != nil {
		return nil, fmt.Errorf("aria: report snapshot: %w", err)
	}
	if len(r.Marks) > 0 {
		dx, dy, err := p.FrameOffset(ctx, false)
		if err != nil {
			return nil, fmt.Errorf("aria: report snapshot: %w", err)
		}
		moveMarks(r.Marks, dx, dy)
	}
	return &r, nil
}
