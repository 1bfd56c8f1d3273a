package dom_test

import (
	"math"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/page"
)

func scroll(t *testing.T, p *page.Page, req dom.ScrollRequest) *dom.ScrollResult {
	t.Helper()
	res, err := dom.Scroll(testCtx(t), p, req)
	if err != nil {
		t.Fatalf("scroll %+v: %v", req, err)
	}
	return res
}

type scrollPos struct{ X, Y float64 }

func windowScroll(t *testing.T, p *page.Page) scrollPos {
	t.Helper()
	return eval[scrollPos](t, p, "({X: window.scrollX, Y: window.scrollY})")
}

// Every form moves the document at once, even under scroll-behavior:
// smooth, and reports where it ended up.
func TestScrollForms(t *testing.T) {
	p := openFixture(t, "input-scroll.html")
	maxY := eval[float64](t, p, "document.scrollingElement.scrollHeight - window.innerHeight")
	steps := []struct {
		name string
		req  dom.ScrollRequest
		want scrollPos
	}{
		{"bottom", dom.ScrollRequest{To: "bottom"}, scrollPos{0, maxY}},
		{"top", dom.ScrollRequest{To: "top"}, scrollPos{0, 0}},
		{"down", dom.ScrollRequest{To: "down"}, scrollPos{0, 300}},
		{"down again", dom.ScrollRequest{To: "down"}, scrollPos{0, 600}},
		{"up", dom.ScrollRequest{To: "up"}, scrollPos{0, 300}},
		{"deltaY", dom.ScrollRequest{DeltaY: 500}, scrollPos{0, 800}},
		{"deltaX", dom.ScrollRequest{DeltaX: 200}, scrollPos{200, 800}},
		{"x,y", dom.ScrollRequest{X: ptr(0.0), Y: ptr(1000.0)}, scrollPos{0, 1000}},
		{"y keeps x", dom.ScrollRequest{Y: ptr(1200.0)}, scrollPos{0, 1200}},
	}
	for _, s := range steps {
		res := scroll(t, p, s.req)
		got := scrollPos{res.ScrollX, res.ScrollY}
		if got != s.want || res.Element != "" {
			t.Errorf("%s: result %+v, want %+v", s.name, *res, s.want)
		}
		if w := windowScroll(t, p); w != s.want {
			t.Errorf("%s: window at %+v, want %+v", s.name, w, s.want)
		}
	}
}

// A selector or a ref is scrolled to the middle of the viewport (less
// the horizontal scrollbar).
func TestScrollToElementCentres(t *testing.T) {
	for _, target := range []string{"#target", "s1e1"} {
		t.Run(target, func(t *testing.T) {
			p := openFixture(t, "input-scroll.html")
			res := scroll(t, p, dom.ScrollRequest{Target: target})
			if res.ScrollY == 0 {
				t.Fatalf("result = %+v: not scrolled", *res)
			}
			offset := eval[float64](t, p, "(() => { const r = document.getElementById('target').getBoundingClientRect(); return r.top + r.height / 2 - document.documentElement.clientHeight / 2; })()")
			if math.Abs(offset) > 1 {
				t.Errorf("the element's centre is %.1f px from the viewport's", offset)
			}
		})
	}
}

// An element that appears later is waited for.
func TestScrollWaitsForElement(t *testing.T) {
	p := openFixture(t, "input-scroll.html")
	run(t, p, "addLate()")
	res := scroll(t, p, dom.ScrollRequest{Target: "#late"})
	if res.ScrollY < 2000 {
		t.Errorf("result = %+v", *res)
	}
}

// An app whose document does not scroll gets its main container scrolled,
// named in the result.
func TestScrollAppContainer(t *testing.T) {
	p := openFixture(t, "input-scroll-app.html")
	res := scroll(t, p, dom.ScrollRequest{To: "down"})
	if res.ScrollY != 300 || res.Element != "div#main" {
		t.Errorf("result = %+v", *res)
	}
	if got := eval[float64](t, p, "document.getElementById('main').scrollTop"); got != 300 {
		t.Errorf("#main scrollTop = %v", got)
	}
	if w := windowScroll(t, p); w != (scrollPos{}) {
		t.Errorf("window moved to %+v", w)
	}
	res = scroll(t, p, dom.ScrollRequest{To: "bottom"})
	if want := eval[float64](t, p, "(() => { const m = document.getElementById('main'); return m.scrollHeight - m.clientHeight; })()"); res.ScrollY != want {
		t.Errorf("bottom: result %+v, want scrollY %v", *res, want)
	}
}
