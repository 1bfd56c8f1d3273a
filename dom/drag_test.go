package dom_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

func drag(t *testing.T, p *page.Page, req dom.DragRequest) *dom.DragResult {
	t.Helper()
	res, err := dom.Drag(testCtx(t), p, req)
	if err != nil {
		t.Fatalf("drag %+v: %v", req, err)
	}
	if !res.Dragged {
		t.Fatalf("drag %+v: not dragged: %+v", req, res)
	}
	return res
}

// eventLog is the fixture's window.events.
func eventLog(t *testing.T, p *page.Page) []string {
	t.Helper()
	return eval[[]string](t, p, "window.events")
}

func at(s string) dom.DragEndpoint { return dom.DragEndpoint{Target: s} }

// A sortable list that follows mousedown, mousemove and mouseup is
// reordered by the mouse; auto sees the change and stops there.
func TestDragSortableListByMouse(t *testing.T) {
	p := openFixture(t, "input-drag.html")
	res := drag(t, p, dom.DragRequest{Source: at("#sortable li:nth-child(1)"), Target: at("#sortable li:nth-child(3)")})
	if res.Method != dom.DragMouse || res.Steps != dom.DefaultDragSteps || res.MouseAttempted || res.Warning != "" {
		t.Errorf("result = %+v", *res)
	}
	if got := eval[string](t, p, "order()"); got != "bcad" {
		t.Errorf("order = %q, want bcad", got)
	}
	moves := 0
	for _, e := range eventLog(t, p) {
		if e == "sort:move" {
			moves++
		}
	}
	if moves != dom.DefaultDragSteps {
		t.Errorf("the page saw %d moves, want %d", moves, dom.DefaultDragSteps)
	}
}

// Coordinates and offsets place the endpoints; the result reports them.
func TestDragByCoordinatesAndOffsets(t *testing.T) {
	p := openFixture(t, "input-drag.html")
	a := centreOf(t, p, "sortable")
	first := eval[struct{ X, Y float64 }](t, p, "(() => { const r = document.querySelector('#sortable li').getBoundingClientRect(); return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()")
	res := drag(t, p, dom.DragRequest{
		Source: dom.DragEndpoint{X: ptr(first.X), Y: ptr(first.Y)},
		Target: dom.DragEndpoint{Target: "#sortable", OffsetY: 60 - (a.Y - first.Y) + 8},
		Method: dom.DragMouse, Steps: 4,
	})
	if res.Method != dom.DragMouse || res.Steps != 4 {
		t.Errorf("result = %+v", *res)
	}
	if math.Abs(res.Source.X-first.X) > 0.1 || math.Abs(res.Source.Y-first.Y) > 0.1 {
		t.Errorf("source = %+v, want %+v", res.Source, first)
	}
	if want := first.Y + 68; math.Abs(res.Target.Y-want) > 0.1 || math.Abs(res.Target.X-a.X) > 0.1 {
		t.Errorf("target = %+v, want (%.1f, %.1f)", res.Target, a.X, want)
	}
	if got := eval[string](t, p, "order()"); got != "bcad" {
		t.Errorf("order = %q, want bcad", got)
	}
}

// A draggable=true card dropped on a zone: auto's mouse drag starts
// Chrome's own (trusted) HTML5 drag and drop, which the zone accepts.
func TestDragHTML5ZoneByMouse(t *testing.T) {
	p := openFixture(t, "input-drag.html")
	res := drag(t, p, dom.DragRequest{Source: at("#card1"), Target: at("#zone")})
	if res.Method != dom.DragMouse || res.Warning != "" {
		t.Errorf("result = %+v", *res)
	}
	if got := eval[string](t, p, "inZone()"); got != "card1" {
		t.Errorf("in zone = %q, want card1", got)
	}
	if got := eventLog(t, p); !slices.Contains(got, "dragstart:true") || !slices.Contains(got, "drop:card1") {
		t.Errorf("events = %v", got)
	}
}

// method html5 dispatches the DnD sequence with a shared DataTransfer;
// refs name the endpoints.
func TestDragHTML5Synthetic(t *testing.T) {
	p := openFixture(t, "input-drag.html")
	res := drag(t, p, dom.DragRequest{Source: at("s1e1"), Target: at("s1e2"), Method: dom.DragHTML5})
	if res.Method != dom.DragHTML5 || res.Steps != 0 || res.Warning != "" {
		t.Errorf("result = %+v", *res)
	}
	if got := eval[string](t, p, "inZone()"); got != "card1" {
		t.Errorf("in zone = %q, want card1", got)
	}
	want := []string{"dragstart:false", "dragenter", "drop:card1", "dragend"}
	if got := eventLog(t, p); !slices.Equal(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
}

// When the mouse changes nothing (the source is not draggable, only
// listens for dragstart), auto falls back to HTML5 events.
func TestDragAutoFallsBackToHTML5(t *testing.T) {
	p := openFixture(t, "input-drag.html")
	res := drag(t, p, dom.DragRequest{Source: at("#legacy"), Target: at("#zone")})
	if res.Method != dom.DragHTML5 || !res.MouseAttempted || res.Warning != "" {
		t.Errorf("result = %+v", *res)
	}
	if got := eval[string](t, p, "inZone()"); got != "legacy" {
		t.Errorf("in zone = %q, want legacy", got)
	}
}

// A target without a dragover handler refuses the drop, and the result
// says so, by either method: the card did not move, so it was not
// dragged, and the warning says where the drop landed.
func TestDragRefusedDropWarns(t *testing.T) {
	for _, method := range []string{dom.DragAuto, dom.DragHTML5} {
		t.Run(method, func(t *testing.T) {
			p := openFixture(t, "input-drag.html")
			res, err := dom.Drag(testCtx(t), p, dom.DragRequest{Source: at("#card2"), Target: at("#plain"), Method: method})
			if err != nil {
				t.Fatal(err)
			}
			if res.Dragged || !strings.Contains(res.Warning, "did not accept the drop") ||
				!strings.Contains(res.Warning, `the source did not move: it is still where it was; the drop landed on generic "Plain"`) {
				t.Errorf("result = %+v", *res)
			}
			if got := eval[string](t, p, "inZone()"); got != "" {
				t.Errorf("in zone = %q", got)
			}
		})
	}
}

// A range input is set from the target's x position along its track,
// snapped to its step, with input and change events.
func TestDragRangeSlider(t *testing.T) {
	p := openFixture(t, "input-drag.html")
	width := eval[float64](t, p, "document.getElementById('slider').getBoundingClientRect().width")
	res := drag(t, p, dom.DragRequest{Source: at("#slider"), Target: dom.DragEndpoint{Target: "#slider", OffsetX: 0.31 * width}})
	if res.Method != dom.MethodSetValue || res.Value != "80" {
		t.Errorf("result = %+v, want setValue 80", *res)
	}
	if got := eventLog(t, p); !slices.Equal(got, []string{"slider:input:80", "slider:change:80"}) {
		t.Errorf("events = %v", got)
	}
	left := eval[float64](t, p, "document.getElementById('slider').getBoundingClientRect().left")
	res = drag(t, p, dom.DragRequest{Source: at("#slider"), Target: dom.DragEndpoint{X: ptr(left - 50), Y: ptr(10.0)}})
	if res.Value != "0" {
		t.Errorf("past the left end: value %q, want 0", res.Value)
	}
}

// Bad requests are refused before anything is sent.
func TestDragInvalid(t *testing.T) {
	p := openFixture(t, "input-drag.html")
	for _, req := range []dom.DragRequest{
		{Source: at("#card1"), Target: at("#zone"), Method: "teleport"},
		{Source: at("#card1"), Target: dom.DragEndpoint{X: ptr(1.0)}},
	} {
		_, err := dom.Drag(testCtx(t), p, req)
		var ia *invalid.Option
		if !errors.As(err, &ia) {
			t.Errorf("%+v: %v, want *invalid.Option", req, err)
		}
	}
}

// A spinner that turns all the while (a page's "syncing" mark) is no
// animation of the drag's: the drag waits for the page to settle, and it
// settles, rather than running each wait to its bound.
func TestDragSettlesBesideASpinner(t *testing.T) {
	p := openFixture(t, "input-drag.html")
	eval[any](t, p, "spin()")
	res := drag(t, p, dom.DragRequest{Source: at("#card1"), Target: at("#zone")})
	if res.Method != dom.DragMouse || res.Warning != "" || !dom.DragSettled(res) {
		t.Errorf("result = %+v, settled %v", *res, dom.DragSettled(res))
	}
	if got := eval[string](t, p, "inZone()"); got != "card1" {
		t.Errorf("in zone = %q, want card1", got)
	}
}

// A drop that takes the source off the page (a trash) leaves nothing to
// tell where it went: the drag does not claim it moved, and says so.
func TestDragSourceGoneIsNotClaimed(t *testing.T) {
	p := openFixture(t, "input-drag.html")
	res, err := dom.Drag(testCtx(t), p, dom.DragRequest{Source: at("#card2"), Target: at("#trash")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Dragged || !strings.Contains(res.Warning, "whether the source moved is not known") || !strings.Contains(res.Warning, `the drop landed on generic "Trash"`) {
		t.Errorf("result = %+v", *res)
	}
	if got := eval[bool](t, p, "!document.getElementById('card2')"); !got {
		t.Errorf("the trash did not take the card")
	}
}
