package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// itemsSays is the text of api-save.html's status or problem line.
func itemsSays(t *testing.T, c *cli, tab string) string {
	t.Helper()
	return fmt.Sprint(c.value(t, tab, `document.getElementById('problem').hidden ? document.getElementById('status').textContent : document.getElementById('problem').textContent`))
}

// A 500 routed for one call: the click's report shows the page's error
// state in its changes, and its request marked as the route's, with the
// route and its hit; after unroute the server answers again.
func TestRoute500(t *testing.T) {
	t.Parallel()
	c := newCLI(t).withKeeper()
	tab := c.openTab(fixture.URL + "/api-save.html")
	res := c.act(t, tab, `{"route":{"url":"*/api/items","method":"post","status":500,"body":{"error":"db down"}}},{"click":"#save"}`)
	if got := jsonText(res["changes"]); !strings.Contains(got, "Could not save (500): db down") {
		t.Errorf("changes: %s", got)
	}
	lines := jsonText(field(res, "network"))
	if !regexp.MustCompile(`POST /api/items 500 \d+ms \d+B \(route\)`).MatchString(lines) || !strings.Contains(lines, `"from":"route"`) {
		t.Errorf("network: %s", lines)
	}
	if got := jsonText(res["routes"]); got != `[{"hits":1,"method":"POST","url":"*/api/items"}]` {
		t.Errorf("routes: %s", got)
	}
	if out := stepOutputs(t, res)[0]["output"]; jsonText(out) != `{"id":1}` {
		t.Errorf("route output: %s", jsonText(out))
	}
	res = c.act(t, tab, `{"unroute":"*/api/items"},{"click":"#save"}`)
	if got := itemsSays(t, c, tab); got != "Saved #7" || res["routes"] != nil {
		t.Errorf("after unroute the page says %q; result: %s", got, jsonText(res))
	}
	if got := jsonText(stepOutputs(t, res)[0]["output"]); got != `{"removed":[{"hits":1,"method":"POST","url":"*/api/items"}]}` {
		t.Errorf("unroute output: %s", got)
	}
	// A HAR says which answer was the route's.
	har := c.call(t, tab, `{"network":{"har":true}}`)[0]
	data, err := os.ReadFile(har["path"].(string))
	if err != nil || strings.Count(string(data), "answered by a route") != 1 {
		t.Errorf("the HAR marks %d routed entries (%v)", strings.Count(string(data), "answered by a route"), err)
	}
}

// A route holds across calls (the keeper serves it while none runs):
// three later calls each get its answer, counted; unroute ends it.
func TestRouteAcrossCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t).withKeeper()
	tab := c.openTab(fixture.URL + "/api-save.html")
	c.call(t, tab, `{"route":{"url":"/api/items","body":{"id":42},"headers":{"X-Served-By":"mock"}}}`)
	for i := 1; i <= 3; i++ {
		res := c.act(t, tab, `{"click":"#save"}`)
		if got := itemsSays(t, c, tab); got != "Saved #42 by mock" {
			t.Fatalf("call %d: the page says %q", i, got)
		}
		if got := jsonText(res["routes"]); got != fmt.Sprintf(`[{"hits":%d,"url":"/api/items"}]`, i) {
			t.Errorf("call %d: routes %s", i, got)
		}
	}
	// Between calls too: the page's own request, made while no call runs,
	// is answered, and the keeper's record of it reaches the tab's log.
	c.call(t, tab, `{"pageFunction":"document.getElementById('status').textContent = ''; setTimeout(() => document.getElementById('save').click(), 300), 1"}`)
	kept := filepath.Join(c.tmp, "cdp-skill", tab+".network.keeper.jsonl")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if data, _ := os.ReadFile(kept); strings.Count(string(data), "/api/items") == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the keeper recorded no request made between calls")
		}
	}
	if got := itemsSays(t, c, tab); got != "Saved #42 by mock" {
		t.Errorf("between calls: the page says %q", got)
	}
	reqs := c.call(t, tab, `{"network":{"filter":"/api/items"}}`)[0]["requests"].([]any)
	if len(reqs) != 4 || reqs[3].(map[string]any)["from"] != "route" {
		t.Errorf("the network step after a request between calls: %s", jsonText(reqs))
	}
	c.call(t, tab, `{"unroute":true}`)
	c.act(t, tab, `{"click":"#save"}`)
	if got := itemsSays(t, c, tab); got != "Saved #7" {
		t.Errorf("after unroute: %q", got)
	}
	// closeTab takes a tab's routes with it.
	c.call(t, tab, `{"route":{"url":"*","abort":"failed"}}`)
	if res, code := c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab)); code != 0 {
		t.Fatalf("closeTab: %v", res)
	}
	if left, _ := filepath.Glob(filepath.Join(c.tmp, "cdp-skill", "*.routes*")); len(left) > 0 {
		t.Errorf("closeTab left %v", left)
	}
}

// times: 1 answers one request; the next goes to the server. A newer
// route for the same requests replaces the older.
func TestRouteTimes(t *testing.T) {
	t.Parallel()
	c := newCLI(t).withKeeper()
	tab := c.openTab(fixture.URL + "/api-save.html")
	out := c.call(t, tab, `{"route":{"url":"*/api/items","status":503}},{"route":{"url":"*/api/items","status":500,"body":{"error":"once"},"times":1}}`)
	if got := jsonText(out[1]); got != `{"id":2,"replaced":true}` {
		t.Errorf("the second route: %s", got)
	}
	c.act(t, tab, `{"click":"#save"}`)
	if got := itemsSays(t, c, tab); got != "Could not save (500): once" {
		t.Errorf("first: %q", got)
	}
	res := c.act(t, tab, `{"click":"#save"}`)
	if got := itemsSays(t, c, tab); got != "Saved #7" {
		t.Errorf("second: %q", got)
	}
	if got := jsonText(res["routes"]); got != `[{"hits":1,"times":1,"url":"*/api/items"}]` {
		t.Errorf("routes: %s", got)
	}
}

// abort fails the request as the network would; delay holds it; modify
// passes the server's answer through, changed.
func TestRouteAbortDelayModify(t *testing.T) {
	t.Parallel()
	c := newCLI(t).withKeeper()
	tab := c.openTab(fixture.URL + "/api-save.html")
	res := c.act(t, tab, `{"route":{"url":"*/api/items","abort":"failed"}},{"click":"#save"}`)
	if got := itemsSays(t, c, tab); !strings.HasPrefix(got, "Network error:") {
		t.Errorf("abort: the page says %q", got)
	}
	if got := jsonText(field(res, "network", "errors")); !strings.Contains(got, `"error":"net::ERR_FAILED","from":"route"`) {
		t.Errorf("abort: errors %s", got)
	}
	c.act(t, tab, `{"route":{"url":"*/api/items","delay":1200}},{"click":"#save"},{"wait":{"text":"Saved #7","timeout":5000}}`)
	reqs := c.call(t, tab, `{"network":{"filter":"/api/items","limit":1}}`)[0]["requests"].([]any)
	if last := reqs[len(reqs)-1].(map[string]any); last["ms"].(float64) < 1200 || last["from"] != "route" {
		t.Errorf("delay: %v", last)
	}
	c.act(t, tab, `{"route":{"url":"*/api/items","modify":{"status":202,"headers":{"X-Served-By":"proxy"}}}},{"click":"#save"}`)
	if got := itemsSays(t, c, tab); got != "Saved #7 by proxy" {
		t.Errorf("modify: the page says %q", got)
	}
	c.act(t, tab, `{"route":{"url":"*/api/items","modify":{"body":{"id":8}}}},{"click":"#save"}`)
	if got := itemsSays(t, c, tab); got != "Saved #8" {
		t.Errorf("modify body: the page says %q", got)
	}
}

// Without a keeper a route holds for the call that set it, and says so.
func TestRouteWithoutKeeper(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/api-save.html")
	res := c.act(t, tab, `{"route":{"url":"*/api/items","status":500}},{"click":"#save"}`)
	if got := itemsSays(t, c, tab); got != "Could not save (500): Internal Server Error" {
		t.Errorf("the page says %q", got)
	}
	if w := fmt.Sprint(res["warnings"]); !strings.Contains(w, "hold while a call runs") {
		t.Errorf("warnings: %s", w)
	}
}

func TestRouteValidation(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	for step, want := range map[string]string{
		`{"route":{"url":"*/x"}}`:                               "say what the requests get",
		`{"route":{"url":"*/x","status":500,"abort":"failed"}}`: "give one of",
		`{"route":{"url":"*/x","abort":"nope"}}`:                "timedout",
		`{"route":{"url":"*/x","status":999}}`:                  "100 to 599",
		`{"route":{"status":500}}`:                              "give the URLs",
		`{"route":{"url":"/a(/","status":500}}`:                 "regular expression",
		`{"route":{"url":"*/x","modify":{}}}`:                   "give what changes",
		`{"unroute":false}`:                                     "true for every route",
	} {
		res, code := c.run(`{"steps":[` + step + `]}`)
		if typ, _ := errorOf(res); code == 0 || typ != "VALIDATION" || !strings.Contains(jsonText(res), want) {
			t.Errorf("%s: %s", step, jsonText(res))
		}
	}
}
