package page_test

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// loadedFrames waits until the page lists want frames.
func loadedFrames(t *testing.T, p *page.Page, want int) *page.FrameList {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for {
		list, err := p.Frames(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Frames) == want {
			return list
		}
		select {
		case <-ctx.Done():
			t.Fatalf("frames: %+v, want %d", list.Frames, want)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// A srcdoc frame inherits its parent's origin; its offset is where its
// content box starts in the tab's viewport, scroll included.
func TestFrameOffset(t *testing.T) {
	p, _ := evalPage(t, "frames-offset.html")
	list := loadedFrames(t, p, 2)
	f := list.Frames[1]
	if f.Name != "one" || f.CrossOrigin || f.Depth != 1 || f.ParentID != list.MainFrameID {
		t.Fatalf("frame: %+v", *f)
	}
	ctx := t.Context()
	var want struct{ X, Y float64 }
	err := p.CallJS(ctx, `() => {
		const f = document.querySelector('iframe'), r = f.getBoundingClientRect(), st = getComputedStyle(f);
		return {X: r.left + f.clientLeft + parseFloat(st.paddingLeft), Y: r.top + f.clientTop + parseFloat(st.paddingTop)};
	}`, &want)
	if err != nil {
		t.Fatal(err)
	}
	fp := p.Top()
	fp.Enter(f)
	x, y, err := fp.FrameOffset(ctx, false)
	if err != nil || math.Abs(x-want.X) > 0.5 || math.Abs(y-want.Y) > 0.5 {
		t.Errorf("offset (%v, %v), %v; want (%v, %v)", x, y, err, want.X, want.Y)
	}
	var got []any
	if err := fp.Main().CallJS(ctx, "() => [document.getElementById('p').textContent, window.frameMarker]", &got); err != nil || got[0] != "in the frame" || got[1] != 1.0 {
		t.Errorf("evaluating in the frame's main world: %v, %v", got, err)
	}
	if x, y, _ := p.FrameOffset(ctx, false); x != 0 || y != 0 {
		t.Errorf("the top document's offset is (%v, %v)", x, y)
	}
}

// Navigating the top document returns a page in a frame to the top.
func TestTopNavigationLeavesFrame(t *testing.T) {
	p, url := evalPage(t, "frames-offset.html")
	p.Enter(loadedFrames(t, p, 2).Frames[1])
	if _, err := page.Goto(t.Context(), p, url+"?again", ""); err != nil {
		t.Fatal(err)
	}
	if p.Frame != nil || p.Navigations() != 1 {
		t.Errorf("after goto: frame %+v, navigations %d", p.Frame, p.Navigations())
	}
}

// A frame whose main-world context the page never heard of (Runtime was
// enabled before the page started listening, so nothing was replayed)
// gets an isolated world: it sees the frame's DOM, not its globals.
func TestFrameWithoutContextGetsIsolatedWorld(t *testing.T) {
	s := browser.NewTab(t)
	ctx := t.Context()
	testbrowser.Navigate(t, s, testbrowser.Serve(t, "testdata").URL+"/frames-offset.html")
	if err := (proto.RuntimeEnable{}).Do(ctx, s); err != nil {
		t.Fatal(err)
	}
	p := page.New(s)
	f := loadedFrames(t, p, 2).Frames[1]
	p.Enter(f)
	var got []any
	if err := p.CallJS(ctx, "() => [document.getElementById('p').textContent, typeof window.frameMarker]", &got); err != nil {
		t.Fatal(err)
	}
	if got[0] != "in the frame" || got[1] != "undefined" {
		t.Errorf("in the isolated world: %v", got)
	}
}

// A frame inside an out-of-process iframe: found by id, evaluated in
// through the iframe's session, placed by two hops.
func TestFrameInsideOutOfProcessFrame(t *testing.T) {
	child := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/outer" {
			fmt.Fprint(w, `<title>outer</title><body style="margin:0"><div style="height:30px"></div><iframe src="/inner" style="border:0;margin-left:40px"></iframe>`)
			return
		}
		fmt.Fprint(w, `<title>inner</title><p>x</p>`)
	}))
	t.Cleanup(child.Close)
	port := child.Listener.Addr().(*net.TCPAddr).Port
	top := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<body style="margin:0"><div style="height:50px"></div><iframe src="http://localhost:%d/outer" style="border:0;width:400px;height:200px;margin-left:10px"></iframe>`, port)
	}))
	t.Cleanup(top.Close)
	s := browser.NewTab(t)
	testbrowser.Navigate(t, s, top.URL)
	p := page.New(s)
	list := loadedFrames(t, p, 3)
	inner := list.Frames[2]
	if inner.Depth != 2 || !inner.CrossOrigin {
		t.Fatalf("frames: %+v %+v %+v", *list.Frames[0], *list.Frames[1], *inner)
	}
	f, err := page.New(s).FindFrame(t.Context(), inner.ID)
	if err != nil || f.ID != inner.ID {
		t.Fatalf("FindFrame: %+v, %v", f, err)
	}
	fp := p.Top()
	fp.Enter(f)
	var title string
	if err := fp.CallJS(t.Context(), "() => document.title", &title); err != nil || title != "inner" {
		t.Errorf("title in the inner frame: %q, %v", title, err)
	}
	x, y, err := fp.FrameOffset(t.Context(), false)
	if err != nil || math.Abs(x-50) > 1 || math.Abs(y-80) > 1 {
		t.Errorf("offset (%v, %v), %v; want (50, 80)", x, y, err)
	}
}

// A frame that moves to a new document keeps being the frame evaluations
// run in: its new context is found, even by the first evaluation after.
func TestFrameNavigatesItself(t *testing.T) {
	p, url := evalPage(t, "frames-offset.html")
	fp := p.Top()
	fp.Enter(loadedFrames(t, p, 2).Frames[1])
	next := strings.TrimSuffix(url, "frames-offset.html") + "nav-a.html"
	if err := fp.CallJS(t.Context(), "(u) => { location.href = u; }", nil, next); err != nil {
		t.Fatal(err)
	}
	var got string
	for deadline := time.Now().Add(5 * time.Second); got != next && time.Now().Before(deadline); {
		if err := fp.CallJS(t.Context(), "() => location.href", &got); err != nil {
			t.Fatalf("after the frame navigated: %v", err)
		}
	}
	if got != next {
		t.Errorf("the frame is at %q, want %q", got, next)
	}
}

// Input at a point over an out-of-process frame's content, with nothing
// of the top document over it, should reach the frame; not so where the
// top document covers it, nor for a frame the tab's process renders.
func TestReachesFrame(t *testing.T) {
	child := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>oop</title><body style="margin:0"><p>x</p>`)
	}))
	t.Cleanup(child.Close)
	port := child.Listener.Addr().(*net.TCPAddr).Port
	top := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<body style="margin:0"><div style="position:fixed;left:0;top:0;width:50px;height:50px;background:red"></div>
<iframe src="http://localhost:%d/a" style="border:0;width:300px;height:150px;display:block"></iframe><iframe srcdoc="<p>same</p>" style="border:0;display:block"></iframe>
<iframe src="http://localhost:%[1]d/b" style="border:0;display:block;pointer-events:none"></iframe>`, port)
	}))
	t.Cleanup(top.Close)
	s := browser.NewTab(t)
	testbrowser.Navigate(t, s, top.URL)
	p := page.New(s)
	list := loadedFrames(t, p, 4)
	frame := func(url string) *page.Frame {
		for _, f := range list.Frames[1:] {
			if strings.HasSuffix(f.URL, url) {
				f, err := p.FindFrame(t.Context(), f.ID)
				if err != nil {
					t.Fatal(err)
				}
				return f
			}
		}
		t.Fatalf("no frame %s in %+v", url, list.Frames)
		return nil
	}
	for _, c := range []struct {
		url     string
		x, y    float64
		reaches bool
	}{{"/a", 100, 100, true}, {"/a", 10, 10, false}, {"srcdoc", 100, 200, false}, {"/b", 100, 400, false}} {
		f := frame(c.url)
		fp := p.Top()
		fp.Enter(f)
		if reaches, err := fp.ReachesFrame(t.Context(), [2]float64{c.x, c.y}); err != nil || reaches != c.reaches {
			t.Errorf("frame %s at (%v, %v): reaches %v, %v; want %v", f.URL, c.x, c.y, reaches, err, c.reaches)
		}
	}
}
