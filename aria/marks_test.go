package aria_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/internal/pagetest"
	"github.com/cdpskill/cdpskill/page"
)

func takeMarks(t *testing.T, p *page.Page, clip aria.Region) map[string]aria.Mark {
	t.Helper()
	m, err := aria.TakeMarks(pagetest.Ctx(t), p, aria.MarksOptions{Clip: clip})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]aria.Mark{}
	for _, k := range m.Marks {
		byName[k.Name] = k
	}
	if m.LastElement == 0 {
		t.Errorf("no ref counters: %+v", m)
	}
	return byName
}

// The marks of a screenshot are the interactive elements that show in it,
// with the refs the report gives them and the part of their boxes that
// shows: cut by a scrolling container and by a frame, in the tab's
// coordinates for a same-origin frame's, and by the captured region.
func TestMarks(t *testing.T) {
	p := open(t, "marks.html")
	pagetest.Eval[any](t, p, `document.getElementById('list').scrollTop = 30`)
	view := aria.Region{Width: 1000, Height: 700}
	got := takeMarks(t, p, view)
	names := func(m map[string]aria.Mark) []string {
		var out []string
		for n := range m {
			out = append(out, n)
		}
		slices.Sort(out)
		return out
	}
	if want := []string{"In frame", "Open", "Row 1", "Row 2", "Row 3", "Row 4", "Shadow"}; !slices.Equal(names(got), want) {
		t.Errorf("marks %v, want %v (Far below is out of view)", names(got), want)
	}
	near := func(name string, want aria.Region) {
		t.Helper()
		b := got[name].Region
		if math.Abs(b.X-want.X) > 0.5 || math.Abs(b.Y-want.Y) > 0.5 || math.Abs(b.Width-want.Width) > 0.5 || math.Abs(b.Height-want.Height) > 0.5 {
			t.Errorf("%s: box %+v, want %+v", name, b, want)
		}
	}
	near("Open", aria.Region{X: 10, Y: 10, Width: 120, Height: 40})
	// The list shows 100 px from its top at 10, scrolled by 30: Row 1 has
	// its last 10 px on show, Row 4 its first 10.
	near("Row 1", aria.Region{X: 200, Y: 10, Width: 120, Height: 10})
	near("Row 3", aria.Region{X: 200, Y: 60, Width: 120, Height: 40})
	near("Row 4", aria.Region{X: 200, Y: 100, Width: 120, Height: 10})
	// The frame at 10,200 (60 px tall) shows its button from 30 px down:
	// 30 of its 40 px.
	near("In frame", aria.Region{X: 20, Y: 230, Width: 100, Height: 30})
	near("Shadow", aria.Region{X: 400, Y: 10, Width: 90, Height: 30})

	// The report's walk gives the same marks of its view, but the frame's
	// (its view shows a frame as a line).
	r := takeReport(t, p, aria.ReportOptions{Viewport: true, Marks: true})
	for _, name := range []string{"Open", "Row 1", "Shadow"} {
		if m := got[name]; !strings.Contains(r.Viewport, `"`+name+`" [ref=`+m.Ref+`]`) {
			t.Errorf("%s is %s, not the report's ref:\n%s", name, m.Ref, r.Viewport)
		}
	}
	var inReport []aria.Mark
	for _, m := range got {
		if m.Name != "In frame" {
			inReport = append(inReport, m)
		}
	}
	byRef := func(a, b aria.Mark) int { return strings.Compare(a.Ref, b.Ref) }
	slices.SortFunc(inReport, byRef)
	slices.SortFunc(r.Marks, byRef)
	if !slices.Equal(r.Marks, inReport) {
		t.Errorf("the report's marks:\n%v\nwant\n%v", r.Marks, inReport)
	}
	if again := takeMarks(t, p, view); again["Open"].Ref != got["Open"].Ref || again["In frame"].Ref != got["In frame"].Ref {
		t.Errorf("refs changed between two marks: %v then %v", got, again)
	}

	// A region: only what meets it, cut to it.
	part := takeMarks(t, p, aria.Region{X: 0, Y: 0, Width: 100, Height: 30})
	if len(part) != 1 {
		t.Errorf("marks of a region: %v, want Open alone", names(part))
	}
	if b := part["Open"].Region; b != (aria.Region{X: 10, Y: 10, Width: 90, Height: 20}) {
		t.Errorf("Open cut to the region: %+v", b)
	}
}

// A cross-origin frame's content is not marked from the top (only its own
// session reads it); with the frame current, its elements are, in the
// tab's coordinates, and only those its frame shows.
func TestMarksOfFrames(t *testing.T) {
	p := openXFrames(t)
	view := aria.Region{Width: 1000, Height: 700}
	top := takeMarks(t, p.Page, view)
	if _, ok := top["Top button"]; !ok || len(top) != 1 {
		t.Errorf("marks of the top: %v, want the top button alone", top)
	}
	fp := inFrame(t, p.Page, "http://127.0.0.1:"+p.second+"/xframe_child.html")
	in := takeMarks(t, fp, view)
	frame := pagetest.Eval[[2]float64](t, p.Page, `(r => [r.left, r.top])(document.getElementById('same').getBoundingClientRect())`)
	button := pagetest.Eval[[2]float64](t, fp, `(r => [r.left, r.top])(document.getElementById('frame-button').getBoundingClientRect())`)
	b, ok := in["Frame button"]
	if !ok || math.Abs(b.X-(frame[0]+button[0])) > 0.5 || math.Abs(b.Y-(frame[1]+button[1])) > 0.5 {
		t.Errorf("the frame's button at %+v, want at %v + %v", b, frame, button)
	}
	if _, ok := in["Below the frame's fold"]; ok {
		t.Errorf("a button below the frame's fold is marked: %v", in)
	}
}
