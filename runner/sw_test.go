package runner_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// Service workers end to end: a small PWA whose network-first worker
// caches its shell, served offline from that cache; its pass-through
// fetch failing offline without reaching the server; its console heard
// marked context "service-worker"; update and unregister.

// The tests of service workers do not run in parallel with other tests: a
// worker Chrome starts for a tab waits, paused, for the call's watch to
// set it up and resume it (runner/workers.go), within bounds of a second
// or two that a browser loaded by the tests beside them overruns, and a
// worker never resumed holds its page's navigation until the step times
// out.

// pwaServer serves testdata/pwa on an origin of its own, so that the
// worker registered there controls no other test's pages, with HTTP
// caching off, so that offline only the worker's cache can answer. It
// counts the requests it gets by path.
type pwaServer struct {
	*httptest.Server
	mu    sync.Mutex
	hits  map[string]int
	build int // sw.js ends with it: a new build is a new worker version
}

func newPWAServer(t *testing.T) *pwaServer {
	s := &pwaServer{hits: map[string]int{}}
	files := http.FileServer(http.Dir("testdata/pwa"))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		build := s.build
		s.mu.Unlock()
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Path {
		case "/api/data":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"notes":3}`)
		case "/sw.js":
			data, err := os.ReadFile(filepath.Join("testdata", "pwa", "sw.js"))
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprintf(w, "%s// build %d\n", data, build)
		default:
			files.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *pwaServer) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// pageRequests counts the requests of the page and its worker: all but
// those of sw.js, which Chrome makes itself to check for an update (after
// a navigation, at most daily) outside any emulated network.
func (s *pwaServer) pageRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for path, h := range s.hits {
		if path != "/sw.js" {
			n += h
		}
	}
	return n
}

func (s *pwaServer) newBuild() {
	s.mu.Lock()
	s.build++
	s.mu.Unlock()
}

// openPWA opens the PWA and waits until its worker controls the page; the
// worker is unregistered before the tab closes.
func openPWA(t *testing.T, c *cli, srv *pwaServer) string {
	t.Helper()
	tab := c.openTab(srv.URL + "/")
	t.Cleanup(func() { c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"serviceWorker":{"unregister":true}}]}`, tab)) })
	if v := c.value(t, tab, "swReady"); v != "controlled" {
		t.Fatalf("the worker never took control: %v", v)
	}
	return tab
}

func registrations(t *testing.T, out map[string]any) []map[string]any {
	t.Helper()
	raw, ok := out["registrations"].([]any)
	if !ok {
		t.Fatalf("no registrations list: %v", out)
	}
	var regs []map[string]any
	for _, r := range raw {
		regs = append(regs, r.(map[string]any))
	}
	return regs
}

// messagesOf returns a console listing's messages.
func messagesOf(out map[string]any) []map[string]any {
	var msgs []map[string]any
	raw, _ := out["messages"].([]any)
	for _, m := range raw {
		msgs = append(msgs, m.(map[string]any))
	}
	return msgs
}

func findMessage(msgs []map[string]any, text string) map[string]any {
	for _, m := range msgs {
		if m["text"] == text {
			return m
		}
	}
	return nil
}

// The PWA is listed, loads offline from its worker's cache with the
// server hearing nothing, its requests say so, and what the worker logs
// (during the call's own reload too) reaches the console marked
// "service-worker" while the page's own messages stay unmarked.
func TestServiceWorkerPWAOffline(t *testing.T) {
	// Not parallel: see the note on service workers above.
	c := newCLI(t)
	srv := newPWAServer(t)
	tab := openPWA(t, c, srv)

	outs := c.call(t, tab, `{"serviceWorker":true},{"console":true}`)
	regs := registrations(t, outs[0])
	want := map[string]any{"scope": srv.URL + "/", "scriptURL": srv.URL + "/sw.js", "status": "activated", "running": true, "controlling": true}
	if len(regs) != 1 || fmt.Sprint(regs[0]) != fmt.Sprint(want) {
		t.Fatalf("registrations: %v, want [%v]", regs, want)
	}
	msgs := messagesOf(outs[1])
	for _, text := range []string{"install: caching the shell", "activate"} {
		if m := findMessage(msgs, text); m == nil || m["context"] != "service-worker" {
			t.Errorf("worker's %q: %v in %v", text, m, msgs)
		}
	}
	if m := findMessage(msgs, "page: registering the worker"); m == nil || m["context"] != nil {
		t.Errorf("the page's own message: %v", m)
	}

	c.call(t, tab, `{"network":{"clear":true}},{"network":{"offline":true}}`)
	before := srv.pageRequests()
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"reload":true},{"getTitle":true}]}`, tab))
	if code != 0 || stepOutputs(t, res)[1]["output"].(map[string]any)["title"] != "Notes PWA" {
		t.Fatalf("offline reload: exit %d, %v", code, res)
	}
	if got := srv.pageRequests(); got != before {
		t.Errorf("offline, the server still got %d requests", got-before)
	}
	report, _ := res["console"].(map[string]any)
	if m := findMessage(messagesOf(report), "offline: served / from the cache"); m == nil || m["context"] != "service-worker" || m["level"] != "warning" {
		t.Errorf("the call's console report lacks the worker's warning: %v", report)
	}

	listing := c.call(t, tab, `{"network":true}`)[0]
	seen := map[string]bool{}
	for _, r := range listing["requests"].([]any) {
		req := r.(map[string]any)
		path := strings.TrimPrefix(req["url"].(string), srv.URL)
		if path != "/" && path != "/app.css" {
			continue
		}
		seen[path] = true
		if req["from"] != "service-worker" || num(req["status"]) != 200 || req["pending"] != nil {
			t.Errorf("%s offline: %v", path, req)
		}
	}
	if !seen["/"] || !seen["/app.css"] {
		t.Errorf("the offline reload's requests are not listed: %v", listing)
	}

	// Online again, the worker's pass-through reaches the server.
	c.call(t, tab, `{"network":{"offline":false}},{"reload":true}`)
	if srv.count("/") == 0 || srv.pageRequests() == before {
		t.Errorf("online again, the server heard nothing")
	}
}

// A network-first worker fails offline as it should: what it passes
// through to the network never reaches the server, whether the worker
// was running when offline went on, attached at the call's start, or
// started (paused, set up, resumed) by the very fetch.
func TestServiceWorkerPassThroughOffline(t *testing.T) {
	// Not parallel: see the note on service workers above.
	c := newCLI(t)
	srv := newPWAServer(t)
	tab := openPWA(t, c, srv)
	fetchData := `{"pageFunction":"fetch('/api/data').then(r => r.status, e => 'failed')"}`

	if out := c.call(t, tab, `{"network":{"offline":true}},`+fetchData); out[1]["value"] != "failed" {
		t.Errorf("offline in the same call: %v", out[1])
	}
	if out := c.call(t, tab, fetchData); out[0]["value"] != "failed" {
		t.Errorf("offline in the next call: %v", out[0])
	}
	stopWorkers(t, srv)
	if regs := registrations(t, c.call(t, tab, `{"serviceWorker":true}`)[0]); len(regs) != 1 || regs[0]["running"] != false {
		t.Fatalf("after stopping the worker: %v", regs)
	}
	if out := c.call(t, tab, fetchData); out[0]["value"] != "failed" {
		t.Errorf("offline, through a worker started by the fetch: %v", out[0])
	}
	if n := srv.count("/api/data"); n != 0 {
		t.Errorf("offline, the worker's fetch reached the server %d times", n)
	}
	if regs := registrations(t, c.call(t, tab, `{"serviceWorker":true}`)[0]); len(regs) != 1 || regs[0]["running"] != true {
		t.Errorf("after the fetch started the worker: %v", regs)
	}

	if out := c.call(t, tab, `{"network":{"offline":false}},`+fetchData); num(out[1]["value"]) != 200 || srv.count("/api/data") != 1 {
		t.Errorf("online again: %v, %d requests", out[1], srv.count("/api/data"))
	}
	if out := c.call(t, tab, `{"network":{"throttle":{"latency":400}}},{"pageFunction":"(async () => { const t = performance.now(); await fetch('/api/data'); return performance.now() - t })()"}`); num(out[1]["value"]) < 400 {
		t.Errorf("throttled, the worker's fetch took %v ms", out[1]["value"])
	}
	c.call(t, tab, `{"network":{"throttle":"off"}}`)
}

// stopWorkers stops the service workers of srv's tab, as Chrome does with
// an idle one.
func stopWorkers(t *testing.T, srv *pwaServer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	targets, err := proto.TargetGetTargets{}.Do(ctx, chromium(t).Conn.Browser())
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range targets.TargetInfos {
		if ti.Type != "page" || !strings.HasPrefix(ti.URL, srv.URL) {
			continue
		}
		s, err := proto.Attach(ctx, chromium(t).Conn, ti.TargetID)
		if err != nil {
			t.Fatal(err)
		}
		defer proto.Detach(context.Background(), s)
		if err := (proto.ServiceWorkerEnable{}).Do(ctx, s); err != nil {
			t.Fatal(err)
		}
		if err := (proto.ServiceWorkerStopAllWorkers{}).Do(ctx, s); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("no tab of the PWA")
}

// update finds a new build and installs it beside the active version;
// unregister removes the registration, warning that the page stays
// controlled until reloaded; a scope that is not registered is an error
// naming those that are.
func TestServiceWorkerUpdateAndUnregister(t *testing.T) {
	// Not parallel: see the note on service workers above.
	c := newCLI(t)
	srv := newPWAServer(t)
	tab := openPWA(t, c, srv)
	scope := srv.URL + "/"

	srv.newBuild()
	out := c.call(t, tab, `{"serviceWorker":{"update":true}}`)[0]
	regs := registrations(t, out)
	if fmt.Sprint(out["updated"]) != fmt.Sprint([]any{scope}) || len(regs) != 1 || regs[0]["status"] != "activated" ||
		(regs[0]["newVersion"] != "installing" && regs[0]["newVersion"] != "installed") {
		t.Errorf("update: %v", out)
	}
	if out := c.call(t, tab, `{"serviceWorker":{"update":"/"}}`)[0]; fmt.Sprint(out["updated"]) != fmt.Sprint([]any{scope}) {
		t.Errorf("update by path: %v", out)
	}

	// Chrome fetches the script itself, outside any emulated network: the
	// step says so rather than let it pass for an offline check.
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"network":{"offline":true}},{"serviceWorker":{"update":true}},{"network":{"offline":false}}]}`, tab))
	if steps := stepOutputs(t, res); code != 0 || len(steps) != 3 || !strings.Contains(fmt.Sprint(steps[1]["warning"]), "reached the network") {
		t.Errorf("update offline: exit %d, %v", code, res)
	}

	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"serviceWorker":{"unregister":"/elsewhere/"}}]}`, tab))
	if e := firstError(res); code != 1 || e["name"] != "StepValidationError" || !strings.Contains(e["error"].(string), scope) {
		t.Errorf("unknown scope: exit %d, %v", code, res)
	}

	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"serviceWorker":{"unregister":true}},{"serviceWorker":true}]}`, tab))
	steps := stepOutputs(t, res)
	if code != 0 || len(steps) != 2 {
		t.Fatalf("unregister: exit %d, %v", code, res)
	}
	if out := steps[0]["output"].(map[string]any); fmt.Sprint(out["unregistered"]) != fmt.Sprint([]any{scope}) ||
		!strings.Contains(fmt.Sprint(steps[0]["warning"]), "reloaded") {
		t.Errorf("unregister: %v", steps[0])
	}
	if regs := registrations(t, steps[1]["output"].(map[string]any)); len(regs) != 0 {
		t.Errorf("after unregister: %v", regs)
	}
}
