package runner_test

import (
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// The capture and environment steps end to end, each call on its own as
// a process's would be: screenshots and PDFs land in $TMPDIR/cdp-skill, the console
// step sees what the page logged before the call, the network log
// carries requests from one call to the next.

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

func TestScreenshotStepEndToEnd(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/capture-long.html")
	dir := filepath.Join(c.tmp, "cdp-skill")

	outs := c.call(t, tab, `{"screenshot":true},{"screenshot":true},{"pageFunction":"[innerWidth, innerHeight]"}`)
	first, second := outs[0], outs[1]
	if first["path"] != filepath.Join(dir, tab+".shot1.png") || second["path"] != filepath.Join(dir, tab+".shot2.png") {
		t.Errorf("default paths %v, %v", first["path"], second["path"])
	}
	size, _ := outs[2]["value"].([]any)
	if len(size) != 2 || num(first["width"]) != num(size[0]) || num(first["height"]) != num(size[1]) || first["format"] != "png" {
		t.Errorf("viewport shot %v, viewport %v", first, outs[2])
	}
	f, err := os.Open(first["path"].(string))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(f)
	f.Close()
	if err != nil || cfg.Width != num(first["width"]) {
		t.Errorf("file: %v %+v", err, cfg)
	}

	outs = c.call(t, tab, `{"screenshot":{"fullPage":true,"path":"full.jpg","quality":60}},
		{"screenshot":{"selector":"#target","padding":4,"format":"webp"}}`)
	// The whole page fits a vision model: 1568 px tall; fullResolution
	// keeps its 3000.
	if full := outs[0]; full["path"] != filepath.Join(dir, "full.jpg") || full["format"] != "jpeg" || num(full["height"]) != 1568 || full["scale"] == nil {
		t.Errorf("full page: %v", full)
	}
	if full := c.call(t, tab, `{"screenshot":{"fullPage":true,"fullResolution":true}}`)[0]; num(full["height"]) != 3000 || full["scale"] != nil {
		t.Errorf("full page at full resolution: %v", full)
	}
	if el := outs[1]; num(el["width"]) != 208 || num(el["height"]) != 108 || el["format"] != "webp" || !strings.HasSuffix(el["path"].(string), ".webp") {
		t.Errorf("element: %v", el)
	}

	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"makeTall()"},{"screenshot":{"fullPage":true}}]}`, tab))
	e := firstError(res)
	if code != 1 || e == nil || e["type"] != "EXECUTION" || !strings.Contains(e["error"].(string), "16384") {
		t.Errorf("a 22,000 px page: exit %d, %v", code, res)
	}
}

// A phone at 3 device pixels per CSS pixel gives a small image a model
// reads: 1568 px on its long side, with the scale that maps it back to
// the page's CSS pixels (this page has no viewport meta tag, so the phone
// lays it out 980 px wide and zooms out); the call's own screenshot too.
func TestScreenshotOfAPhone(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/capture-long.html")
	res := c.act(t, tab, `{"viewport":"iphone-15"},{"pageFunction":"innerWidth"},{"screenshot":true},{"screenshot":{"fullResolution":true}},{"click":"#target"}`)
	outs := stepOutputs(t, res)
	css, _ := outs[1]["output"].(map[string]any)["value"].(float64)
	shot, _ := outs[2]["output"].(map[string]any)
	full, _ := outs[3]["output"].(map[string]any)
	scaled := func(m map[string]any) bool {
		s, _ := m["scale"].(float64)
		return math.Abs(s-float64(num(m["width"]))/css) < 0.002
	}
	if num(shot["height"]) != 1568 || num(shot["width"]) > 1568 || !scaled(shot) {
		t.Errorf("phone shot (%g CSS px wide): %v", css, shot)
	}
	if num(full["width"]) != 393*3 || num(full["height"]) != 852*3 || !scaled(full) {
		t.Errorf("phone shot at full resolution: %v", full)
	}
	f, err := os.Open(res["screenshot"].(string))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(f)
	f.Close()
	if err != nil || cfg.Height != 1568 || res["screenshotScale"] == nil {
		t.Errorf("the call's screenshot: %v %+v, scale %v", err, cfg, res["screenshotScale"])
	}
}

func TestPDFStepEndToEnd(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/capture-print.html")
	outs := c.call(t, tab, `{"pdf":"doc"},{"pdf":{"landscape":true,"pageRanges":"2-3"}}`)
	doc, some := outs[0], outs[1]
	if doc["path"] != filepath.Join(c.tmp, "cdp-skill", "doc.pdf") || num(doc["pages"]) != 3 || doc["valid"] != true {
		t.Errorf("doc: %v", doc)
	}
	if some["path"] != filepath.Join(c.tmp, "cdp-skill", tab+".print1.pdf") || num(some["pages"]) != 2 {
		t.Errorf("ranges: %v", some)
	}
	data, err := os.ReadFile(doc["path"].(string))
	if err != nil || len(data) != num(doc["size"]) || !strings.HasPrefix(string(data), "%PDF-") {
		t.Errorf("file: %v, %d bytes, size %v", err, len(data), doc["size"])
	}
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pdf":{"pageRanges":"5-1"}}]}`, tab))
	if typ, _ := errorOf(res); typ != "VALIDATION" {
		t.Errorf("a backwards range: %v", res)
	}
}

// What the page logged before the call comes back through Runtime.enable's
// replay; clear makes Chrome forget it for later calls too.
func TestConsoleStepAcrossCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/capture-console.html")

	out := c.call(t, tab, `{"console":true}`)[0]
	var texts []string
	for _, m := range out["messages"].([]any) {
		texts = append(texts, m.(map[string]any)["text"].(string))
	}
	want := []string{"loaded {userId: 123, roles: Array(2)}", "deprecated api", "Uncaught Error: load failure"}
	if strings.Join(texts, "|") != strings.Join(want, "|") || num(out["total"]) != 3 {
		t.Errorf("replayed messages %q, want %q", texts, want)
	}

	outs := c.call(t, tab, `{"pageFunction":"console.error('now')"},{"console":{"level":"error","stackTrace":true}}`)
	errs := outs[1]["messages"].([]any)
	if len(errs) != 2 || errs[1].(map[string]any)["text"] != "now" {
		t.Errorf("errors: %v", errs)
	}
	if st := errs[0].(map[string]any)["stack"]; st == nil {
		t.Errorf("no stack with stackTrace: %v", errs[0])
	}

	c.call(t, tab, `{"console":{"clear":true}}`)
	if out := c.call(t, tab, `{"console":true}`)[0]; num(out["total"]) != 0 {
		t.Errorf("after clear, the next call sees %v", out)
	}

	out = c.call(t, tab, `{"pageFunction":"flood(30)"},{"console":true}`)[1]
	file, _ := out["file"].(string)
	if file != filepath.Join(c.tmp, "cdp-skill", tab+".console.json") || num(out["showing"]) != 30 {
		t.Fatalf("no spill: %v", out)
	}
	var all []map[string]any
	data, _ := os.ReadFile(file)
	if err := json.Unmarshal(data, &all); err != nil || len(all) != 30 || len(all[29]["text"].(string)) != 704 {
		t.Errorf("spilled file: %v, %d messages", err, len(all))
	}
}

// The network log outlives the call that saw the requests; offline makes
// the page's fetches fail until it is turned off.
func TestNetworkStepEndToEnd(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/gone"
	l.Close()

	fetches := fmt.Sprintf(`Promise.all(['/hello.html', '/missing.json', %q].map(u => fetch(u).then(r => r.text(), e => String(e))))`, dead)
	outs := c.call(t, tab, fmt.Sprintf(`{"network":{"clear":true}},{"pageFunction":%q},{"network":{"failed":true}}`, fetches))
	failed := outs[2]["requests"].([]any)
	if len(failed) != 2 || !strings.HasSuffix(failed[0].(map[string]any)["url"].(string), "/missing.json") ||
		num(failed[0].(map[string]any)["status"]) != 404 || !strings.Contains(failed[1].(map[string]any)["error"].(string), "CONNECTION_REFUSED") {
		t.Errorf("failed requests: %v", failed)
	}

	out := c.call(t, tab, `{"network":{"filter":"/hello.html","type":"fetch"}}`)[0]
	if reqs := out["requests"].([]any); len(reqs) != 1 || num(reqs[0].(map[string]any)["status"]) != 200 {
		t.Errorf("the next call's listing: %v", out)
	}

	// The call that made them says so itself, 4xx and refused alike.
	res := c.act(t, tab, fmt.Sprintf(`{"pageFunction":%q}`, fetches))
	if errs := jsonText(res["network"]); !strings.Contains(errs, `"status":404`) || !strings.Contains(errs, "CONNECTION_REFUSED") ||
		!strings.HasPrefix(errs, `{"errors":[`) {
		t.Errorf("the call's network report: %s", errs)
	}

	outs = c.call(t, tab, `{"network":{"offline":true}},
		{"pageFunction":"fetch('/hello.html?' + Math.random()).then(r => 'online', e => 'offline')"},
		{"network":{"offline":false}},
		{"pageFunction":"fetch('/hello.html?' + Math.random()).then(r => 'online', e => 'offline')"}`)
	if outs[0]["offline"] != true || outs[1]["value"] != "offline" || outs[2]["offline"] != false || outs[3]["value"] != "online" {
		t.Errorf("offline: %v", outs)
	}
	if _, err := os.Stat(filepath.Join(c.tmp, "cdp-skill", tab+".emulation.json")); !os.IsNotExist(err) {
		t.Errorf("turning offline off left stored emulation: %v", err)
	}
}

func TestViewportCookiesStorageEndToEnd(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	// Cookies are the browser's, by host whatever the port, and storage
	// is the origin's: a host and origin of this test's own, so that the
	// tests running beside it neither see nor clear them.
	own := strings.Replace(testbrowser.Serve(t, "testdata").URL, "127.0.0.1", "localhost", 1)
	tab := c.openTab(own + "/hello.html")
	outs := c.call(t, tab, `{"viewport":"iphone-se"},{"pageFunction":"[screen.width, devicePixelRatio, navigator.maxTouchPoints > 0]"},
		{"cookies":{"set":[{"name":"sid","value":"abc","expires":"1d"}]}},{"cookies":true},
		{"storage":{"local":{"set":{"k":"v"},"get":true}}},
		{"viewport":"reset"}`)
	if vp := outs[0]; num(vp["width"]) != 375 || vp["deviceScaleFactor"] != 2.0 || vp["mobile"] != true {
		t.Errorf("viewport: %v", vp)
	}
	if v := fmt.Sprint(outs[1]["value"]); v != "[375 2 true]" {
		t.Errorf("page sees %s", v)
	}
	cookies := outs[3]["cookies"].([]any)
	if len(cookies) != 1 || cookies[0].(map[string]any)["value"] != "abc" {
		t.Errorf("cookies: %v", outs[3])
	}
	if local := outs[4]["local"].(map[string]any); num(local["count"]) != 1 || local["items"].(map[string]any)["k"] != "v" {
		t.Errorf("storage: %v", outs[4])
	}
	c.call(t, tab, `{"cookies":{"clear":true}}`)
}

// Emulation lasts across calls: the next call's session applies again what
// Chrome ended when the last one detached.
func TestEmulationLastsAcrossCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	c.call(t, tab, `{"viewport":"pixel-7"},{"network":{"offline":true}}`)
	outs := c.call(t, tab, `{"pageFunction":"[screen.width, navigator.onLine]"}`)
	if v := fmt.Sprint(outs[0]["value"]); v != "[412 false]" {
		t.Errorf("the next call sees %s", v)
	}
	c.call(t, tab, `{"viewport":"reset"},{"network":{"offline":false}}`)
	outs = c.call(t, tab, `{"pageFunction":"[screen.width === 412, navigator.onLine]"}`)
	if v := fmt.Sprint(outs[0]["value"]); v != "[false true]" {
		t.Errorf("after reset the next call sees %s", v)
	}
}

// slowServer answers /api/slow after ms milliseconds (its headers first
// with stream), and closes ended[name] once it has answered.
type slowServer struct {
	*httptest.Server
	mu    sync.Mutex
	ended map[string]chan struct{}
}

func newSlowServer(t *testing.T) *slowServer {
	s := &slowServer{ended: map[string]chan struct{}{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/slow" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<!doctype html><title>slow</title><p>Slow API")
			return
		}
		q := r.URL.Query()
		ms, _ := strconv.Atoi(q.Get("ms"))
		if q.Has("stream") {
			w.WriteHeader(http.StatusCreated)
			w.(http.Flusher).Flush()
		}
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
			fmt.Fprint(w, "done")
		case <-r.Context().Done():
		}
		close(s.endedChan(q.Get("name")))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *slowServer) endedChan(name string) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended[name] == nil {
		s.ended[name] = make(chan struct{})
	}
	return s.ended[name]
}

func (s *slowServer) await(t *testing.T, name string) {
	t.Helper()
	select {
	case <-s.endedChan(name):
	case <-time.After(10 * time.Second):
		t.Fatalf("the server never answered %s", name)
	}
}

// A request the call that started it did not see end is not pending in
// later listings once it ended; an answered request still receiving its
// body shows its status and receiving, never pending; clear answers how
// many requests it removed.
func TestNetworkEndsAcrossCallsAndClear(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	srv := newSlowServer(t)
	tab := c.openTab(srv.URL + "/")
	// The call ends with gap waiting for its answer and stream answered,
	// its body still coming.
	c.call(t, tab, `{"network":{"clear":true}},{"pageFunction":"fetch('/api/slow?name=gap&ms=300').then(r => r.text()); fetch('/api/slow?name=stream&ms=4000&stream=1').then(r => { r.text(); return r.status })"}`)
	srv.await(t, "gap")
	// The server has answered; Chrome's account of it follows.
	var got map[string]map[string]any
	for deadline := time.Now().Add(5 * time.Second); ; {
		got = map[string]map[string]any{}
		for _, r := range c.call(t, tab, `{"network":{"filter":"/api/slow"}}`)[0]["requests"].([]any) {
			req := r.(map[string]any)
			name, _, _ := strings.Cut(strings.TrimPrefix(req["url"].(string), srv.URL+"/api/slow?name="), "&")
			got[name] = req
		}
		if got["gap"]["pending"] == nil || time.Now().After(deadline) {
			break
		}
	}
	if r := got["gap"]; r == nil || num(r["status"]) != 200 || r["pending"] != nil || r["receiving"] != nil || r["from"] != "network" {
		t.Errorf("ended between calls: %v", r)
	}
	if r := got["stream"]; r == nil || num(r["status"]) != 201 || r["pending"] != nil || r["receiving"] != true {
		t.Errorf("answered, still receiving: %v", r)
	}

	out := c.call(t, tab, `{"network":{"clear":true}},{"network":true}`)
	if num(out[0]["cleared"]) < 2 || out[0]["requests"] != nil || num(out[1]["total"]) != 0 {
		t.Errorf("clear answered %v, then the listing %v", out[0], out[1])
	}
	srv.await(t, "stream")
}
