package runner

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/capture"
)

// An annotated screenshot ({"screenshot":{"annotate":true}}, or the
// report's with "annotate" beside the steps) boxes the interactive
// elements it shows with their refs (capture/annotate.go), found by a
// walk like the report's (aria.TakeMarks) or by the report's own
// (afterMarks), so the labels are the refs the agent reads. A label is
// the whole ref: the element part alone is shorter, but a ref is only
// taken whole, and the refs on one screen come from several snapshots.

// legendName bounds the name a legend entry quotes, in runes.
const legendName = 32

// shotMarks finds the marks of an annotated screenshot of region.
func (e *env) shotMarks(ctx context.Context, region capture.Rect) ([]capture.ShotMark, error) {
	s, el := e.tab.RefFloors()
	m, err := aria.TakeMarks(ctx, e.page(), aria.MarksOptions{Clip: aria.Region(region), SnapshotFloor: s, ElementFloor: el})
	if err != nil {
		return nil, fmt.Errorf("the page's elements could not be read: %w", err)
	}
	e.tab.SaveRefCounters(m.LastSnapshot, m.LastElement)
	return shotMarks(m.Marks), nil
}

// shotMarks are marks as a screenshot draws them.
func shotMarks(marks []aria.Mark) []capture.ShotMark {
	out := make([]capture.ShotMark, len(marks))
	for i, k := range marks {
		out[i] = capture.ShotMark{Label: k.Ref, Says: says(k.Role, k.Name), Box: capture.Rect(k.Region)}
	}
	return out
}

// says is what a legend says of an element, as a snapshot line does:
// `button "Save"`.
func says(role, name string) string {
	if name == "" {
		return role
	}
	if r := []rune(name); len(r) > legendName {
		name = string(r[:legendName-1]) + "…"
	}
	return role + " " + strconv.Quote(name)
}

// afterMarks are the marks of the report's annotated screenshot: those of
// the report's own walk of the screen (takeAfter), so its labels are the
// viewportSnapshot's refs and the page is walked once. The screenshot,
// early or not, is taken as ever; it is drawn on once both are had.
type afterMarks struct {
	once  sync.Once
	done  chan struct{}
	marks []capture.ShotMark
	err   error
}

// newAfterMarks is the call's afterMarks when it asked for annotation,
// else nil.
func newAfterMarks(annotate bool) *afterMarks {
	if !annotate {
		return nil
	}
	return &afterMarks{done: make(chan struct{})}
}

// set hands over the walk's marks, or why there are none; the first
// word stands.
func (m *afterMarks) set(marks []aria.Mark, err error) {
	if m == nil {
		return
	}
	m.once.Do(func() {
		m.marks, m.err = shotMarks(marks), err
		close(m.done)
	})
}

// annotateShot draws the report's marks on its screenshot once they are
// had, within the report's budget; what could not be drawn is a warning.
func (c *Call) annotateShot(ctx context.Context, shot *capture.Shot) {
	m := c.after
	if m == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, afterBudget)
	defer cancel()
	var err error
	select {
	case <-m.done:
		err = c.files.Annotate(shot, m.marks, m.err)
	case <-ctx.Done():
		err = c.files.Annotate(shot, nil, fmt.Errorf("the page's elements were not read in time"))
	}
	switch {
	case err != nil:
		c.warn("screenshot: not annotated: %v", err)
	case shot.Unannotated != "":
		c.warn("screenshot: %s", shot.Unannotated)
	}
}

// marksOf are a report's marks; none without a report.
func marksOf(r *aria.Report) []aria.Mark {
	if r == nil {
		return nil
	}
	return r.Marks
}
