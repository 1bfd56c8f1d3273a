package runner_test

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

func (c *cli) registry(t *testing.T) map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.tmp, "cdp-skill-tabs.json"))
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

func TestConnectTabByURLTargetAndAlias(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	id, err := chromium(t).CreateTarget(t.Context(), fixture.URL+"/form.html?connect=1")
	if err != nil {
		t.Fatal(err)
	}
	ep := fmt.Sprintf(`"host":%q,"port":%d`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port)
	res, code := c.run(fmt.Sprintf(`{"steps":[{"connectTab":{"url":"form\\.html\\?connect=1",%s}},{"getTitle":true}]}`, ep))
	if code != 0 {
		t.Fatalf("by url: %v", res)
	}
	alias := res["tab"].(string)
	t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, alias)) })
	if c.registry(t)[alias]["targetId"] != id {
		t.Fatalf("registry entry for %s: %v", alias, c.registry(t)[alias])
	}
	res, code = c.run(fmt.Sprintf(`{"steps":[{"connectTab":{"targetId":%q,%s}}]}`, id, ep))
	if code != 0 || res["tab"] != alias {
		t.Fatalf("by targetId must reuse alias %s: %v", alias, res)
	}
	res, code = c.run(fmt.Sprintf(`{"steps":[{"connectTab":%q},{"getUrl":true}]}`, alias))
	if code != 0 || !strings.Contains(fmt.Sprint(res["steps"]), "connect=1") {
		t.Fatalf("by alias: %v", res)
	}
	res, code = c.run(fmt.Sprintf(`{"steps":[{"connectTab":{"url":"^nothing-like-this$",%s}}]}`, ep))
	if code != 1 {
		t.Fatalf("unmatched url: %v", res)
	}
}

func TestListTabsPrunesClosedTabs(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	keep := c.openTab(fixture.URL + "/hello.html")
	gone := c.openTab("about:blank")
	id := c.registry(t)[gone]["targetId"].(string)
	// Closed behind cdpskill's back.
	closeBehindBack(t, chromium(t).Conn, id)
	res, code := c.run(fmt.Sprintf(`{"steps":[{"listTabs":{"host":%q,"port":%d}}]}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	if code != 0 {
		t.Fatalf("%v", res)
	}
	out := stepOutputs(t, res)[0]["output"].(map[string]any)
	var sawKeep bool
	for _, tab := range out["tabs"].([]any) {
		m := tab.(map[string]any)
		if m["tab"] == keep {
			sawKeep = m["url"] == fixture.URL+"/hello.html"
		}
		if m["targetId"] == id {
			t.Errorf("closed tab still listed: %v", m)
		}
	}
	if !sawKeep {
		t.Errorf("listTabs lacks %s with its URL: %v", keep, out)
	}
	reg := c.registry(t)
	if _, ok := reg[gone]; ok {
		t.Errorf("registry still holds closed tab %s", gone)
	}
	if _, ok := reg[keep]; !ok {
		t.Errorf("registry lost live tab %s", keep)
	}
}

func TestOpenTabsGetWindowsOfTheirOwn(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	windows := map[int]bool{}
	for range 2 {
		alias := c.openTab("about:blank")
		id := c.registry(t)[alias]["targetId"].(string)
		res, err := proto.BrowserGetWindowForTarget{TargetID: id}.Do(t.Context(), chromium(t).Conn.Browser())
		if err != nil {
			t.Fatal(err)
		}
		windows[res.WindowID] = true
	}
	if len(windows) != 2 {
		t.Fatalf("two tabs share a window: %v", windows)
	}
}

func TestChromeStatusStep(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	res, code := c.run(fmt.Sprintf(`{"steps":[{"chromeStatus":{"host":%q,"port":%d,"autoLaunch":false}}]}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	out := stepOutputs(t, res)[0]["output"].(map[string]any)
	if code != 0 || out["running"] != true || out["version"] == "" || out["port"] != float64(chromium(t).Endpoint.Port) {
		t.Fatalf("exit %d: %v", code, res)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	res, code = c.run(fmt.Sprintf(`{"steps":[{"chromeStatus":{"port":%d,"autoLaunch":false}}]}`, port))
	errs, _ := res["errors"].([]any)
	out = stepOutputs(t, res)[0]["output"].(map[string]any)
	if code != 1 || len(errs) != 1 || errs[0].(map[string]any)["type"] != "CONNECTION" || out["running"] != false {
		t.Fatalf("dead port: exit %d: %v", code, res)
	}
}

// A batch that needs no tab never touches Chrome.
func TestTablessBatch(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	res, code := c.run(`{"steps":[{"sleep":5}]}`)
	if code != 0 || res["tab"] != nil || res["context"] != nil {
		t.Fatalf("%v", res)
	}
}

// The cached browser websocket URL saves a round trip per call that needs
// the browser's websocket (a click); a stale one (Chrome restarted on the
// same port) must cost only that round trip. A call that stays on its tab
// goes by the tab's own websocket and never needs the cache.
func TestStaleBrowserWebsocketCache(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab("about:blank")
	path := filepath.Join(c.tmp, "cdp-skill-tabs.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fresh := c.registry(t)[tab]["browserWs"].(string)
	if !strings.HasPrefix(fresh, "ws://") {
		t.Fatalf("openTab did not cache the websocket URL: %s", data)
	}
	stale := strings.ReplaceAll(string(data), fresh, "ws://127.0.0.1:1/devtools/browser/gone")
	if err := os.WriteFile(path, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tab)); code != 0 {
		t.Fatalf("stale cache broke a call on the tab: %v", res)
	}
	if res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"x":5,"y":5}}]}`, tab)); code != 0 {
		t.Fatalf("stale cache broke a click: %v", res)
	}
	if got := c.registry(t)[tab]["browserWs"]; got != fresh {
		t.Fatalf("cache not refreshed: %v", got)
	}
}

// waitTrue polls expr in the tab over the test's own session until it is
// true, so a test can tell that a concurrent call got this far.
func (c *cli) waitTrue(t *testing.T, tab, expr string) {
	t.Helper()
	testbrowser.WaitTrue(t, chromium(t).Conn, c.registry(t)[tab]["targetId"].(string), expr)
}

// A damaged registry is rebuilt and reported, never a crash.
func TestCorruptRegistryReported(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	path := filepath.Join(c.tmp, "cdp-skill-tabs.json")
	if err := os.WriteFile(path, []byte(`{"nextId": 7, "tabs": {"t3": {"targetId": "AB`), 0o644); err != nil {
		t.Fatal(err)
	}
	res, code := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"host":%q,"port":%d}}]}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	if code != 0 || !strings.Contains(fmt.Sprint(res["warnings"]), "registry") {
		t.Fatalf("%v", res)
	}
	tab := res["tab"].(string)
	t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab)) })
	if tab != "t7" {
		t.Errorf("alias %s after a rebuild, want t7 (numbering must not go back)", tab)
	}
}

// Without any Chrome to launch, openTab says what to install or set.
func TestNoChromeToLaunch(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	res, _, _ := c.runEnv(map[string]string{"CHROME_PATH": "/nonexistent/chrome"}, fmt.Sprintf(`{"steps":[{"openTab":{"port":%d}}]}`, port))
	e := firstError(res)
	if e == nil || e["type"] != "CONNECTION" || !strings.Contains(e["error"].(string), "CHROME_PATH") {
		t.Fatalf("%v", res)
	}
}

// A batch that stays on its tab talks to it over the tab's own websocket:
// a browser websocket makes every renderer and the GPU process work each
// time one opens or closes. A click, which must hear of downloads in the
// tabs it opens, attaches over the browser's. The --debug log's CDP
// trace shows which.
func TestTabOnlyCallUsesTheTabsWebsocket(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	if log := c.trace(t, tab, `[{"pageFunction":"document.title"},{"snapshot":true}]`); strings.Contains(log, "Target.attachToTarget") {
		t.Errorf("a call that stays on its tab attached through the browser's websocket")
	}
	if log := c.trace(t, tab, `[{"click":{"x":5,"y":5}}]`); !strings.Contains(log, "Target.attachToTarget") {
		t.Errorf("a click did not attach through the browser's websocket")
	}
}

// trace runs steps on tab with --debug and returns the call's log, with
// its CDP trace.
func (c *cli) trace(t *testing.T, tab, steps string) string {
	t.Helper()
	work := t.TempDir()
	if res := c.runDebug(work, fmt.Sprintf(`{"tab":%q,"steps":%s}`, tab, steps)); res["status"] != "ok" {
		t.Fatalf("%s: %v", steps, res)
	}
	logs, _ := filepath.Glob(filepath.Join(work, "log", "*.json"))
	if len(logs) != 1 {
		t.Fatalf("%s: want one log, got %v", steps, logs)
	}
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
