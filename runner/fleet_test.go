package runner_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpskill/cdpskill/keeper"
)

// withFleetKeepers gives c's calls keepers, as the binary's have; a
// fleet's browser's keeper ends with its server.
func (c *cli) withFleetKeepers() *cli {
	c.keeper = &keeper.Exe{Path: os.Args[0], Env: []string{beKeeper + "=1"}}
	return c
}

// fleetRun runs input with env, fails on an error exit, and returns the
// result.
func (c *cli) fleetRun(t *testing.T, env map[string]string, input string) map[string]any {
	t.Helper()
	res, code, out := c.runEnv(env, input)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", input, code, out)
	}
	return res
}

// noTokenIn fails when token is anywhere in the calls' files: registries,
// keepers' files and logs, tab files.
func noTokenIn(t *testing.T, dir, token string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil && strings.Contains(string(data), token) {
			t.Errorf("%s holds the token", path)
		}
		return nil
	})
}

// An agent on a browserless open-source server, as the issue tells it:
// five separate calls (open, read, click with its report, a second agent
// in parallel, close) reach the one browser its keeper holds between
// them; the server's 401, 429 and 404, provoked for real, and its job
// timeout cutting a call, each say who refused and why; closeTab of the
// last tab releases the browser; the token is nowhere but in the
// environment.
func TestBrowserless(t *testing.T) {
	t.Parallel()
	start := time.Now()
	srv := startBrowserless(t, map[string]string{"CONCURRENT": "5", "QUEUED": "0"})
	t.Logf("browserless up after %v", time.Since(start))
	c := newCLI(t).withFleetKeepers()
	envA := map[string]string{"BROWSERLESS_TOKEN": srv.token}
	envB := map[string]string{"BROWSERLESS_TOKEN": srv.token, "CDPSKILL_SESSION": "b", "CDPSKILL_PROVIDER": "browserless", "CDP_URL": srv.ws()}

	// 1. Open: a browser made on the server, its address in the
	// registry without the token.
	res := c.fleetRun(t, envA, fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"provider":"browserless","endpoint":%q}}]}`, fixture.URL+"/form.html", srv.ws()))
	tA := res["tab"].(string)
	entry := c.registry(t)[tA]
	if entry["provider"] != "browserless" || !strings.HasPrefix(entry["endpoint"].(string), srv.ws()+"/devtools/browser/") {
		t.Fatalf("registry entry %v", entry)
	}
	if ids := srv.browsers(t); len(ids) != 1 || !strings.HasSuffix(entry["endpoint"].(string), ids[0]) {
		t.Fatalf("the server runs %v, the registry names %v", ids, entry["endpoint"])
	}

	// 2. Read, twice: the same page, between calls too.
	for n := 1; n <= 2; n++ {
		res = c.fleetRun(t, envA, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"() => document.title + ':' + (window.__n = (window.__n || 0) + 1)"}]}`, tA))
		if got, want := stepOut(t, res, 0)["value"], fmt.Sprintf("Form fixture:%d", n); got != want {
			t.Fatalf("read %d: %v, want %s", n, got, want)
		}
	}

	// 3. Click, with its report.
	res = c.fleetRun(t, envA, fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{"label":"User name","value":"Ada"}},{"click":{"text":"Sign in"}}]}`, tA))
	if ch, _ := res["changes"].(map[string]any); ch == nil || !strings.Contains(fmt.Sprint(ch), "Hi Ada") {
		t.Fatalf("the click's report: %v", res)
	}

	// 4. A second agent (its own session, by CDPSKILL_PROVIDER and
	// CDP_URL) opens and clicks while the first reads: each in a browser
	// of its own.
	var wg sync.WaitGroup
	var resB map[string]any
	wg.Go(func() {
		resB = c.fleetRun(t, envB, fmt.Sprintf(`{"steps":[{"openTab":%q},{"fill":{"label":"User name","value":"Bea"}},{"click":{"text":"Sign in"}},{"pageFunction":"() => document.getElementById('out').textContent"}]}`, fixture.URL+"/form.html"))
	})
	res = c.fleetRun(t, envA, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"() => document.getElementById('out').textContent"}]}`, tA))
	wg.Wait()
	if got := stepOut(t, res, 0)["value"]; got != "Hi Ada" {
		t.Errorf("agent A read %v beside agent B", got)
	}
	tB := resB["tab"].(string)
	if got := stepOut(t, resB, 3)["value"]; got != "Hi Bea" {
		t.Errorf("agent B's click: %v", got)
	}
	if ids := srv.browsers(t); len(ids) != 2 {
		t.Fatalf("two agents, %d browsers: %v", len(ids), ids)
	}

	// A wrong token: the server's 401, in its words.
	_, code, out := c.runEnv(map[string]string{"BROWSERLESS_TOKEN": "wrong"}, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tA))
	if typ, msg := errorOf(decode(t, []byte(out))); code != 1 || typ != "CONNECTION" ||
		!strings.Contains(msg, "refused the token (HTTP 401 Unauthorized: Bad or missing authentication.)") || !strings.Contains(msg, "set BROWSERLESS_TOKEN") {
		t.Errorf("401: %s", out)
	}
	_, code, out = c.runEnv(map[string]string{"BROWSERLESS_TOKEN": "", "CDP_URL": ""}, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tA))
	if _, msg := errorOf(decode(t, []byte(out))); code != 1 || !strings.Contains(msg, "wants a token, and the call had none (HTTP 401") || !strings.Contains(msg, "set BROWSERLESS_TOKEN") {
		t.Errorf("401 without a token: %s", out)
	}

	// The server full: its 429, with the limits it states.
	var held []*websocket.Conn
	for range 3 { // the two keepers hold two of the five
		ws, _, err := websocket.DefaultDialer.Dial(entry["endpoint"].(string)+"?token="+srv.token, nil)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, ws)
	}
	_, code, out = c.runEnv(envA, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tA))
	if typ, msg := errorOf(decode(t, []byte(out))); code != 1 || typ != "CONNECTION" || !strings.Contains(msg, "is full or queueing (HTTP 429 Too Many Requests: Too many requests; it runs 5 of 5 concurrent connections and queues 0 of 0): retry later") {
		t.Errorf("429: %s", out)
	}
	for _, ws := range held {
		ws.Close()
	}
	srv.awaitRunning(t, 2)
	t.Logf("429: %s", out)

	// The server's job timeout cuts a call: said so, and the tab lives.
	envC := map[string]string{"BROWSERLESS_TOKEN": srv.token, "CDPSKILL_SESSION": "c"}
	res = c.fleetRun(t, envC, fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"provider":"browserless","endpoint":%q}}]}`, fixture.URL+"/hello.html", srv.ws()+"?timeout=3000"))
	tC := res["tab"].(string)
	cut := time.Now()
	res, code, out = c.runEnv(envC, fmt.Sprintf(`{"tab":%q,"timeout":15000,"steps":[{"wait":{"selector":"#never"}}]}`, tC))
	if e := firstError(res); code != 1 || e == nil || e["type"] != "CONNECTION" || !strings.Contains(e["error"].(string), "closed the connection after") ||
		!strings.Contains(e["error"].(string), "(its job timeout?)") || strings.Contains(e["error"].(string), "open a new tab") {
		t.Errorf("job timeout: %s", out)
	}
	if d := time.Since(cut); d > 10*time.Second {
		t.Errorf("the cut call ended after %v", d)
	}
	t.Logf("cut: %s", out)
	c.fleetRun(t, envC, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tC))

	// The server kills agent B's browser: its 404, and why.
	bID := strings.TrimPrefix(c.sessionRegistry(t, "b")[tB]["endpoint"].(string), srv.ws()+"/devtools/browser/")
	srv.api(t, "/kill/"+bID, nil)
	waitNoBrowser(t, srv, bID)
	c.awaitReleaseNote(t, "the server ended the connection that kept it")
	res, code, out = c.runEnv(envB, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tB))
	if typ, msg := errorOf(res); code != 1 || typ != "CONNECTION" || !strings.Contains(msg, "is gone (HTTP 404 Not Found: Couldn't locate browser") ||
		!strings.Contains(msg, "the server ended the connection that kept it") || strings.Contains(msg, "it was closed") {
		t.Errorf("404: %s", out)
	}
	t.Logf("404: %s", out)

	// A browser no call used for the idle time is released by its
	// keeper, which says so.
	// (Its token in the endpoint only: used, never shown, and the agent
	// told that later calls take it from the environment.)
	envD := map[string]string{"BROWSERLESS_TOKEN": srv.token, "CDPSKILL_SESSION": "d", "CDPSKILL_IDLE": "1s"}
	res, code, out = c.runEnv(map[string]string{"BROWSERLESS_TOKEN": "", "CDPSKILL_SESSION": "d", "CDPSKILL_IDLE": "1s"},
		fmt.Sprintf(`{"steps":[{"openTab":{"provider":"browserless","endpoint":%q}}]}`, srv.ws()+"?token="+srv.token))
	if code != 0 || strings.Contains(out, srv.token) || !strings.Contains(out, "the token came with the endpoint only: later calls on this tab read it from BROWSERLESS_TOKEN") {
		t.Errorf("a token in the endpoint: %s", out)
	}
	tD := res["tab"].(string)
	waitNoBrowser(t, srv, strings.TrimPrefix(c.sessionRegistry(t, "d")[tD]["endpoint"].(string), srv.ws()+"/devtools/browser/"))
	res, code, out = c.runEnv(envD, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tD))
	if _, msg := errorOf(res); code != 1 || !strings.Contains(msg, "is gone (HTTP 404") || !strings.Contains(msg, "cdpskill released it at") || !strings.Contains(msg, "after 1s with no call") {
		t.Errorf("idle: %s", out)
	}

	// 5. Close: the last tab releases the browser.
	res = c.fleetRun(t, envA, fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tA))
	if stepOut(t, res, 0)["released"] != true {
		t.Errorf("closeTab of the last tab: %v", res)
	}
	waitNoBrowser(t, srv, strings.TrimPrefix(entry["endpoint"].(string), srv.ws()+"/devtools/browser/"))
	c.fleetRun(t, envC, fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tC))
	noTokenIn(t, c.tmp, srv.token)
	t.Logf("TestBrowserless took %v", time.Since(start))
}

// waitNoBrowser waits until the server no longer runs browser id.
func waitNoBrowser(t *testing.T, srv *blServer, id string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		found := false
		for _, b := range srv.browsers(t) {
			found = found || b == id
		}
		if !found {
			return
		}
	}
	t.Fatalf("the server still runs browser %s", id)
}

// sessionRegistry is session's tab registry, by alias.
func (c *cli) sessionRegistry(t *testing.T, session string) map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.tmp, "cdp-skill", "sessions", session, "tabs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		Tabs map[string]map[string]any `json:"tabs"`
	}
	if err := json.Unmarshal(data, &reg); err != nil {
		t.Fatal(err)
	}
	return reg.Tabs
}

// awaitRunning waits until the server runs n connections at most.
func (s *blServer) awaitRunning(t *testing.T, n int) {
	t.Helper()
	var p struct{ Pressure struct{ Running int } }
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s.get("/pressure", &p) == nil && p.Pressure.Running <= n {
			return
		}
	}
	t.Fatalf("the server still runs %d connections", p.Pressure.Running)
}

// The per-call cost of a browser on a local browserless beside a local
// Chrome's, for a pageFunction and a click with its report: the issue's
// target is within about 20 ms. Run with
// go test ./runner -run '^$' -bench FleetCall -benchtime 40x.
func BenchmarkFleetCall(b *testing.B) {
	srv := startBrowserless(b, map[string]string{"CONCURRENT": "10", "QUEUED": "0", "DEBUG": "-*"}) // its logging costs a call 30 ms more
	c := newCLI(b).withFleetKeepers()
	env := map[string]string{"BROWSERLESS_TOKEN": srv.token}
	local := c.openTab(fixture.URL + "/form.html")
	res, code, out := c.runEnv(env, fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"provider":"browserless","endpoint":%q}}]}`, fixture.URL+"/form.html", srv.ws()))
	if code != 0 {
		b.Fatal(out)
	}
	remote := res["tab"].(string)
	b.Cleanup(func() { c.runEnv(env, fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, remote)) })
	for _, step := range []struct{ name, json string }{
		{"pageFunction", `{"pageFunction":"() => document.title"}`},
		{"click", `{"click":{"text":"Sign in"}}`},
	} {
		for _, where := range []struct{ name, tab string }{{"local", local}, {"browserless", remote}} {
			b.Run(step.name+"/"+where.name, func(b *testing.B) {
				input := fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, where.tab, step.json)
				for b.Loop() {
					if _, code, out := c.runEnv(env, input); code != 0 {
						b.Fatal(out)
					}
				}
			})
		}
	}
}

// openTab's provider and endpoint are checked before anything runs, and
// no message repeats a token.
func TestFleetValidation(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	for _, tc := range []struct {
		env        map[string]string
		input, has string
	}{
		{nil, `{"steps":[{"openTab":{"provider":"browserles","endpoint":"ws://h:3000?token=secret"}}]}`, `unknown provider "browserles": use one of browserbase, browserless, cdp, selenium, steel`},
		{nil, `{"steps":[{"openTab":{"provider":"browserless","endpoint":"ws://h:3000?token=secret","wsUrl":"ws://h:3000"}}]}`, `give "provider"/"endpoint" or "host"/"port"/"wsUrl", not both`},
		{nil, `{"steps":[{"openTab":{"provider":"browserless","endpoint":"ftp://h?token=secret"}}]}`, `ftp://h?token=*** is not a browserless server's URL`},
		{nil, `{"steps":[{"openTab":{"provider":"browserless","endpoint":"ws://h:3000/devtools/browser/x?token=secret"}}]}`, "is a browser's address, not its server's"},
		{map[string]string{"CDP_URL": ""}, `{"steps":[{"openTab":{"provider":"browserless"}}]}`, `provider "browserless" needs its server: give openTab an "endpoint"`},
		{map[string]string{"CDPSKILL_PROVIDER": "browserless", "CDP_URL": "gopher://h?token=secret"}, `{"steps":[{"openTab":true}]}`, "CDP_URL with CDPSKILL_PROVIDER: gopher://h?token=*** is not a browserless server's URL"},
		{map[string]string{"CDPSKILL_PROVIDER": "browserless", "CDP_URL": "ws://h:3000?token=secret"}, `{"steps":[{"listTabs":true}]}`, "no browserless browser of this session on ws://h:3000 yet: openTab makes one"},
		// A provider with a public API needs no CDP_URL to be looked for there;
		// one without says what its server looks like.
		{map[string]string{"CDPSKILL_PROVIDER": "steel", "CDP_URL": "", "STEEL_API_KEY": "secret"}, `{"steps":[{"listTabs":true}]}`, "no steel browser of this session on https://api.steel.dev yet: openTab makes one"},
		{map[string]string{"CDPSKILL_PROVIDER": "selenium", "CDP_URL": ""}, `{"steps":[{"listTabs":true}]}`, `provider "selenium" needs its server: give openTab an "endpoint" (http://grid:4444) or set CDP_URL`},
	} {
		res, code, out := c.runEnv(tc.env, tc.input)
		_, msg := errorOf(res) // found at validation
		if e := firstError(res); e != nil {
			msg, _ = e["error"].(string)
		}
		if code != 1 || !strings.Contains(msg, tc.has) {
			t.Errorf("%v %s: exit %d: %s", tc.env, tc.input, code, out)
		}
		noSecret(t, out)
	}
}

// A server at its concurrency limit queues a connection: the openTab
// whose browser's keeper it queued fails saying so, with the server's
// limits, and leaves no browser behind.
func TestBrowserlessQueued(t *testing.T) {
	t.Parallel()
	srv := startBrowserless(t, map[string]string{"CONCURRENT": "1", "QUEUED": "1"})
	c := newCLI(t).withFleetKeepers()
	start := time.Now()
	res, code, out := c.runEnv(map[string]string{"BROWSERLESS_TOKEN": srv.token}, fmt.Sprintf(`{"steps":[{"openTab":{"provider":"browserless","endpoint":%q}}]}`, srv.ws()))
	msg, _ := firstError(res)["error"].(string)
	if code != 1 || !strings.Contains(msg, "was closed, as nothing could keep it between calls") || !strings.Contains(msg, "took the connection but did not open it within") ||
		!strings.Contains(msg, "it runs 1 of 1 concurrent connections and queues 1 of 1") {
		t.Errorf("queued: %s", out)
	}
	t.Logf("queued after %v: %s", time.Since(start), msg)
	srv.awaitRunning(t, 0)
	if ids := srv.browsers(t); len(ids) != 0 {
		t.Errorf("a browser was left behind: %v", ids)
	}
}
