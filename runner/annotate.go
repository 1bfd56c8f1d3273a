package runner

import (
	"context"
	"fmt"
	"strconv"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/capture"
)

// An annotated screenshot ({"screenshot":{"annotate":true}}, or the
// report's with "annotate" beside the steps) boxes the interactive
// elements it shows with their refs (capture/annotate.go), found by the
// walk the report's snapshots make (aria.TakeMarks), so the labels are
// the refs the agent reads. A label is the whole ref: the element part
// alone is shorter, but a ref is only taken whole, and the refs on one
// screen come from several snapshots.

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
	out := make([]capture.ShotMark, len(m.Marks))
	for i, k := range m.Marks {
		out[i] = capture.ShotMark{Label: k.Ref, Says: says(k.Role, k.Name), Box: capture.Rect(k.Region)}
	}
	return out, nil
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

// reportShot is the report's screenshot's options: at most ReadableSide
// a side, annotated when the call asked.
func (c *Call) reportShot() capture.ShotOptions {
	o := capture.ShotOptions{MaxSide: capture.ReadableSide}
	if c.annotate {
		o.Marks = c.env().shotMarks
	}
	return o
}
