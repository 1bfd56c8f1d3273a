package dom_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/page"
)

func hover(t *testing.T, p *page.Page, req dom.HoverRequest) *dom.HoverResult {
	t.Helper()
	res, err := dom.Hover(testCtx(t), p, req)
	if err != nil {
		t.Fatalf("hover %+v: %v", req, err)
	}
	if !res.Hovered {
		t.Fatalf("hover %+v: not hovered: %+v", req, res)
	}
	return res
}

// Hovering a menu opens its CSS :hover submenu; captureResult reports the
// submenu and not the menu that was visible all along.
func TestHoverMenuCaptured(t *testing.T) {
	p := openFixture(t, "input-hover.html")
	res := hover(t, p, dom.HoverRequest{Target: "#products", CaptureResult: true})
	if res.CapturedResult == nil {
		t.Fatalf("no capturedResult: %+v", *res)
	}
	want := []dom.Overlay{{Tag: "ul", Role: "menu", Selector: "ul.submenu", Text: "Laptops Phones"}}
	if got := res.CapturedResult.VisibleElements; !slices.Equal(got, want) {
		t.Errorf("visibleElements = %+v, want %+v", got, want)
	}
	if !eval[bool](t, p, "!!document.querySelector('#products:hover')") {
		t.Error("#products is not :hover")
	}
	if got := eval[[]string](t, p, "window.events"); !slices.Contains(got, "products:mouseover") || !slices.Contains(got, "products:mouseenter") {
		t.Errorf("events = %v", got)
	}
}

// A tooltip shown from mouseenter and tied by aria-describedby is
// reported; moving on to another element hides it again.
func TestHoverTooltip(t *testing.T) {
	p := openFixture(t, "input-hover.html")
	res := hover(t, p, dom.HoverRequest{Target: "#help", CaptureResult: true})
	want := []dom.Overlay{{Tag: "div", Role: "tooltip", Selector: "#help-tip", Text: "Opens the manual"}}
	if got := res.CapturedResult.VisibleElements; !slices.Equal(got, want) {
		t.Errorf("visibleElements = %+v, want %+v", got, want)
	}
	res = hover(t, p, dom.HoverRequest{Target: "#plain", CaptureResult: true})
	if got := res.CapturedResult.VisibleElements; got == nil || len(got) != 0 {
		t.Errorf("hovering #plain: visibleElements = %#v, want empty", got)
	}
	if !eval[bool](t, p, "document.getElementById('help-tip').hidden") {
		t.Error("the tooltip stayed open after the mouse left")
	}
}

// duration holds the hover long enough for a tooltip on a timer.
func TestHoverDurationCatchesDelayedTooltip(t *testing.T) {
	p := openFixture(t, "input-hover.html")
	res := hover(t, p, dom.HoverRequest{Target: "#slow", CaptureResult: true, Duration: 400 * time.Millisecond})
	got := res.CapturedResult.VisibleElements
	if len(got) != 1 || got[0].Selector != "#slow-tip" {
		t.Errorf("visibleElements = %+v, want #slow-tip", got)
	}
}

// A ref works; without captureResult there is no capturedResult.
func TestHoverByRef(t *testing.T) {
	p := openFixture(t, "input-hover.html")
	res := hover(t, p, dom.HoverRequest{Target: "s1e1"})
	if res.CapturedResult != nil || res.Warning != "" {
		t.Errorf("result = %+v", *res)
	}
	if !eval[bool](t, p, "!!document.querySelector('#products:hover')") {
		t.Error("#products is not :hover")
	}
}

// An element under another one is hovered at once, with a warning that
// the mouse is over the element on top.
func TestHoverCoveredWarns(t *testing.T) {
	p := openFixture(t, "input-hover.html")
	res := hover(t, p, dom.HoverRequest{Target: "#under"})
	if !strings.Contains(res.Warning, "on top") {
		t.Errorf("result = %+v", *res)
	}
}
