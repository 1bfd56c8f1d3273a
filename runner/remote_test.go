package runner_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// wsProxy stands in for a fleet gateway: websockets only (no /json
// endpoints), each must carry ?token=secret, and each is pumped to the
// upstream browser websocket frame by frame.
type wsProxy struct {
	srv   *httptest.Server
	mu    sync.Mutex
	conns []*websocket.Conn
}

func newWSProxy(t *testing.T, upstream string) *wsProxy {
	p := &wsProxy{}
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("token") != "secret" {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		if !websocket.IsWebSocketUpgrade(r) {
			http.NotFound(w, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		back, resp, err := websocket.DefaultDialer.DialContext(ctx, upstream, nil)
		cancel()
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		front, err := up.Upgrade(w, r, nil)
		if err != nil {
			back.Close()
			return
		}
		p.mu.Lock()
		p.conns = append(p.conns, front, back)
		p.mu.Unlock()
		go pump(front, back)
		go pump(back, front)
	}))
	t.Cleanup(p.kill)
	return p
}

func pump(dst, src *websocket.Conn) {
	defer dst.Close()
	defer src.Close()
	for {
		mt, data, err := src.ReadMessage()
		if err != nil {
			return
		}
		if err := dst.WriteMessage(mt, data); err != nil {
			return
		}
	}
}

// url is the gateway's browser websocket URL with token.
func (p *wsProxy) url(token string) string {
	return "ws" + strings.TrimPrefix(p.srv.URL, "http") + "/devtools/browser?token=" + token
}

// kill stops the gateway and drops every connection through it.
func (p *wsProxy) kill() {
	p.srv.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// mustRun runs input with env, fails on an error exit and on any output
// that shows the token, and returns the result.
func (c *cli) mustRun(t *testing.T, env map[string]string, input string) map[string]any {
	t.Helper()
	res, code, out := c.runEnv(env, input)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", input, code, out)
	}
	noSecret(t, out)
	return res
}

func noSecret(t *testing.T, out string) {
	t.Helper()
	if strings.Contains(out, "secret") {
		t.Errorf("the output shows the token: %s", out)
	}
}

func stepOut(t *testing.T, res map[string]any, i int) map[string]any {
	t.Helper()
	o, _ := stepOutputs(t, res)[i]["output"].(map[string]any)
	return o
}

func pageIDs(t *testing.T, conn *cdp.Conn) map[string]bool {
	t.Helper()
	pages, err := chrome.ListPagesWS(t.Context(), conn)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, p := range pages {
		ids[p.ID] = true
	}
	return ids
}

func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// Remote browsers: tabs on two browsers, one reached by its websocket
// URL, the other only through a token-checking websocket gateway, driven
// in alternating calls with only "tab"; the registry's endpoint is what
// later calls dial; the gateway's death is a CONNECTION error naming it
// without its token; CDP_URL is the default; nothing is ever launched.
func TestRemoteBrowsers(t *testing.T) {
	t.Parallel()
	second, err := testbrowser.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(second.Stop)
	v1, err := chrome.GetVersion(t.Context(), chromium(t).Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := chrome.GetVersion(t.Context(), second.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	gw := newWSProxy(t, v2.WebSocketDebuggerURL)
	c := newCLI(t)

	// t1 on the shared browser by its websocket URL, t2 on the second
	// browser through the gateway.
	res := c.mustRun(t, nil, fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"wsUrl":%q}}]}`, fixture.URL+"/hello.html?a", v1.WebSocketDebuggerURL))
	tA := res["tab"].(string)
	res = c.mustRun(t, nil, fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"wsUrl":%q}}]}`, fixture.URL+"/hello.html?b", gw.url("secret")))
	tB := res["tab"].(string)
	reg := c.registry(t)
	if reg[tA]["endpoint"] != v1.WebSocketDebuggerURL || reg[tB]["endpoint"] != gw.url("secret") {
		t.Fatalf("the registry must keep each alias's endpoint: %v", reg)
	}
	idA, idB := reg[tA]["targetId"].(string), reg[tB]["targetId"].(string)
	if p1, p2 := pageIDs(t, chromium(t).Conn), pageIDs(t, second.Conn); !p1[idA] || p2[idA] || !p2[idB] || p1[idB] {
		t.Fatalf("tabs in the wrong browsers: %s in first %v second %v; %s in first %v second %v", tA, p1[idA], p2[idA], tB, p1[idB], p2[idB])
	}

	// Alternating calls with only "tab": each finds its own page.
	for round := 1; round <= 2; round++ {
		for _, tc := range []struct{ tab, query string }{{tA, "?a"}, {tB, "?b"}} {
			res := c.mustRun(t, nil, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"() => location.search + ':' + (window.__n = (window.__n || 0) + 1)"}]}`, tc.tab))
			if got, want := stepOut(t, res, 0)["value"], fmt.Sprintf("%s:%d", tc.query, round); got != want {
				t.Fatalf("round %d on %s: got %v, want %s", round, tc.tab, got, want)
			}
		}
	}

	// listTabs and chromeStatus through the gateway, which has no /json.
	res = c.mustRun(t, nil, fmt.Sprintf(`{"steps":[{"listTabs":{"wsUrl":%q}},{"chromeStatus":{"wsUrl":%q}}]}`, gw.url("secret"), gw.url("secret")))
	if !strings.Contains(fmt.Sprint(stepOut(t, res, 0)["tabs"]), "tab:"+tB) {
		t.Errorf("listTabs through the gateway lacks %s: %v", tB, stepOut(t, res, 0))
	}
	if st := stepOut(t, res, 1); st["running"] != true || st["launched"] != false || st["version"] == "" || !strings.Contains(st["endpoint"].(string), "token=***") {
		t.Errorf("chromeStatus through the gateway: %v", st)
	}

	// CDP_URL is the default; a step's own wsUrl wins over it.
	dead := closedPort(t)
	res = c.mustRun(t, map[string]string{"CDP_URL": gw.url("secret")}, `{"steps":[{"listTabs":true}]}`)
	if !strings.Contains(fmt.Sprint(stepOut(t, res, 0)["tabs"]), "tab:"+tB) {
		t.Errorf("listTabs with CDP_URL lacks %s: %v", tB, stepOut(t, res, 0))
	}
	httpEP := fmt.Sprintf("http://%s:%d", second.Endpoint.Host, second.Endpoint.Port)
	res = c.mustRun(t, map[string]string{"CDP_URL": httpEP}, `{"steps":[{"openTab":"about:blank"}]}`)
	tC := res["tab"].(string)
	if got := c.registry(t)[tC]["endpoint"]; got != httpEP || !pageIDs(t, second.Conn)[c.registry(t)[tC]["targetId"].(string)] {
		t.Fatalf("openTab with CDP_URL=%s: endpoint %v", httpEP, got)
	}
	res = c.mustRun(t, map[string]string{"CDP_URL": "ws://" + dead + "/x?token=secret"}, fmt.Sprintf(`{"steps":[{"openTab":{"wsUrl":%q}}]}`, v1.WebSocketDebuggerURL))
	tD := res["tab"].(string)
	// Later calls need only "tab", whatever CDP_URL says now.
	c.mustRun(t, map[string]string{"CDP_URL": "ws://" + dead + "/x?token=secret"}, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tC))
	c.mustRun(t, nil, fmt.Sprintf(`{"steps":[{"closeTab":%q},{"closeTab":%q}]}`, tC, tD))

	// closeTab through the gateway goes over the websocket.
	res = c.mustRun(t, nil, fmt.Sprintf(`{"steps":[{"openTab":{"wsUrl":%q}}]}`, gw.url("secret")))
	tE := res["tab"].(string)
	idE := c.registry(t)[tE]["targetId"].(string)
	c.mustRun(t, nil, fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tE))
	if pageIDs(t, second.Conn)[idE] {
		t.Error("closeTab through the gateway left the tab open")
	}

	// A wrong token is refused by the gateway: CONNECTION, token hidden.
	res, code, out := c.runEnv(nil, fmt.Sprintf(`{"steps":[{"openTab":{"wsUrl":%q}}]}`, gw.url("wrongsecret")))
	if e := firstError(res); code != 1 || e == nil || e["type"] != "CONNECTION" || !strings.Contains(out, "401") {
		t.Errorf("wrong token: exit %d: %s", code, out)
	}
	noSecret(t, out)

	// A gateway that drops the connection mid-call ends the call at once
	// with a CONNECTION error naming it.
	gw2 := newWSProxy(t, v2.WebSocketDebuggerURL)
	res = c.mustRun(t, nil, fmt.Sprintf(`{"steps":[{"openTab":{"wsUrl":%q}}]}`, gw2.url("secret")))
	tF := res["tab"].(string)
	go func() { // once the call waits
		testbrowser.WaitTrue(t, second.Conn, c.registry(t)[tF]["targetId"].(string), "window.started === true")
		gw2.kill()
	}()
	start := time.Now()
	res, code, out = c.runEnv(nil, fmt.Sprintf(`{"tab":%q,"timeout":60000,"steps":[{"pageFunction":"window.started = true"},{"wait":{"selector":"#never"}}]}`, tF))
	host2 := strings.TrimPrefix(gw2.srv.URL, "http://")
	if e := firstError(res); code != 1 || e == nil || e["type"] != "CONNECTION" || !strings.Contains(e["error"].(string), host2) || !strings.Contains(e["error"].(string), "token=***") {
		t.Errorf("dropped gateway: exit %d: %s", code, out)
	}
	t.Logf("dropped: %s", out)
	if d := time.Since(start); d > 30*time.Second { // not at the call's 60 s timeout
		t.Errorf("dropped gateway noticed after %v", d)
	}
	noSecret(t, out)

	// The gateway dies: t2's calls dial the remembered endpoint and fail
	// naming it, token redacted; t1 goes on.
	gw.kill()
	start = time.Now()
	res, code, out = c.runEnv(nil, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tB))
	typ, msg := errorOf(res)
	host := strings.TrimPrefix(gw.srv.URL, "http://")
	if code != 1 || typ != "CONNECTION" || !strings.Contains(msg, host) || !strings.Contains(msg, "token=***") {
		t.Errorf("dead gateway: exit %d: %s", code, out)
	}
	t.Logf("dead: %s", out)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("dead gateway took %v", d)
	}
	noSecret(t, out)
	res = c.mustRun(t, nil, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tA))
	c.mustRun(t, nil, fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tA))
}

// An endpoint that refuses is a CONNECTION error at once, naming it
// without its token, and no local Chrome is started for it.
func TestRemoteEndpointRefusedLaunchesNothing(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	dead := closedPort(t)
	for _, tc := range []struct {
		env   map[string]string
		input string
	}{
		{nil, fmt.Sprintf(`{"steps":[{"openTab":{"url":"about:blank","wsUrl":"ws://%s/devtools/browser/x?token=secret"}}]}`, dead)},
		{nil, fmt.Sprintf(`{"steps":[{"chromeStatus":{"wsUrl":"http://%s/?token=secret"}}]}`, dead)},
		{map[string]string{"CDP_URL": "wss://" + dead + "/chrome?token=secret"}, `{"steps":[{"openTab":true}]}`},
		{map[string]string{"CDP_URL": "http://" + dead + "?token=secret"}, `{"steps":[{"listTabs":true}]}`},
	} {
		start := time.Now()
		res, code, out := c.runEnv(tc.env, tc.input)
		e := firstError(res)
		if code != 1 || e == nil || e["type"] != "CONNECTION" || !strings.Contains(e["error"].(string), dead) || !strings.Contains(e["error"].(string), "token=***") {
			t.Errorf("%v %s: exit %d: %s", tc.env, tc.input, code, out)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s took %v", tc.input, d)
		}
		noSecret(t, out)
	}
	if m, _ := filepath.Glob(filepath.Join(c.tmp, "chrome-cdp-profile-*")); len(m) > 0 {
		t.Errorf("a local Chrome was launched for a remote endpoint: %v", m)
	}
	res, code, out := c.runEnv(nil, `{"steps":[{"openTab":{"wsUrl":"ftp://x/?token=secret"}}]}`)
	if typ, _ := errorOf(res); code != 1 || typ != "VALIDATION" {
		t.Errorf("bad scheme: exit %d: %s", code, out)
	}
	noSecret(t, out)
	res, code, out = c.runEnv(nil, `{"steps":[{"openTab":{"wsUrl":"ws://h/x","port":9222}}]}`)
	if typ, _ := errorOf(res); code != 1 || typ != "VALIDATION" {
		t.Errorf("wsUrl with port: exit %d: %s", code, out)
	}
}
