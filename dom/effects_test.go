package dom_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/page"
)

// closeTabs closes tabs a test's clicks opened.
func closeTabs(t *testing.T, tabs []page.NewTab) {
	t.Helper()
	for _, tab := range tabs {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		proto.TargetCloseTarget{TargetID: tab.TargetID}.Do(ctx, browser.Conn.Browser())
		cancel()
	}
}

// A click reports the URL change it caused: a cross-document navigation
// (after the new document is ready), a pushState or replaceState route
// change, one a router commits a little after the click; not a fragment
// change, and nothing for a click that does not navigate.
func TestClickNavigation(t *testing.T) {
	cases := []struct {
		id        string
		navigated bool
		urlSuffix string
	}{
		{"away", true, "/nav2.html?from=away"},
		{"push", true, "/route/a"},
		{"replace", true, "/nav.html?tab=2"},
		{"late-push", true, "/route/late"},
		{"hash", false, ""},
		{"nothing", false, ""},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			p := openFixture(t, "nav.html")
			res := click(t, p, dom.ClickRequest{Target: "#" + c.id})
			if res.Navigated != c.navigated || !strings.HasSuffix(res.NewURL, c.urlSuffix) || (c.urlSuffix == "") != (res.NewURL == "") {
				t.Errorf("result = %+v, want navigated %v to …%s", *res, c.navigated, c.urlSuffix)
			}
			if res.Warning != "" || len(res.NewTabs) != 0 {
				t.Errorf("result = %+v", *res)
			}
			if c.id == "away" && eval[string](t, p, "document.title") != "Second page" {
				t.Error("the click returned before the new document was ready")
			}
		})
	}
}

// target=_blank and window.open are reported as new tabs with their URL,
// and this tab stays in front of its window, so it keeps rendering.
func TestClickNewTabs(t *testing.T) {
	for _, id := range []string{"blank", "open"} {
		t.Run(id, func(t *testing.T) {
			p := openFixture(t, "nav.html")
			res := click(t, p, dom.ClickRequest{Target: "#" + id})
			t.Cleanup(func() { closeTabs(t, res.NewTabs) })
			if len(res.NewTabs) != 1 || !strings.HasSuffix(res.NewTabs[0].URL, "/nav2.html?from="+id) || res.NewTabs[0].TargetID == "" {
				t.Fatalf("result = %+v", *res)
			}
			if res.Navigated {
				t.Errorf("the opener did not navigate: %+v", *res)
			}
			if got := eval[string](t, p, "document.visibilityState"); got != "visible" {
				t.Errorf("opener is %s after the click", got)
			}
			// A later click opens another tab; the first is not reported again.
			again := click(t, p, dom.ClickRequest{Target: "#" + id})
			t.Cleanup(func() { closeTabs(t, again.NewTabs) })
			if len(again.NewTabs) != 1 || again.NewTabs[0].TargetID == res.NewTabs[0].TargetID {
				t.Errorf("second click: %+v", again.NewTabs)
			}
		})
	}
}

// A tab that closed during the click, as the tab Chrome opens for a
// target=_blank download does, is not reported.
func TestClickTabClosedAtOnce(t *testing.T) {
	p := openFixture(t, "nav.html")
	res := click(t, p, dom.ClickRequest{Target: "#open-close"})
	t.Cleanup(func() { closeTabs(t, res.NewTabs) })
	if len(res.NewTabs) != 0 {
		t.Errorf("new tabs = %+v", res.NewTabs)
	}
}

// Only tabs this tab opened are reported, never one another agent opens
// while the click is being watched.
func TestClickIgnoresOtherAgentsTabs(t *testing.T) {
	p := openFixture(t, "nav.html")
	ctx := testCtx(t)
	if err := (proto.RuntimeAddBinding{Name: "testHook"}).Do(ctx, p.S); err != nil {
		t.Fatal(err)
	}
	hook := p.S.Listen(proto.EventRuntimeBindingCalled)
	defer hook.Close()
	if err := (proto.RuntimeEnable{}).Do(ctx, p.S); err != nil {
		t.Fatal(err)
	}
	foreign := make(chan string, 1)
	var foreignAt time.Time
	go func() {
		if _, err := hook.Next(ctx); err != nil {
			close(foreign)
			return
		}
		id, err := browser.CreateTarget(ctx, "about:blank")
		foreignAt = time.Now()
		if err != nil {
			t.Error(err)
		}
		foreign <- id
	}()
	res := click(t, p, dom.ClickRequest{Target: "#open-watched"})
	clicked := time.Now()
	t.Cleanup(func() { closeTabs(t, res.NewTabs) })
	other := <-foreign
	t.Cleanup(func() { closeTabs(t, []page.NewTab{{TargetID: other}}) })
	if !foreignAt.Before(clicked) {
		t.Log("the other agent's tab was opened after the click returned; the race was not exercised")
	}
	if len(res.NewTabs) != 1 || res.NewTabs[0].TargetID == other || !strings.Contains(res.NewTabs[0].URL, "from=watched") {
		t.Errorf("new tabs = %+v (other agent's tab %s)", res.NewTabs, other)
	}
}

// The same, deterministically, with the watch driven by hand: a tab opened
// by another connection between the subscription and the collection.
func TestEffectsFilterByOpener(t *testing.T) {
	p := openFixture(t, "nav.html")
	ctx := testCtx(t)
	fx, err := page.WatchEffects(ctx, p, true)
	if err != nil {
		t.Fatal(err)
	}
	defer fx.Close()
	other, err := browser.CreateTarget(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeTabs(t, []page.NewTab{{TargetID: other}}) })
	pt := centreOf(t, p, "open")
	mouse(t, p, pt.X, pt.Y)
	out := fx.Collect(ctx, dom.ClickGrace)
	t.Cleanup(func() { closeTabs(t, out.NewTabs) })
	if len(out.NewTabs) != 1 || out.NewTabs[0].TargetID == other {
		t.Errorf("new tabs = %+v, other %s", out.NewTabs, other)
	}
}

// mouse clicks at x, y with raw CDP events, outside dom.Click.
func mouse(t *testing.T, p *page.Page, x, y float64) {
	t.Helper()
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		ev := proto.InputDispatchMouseEvent{Type: typ, X: x, Y: y, Button: "left", ClickCount: 1}
		if err := ev.Do(testCtx(t), p.S); err != nil {
			t.Fatal(err)
		}
	}
}

// A navigation of the top document while the page is switched to a frame
// returns it to the top, since the frame died with the old document.
func TestClickNavigationResetsFrame(t *testing.T) {
	p := openFixture(t, "nav.html")
	run(t, p, `(() => {
		const f = document.createElement('iframe');
		f.srcdoc = '<a id="out" target="_top" href="' + location.origin + '/nav.html?away">out</a>';
		document.body.prepend(f);
		return new Promise((done) => f.onload = done);
	})()`)
	fp := enterFirstFrame(t, p)
	click(t, fp, dom.ClickRequest{Target: "#out"})
	if fp.Frame != nil {
		t.Errorf("Frame = %+v after a navigation of the top document", fp.Frame)
	}
}

// enterFirstFrame returns a page on p's tab evaluating in its first child
// frame.
func enterFirstFrame(t *testing.T, p *page.Page) *page.Page {
	t.Helper()
	var list *page.FrameList
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var err error
		if list, err = p.Frames(testCtx(t)); err != nil {
			t.Fatal(err)
		}
		if len(list.Frames) > 1 || time.Now().After(deadline) {
			break
		}
	}
	if len(list.Frames) < 2 {
		t.Fatalf("no child frame in %+v", list)
	}
	fp := p.Top()
	fp.Enter(list.Frames[1])
	return fp
}

// childFrameID is the id of the page's first iframe.
func childFrameID(t *testing.T, s *cdp.Session) string {
	t.Helper()
	tree, err := proto.PageGetFrameTree{}.Do(testCtx(t), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.FrameTree.ChildFrames) == 0 {
		t.Fatalf("no child frame: %+v", tree.FrameTree)
	}
	return tree.FrameTree.ChildFrames[0].Frame.ID
}

// Filling a field whose input handler submits its form reports the
// navigation; an ordinary fill reports none, and neither does a field
// whose change handler submits: change waits for Enter or for the field
// to lose focus, as it does for a person (each field gets a page of its
// own, so that leaving one for the next does not submit it).
func TestFillNavigation(t *testing.T) {
	var p *page.Page
	for _, id := range []string{"#onchange", "#plain"} {
		p = openFixture(t, "nav.html")
		res := fill(t, p, dom.FillRequest{Target: id, Value: "x"})
		if res.Navigated || res.NewURL != "" {
			t.Errorf("%s: %+v", id, *res)
		}
	}
	res := fill(t, p, dom.FillRequest{Target: "#q", Value: "shoes"})
	if !res.Navigated || !strings.HasSuffix(res.NewURL, "/nav2.html?q=shoes") {
		t.Errorf("submitting fill: %+v", *res)
	}
}

// waitAfter returns once the DOM has been quiet for the stable time, and
// says so when the page never settles.
func TestClickWaitAfter(t *testing.T) {
	p := openFixture(t, "nav.html")
	res := click(t, p, dom.ClickRequest{Target: "#mutate", WaitAfter: &dom.Settle{Stable: 200 * time.Millisecond}})
	if res.Settled != nil || res.Warning != "" {
		t.Errorf("result = %+v", *res)
	}
	if n := eval[int](t, p, "document.querySelectorAll('#added li').length"); n != 5 {
		t.Errorf("%d items when the click returned, want all 5", n)
	}
	res = click(t, p, dom.ClickRequest{Target: "#ticker", WaitAfter: &dom.Settle{Timeout: 400 * time.Millisecond}})
	if res.Settled == nil || *res.Settled || !strings.Contains(res.Warning, "still changing") {
		t.Errorf("never-settling page: %+v", *res)
	}
}

// A tab behind another in its window (here the opener, once the tab it
// opened is in front) is brought forward before a click, which then lands
// natively instead of stalling on a page that renders no frames.
func TestClickInHiddenTab(t *testing.T) {
	p := openFixture(t, "nav.html")
	res := click(t, p, dom.ClickRequest{Target: "#blank"})
	t.Cleanup(func() { closeTabs(t, res.NewTabs) })
	if len(res.NewTabs) != 1 {
		t.Fatalf("new tabs = %+v", res.NewTabs)
	}
	if err := (proto.TargetActivateTarget{TargetID: res.NewTabs[0].TargetID}).Do(testCtx(t), browser.Conn.Browser()); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, p, "document.visibilityState"); got != "hidden" {
		t.Fatalf("the opener is %s behind its new tab", got)
	}
	again := click(t, p, dom.ClickRequest{Target: "#nothing"})
	if again.Method != dom.MethodCDP || !again.TargetReceived {
		t.Errorf("result = %+v", *again)
	}
	if got := eval[string](t, p, "document.visibilityState"); got != "visible" {
		t.Errorf("the opener is still %s", got)
	}
}
