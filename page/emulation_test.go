package page_test

import (
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// envPage opens testdata/file in a fresh tab.
func envPage(t *testing.T, file string) (*page.Page, string) {
	t.Helper()
	s := browser.NewTab(t)
	srv := testbrowser.Serve(t, "testdata")
	testbrowser.Navigate(t, s, srv.URL+"/"+file)
	return page.New(s), srv.URL
}

type screen struct {
	Width       int     `json:"w"`
	Height      int     `json:"h"`
	DPR         float64 `json:"dpr"`
	TouchPoints int     `json:"touch"`
	Coarse      bool    `json:"coarse"`
	Orientation string  `json:"orientation"`
}

func readScreen(t *testing.T, p *page.Page) screen {
	t.Helper()
	return navEval[screen](t, p, `{w: innerWidth, h: innerHeight, dpr: devicePixelRatio,
		touch: navigator.maxTouchPoints, coarse: matchMedia('(pointer: coarse)').matches,
		orientation: screen.orientation.type}`)
}

// Every preset applies and the page sees its size and pixel ratio.
func TestViewportEveryPreset(t *testing.T) {
	p, _ := envPage(t, "env-mobile.html")
	ctx := navCtx(t, 60*time.Second)
	for _, name := range page.DeviceNames() {
		d, _ := page.Device(name)
		got, err := page.SetViewport(ctx, p, d)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.DeviceScaleFactor != d.DeviceScaleFactor {
			t.Errorf("%s: reported scale %g", name, got.DeviceScaleFactor)
		}
		s := readScreen(t, p)
		if s.Width != d.Width || s.Height != d.Height || s.DPR != d.DeviceScaleFactor {
			t.Errorf("%s: page sees %dx%d@%g, want %dx%d@%g", name, s.Width, s.Height, s.DPR, d.Width, d.Height, d.DeviceScaleFactor)
		}
	}
}

func TestViewportTouchAndOrientation(t *testing.T) {
	p, _ := envPage(t, "env-mobile.html")
	ctx := navCtx(t, 10*time.Second)
	for _, tc := range []struct {
		device      string
		touch       bool
		orientation string
	}{
		{"iphone-15", true, "portrait-primary"},
		{"iPad_Pro_11-Landscape", true, "landscape-primary"},
		{"desktop-hd", false, ""},
		{"pixel-7", true, "portrait-primary"},
	} {
		d, ok := page.Device(tc.device)
		if !ok {
			t.Fatalf("no preset %s", tc.device)
		}
		if _, err := page.SetViewport(ctx, p, d); err != nil {
			t.Fatal(err)
		}
		s := readScreen(t, p)
		if (s.TouchPoints > 0) != tc.touch || s.Coarse != tc.touch {
			t.Errorf("%s: touch points %d, coarse pointer %v", tc.device, s.TouchPoints, s.Coarse)
		}
		if tc.orientation != "" && s.Orientation != tc.orientation {
			t.Errorf("%s: orientation %s", tc.device, s.Orientation)
		}
	}
	if err := page.ClearViewport(ctx, p); err != nil {
		t.Fatal(err)
	}
	if s := readScreen(t, p); s.Width == 393 || s.DPR != 1 || s.TouchPoints != 0 {
		t.Errorf("after ClearViewport: %+v", s)
	}
}

// A phone preset is the phone: its user agent, in the requests and to
// the page's scripts (with client hints saying mobile), and touch, which
// the page's feature detection sees from its next document on.
func TestViewportPhoneUserAgentAndTouch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "<!doctype html><title>ua</title><p id=ua>%s</p>", html.EscapeString(r.UserAgent()))
	}))
	t.Cleanup(srv.Close)
	p := page.New(browser.NewTab(t))
	ctx := navCtx(t, 20*time.Second)
	type seen struct {
		Served, UA, Platform string
		Mobile, TouchStart   bool
		TouchPoints          int
		Coarse               bool
	}
	look := func() seen {
		navGoto(t, p, srv.URL, "load")
		return navEval[seen](t, p.Main(), `{Served: document.getElementById('ua').textContent, UA: navigator.userAgent,
			Platform: navigator.platform, Mobile: navigator.userAgentData ? navigator.userAgentData.mobile : null,
			TouchStart: 'ontouchstart' in window, TouchPoints: navigator.maxTouchPoints,
			Coarse: matchMedia('(pointer: coarse)').matches}`)
	}
	desktop := look()
	for _, tc := range []struct{ device, ua, platform string }{
		{"iphone-15", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "iPhone"},
		{"pixel-7", "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", "Linux armv8l"},
	} {
		d, _ := page.Device(tc.device)
		if _, err := page.SetViewport(ctx, p, d); err != nil {
			t.Fatal(err)
		}
		got := look()
		want := seen{Served: tc.ua, UA: tc.ua, Platform: tc.platform, Mobile: true, TouchStart: true, TouchPoints: 5, Coarse: true}
		if got != want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.device, got, want)
		}
	}
	// A desktop preset keeps the browser's own user agent, and no touch.
	d, _ := page.Device("desktop-hd")
	if _, err := page.SetViewport(ctx, p, d); err != nil {
		t.Fatal(err)
	}
	if got := look(); got != desktop || got.TouchStart || got.Mobile {
		t.Errorf("desktop preset after a phone:\n got %+v\nwant %+v", got, desktop)
	}
	d, _ = page.Device("iphone-se")
	if _, err := page.SetViewport(ctx, p, d); err != nil {
		t.Fatal(err)
	}
	if err := page.ClearViewport(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got := look(); got != desktop {
		t.Errorf("cleared:\n got %+v\nwant %+v", got, desktop)
	}
}

func TestViewportCustomAndInvalid(t *testing.T) {
	p, _ := envPage(t, "env-mobile.html")
	ctx := navCtx(t, 10*time.Second)
	got, err := page.SetViewport(ctx, p, page.DeviceMetrics{Width: 640, Height: 480})
	if err != nil {
		t.Fatal(err)
	}
	if got.DeviceScaleFactor != 1 {
		t.Errorf("default scale factor %g", got.DeviceScaleFactor)
	}
	if s := readScreen(t, p); s.Width != 640 || s.Height != 480 {
		t.Errorf("page sees %+v", s)
	}
	for _, m := range []page.DeviceMetrics{{Width: 0, Height: 10}, {Width: 20000, Height: 10}, {Width: 10, Height: 10, DeviceScaleFactor: -1}} {
		var pe *invalid.Option
		if _, err := page.SetViewport(ctx, p, m); !errors.As(err, &pe) {
			t.Errorf("%+v: got %v", m, err)
		}
	}
}

// Emulation ends with the session that set it: what the runner stores is
// applied again by the next call's session.
func TestEmulationEndsWithSessionAndReapplies(t *testing.T) {
	p, _ := envPage(t, "env-mobile.html")
	ctx := navCtx(t, 10*time.Second)
	iphone, _ := page.Device("iphone-se")
	offline := page.NetworkConditions{Offline: true}
	e := page.Emulation{Viewport: &iphone, Network: &offline}
	if err := e.Apply(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := proto.Detach(ctx, p.S); err != nil {
		t.Fatal(err)
	}
	s2, err := proto.Attach(ctx, browser.Conn, p.S.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	p2 := page.New(s2)
	// The renderer learns of the cleared override asynchronously: the
	// screen's orientation may flip back a moment before its width does.
	deadline := time.Now().Add(3 * time.Second)
	for s := readScreen(t, p2); s.Width == iphone.Width; s = readScreen(t, p2) {
		if time.Now().After(deadline) {
			t.Fatalf("the viewport outlived its session: %+v", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := e.Apply(ctx, p2); err != nil {
		t.Fatal(err)
	}
	if s := readScreen(t, p2); s.Width != iphone.Width || s.DPR != iphone.DeviceScaleFactor {
		t.Errorf("re-applied viewport: %+v", s)
	}
	if online := navEval[bool](t, p2, "navigator.onLine"); online {
		t.Error("re-applied offline, but the page is online")
	}
}

// Offline makes fetches fail; the zero conditions bring the network back.
func TestNetworkConditionsOffline(t *testing.T) {
	p, _ := envPage(t, "env-plain.html")
	ctx := navCtx(t, 10*time.Second)
	fetchResult := func() string {
		return navEval[string](t, p, "fetch('/env-plain.html?' + Math.random()).then(r => 'status ' + r.status, e => String(e))")
	}
	if got := fetchResult(); got != "status 200" {
		t.Fatalf("online fetch: %s", got)
	}
	if err := page.SetNetworkConditions(ctx, p, page.NetworkConditions{Offline: true}); err != nil {
		t.Fatal(err)
	}
	if got := fetchResult(); got != "TypeError: Failed to fetch" {
		t.Errorf("offline fetch: %s", got)
	}
	if err := page.SetNetworkConditions(ctx, p, page.NetworkConditions{}); err != nil {
		t.Fatal(err)
	}
	if got := fetchResult(); got != "status 200" {
		t.Errorf("fetch back online: %s", got)
	}
}

// Throttling slows a request down by at least its latency.
func TestNetworkConditionsThrottle(t *testing.T) {
	p, _ := envPage(t, "env-plain.html")
	ctx := navCtx(t, 20*time.Second)
	if err := page.SetNetworkConditions(ctx, p, page.NetworkConditions{Latency: 400}); err != nil {
		t.Fatal(err)
	}
	ms := navEval[float64](t, p, "(async () => { const t = performance.now(); await (await fetch('/env-plain.html?' + Math.random())).text(); return performance.now() - t; })()")
	if ms < 400 {
		t.Errorf("a request under 400 ms latency took %.0f ms", ms)
	}
	slow, ok := page.ThrottlePreset("Slow_3G")
	if !ok || slow.Latency != 2000 || slow.Download != 50000 || slow.Throttle != "slow-3g" {
		t.Errorf("slow-3g preset: %+v %v", slow, ok)
	}
	if err := page.SetNetworkConditions(ctx, p, page.NetworkConditions{Latency: -1}); err == nil {
		t.Error("negative latency accepted")
	}
}
