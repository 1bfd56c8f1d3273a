package dom_test

import (
	"errors"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
)

// Each transient reason is retried until the timeout, then auto-forced
// with the typed reason kept in Element.Forced, all of them reachable as
// one *ActionabilityError.
func TestWaitActionableForcedReasons(t *testing.T) {
	p := openFixture(t, "click.html")
	run(t, p, "cover(0)") // the other reasons are checked before the hit test
	cases := []struct {
		selector string
		check    func(t *testing.T, err error)
	}{
		{"#save", func(t *testing.T, err error) {
			var c *dom.CoveredError
			if !errors.As(err, &c) || c.By.ID != "overlay" || c.By.Kind != "modal" || c.By.Text != "Please wait" {
				t.Errorf("reason = %#v", err)
			}
		}},
		{"#inert", func(t *testing.T, err error) {
			var pe *dom.PointerEventsNoneError
			if !errors.As(err, &pe) || pe.On != "div.nopointer" {
				t.Errorf("reason = %#v", err)
			}
		}},
		{"#hidden-btn", func(t *testing.T, err error) {
			var nv *dom.NotVisibleError
			if !errors.As(err, &nv) || nv.Detail != "display: none" {
				t.Errorf("reason = %#v", err)
			}
		}},
		{"#moving", func(t *testing.T, err error) {
			var u *dom.UnstableError
			if !errors.As(err, &u) {
				t.Errorf("reason = %#v", err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			el, err := dom.WaitActionable(testCtx(t), p, dom.ActionRequest{Target: dom.ParseTarget(c.selector), Action: dom.ActionClick, Timeout: short})
			if err != nil {
				t.Fatal(err)
			}
			defer el.Release(testCtx(t), p)
			if !el.AutoForced {
				t.Fatalf("element = %+v, want auto-forced", el)
			}
			var ae *dom.ActionabilityError
			if !errors.As(el.Forced, &ae) {
				t.Errorf("Forced = %T, want *ActionabilityError", el.Forced)
			}
			c.check(t, el.Forced)
		})
	}
}

func TestWaitActionableReady(t *testing.T) {
	p := openFixture(t, "click.html")
	el, err := dom.WaitActionable(testCtx(t), p, dom.ActionRequest{Target: dom.ParseTarget("#dbl"), Action: dom.ActionClick})
	if err != nil {
		t.Fatal(err)
	}
	defer el.Release(testCtx(t), p)
	want := centreOf(t, p, "dbl")
	if el.AutoForced || !el.Clickable || el.Point == nil || el.Point.X != want.X || el.Point.Y != want.Y {
		t.Errorf("element = %+v, point %+v, want point %+v", el, el.Point, want)
	}
}

// A hidden element forced past its checks has no box, so the click is
// element.click().
func TestClickHiddenElement(t *testing.T) {
	p := openFixture(t, "click.html")
	res := click(t, p, dom.ClickRequest{Target: "#hidden-btn", Timeout: short})
	if !res.AutoForced || res.Method != dom.MethodJSClickAuto {
		t.Errorf("result = %+v", *res)
	}
}

// An interceptor is classified by what it looks like (SPEC 8.4), so the
// agent knows whether to dismiss a cookie banner or wait for a spinner.
func TestInterceptorKinds(t *testing.T) {
	cases := []struct {
		setup, kind string
	}{
		{"coverAs('cookie-banner', 'banner', '', false)", "cookie-banner"},
		{"coverAs('cmp', 'consent-manager', 'dialog', false)", "consent-dialog"},
		{"coverAs('dlg', 'dialog-root', 'dialog', true)", "modal"},
		{"coverAs('promo', 'newsletter-popup', '', false)", "popup"},
		{"coverAs('msg', 'toast', '', false)", "notification"},
		{"coverAs('shade', 'page-overlay', '', false)", "overlay"},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			p := openFixture(t, "click.html")
			run(t, p, c.setup)
			el, err := dom.WaitActionable(testCtx(t), p, dom.ActionRequest{Target: dom.ParseTarget("#save"), Action: dom.ActionClick, Timeout: short})
			if err != nil {
				t.Fatal(err)
			}
			defer el.Release(testCtx(t), p)
			var covered *dom.CoveredError
			if !el.AutoForced || !errors.As(el.Forced, &covered) || covered.By.Kind != c.kind {
				t.Errorf("forced by %v, want a %s", el.Forced, c.kind)
			}
		})
	}
}

// A script that moves an element every frame is not an animation the page
// reports, so only an explicit stability check sees it (SPEC 8.6); a
// still element passes that check.
func TestStableFramesOnRequest(t *testing.T) {
	p := openFixture(t, "click.html")
	run(t, p, `(() => {
		const b = document.createElement('button');
		b.id = 'scripted';
		b.textContent = 'Scripted';
		b.style.position = 'relative';
		document.body.prepend(b);
		let x = 0;
		const step = () => { b.style.left = (x = (x + 7) % 300) + 'px'; requestAnimationFrame(step); };
		requestAnimationFrame(step);
	})()`)
	wait := func(sel string, frames int) *dom.Element {
		t.Helper()
		el, err := dom.WaitActionable(testCtx(t), p, dom.ActionRequest{Target: dom.ParseTarget(sel), Action: dom.ActionClick, Timeout: short, StableFrames: frames})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { el.Release(testCtx(t), p) })
		return el
	}
	if el := wait("#scripted", 0); el.AutoForced {
		t.Errorf("without a stability check: %+v", el.Forced)
	}
	el := wait("#scripted", 3)
	var u *dom.UnstableError
	if !el.AutoForced || !errors.As(el.Forced, &u) {
		t.Errorf("with 3 frames: forced %v, %v", el.AutoForced, el.Forced)
	}
	if el := wait("#save", 3); el.AutoForced {
		t.Errorf("a still button with 3 frames: %v", el.Forced)
	}
}
