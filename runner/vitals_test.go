package runner_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// vitals measures pages made for it: vitals.html has a known largest
// element (a 400×200 picture of noise, served after 200 ms), a layout
// shift of known size (its content, 400 px tall, moves 250 px down after
// load), a slow cacheable script that blocks the main thread 150 ms
// before the first paint and a 250 ms task after it, and a button whose
// click blocks 180 ms (main_test.go serves the script and the picture).

// vitalsOf runs steps on tab and returns the vitals step's output: the
// last step's.
func vitalsOf(t *testing.T, c *cli, tab, steps string) map[string]any {
	t.Helper()
	outs := c.call(t, tab, steps)
	return outs[len(outs)-1]
}

func vitalsLoad(t *testing.T, c *cli, tab, params string) map[string]any {
	t.Helper()
	return vitalsOf(t, c, tab, fmt.Sprintf(`{"vitals":%s}`, params))
}

func TestVitalsOfALoad(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab("about:blank")
	u := fixture.URL + "/vitals.html"
	out := vitalsLoad(t, c, tab, fmt.Sprintf(`{"url":%q,"cold":true}`, u))
	info, _ := stepInfo("vitals")
	if why := matchShape(info.Output, out); why != "" {
		t.Errorf("SKILL.md says vitals → %s; got %v: %s", info.Output, out, why)
	}
	if out["url"] != u || out["cold"] != true || out["inp"] != nil || out["emulated"] != nil {
		t.Errorf("url %v, cold %v, inp %v, emulated %v", out["url"], out["cold"], out["inp"], out["emulated"])
	}

	// The largest paint is the picture, served after 200 ms, as a ref a
	// click takes.
	lcp := field(out, "lcp").(map[string]any)
	el := field(lcp, "element").(map[string]any)
	if el["kind"] != "image" || el["url"] != "/vitals/hero.png?ms=200" || !regexp.MustCompile(`^img "Hero" \[ref=s\d+e\d+\]$`).MatchString(fmt.Sprint(el["line"])) {
		t.Errorf("lcp element: %v", el)
	}
	if ms, _ := lcp["ms"].(float64); ms < 200 || lcp["rating"] != rating(ms, 2500, 4000) {
		t.Errorf("lcp %v", lcp)
	}
	if ph := field(lcp, "phases").(map[string]any); ph["loadTime"].(float64) < 200 {
		t.Errorf("the picture loaded in %v ms, served after 200: %v", ph["loadTime"], ph)
	}
	if steps := c.call(t, tab, fmt.Sprintf(`{"click":%q}`, el["ref"])); steps[0]["clicked"] != true {
		t.Errorf("click %v: %v", el["ref"], steps[0])
	}
	// That click, in a call of its own, was timed by the observers the
	// load put in place before the page's scripts, which take events of
	// 16 ms and over: not Chrome's buffer, which keeps them from 104 ms.
	inp, _ := vitalsLoad(t, c, tab, "true")["inp"].(map[string]any)
	if ms, _ := inp["ms"].(float64); inp["interactions"] != 1.0 || !(ms > 0 && ms < 104 || inp["under"] == 16.0) {
		t.Errorf("inp after clicking the picture: %v", inp)
	}

	// CLS is the content's one shift: its 400 px and the 250 px it moved
	// of the viewport's height, times 250 px of the viewport's larger side.
	var vp struct{ W, H float64 }
	if err := json.Unmarshal([]byte(jsonText(c.value(t, tab, "({W: innerWidth, H: innerHeight})"))), &vp); err != nil {
		t.Fatal(err)
	}
	want := min(650, vp.H) / vp.H * 250 / max(vp.W, vp.H)
	cls := field(out, "cls").(map[string]any)
	if got := cls["value"].(float64); math.Abs(got-want) > 0.01 || cls["rating"] != "needs improvement" {
		t.Errorf("cls %v, want %.3f needs improvement", cls, want)
	}
	if line := fmt.Sprint(field(cls, "shifts", 0, "line")); !strings.HasPrefix(line, "main [ref=") || field(cls, "shifts", 0, "value") != cls["value"] {
		t.Errorf("shifts %v", cls["shifts"])
	}

	// The script blocks 150 ms before the first paint, a task 250 ms
	// after it: both long tasks, only the second's 200 ms over 50 in TBT.
	lt := field(out, "longTasks").(map[string]any)
	scripts := jsonText(lt["scripts"])
	if lt["count"].(float64) < 2 || lt["longestMs"].(float64) < 250 || !strings.Contains(scripts, `"/vitals/app.js?ms=300\u0026block=150 `) ||
		!strings.Contains(scripts, `"/vitals.html `) {
		t.Errorf("longTasks %v", lt)
	}
	if tbt := field(out, "tbt", "ms").(float64); tbt < 200 {
		t.Errorf("tbt %v", field(out, "tbt"))
	}

	// The requests came from the network: the page, its script, its
	// picture.
	reqs := field(out, "requests").(map[string]any)
	if reqs["count"] != 3.0 || reqs["cached"] != nil || reqs["bytes"].(float64) < 240_000 ||
		field(reqs, "byType", "image", "count") != 1.0 || field(reqs, "byType", "script", "count") != 1.0 {
		t.Errorf("requests %v", reqs)
	}
	for _, k := range []string{"slowest", "largest"} {
		lines := jsonText(out[k])
		if len(out[k].([]any)) != 3 || !strings.Contains(lines, "GET /vitals/hero.png?ms=200 200 ") || !strings.Contains(lines, "GET /vitals/app.js?ms=300") {
			t.Errorf("%s: %v", k, out[k])
		}
	}
	if !strings.HasPrefix(jsonText(out["largest"]), `["GET /vitals/hero.png?ms=200 200 `) {
		t.Errorf("largest %v", out["largest"])
	}
	if out["domContentLoaded"].(float64) <= 0 || out["load"].(float64) < out["domContentLoaded"].(float64) {
		t.Errorf("domContentLoaded %v, load %v", out["domContentLoaded"], out["load"])
	}
}

// A cold load bypasses the cache a warm one uses, and leaves it on.
func TestVitalsColdAndWarm(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/vitals.html") // the cache has the script and the picture now
	u := fixture.URL + "/vitals.html"
	cached := regexp.MustCompile(`\((memory|disk)-cache\)`)
	warm := func(when string) {
		out := vitalsLoad(t, c, tab, fmt.Sprintf("%q", u))
		if out["cold"] != nil || field(out, "requests", "cached").(float64) < 2 || !cached.MatchString(jsonText(out["largest"])) {
			t.Errorf("warm load %s: cold %v, requests %v, largest %v", when, out["cold"], out["requests"], out["largest"])
		}
	}
	warm("before")
	out := vitalsLoad(t, c, tab, fmt.Sprintf(`{"url":%q,"cold":true}`, u))
	if out["cold"] != true || field(out, "requests", "cached") != nil || field(out, "requests", "bytes").(float64) < 240_000 ||
		cached.MatchString(jsonText(out["slowest"])) {
		t.Errorf("cold load: %v", out)
	}
	warm("after")
}

// Without a url, cold or trace, vitals reads the page as it is; a click
// in the batch before it gives INP, with the element clicked. Later
// calls' interactions count too.
func TestVitalsINP(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/vitals.html")
	// openTab's call loaded the page: its requests are in the tab's log.
	if out := vitalsLoad(t, c, tab, "true"); out["inp"] != nil || out["cold"] != nil || field(out, "lcp", "element", "kind") != "image" ||
		field(out, "requests", "count") != 3.0 {
		t.Errorf("before any interaction: inp %v, cold %v, lcp %v, requests %v", out["inp"], out["cold"], out["lcp"], out["requests"])
	}
	out := vitalsOf(t, c, tab, `{"click":"#slow"},{"vitals":true}`)
	inp, _ := out["inp"].(map[string]any)
	if ms, _ := inp["ms"].(float64); ms < 180 || inp["interactions"] != 1.0 || inp["rating"] != rating(ms, 200, 500) ||
		!regexp.MustCompile(`^button "Done" \[ref=s\d+e\d+\]$`).MatchString(fmt.Sprint(field(inp, "element", "line"))) {
		t.Errorf("inp after the slow click: %v", inp)
	}
	// The click's long task is INP's, not the load's TBT (200 ms).
	if tbt := field(out, "tbt", "ms").(float64); tbt >= 200+130 {
		t.Errorf("tbt %v counts the click's task", tbt)
	}
	c.call(t, tab, `{"click":"#quick"}`)
	inp = vitalsLoad(t, c, tab, "true")["inp"].(map[string]any)
	if inp["interactions"] != 2.0 || inp["ms"].(float64) < 180 {
		t.Errorf("inp after both clicks: %v", inp)
	}

	// A quick click in a fresh page: quicker than Chrome's buffer keeps,
	// measured by the observer the batch put in place before it.
	c.call(t, tab, fmt.Sprintf(`{"goto":%q}`, fixture.URL+"/vitals.html?fresh"))
	inp = vitalsOf(t, c, tab, `{"click":"#quick"},{"vitals":true}`)["inp"].(map[string]any)
	ms, _ := inp["ms"].(float64)
	if inp["interactions"] != 1.0 || inp["rating"] != "good" || !(ms > 0 && ms < 104 || inp["under"] == 16.0) {
		t.Errorf("inp after a quick click: %v", inp)
	}
}

// rating is web.dev's name for v under its thresholds.
func rating(v, good, poor float64) string {
	switch {
	case v <= good:
		return "good"
	case v <= poor:
		return "needs improvement"
	}
	return "poor"
}

// A page that never fires its load event still answers, within the
// step's time, with what it had.
func TestVitalsOfAPageThatNeverLoads(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab("about:blank")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"vitals":%q,"timeout":4000}]}`, tab, fixture.URL+"/never"))
	if code != 0 {
		t.Fatalf("exit %d: %v", code, res)
	}
	step := stepOutputs(t, res)[0]
	out := step["output"].(map[string]any)
	if out["load"] != nil || out["ttfb"] == nil || field(out, "requests", "pending") != 1.0 {
		t.Errorf("load %v, ttfb %v, requests %v", out["load"], out["ttfb"], out["requests"])
	}
	if w := fmt.Sprint(step["warning"]); !strings.Contains(w, "the page had not fired its load event ") {
		t.Errorf("warning %q", w)
	}
}

// A vitals step that reads the page leaves the changes of a click after
// it to the report; one that loads a page has them start from it.
func TestVitalsAndTheChanges(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/vitals.html")
	for _, steps := range []string{
		`{"vitals":true},{"click":"#quick"}`,
		fmt.Sprintf(`{"vitals":%q},{"click":"#quick"}`, fixture.URL+"/vitals.html?again"),
	} {
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, steps))
		if code != 0 || !strings.Contains(jsonText(res["changes"]), `"to":"Quick done"`) {
			t.Errorf("%s: exit %d, changes %v", steps, code, res["changes"])
		}
	}
}

// A load of the page shown needs a page; a server's error is said.
func TestVitalsLoadsWhatThereIs(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab("about:blank")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"vitals":{"cold":true}}]}`, tab))
	if e := firstError(res); code != 1 || !strings.Contains(fmt.Sprint(e["error"]), `the tab shows about:blank, no page to load again: give the page's "url"`) {
		t.Errorf("exit %d: %v", code, e)
	}
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"vitals":%q}]}`, tab, fixture.URL+"/missing.html"))
	if step := stepOutputs(t, res)[0]; code != 0 || !strings.Contains(fmt.Sprint(step["warning"]), "the server answered 404") {
		t.Errorf("exit %d: %v", code, step)
	}
}

// The emulation in force is named with the figures it shaped.
func TestVitalsNameTheEmulation(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/vitals.html")
	out := vitalsOf(t, c, tab, `{"emulate":{"cpuThrottle":2}},{"vitals":true}`)
	if out["emulated"] != "CPU 2x slower" {
		t.Errorf("emulated %v", out["emulated"])
	}
}

// vitals' trace: the tests that trace are TestRecordAcrossCalls and
// these, which run on their own (not parallel) so as never to meet it:
// Chrome records one trace at a time.

func TestVitalsTrace(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab("about:blank")
	path := filepath.Join(t.TempDir(), "load.json")
	out := vitalsLoad(t, c, tab, fmt.Sprintf(`{"url":%q,"trace":%q}`, fixture.URL+"/vitals.html", path))
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if field(out, "trace", "path") != path || field(out, "trace", "size") != float64(fi.Size()) || fi.Mode().Perm() != 0o600 {
		t.Errorf("trace %v; the file is %d bytes, %v", out["trace"], fi.Size(), fi.Mode())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		TraceEvents []struct {
			Name string `json:"name"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatalf("the trace is not JSON: %v", err)
	}
	names := map[string]bool{}
	for _, ev := range tr.TraceEvents {
		names[ev.Name] = true
	}
	for _, want := range []string{"navigationStart", "MarkLoad", "largestContentfulPaint::Candidate", "LayoutShift"} {
		if !names[want] {
			t.Errorf("the trace's %d events have no %s", len(tr.TraceEvents), want)
		}
	}
	// Chrome's trace is free again: another one starts.
	again := vitalsLoad(t, c, tab, `{"trace":true}`)
	if p, _ := field(again, "trace", "path").(string); !strings.HasSuffix(p, ".json") || again["url"] != fixture.URL+"/vitals.html" {
		t.Errorf("trace of the current page again: %v", again)
	}
}

func TestVitalsTraceWhileRecording(t *testing.T) {
	c := newCLI(t).withKeeper()
	tab := c.openTab(fixture.URL + "/vitals.html")
	c.call(t, tab, fmt.Sprintf(`{"record":{"trace":%q}}`, filepath.Join(t.TempDir(), "rec.json")))
	defer c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"record":"stop"}]}`, tab))
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"vitals":{"trace":true}}]}`, tab))
	e := firstError(res)
	msg := fmt.Sprint(e["error"])
	if code != 1 || e["type"] != "EXECUTION" || !strings.Contains(msg, "Chrome records one trace at a time, and tab "+tab+" (trace since ") ||
		!strings.Contains(msg, fmt.Sprintf(`{"tab":%q,"steps":[{"record":"stop"}]}`, tab)) {
		t.Errorf("exit %d: %v", code, e)
	}
}

func TestVitalsValidation(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	checkValidation(t, c, map[string]string{
		`{"vitals":42}`:                        `expected true or an object, got a number`,
		`{"vitals":false}`:                     `expected true or an object`,
		`{"vitals":{"cache":false}}`:           `unknown parameter "cache" (known: url, cold, trace)`,
		`{"vitals":"example.com/app"}`:         `no scheme; did you mean "https://example.com/app"?`,
		`{"vitals":{"url":"javascript:go()"}}`: `javascript: URLs run script`,
		`{"vitals":{"trace":"t.pftrace"}}`:     `name it .json, not .pftrace`,
		`{"vitals":{"trace":5}}`:               `"trace" is a file's path or true, got a number`,
		`{"webVitals":true}`:                   `did you mean {"vitals":true}?`,
		`{"vitals":{"cold":true}}`:             "",
		`{"vitals":{"url":"https://x.io/"}}`:   "",
	})
}
