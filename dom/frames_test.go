package dom_test

import (
	"slices"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/page"
)

// openFrames loads frames.html and waits for its iframe.
func openFrames(t *testing.T) *page.Page {
	p := openFixture(t, "frames.html")
	run(t, p, "window.frameReady")
	return p
}

func frameEvents(t *testing.T, p *page.Page) []string {
	return eval[[]string](t, p, "innerDoc().defaultView.events")
}

// A button in a same-origin iframe below the fold is clicked with real
// mouse events at page coordinates that include the frame's offset,
// border and padding: the probe sees them arrive, so there is no
// JavaScript fallback. The element is reached by a ref aria/ recorded in
// the top document, and by a selector in the frame's own context (after a
// frame switch).
func TestClickInSameOriginFrame(t *testing.T) {
	t.Run("ref", func(t *testing.T) {
		p := openFrames(t)
		ref := mint(t, p, "makeRef(innerDoc().getElementById('inner'), 'button', 'Inner', '#inner', null, ['#f'])")
		res := click(t, p, dom.ClickRequest{Target: ref})
		if res.Method != dom.MethodCDP || !res.TargetReceived || res.AutoForced {
			t.Errorf("result = %+v", *res)
		}
		if got := frameEvents(t, p); !slices.Equal(got, []string{"inner:trusted"}) {
			t.Errorf("frame events = %v", got)
		}
	})
	t.Run("frame context", func(t *testing.T) {
		p := openFrames(t)
		fp := enterFirstFrame(t, p)
		res := click(t, fp, dom.ClickRequest{Target: "#inner"})
		if res.Method != dom.MethodCDP || !res.TargetReceived {
			t.Errorf("result = %+v", *res)
		}
		if got := frameEvents(t, p); !slices.Equal(got, []string{"inner:trusted"}) {
			t.Errorf("frame events = %v", got)
		}
	})
}

// Something in the top document covering the whole frame is an
// interceptor too.
func TestClickFrameCoveredFromAbove(t *testing.T) {
	p := openFrames(t)
	ref := mint(t, p, "makeRef(innerDoc().getElementById('inner'), 'button', 'Inner', '#inner', null, ['#f'])")
	run(t, p, "document.getElementById('f').scrollIntoView(); coverFrame()")
	res := click(t, p, dom.ClickRequest{Target: ref, Timeout: short})
	if !res.AutoForced || res.Method != dom.MethodJSClickAuto {
		t.Errorf("result = %+v", *res)
	}
}

// A ref into a frame whose element was re-rendered is found again through
// the frame path in its metadata.
func TestClickStaleRefInFrame(t *testing.T) {
	p := openFrames(t)
	ref := mint(t, p, "makeRef(innerDoc().getElementById('inner'), 'button', 'Inner', '#inner', null, ['#f'])")
	run(t, p, "innerDoc().defaultView.rerender()")
	res := click(t, p, dom.ClickRequest{Target: ref})
	if !res.ReResolved || !res.TargetReceived {
		t.Errorf("result = %+v", *res)
	}
	if got := frameEvents(t, p); !slices.Equal(got, []string{"inner-v2:trusted"}) {
		t.Errorf("frame events = %v", got)
	}
}
