package runner_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func stepOutputs(t *testing.T, res map[string]any) []map[string]any {
	t.Helper()
	raw, _ := res["steps"].([]any)
	var out []map[string]any
	for _, s := range raw {
		out = append(out, s.(map[string]any))
	}
	return out
}

func TestOpenTabGotoAndContext(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"goto":%q},{"wait":{"text":"Ready now"}},{"getTitle":true},{"getUrl":true}]}`,
		tab, fixture.URL+"/hello.html?x=1"))
	if code != 0 {
		t.Fatalf("exit %d: %v", code, res)
	}
	steps := stepOutputs(t, res)
	if got := steps[0]["output"].(map[string]any)["status"]; got != float64(200) {
		t.Errorf("goto status %v", got)
	}
	if got := steps[2]["output"].(map[string]any)["title"]; got != "Hello fixture" {
		t.Errorf("title %v", got)
	}
	ctx := res["context"].(map[string]any)
	if ctx["url"] != fixture.URL+"/hello.html?x=1" || ctx["title"] != "Hello fixture" {
		t.Errorf("context %v", ctx)
	}
	if res["navigated"] != true {
		t.Errorf("navigated missing: %v", res)
	}
	shot, _ := res["screenshot"].(string)
	if shot != filepath.Join(c.tmp, "cdp-skill", tab+".history", "0002.after.png") { // openTab's is 0001
		t.Errorf("screenshot path %q", shot)
	}
	if st, err := os.Stat(shot); err != nil || st.Size() == 0 {
		t.Errorf("screenshot file: %v", err)
	}
}

func TestNonVisualCallTakesNoScreenshot(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"document.title"}]}`, tab))
	if code != 0 {
		t.Fatalf("%v", res)
	}
	if _, ok := res["screenshot"]; ok {
		t.Errorf("a pageFunction call took a screenshot: %v", res)
	}
	out := stepOutputs(t, res)[0]["output"].(map[string]any)
	if out["type"] != "string" || out["value"] != "Hello fixture" {
		t.Errorf("output %v", out)
	}
}

func TestOptionalStepSkippedAndStopAtFailure(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[
		{"wait":{"selector":"#missing","timeout":200},"optional":true},
		{"pageFunction":"1+1"},
		{"pageFunction":"throw new Error('boom')"},
		{"getTitle":true}]}`, tab))
	if code != 1 || res["status"] != "error" {
		t.Fatalf("exit %d: %v", code, res)
	}
	steps := stepOutputs(t, res)
	if len(steps) != 3 {
		t.Fatalf("ran %d steps, want 3 (stop at the failure): %v", len(steps), steps)
	}
	if steps[0]["status"] != "skipped" || steps[1]["status"] != "ok" || steps[2]["status"] != "error" {
		t.Errorf("statuses: %v", steps)
	}
	if _, ok := steps[2]["params"]; !ok {
		t.Errorf("failed step lacks params: %v", steps[2])
	}
	errs := res["errors"].([]any)
	e := errs[0].(map[string]any)
	if e["step"] != float64(3) || e["action"] != "pageFunction" || !strings.Contains(e["error"].(string), "Error: boom") {
		t.Errorf("errors[0] = %v", e)
	}
}

func TestConsoleErrorsOfThisCallOnly(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/noisy.html")
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#err"}]}`, tab))
	data, _ := json.Marshal(res["console"])
	s := string(data)
	if !strings.Contains(s, "clicked error") || !strings.Contains(s, "careful") {
		t.Errorf("console lacks this call's messages: %s", s)
	}
	if strings.Contains(s, "error before the call") {
		t.Errorf("console repeats an earlier call's error: %s", s)
	}
	if strings.Contains(s, "logged") {
		t.Errorf("console counts logs no call made: %s", s)
	}
	// The page's other messages are counted, not shown; the console step
	// lists them.
	res, _ = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#chat"}]}`, tab))
	if s := jsonText(res["console"]); s != `{"logged":4}` {
		t.Errorf("a call whose page logged 4 messages: console %s", s)
	}
	res, _ = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#chat"},{"click":"#err"},{"pageFunction":"console.log('mine'); 1"}]}`, tab))
	if r, _ := res["console"].(map[string]any); r["errors"] != 1.0 || r["warnings"] != 1.0 || r["logged"] != 4.0 || len(r["messages"].([]any)) != 2 {
		t.Errorf("errors, warnings and 4 of the page's logs (not the agent's own): console %v", r)
	}
}

func TestClosedTabAliasIsConnectionError(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab("about:blank")
	if res, code := c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab)); code != 0 {
		t.Fatalf("closeTab: %v", res)
	}
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"getTitle":true}]}`, tab))
	typ, msg := errorOf(res)
	if code != 1 || typ != "CONNECTION" || !strings.Contains(msg, tab) {
		t.Fatalf("exit %d: %v", code, res)
	}
	res, _ = c.run(`{"tab":"t999","steps":[{"getTitle":true}]}`)
	if typ, msg := errorOf(res); typ != "CONNECTION" || !strings.Contains(msg, "t999") {
		t.Fatalf("unknown alias: %v", res)
	}
}

func TestNeverLoadingPageTimesOut(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab("about:blank")
	start := time.Now()
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"timeout":1500,"steps":[{"goto":%q}]}`, tab, fixture.URL+"/never"))
	elapsed := time.Since(start)
	errs, _ := res["errors"].([]any)
	if code != 1 || len(errs) != 1 || errs[0].(map[string]any)["name"] != "TimeoutError" {
		t.Fatalf("exit %d: %v", code, res)
	}
	// A correctness bound, not a speed target: the call must not wait
	// for the page (which never finishes) once the step has timed out.
	if elapsed > 1500*time.Millisecond+6*time.Second {
		t.Fatalf("the call took %v after a 1.5 s step timeout", elapsed)
	}
}

// js-exec AC7, AC11, AC12 and AC17 across separate calls.
func TestPageFunctionAcrossCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	call := func(src string) map[string]any {
		res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":%s}]}`, tab, src))
		return stepOutputs(t, res)[0]
	}
	// AC17: let/const do not leak from one call into the next.
	if s := call(`"let x = 1; x"`); s["status"] != "ok" {
		t.Fatalf("first let: %v", s)
	}
	if s := call(`"let x = 2; x"`); s["status"] != "ok" || s["output"].(map[string]any)["value"] != float64(2) {
		t.Fatalf("second let: %v", s)
	}
	// AC11: an exception comes back with its message and stack.
	s := call(`"(function thrower() { throw new Error('test error') })()"`)
	if s["status"] != "error" || !strings.Contains(s["error"].(string), "Error: test error") || !strings.Contains(fmt.Sprint(s["stack"]), "thrower") {
		t.Fatalf("exception: %v", s)
	}
	// AC12: a reference error.
	if s := call(`"nonExistentVariable"`); !strings.Contains(fmt.Sprint(s["error"]), "ReferenceError") {
		t.Fatalf("reference error: %v", s)
	}
	// AC7: a promise that never settles times out with TimeoutError.
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":{"fn":"new Promise(() => {})","timeout":200}}]}`, tab))
	if e := firstError(res); code != 1 || e == nil || e["name"] != "TimeoutError" {
		t.Fatalf("timeout: %v", res)
	}
}

// Any step output over 9,000 bytes goes whole to a file; the result keeps
// a preview and the path (browser-tool-requirements REQ-BT-002/015).
func TestLargeOutputSpillsToFile(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"'x'.repeat(20000)"},{"getTitle":true}]}`, tab))
	if code != 0 {
		t.Fatalf("%v", res)
	}
	out := stepOutputs(t, res)[0]["output"].(map[string]any)
	path, _ := out["artifacts"].(map[string]any)["output"].(string)
	if out["truncatedInline"] != true || len(out["preview"].(string)) > 600 || !strings.HasPrefix(path, c.tmp) {
		t.Fatalf("not spilled: %v", out)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), strings.Repeat("x", 20000)) || int(out["bytes"].(float64)) != len(data) {
		t.Fatalf("spill file %s: %v (%d bytes)", path, err, len(data))
	}
	if stepOutputs(t, res)[1]["output"].(map[string]any)["title"] != "Hello fixture" {
		t.Errorf("a small output must stay inline: %v", res)
	}
}
