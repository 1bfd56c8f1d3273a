package page_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/pagetest"
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

// Emulation ends with the session that set it, the environment's
// permissions too: what the runner stores is applied again by the next
// call's session.
func TestEmulationEndsWithSessionAndReapplies(t *testing.T) {
	srv, _ := worldServer(t)
	p := page.New(browser.NewTab(t))
	navGoto(t, p, srv.URL+"/env-world.html", "load")
	ctx := navCtx(t, 30*time.Second)
	own := readWorld(t, p)
	iphone, _ := page.Device("iphone-se")
	offline := page.NetworkConditions{Offline: true}
	e := page.Emulation{Viewport: &iphone, Network: &offline}.WithEnvironment(page.Environment{
		ColorScheme: "dark", Locale: "de-DE", Timezone: "Europe/Berlin", Geolocation: &page.Geolocation{Latitude: 52.52, Longitude: 13.405}})
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
	// screen's orientation may flip back a moment before its width does,
	// a moment a loaded machine stretches.
	deadline := time.Now().Add(10 * time.Second)
	for s := readScreen(t, p2); s.Width == iphone.Width; s = readScreen(t, p2) {
		if time.Now().After(deadline) {
			t.Fatalf("the viewport outlived its session: %+v", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := page.SetNetworkConditions(ctx, p2, page.NetworkConditions{}); err != nil {
		t.Fatal(err) // the page's fetch of /echo needs the network; online is the default anyway
	}
	// The environment's overrides are cleared as asynchronously: wait for
	// them as for the viewport.
	var ended world
	for {
		ended = readWorld(t, p2)
		ended.Languages = own.Languages // kept by the document until it loads again (see TestEmulateEnvironment)
		if ended == own || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ended != own {
		t.Errorf("the environment outlived its session:\n got %+v\nwant %+v", ended, own)
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
	if err := page.SetNetworkConditions(ctx, p2, page.NetworkConditions{}); err != nil {
		t.Fatal(err)
	}
	if w := readWorld(t, p2); !w.Dark || w.Language != "de-DE" || w.TimeZone != "Europe/Berlin" || w.Where != "52.52,13.405 0" {
		t.Errorf("re-applied environment: %+v", w)
	}
}

// Chrome keeps permissions per browser context, not per session: when a
// session that set one detaches, every tab's are reset, those of tabs
// whose sessions still hold them too.
func TestEmulatePermissionsAreTheContexts(t *testing.T) {
	srv, _ := worldServer(t)
	p := page.New(browser.NewTab(t))
	navGoto(t, p, srv.URL+"/env-world.html", "load")
	ctx := navCtx(t, 10*time.Second)
	cam := page.Emulation{}.WithEnvironment(page.Environment{Permissions: map[string]string{"camera": "granted"}})
	if err := cam.Apply(ctx, p); err != nil {
		t.Fatal(err)
	}
	other := page.New(browser.NewTab(t))
	mic := page.Emulation{}.WithEnvironment(page.Environment{Permissions: map[string]string{"microphone": "granted"}})
	if err := mic.Apply(ctx, other); err != nil {
		t.Fatal(err)
	}
	if got := readWorld(t, p).Camera; got != "granted" {
		t.Fatalf("camera: %s", got)
	}
	if err := proto.Detach(ctx, other.S); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for readWorld(t, p).Camera == "granted" {
		if time.Now().After(deadline) {
			t.Fatal("the camera stayed granted after another session that set a permission detached: Chrome keeps them per session now")
		}
		time.Sleep(20 * time.Millisecond)
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

// world is what testdata/env-world.html's page says of its world.
type world struct {
	Dark, Light, Reduced, Forced, Print bool
	Language, Languages, Intl, TimeZone string
	Offset                              int
	Where, Geolocation, Camera          string
	Notifications                       string
	UserAgent, SentUserAgent            string
	SentLanguage                        string
}

// worldServer serves testdata, what a request sent (/echo), and a
// cacheable file that counts the requests that reached it (/cached).
func worldServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"userAgent": r.UserAgent(), "language": r.Header.Get("Accept-Language")})
	})
	mux.HandleFunc("/cached", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Write([]byte("cached"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &hits
}

func readWorld(t *testing.T, p *page.Page) world {
	t.Helper()
	return pagetest.Eval[world](t, p, "world()")
}

// fetchedTwice is how many of two fetches of a cacheable file reached
// the server.
func fetchedTwice(t *testing.T, p *page.Page, hits *atomic.Int32, tag string) int32 {
	t.Helper()
	before := hits.Load()
	pagetest.Eval[string](t, p, "(async () => { for (let i = 0; i < 2; i++) await (await fetch('/cached?"+tag+"')).text(); return 'done' })()")
	return hits.Load() - before
}

var berlin = page.Environment{
	ColorScheme: "dark", ReducedMotion: "reduce", ForcedColors: "active", Media: "print",
	Locale: "de-DE", Timezone: "Europe/Berlin",
	Geolocation: &page.Geolocation{Latitude: 52.52, Longitude: 13.405, Accuracy: 20},
	Permissions: map[string]string{"camera": "granted", "notifications": "denied"},
	UserAgent:   "Mozilla/5.0 (X11; Linux x86_64) Berlin/1.0",
	CPUThrottle: 2, Cache: new(bool),
}

// An environment is what the page sees at once: its media queries,
// language (navigator, Intl and the Accept-Language it sends), time zone
// (Intl and Date), position with the permission to read it, other
// permissions, user agent, and no cache. The zero environment gives the
// browser's own back.
func TestEmulateEnvironment(t *testing.T) {
	srv, hits := worldServer(t)
	p := page.New(browser.NewTab(t))
	navGoto(t, p, srv.URL+"/env-world.html", "load")
	ctx := navCtx(t, 20*time.Second)
	own := readWorld(t, p)
	if own.Dark || own.Print || own.Where == "52.52,13.405 20" || own.TimeZone == "Europe/Berlin" || own.Camera == "granted" {
		t.Fatalf("the browser's own world is already Berlin's: %+v", own)
	}
	if n := fetchedTwice(t, p, hits, "own"); n != 1 {
		t.Errorf("with the cache, two fetches of a cacheable file reached the server %d times", n)
	}

	to := page.Emulation{}.WithEnvironment(berlin)
	if err := page.Change(ctx, p, page.Emulation{}, to); err != nil {
		t.Fatal(err)
	}
	want := world{Dark: true, Reduced: true, Forced: true, Print: true,
		Language: "de-DE", Languages: "de-DE", Intl: "de-DE", TimeZone: "Europe/Berlin", Offset: -60,
		Where: "52.52,13.405 20", Geolocation: "granted", Camera: "granted", Notifications: "denied",
		UserAgent: berlin.UserAgent, SentUserAgent: berlin.UserAgent, SentLanguage: "de-DE"}
	if got := readWorld(t, p); got != want {
		t.Errorf("emulated:\n got %+v\nwant %+v", got, want)
	}
	if n := fetchedTwice(t, p, hits, "off"); n != 2 {
		t.Errorf("without the cache, two fetches of a cacheable file reached the server %d times", n)
	}
	if got := to.Summary(); got != "dark, reduced motion, forced colors, print, de-DE, Europe/Berlin, 52.52,13.405, camera granted, notifications denied, userAgent, CPU 2x slower, no cache" {
		t.Errorf("summary: %s", got)
	}

	// A change sends only what differs: light, and the rest stays.
	light := page.Emulation{}.WithEnvironment(berlin.With(page.Environment{ColorScheme: "light"}))
	if err := page.Change(ctx, p, to, light); err != nil {
		t.Fatal(err)
	}
	if got := readWorld(t, p); !got.Light || got.Dark || got.TimeZone != "Europe/Berlin" || got.Camera != "granted" {
		t.Errorf("light over Berlin: %+v", got)
	}

	if err := page.Change(ctx, p, light, page.Emulation{}); err != nil {
		t.Fatal(err)
	}
	// Chrome refreshes navigator.languages when a locale is set, not when
	// it ends: the document keeps the list until it loads again.
	got := readWorld(t, p)
	got.Languages = own.Languages
	if got != own {
		t.Errorf("back to the browser's own:\n got %+v\nwant %+v", got, own)
	}
	if n := fetchedTwice(t, p, hits, "on"); n != 1 {
		t.Errorf("with the cache again, two fetches reached the server %d times", n)
	}
	navGoto(t, p, srv.URL+"/env-world.html", "load")
	if got := readWorld(t, p); got != own {
		t.Errorf("reloaded:\n got %+v\nwant %+v", got, own)
	}
}

// What the browser cannot take, or would take wrong, is refused before
// anything is sent, naming what to write instead.
func TestEmulateEnvironmentInvalid(t *testing.T) {
	for _, tc := range []struct {
		env  page.Environment
		want string
	}{
		{page.Environment{ColorScheme: "blue"}, `colorScheme "blue": must be light or dark`},
		{page.Environment{ReducedMotion: "yes"}, "reduce or no-preference"},
		{page.Environment{Media: "tv"}, "screen or print"},
		{page.Environment{Locale: "de_DE"}, `did you mean "de-DE"?`},
		{page.Environment{Locale: "German"}, "BCP 47"},
		{page.Environment{Timezone: "Berlin"}, `did you mean "Europe/Berlin"?`},
		{page.Environment{Timezone: "america/new york"}, `did you mean "America/New_York"?`},
		{page.Environment{Timezone: "Mars/Olympus"}, "IANA time zone name"},
		{page.Environment{Geolocation: &page.Geolocation{Latitude: 91}}, "between -90 and 90"},
		{page.Environment{Geolocation: &page.Geolocation{Longitude: -181}}, "between -180 and 180"},
		{page.Environment{Permissions: map[string]string{"camra": "granted"}}, `permission "camra"`},
		{page.Environment{Permissions: map[string]string{"camera": "yes"}}, "granted, denied or prompt"},
		{page.Environment{CPUThrottle: 0.5}, "from 1 (full speed)"},
		{page.Environment{UserAgent: "a\nb"}, "one line"},
	} {
		err := tc.env.Validate()
		var opt *invalid.Option
		if !errors.As(err, &opt) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an invalid option saying %q", tc.env, err, tc.want)
		}
	}
	for _, ok := range []page.Environment{berlin, {Timezone: "UTC"}, {Timezone: "America/Argentina/Buenos_Aires"}, {Locale: "zh-Hant-TW"}} {
		if err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}
