package dom_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// short is the actionability timeout of tests that expect it to run out.
const short = 300 * time.Millisecond

func pageEvents(t *testing.T, p *page.Page) []string {
	t.Helper()
	return eval[[]string](t, p, "window.events")
}

func click(t *testing.T, p *page.Page, req dom.ClickRequest) *dom.ClickResult {
	t.Helper()
	res, err := dom.Click(testCtx(t), p, req)
	if err != nil {
		t.Fatalf("click %+v: %v", req, err)
	}
	if !res.Clicked {
		t.Fatalf("click %+v: not clicked: %+v", req, res)
	}
	return res
}

// A plain click by selector or by ref goes through CDP and is seen to
// reach its target.
func TestClickBySelectorAndRef(t *testing.T) {
	for _, target := range []string{"#save", "s1e1"} {
		t.Run(target, func(t *testing.T) {
			p := openFixture(t, "click.html")
			res := click(t, p, dom.ClickRequest{Target: target})
			want := dom.ClickResult{Clicked: true, Method: dom.MethodCDP, TargetReceived: true}
			if !reflect.DeepEqual(*res, want) {
				t.Errorf("result = %+v, want %+v", *res, want)
			}
			if got := pageEvents(t, p); !slices.Equal(got, []string{"save:click"}) {
				t.Errorf("events = %v", got)
			}
		})
	}
}

// A ref whose element was replaced by a re-render is found again through
// its stored selector, reported, and then names the new element directly.
func TestClickStaleRefReResolvedBySelector(t *testing.T) {
	p := openFixture(t, "click.html")
	run(t, p, "replaceSave()")
	res := click(t, p, dom.ClickRequest{Target: "s1e1"})
	if !res.ReResolved || res.Method != dom.MethodCDP {
		t.Errorf("result = %+v, want reResolved cdp click", *res)
	}
	if res := click(t, p, dom.ClickRequest{Target: "s1e1"}); res.ReResolved {
		t.Errorf("second click re-resolved again: the ref map was not updated")
	}
	if got := pageEvents(t, p); !slices.Equal(got, []string{"new-save:click", "new-save:click"}) {
		t.Errorf("events = %v", got)
	}
}

// aria/ cuts long names with an ellipsis; the cut name still matches.
func TestClickStaleRefWithCutName(t *testing.T) {
	p := openFixture(t, "click.html")
	ref := mint(t, p, `makeRef(document.getElementById('save'), 'button', 'Sa\u2026', '#save')`)
	run(t, p, "replaceSave()")
	if res := click(t, p, dom.ClickRequest{Target: ref}); !res.ReResolved {
		t.Errorf("result = %+v", *res)
	}
}

// A replacement with another name is another element in the agent's
// eyes, although it has the role and holds the name: the click fails
// without clicking it, and names it as what stands there now.
func TestClickStaleRefNotResolvedToAnotherName(t *testing.T) {
	p := openFixture(t, "click.html")
	run(t, p, "renameCheckout()")
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Target: "s1e2", Timeout: 300 * time.Millisecond})
	var stale *dom.StaleElementError
	if !errors.As(err, &stale) || len(stale.Now) == 0 || stale.Now[0].Text != `button "Proceed to checkout"` {
		t.Fatalf("err = %v (%T), now = %+v", err, err, stale)
	}
	if want := `the button "Checkout" is gone; the page now holds button "Proceed to checkout"`; !strings.Contains(err.Error(), want) {
		t.Errorf("message = %v, want it to say %s", err, want)
	}
	if got := pageEvents(t, p); len(got) != 0 {
		t.Errorf("events = %v: nothing should have been clicked", got)
	}
}

// A ref inside a shadow root is re-resolved through its stored host path,
// or, when the host is gone, by searching every shadow root.
func TestClickStaleRefInShadowRoot(t *testing.T) {
	cases := []struct{ rerender, event string }{
		{"rerenderCard()", "inner-v2:click"},
		{"replaceCard()", "card-v2:click"},
	}
	for _, c := range cases {
		t.Run(c.rerender, func(t *testing.T) {
			p := openFixture(t, "click.html")
			click(t, p, dom.ClickRequest{Target: "s1e4"})
			run(t, p, c.rerender)
			res := click(t, p, dom.ClickRequest{Target: "s1e4"})
			if !res.ReResolved {
				t.Errorf("result = %+v", *res)
			}
			// On a heavily loaded machine the mouse events have been seen
			// to miss the element just scrolled to, once in many runs; the
			// reported fallback still clicks it exactly once.
			if !res.TargetReceived && (res.Method != dom.MethodJSClickAuto || !res.CDPAttempted) {
				t.Errorf("result = %+v", *res)
			}
			if got := pageEvents(t, p); !slices.Equal(got, []string{"inner:click", c.event}) {
				t.Errorf("events = %v", got)
			}
		})
	}
}

func TestClickStaleRefWithNoReplacement(t *testing.T) {
	p := openFixture(t, "click.html")
	run(t, p, "removeVanishing()")
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Target: "s1e3", Timeout: short})
	var stale *dom.StaleElementError
	if !errors.As(err, &stale) {
		t.Fatalf("err = %v (%T), want *StaleElementError", err, err)
	}
	if stale.Role != "button" || stale.Name != "Vanishing" || !strings.Contains(err.Error(), "fresh snapshot") {
		t.Errorf("err = %+v: %v", stale, err)
	}
	if name := errorName(err); name != "StaleElementError" {
		t.Errorf("ErrorName = %q", name)
	}
}

// A ref no snapshot issued is an immediate ElementNotFoundError: waiting
// cannot make it appear.
func TestClickUnknownRef(t *testing.T) {
	p := openFixture(t, "click.html")
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Target: "s9e9"})
	var nf *dom.NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v (%T), want *NotFoundError", err, err)
	}
	if nf.Waited != 0 || !strings.Contains(err.Error(), "no snapshot of this page issued it") {
		t.Errorf("err = %v (waited %v)", err, nf.Waited)
	}
	if name := errorName(err); name != "ElementNotFoundError" {
		t.Errorf("ErrorName = %q", name)
	}
}

// An unparsable selector fails with the browser's SyntaxError instead of
// being retried until a timeout.
func TestClickInvalidSelectorFailsAtOnce(t *testing.T) {
	p := openFixture(t, "click.html")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	_, err := dom.Click(ctx, p, dom.ClickRequest{Target: "[[[invalid"})
	var bad *invalid.Selector
	if !errors.As(err, &bad) {
		t.Fatalf("err = %v (%T), want *invalid.Selector", err, err)
	}
	if errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "is not a valid selector") {
		t.Errorf("err = %v", err)
	}
}

func TestClickSelectorNotFound(t *testing.T) {
	p := openFixture(t, "click.html")
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Target: "#nope", Timeout: short})
	var nf *dom.NotFoundError
	if !errors.As(err, &nf) || nf.Waited == 0 {
		t.Fatalf("err = %v (%T), want *NotFoundError after waiting", err, err)
	}
}

// The step timeout (ctx) ending while the element is missing still wraps
// context.DeadlineExceeded but is named for the cause: the element is not
// there, so the agent needs another target, not more time.
func TestClickStepTimeout(t *testing.T) {
	p := openFixture(t, "click.html")
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err := dom.Click(ctx, p, dom.ClickRequest{Target: "#nope"})
	if !errors.Is(err, context.DeadlineExceeded) || errorName(err) != "ElementNotFoundError" {
		t.Fatalf("err = %v (%T, %s), want an ElementNotFoundError wrapping DeadlineExceeded", err, err, errorName(err))
	}
}

func TestClickWaitsForLateElement(t *testing.T) {
	p := openFixture(t, "click.html")
	run(t, p, "addLateButton(300)")
	res := click(t, p, dom.ClickRequest{Target: "#late"})
	if res.AutoForced || res.Method != dom.MethodCDP {
		t.Errorf("result = %+v", *res)
	}
	if got := pageEvents(t, p); !slices.Equal(got, []string{"late:click"}) {
		t.Errorf("events = %v", got)
	}
}

// An overlay that goes away is waited out; the click then lands natively.
func TestClickWaitsForOverlayToLeave(t *testing.T) {
	p := openFixture(t, "click.html")
	run(t, p, "cover(300)")
	res := click(t, p, dom.ClickRequest{Target: "#save"})
	if res.AutoForced || res.Method != dom.MethodCDP {
		t.Errorf("result = %+v", *res)
	}
	if got := pageEvents(t, p); !slices.Equal(got, []string{"save:click"}) {
		t.Errorf("events = %v", got)
	}
}

// An overlay that stays: at the timeout the click is auto-forced with
// element.click(), so the overlay's own handler never fires, and the
// result says what covered the button.
func TestClickCoveredIsAutoForced(t *testing.T) {
	p := openFixture(t, "click.html")
	run(t, p, "cover(0)")
	res := click(t, p, dom.ClickRequest{Target: "#save", Timeout: short})
	if !res.AutoForced || res.Method != dom.MethodJSClickAuto || res.CDPAttempted {
		t.Errorf("result = %+v", *res)
	}
	if !strings.Contains(res.Warning, "div#overlay.modal-backdrop") {
		t.Errorf("warning = %q, want the interceptor named", res.Warning)
	}
	if got := pageEvents(t, p); !slices.Equal(got, []string{"save:click"}) {
		t.Errorf("events = %v", got)
	}
}

// force:true skips the checks: the CDP click goes to the overlay, the
// probe sees the button missed, and element.click() follows — unless
// nativeOnly, which reports the miss instead.
func TestClickForcedThroughOverlay(t *testing.T) {
	t.Run("fallback", func(t *testing.T) {
		p := openFixture(t, "click.html")
		run(t, p, "cover(0)")
		res := click(t, p, dom.ClickRequest{Target: "#save", Force: true})
		want := dom.ClickResult{Clicked: true, Method: dom.MethodJSClickAuto, CDPAttempted: true}
		if !reflect.DeepEqual(*res, want) {
			t.Errorf("result = %+v, want %+v", *res, want)
		}
		if got := pageEvents(t, p); !slices.Equal(got, []string{"overlay:click", "save:click"}) {
			t.Errorf("events = %v", got)
		}
	})
	t.Run("nativeOnly", func(t *testing.T) {
		p := openFixture(t, "click.html")
		run(t, p, "cover(0)")
		res, err := dom.Click(testCtx(t), p, dom.ClickRequest{Target: "#save", Force: true, Method: dom.ClickNative})
		if err != nil || res.Clicked || res.Method != dom.MethodCDP || res.TargetReceived || res.Warning == "" {
			t.Errorf("result = %+v", *res)
		}
		if got := pageEvents(t, p); !slices.Equal(got, []string{"overlay:click"}) {
			t.Errorf("events = %v", got)
		}
	})
}

func TestClickPointerEventsNoneIsAutoForced(t *testing.T) {
	p := openFixture(t, "click.html")
	res := click(t, p, dom.ClickRequest{Target: "#inert", Timeout: short})
	if !res.AutoForced || res.Method != dom.MethodJSClickAuto || !strings.Contains(res.Warning, "pointer-events") {
		t.Errorf("result = %+v", *res)
	}
	if got := pageEvents(t, p); !slices.Equal(got, []string{"inert:click"}) {
		t.Errorf("events = %v", got)
	}
}

// Clicking a label toggles the checkbox inside it once, not twice.
func TestClickLabelWrappedCheckbox(t *testing.T) {
	p := openFixture(t, "click.html")
	click(t, p, dom.ClickRequest{Target: "#terms-label"})
	if !eval[bool](t, p, "document.getElementById('terms').checked") {
		t.Fatal("label click did not check the box")
	}
	click(t, p, dom.ClickRequest{Target: "#terms"})
	if eval[bool](t, p, "document.getElementById('terms').checked") {
		t.Fatal("box click did not uncheck it")
	}
}

func TestClickScrollsIntoView(t *testing.T) {
	p := openFixture(t, "click.html")
	res := click(t, p, dom.ClickRequest{Target: "#far"})
	if res.Method != dom.MethodCDP || !res.TargetReceived {
		t.Errorf("result = %+v", *res)
	}
	if eval[float64](t, p, "window.scrollY") == 0 {
		t.Error("page did not scroll")
	}
}

func TestClickVariants(t *testing.T) {
	cases := []struct {
		name   string
		req    dom.ClickRequest
		method string
		events []string
	}{
		{"double", dom.ClickRequest{Target: "#dbl", ClickCount: 2}, dom.MethodCDP, []string{"dbl:dblclick"}},
		{"right", dom.ClickRequest{Target: "#ctx", Button: "right"}, dom.MethodCDP, []string{"ctx:contextmenu:2"}},
		{"jsClick", dom.ClickRequest{Target: "#save", Method: dom.ClickJS}, dom.MethodJSClick, []string{"save:click"}},
		{"offset", dom.ClickRequest{Target: "#save", X: ptr(2.0), Y: ptr(2.0)}, dom.MethodCDP, []string{"save:click"}},
		// The first match is hidden: its visible twin is the one meant.
		{"visible twin", dom.ClickRequest{Target: ".dup"}, dom.MethodCDP, []string{"dup2:click"}},
		{"block in a link", dom.ClickRequest{Target: "#wrapper"}, dom.MethodCDP, []string{"wrapper:click"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := openFixture(t, "click.html")
			res := click(t, p, c.req)
			if res.Method != c.method {
				t.Errorf("method = %q, want %q", res.Method, c.method)
			}
			if got := pageEvents(t, p); !slices.Equal(got, c.events) {
				t.Errorf("events = %v, want %v", got, c.events)
			}
		})
	}
}

func TestClickAtCoordinates(t *testing.T) {
	p := openFixture(t, "click.html")
	pt := centreOf(t, p, "save")
	res := click(t, p, dom.ClickRequest{X: &pt.X, Y: &pt.Y})
	if res.Method != dom.MethodCDP {
		t.Errorf("result = %+v", *res)
	}
	if got := pageEvents(t, p); !slices.Equal(got, []string{"save:click"}) {
		t.Errorf("events = %v", got)
	}
}

func TestClickRejectsBadInput(t *testing.T) {
	p := openFixture(t, "click.html")
	for _, req := range []dom.ClickRequest{
		{Target: "#save", Button: "fourth"},
		{X: ptr(1.0)},
		{},
	} {
		_, err := dom.Click(testCtx(t), p, req)
		var bad *invalid.Option
		if !errors.As(err, &bad) {
			t.Errorf("%+v: err = %v, want *invalid.Option", req, err)
		}
	}
}

func errorName(err error) string {
	var named interface{ ErrorName() string }
	if errors.As(err, &named) {
		return named.ErrorName()
	}
	return ""
}
