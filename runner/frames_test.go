package runner_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The tests of frames do not run in parallel with other tests: input to an
// out-of-process frame goes through the browser, which routes it to the
// frame that has the focus as that frame's own process tells it, and a
// browser loaded by the tests beside them has let a fill's text reach the
// top document, and a click below the fold fall back to a script's click
// (both seen under make test).

// childPage is a frame's document: a button that counts its clicks, a
// labelled input, and optionally a nested frame.
const childPage = `<!doctype html><html><head><title>%s</title></head><body style="margin:0">
<button id="btn" onclick="this.textContent = 'clicked ' + (++window.clicks)">%s button</button>
<label>Name <input id="name"></label>%s
<ul id="items"><li>one</li><li>two</li></ul>
<button id="err" onclick="console.error('oops from ' + location.hostname)">Err</button>
<button id="ask" onclick="this.textContent = confirm('sure?') ? 'yes' : 'no'">Ask</button>
<script>window.clicks = 0</script></body></html>`

// framePages serves a top page on one server with three frames: a
// same-origin srcdoc frame, a cross-origin frame of a second server on
// 127.0.0.1 (the same site, so Chrome keeps it in the tab's process) with
// a frame nested in it, and the second server again as localhost (another
// site: an out-of-process iframe).
func framePages(t *testing.T) (topURL, childOrigin string) {
	child := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/outer.html":
			fmt.Fprintf(w, childPage, "outer", "Outer", `<iframe name="nested" src="/inner.html" style="border:0;height:80px"></iframe>`)
		default:
			fmt.Fprintf(w, childPage, "inner", "Inner", "")
		}
	}))
	t.Cleanup(child.Close)
	port := child.Listener.Addr().(*net.TCPAddr).Port
	top := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><html><head><title>top</title></head><body>
<h1>Top</h1><button id="btn">Top button</button>
<iframe name="same" srcdoc="<button id=s>Same</button>" style="height:60px"></iframe>
<iframe name="xo" id="xo" src="http://127.0.0.1:%d/outer.html" style="height:200px"></iframe>
<div style="height:900px"></div>
<iframe name="oop" id="oop" src="http://localhost:%d/inner.html" style="border:9px solid;height:120px"></iframe>
</body></html>`, port, port)
	}))
	t.Cleanup(top.Close)
	return top.URL + "/", fmt.Sprintf("http://127.0.0.1:%d", port)
}

// openFrames opens the frame pages once every frame has loaded.
func openFrames(t *testing.T, c *cli) string {
	t.Helper()
	topURL, _ := framePages(t)
	tab := c.openTab(topURL)
	c.call(t, tab, `{"wait":{"selector":"#oop"}},{"frame":{"list":true}}`)
	for range 50 {
		list := c.call(t, tab, `{"frame":{"list":true}}`)[0]
		if frames, _ := list["frames"].([]any); len(frames) == 5 {
			return tab
		}
	}
	t.Fatalf("the frames never all loaded")
	return ""
}

func framesByName(t *testing.T, list map[string]any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, f := range list["frames"].([]any) {
		m := f.(map[string]any)
		name, _ := m["name"].(string)
		if name == "" && m["parentId"] == nil {
			name = "top"
		}
		out[name] = m
	}
	return out
}

func TestFrameList(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	list := c.call(t, tab, `{"frame":{"list":true}}`)[0]
	frames := framesByName(t, list)
	want := map[string]struct {
		depth       float64
		crossOrigin bool
	}{"top": {0, false}, "same": {1, false}, "xo": {1, true}, "nested": {2, true}, "oop": {1, true}}
	for name, w := range want {
		f := frames[name]
		if f == nil {
			t.Fatalf("no frame %q in %v", name, list)
		}
		if f["depth"] != w.depth || (f["crossOrigin"] == true) != w.crossOrigin {
			t.Errorf("frame %s: %v, want depth %v crossOrigin %v", name, f, w.depth, w.crossOrigin)
		}
	}
	if list["mainFrameId"] != frames["top"]["frameId"] || list["currentFrameId"] != list["mainFrameId"] {
		t.Errorf("main and current frame: %v", list)
	}
	if frames["nested"]["parentId"] != frames["xo"]["frameId"] {
		t.Errorf("nested frame's parent: %v", frames["nested"])
	}
}

// Switching persists across calls, every evaluating step runs in the
// frame, and "top" goes back.
func TestFrameSwitchPersists(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"frame":"#xo"}]}`, tab))
	if code != 0 {
		t.Fatalf("frame: %v", res)
	}
	step := stepOutputs(t, res)[0]
	out := step["output"].(map[string]any)
	if out["crossOrigin"] != true || !strings.HasSuffix(out["url"].(string), "/outer.html") || step["warning"] == nil {
		t.Errorf("switch output: %v", step)
	}
	ctxFrame, _ := res["context"].(map[string]any)["frame"].(map[string]any)
	if ctxFrame["frameId"] != out["frameId"] {
		t.Errorf("context.frame = %v, want %v", ctxFrame, out["frameId"])
	}
	if got := c.value(t, tab, "document.title"); got != "outer" {
		t.Errorf("the next call evaluates in %q, want the outer frame", got)
	}
	// One level at a time: index 0 is the nested frame of the current one.
	if got := c.call(t, tab, `{"frame":0},{"pageFunction":"document.title + ' ' + window.name"}`)[1]["value"]; got != "inner nested" {
		t.Errorf("nested frame by index: %v", got)
	}
	if got := c.call(t, tab, `{"frame":"top"},{"pageFunction":"document.title"}`)[1]["value"]; got != "top" {
		t.Errorf("after top: %v", got)
	}
	if got := c.value(t, tab, "document.title"); got != "top" {
		t.Errorf("the next call after top runs in %q", got)
	}
	if e := c.registry(t)[tab]["frame"]; e != nil {
		t.Errorf("registry still names frame %v", e)
	}
}

// Actions inside an out-of-process iframe: fill by label, click, type, and
// a snapshot whose refs work from a later call.
func TestFrameActionsOutOfProcess(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	outs := c.call(t, tab, `{"frame":{"name":"oop"}},{"fill":{"label":"Name","value":"Ada"}},{"click":"#btn"},{"pageFunction":"[document.getElementById('name').value, document.getElementById('btn').textContent, location.hostname]"}`)
	if got := fmt.Sprint(outs[3]["value"]); got != "[Ada clicked 1 localhost]" {
		t.Errorf("in the OOPIF: %s", got)
	}
	yaml := c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string)
	btn := refOn(t, yaml, `button "clicked 1"`)
	// From the top document, the ref still reaches into the frame.
	outs = c.call(t, tab, fmt.Sprintf(`{"frame":"top"},{"click":%q},{"frame":"#oop"},{"pageFunction":"document.getElementById('btn').textContent"}`, btn))
	if outs[3]["value"] != "clicked 2" {
		t.Errorf("click by a frame's ref from the top: %v", outs[3]["value"])
	}
}

// click with searchFrames finds a target the current frame lacks.
func TestClickSearchFrames(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	out := c.call(t, tab, `{"click":{"selector":"#s","searchFrames":true}}`)[0]
	if f, _ := out["frame"].(map[string]any); f == nil || f["name"] != "same" {
		t.Errorf("click output: %v", out)
	}
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"selector":"#s","timeout":300}}]}`, tab))
	if e := firstError(res); e == nil {
		t.Errorf("without searchFrames the top document has no #s, yet: %v", res)
	}
	if got := c.value(t, tab, "document.title"); got != "top" {
		t.Errorf("the search left the tab in %q", got)
	}
}

func TestFrameGone(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	c.call(t, tab, `{"frame":{"name":"same"}}`)
	c.waitTrue(t, tab, "(document.querySelector('iframe[name=same]').remove(), true)")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"document.title"}]}`, tab))
	if code != 0 || stepOutputs(t, res)[0]["output"].(map[string]any)["value"] != "top" {
		t.Fatalf("after the frame was removed: %v", res)
	}
	if w := fmt.Sprint(res["warnings"]); !strings.Contains(w, "gone") {
		t.Errorf("warnings = %s", w)
	}
}

func TestFrameErrors(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	for _, step := range []string{`{"frame":"#btn"}`, `{"frame":9}`, `{"frame":{"name":"nope"}}`, `{"frame":{"frameId":"ABC"}}`} {
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, step))
		e := firstError(res)
		if code == 0 || e == nil || e["name"] != "ElementNotFoundError" {
			t.Errorf("%s: %v", step, res)
		}
	}
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"frame":"iframe["}]}`, tab))
	if e := firstError(res); e == nil || e["name"] != "StepValidationError" {
		t.Errorf("an invalid selector: %v", res)
	}
	res, code := c.run(`{"steps":[{"frame":{"list":true,"name":"x"}}]}`)
	if typ, _ := errorOf(res); code == 0 || typ != "VALIDATION" {
		t.Errorf("list with a name: %v", res)
	}
}

// Coordinates are the tab's everywhere: getBox of an element in a frame
// gives a centre where elementsAt finds it, an element screenshot in a
// frame has its size, and a click below the fold lands natively.
func TestFrameCoordinates(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	outs := c.call(t, tab, `{"frame":"#oop"},{"scroll":"bottom"},{"snapshot":true}`)
	btn := refOn(t, outs[2]["yaml"].(string), `button "Inner button"`)
	box := c.call(t, tab, fmt.Sprintf(`{"getBox":%q}`, btn))[0]
	center := box["center"].(map[string]any)
	if y := center["y"].(float64); y < 900 {
		t.Errorf("the button's centre %v is not below the top document's content", center)
	}
	at := fmt.Sprintf(`{"elementsAt":{"x":%v,"y":%v}}`, center["x"], center["y"])
	if got := c.call(t, tab, at)[0]["ref"]; got != btn {
		t.Errorf("elementsAt inside the frame at the centre: %v, want %s", got, btn)
	}
	shot := c.call(t, tab, fmt.Sprintf(`{"screenshot":{"ref":%q}}`, btn))[0]
	if shot["width"].(float64) < 10 || shot["height"].(float64) < 10 {
		t.Errorf("element screenshot: %v", shot)
	}
	click := c.call(t, tab, `{"click":"#btn"}`)[0]
	if click["method"] != "cdp" {
		t.Errorf("a click in an out-of-process frame below the fold fell back: %v", click)
	}
}

// A dialog opened by an out-of-process frame is answered like any other.
func TestFrameDialog(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"frame":"#oop"},{"click":"#ask","dialog":{"accept":false}},{"pageFunction":"document.getElementById('ask').textContent"}]}`, tab))
	steps := stepOutputs(t, res)
	if code != 0 || len(steps) != 3 || steps[2]["output"].(map[string]any)["value"] != "no" || steps[1]["dialogs"] == nil {
		t.Errorf("confirm in an OOPIF: %v", res)
	}
}

// A snapshot of the top document with includeFrames shows the frames'
// content with refs that act inside them, the out-of-process one too.
func TestSnapshotIncludeFramesRefs(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	yaml := c.call(t, tab, `{"snapshot":{"root":"body","includeFrames":true}}`)[0]["yaml"].(string)
	if !strings.Contains(yaml, `[cross-origin]`) || !strings.Contains(yaml, `button "Outer button"`) {
		t.Fatalf("snapshot:\n%s", yaml)
	}
	var inner []string
	for _, line := range strings.Split(yaml, "\n") {
		if strings.Contains(line, `button "Inner button"`) {
			inner = append(inner, line)
		}
	}
	if len(inner) != 2 {
		t.Fatalf("want the nested and the out-of-process frame's buttons, got %q in\n%s", inner, yaml)
	}
	oop := refOn(t, strings.Join(inner[1:], "\n"), `button "Inner button"`)
	c.call(t, tab, fmt.Sprintf(`{"click":%q}`, oop))
	if got := c.call(t, tab, `{"frame":"#oop"},{"pageFunction":"document.getElementById('btn').textContent"}`)[1]["value"]; got != "clicked 1" {
		t.Errorf("the out-of-process frame's button after a click by ref from the top: %v", got)
	}
}

// The reading and input steps all work inside an out-of-process frame.
func TestFrameEvaluatingSteps(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	outs := c.call(t, tab, `{"frame":{"name":"oop"}},
		{"wait":"#name"},
		{"type":{"selector":"#name","text":"Grace"}},
		{"press":"Backspace"},
		{"hover":"#btn"},
		{"query":{"selector":"#btn","output":"text"}},
		{"getDom":"#btn"},
		{"extract":"#items"},
		{"inspect":true},
		{"snapshotSearch":"Inner button"},
		{"assert":{"text":"Inner button"}},
		{"pageFunction":"document.getElementById('name').value"}`)
	if got := outs[11]["value"]; got != "Grac" {
		t.Errorf("typed into the frame: %v", got)
	}
	want := []struct {
		step int
		text string
	}{{5, "Inner button"}, {6, "Inner button"}, {7, "two"}, {8, "inner.html"}, {9, "Inner button"}}
	for _, w := range want {
		if out := fmt.Sprint(outs[w.step]); !strings.Contains(out, w.text) {
			t.Errorf("step %d in the frame lacks %q: %s", w.step, w.text, out)
		}
	}
}

// snapshotSearch with includeFrames finds matches in every frame, each
// path starting with its frame, with refs that act there.
func TestSnapshotSearchIncludeFrames(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	out := c.call(t, tab, `{"snapshotSearch":{"text":"Inner button","includeFrames":true}}`)[0]
	matches, _ := out["matches"].([]any)
	if len(matches) != 2 || out["matchCount"] != 2.0 {
		t.Fatalf("want the nested and the out-of-process frame's buttons: %v", out)
	}
	var oop string
	for _, m := range matches {
		m := m.(map[string]any)
		if strings.HasPrefix(m["path"].(string), `document "oop"`) {
			oop, _ = m["ref"].(string)
		}
	}
	if oop == "" {
		t.Fatalf("no match in the out-of-process frame: %v", matches)
	}
	c.call(t, tab, fmt.Sprintf(`{"click":%q}`, oop))
	if got := c.call(t, tab, `{"frame":"#oop"},{"pageFunction":"document.getElementById('btn').textContent"}`)[1]["value"]; got != "clicked 1" {
		t.Errorf("after a click by the search's ref: %v", got)
	}
	if out := c.call(t, tab, `{"frame":"top"},{"snapshotSearch":"Inner button"}`)[1]; out["matchCount"] != 0.0 {
		t.Errorf("without includeFrames: %v", out)
	}
}

// What an out-of-process frame logs reaches the call's console report and
// the console step, while the tab is switched to it.
func TestFrameConsole(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"frame":"#oop"},{"click":"#err"}]}`, tab))
	if code != 0 || !strings.Contains(fmt.Sprint(res["console"]), "oops from localhost") {
		t.Errorf("console report: %v", res["console"])
	}
	out := c.call(t, tab, `{"console":{"level":"error"}}`)[0]
	if !strings.Contains(fmt.Sprint(out), "oops from localhost") {
		t.Errorf("console step in the frame: %v", out)
	}
	// What a pageFunction logs in the out-of-process frame is its output's.
	out = c.call(t, tab, `{"pageFunction":"console.log('in', location.hostname); 1"}`)[0]
	if got := logged(out); len(got) != 1 || got[0] != "log:in localhost" {
		t.Errorf("pageFunction console in the frame: %v", out)
	}
}

// A search that fails in the current frame says which frame has the
// element.
func TestNotFoundNamesTheFrame(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"text":"Outer button","timeout":300}}]}`, tab))
	step := stepOutputs(t, res)[0]
	ctx, _ := step["context"].(map[string]any)
	if f, _ := ctx["inFrame"].(map[string]any); f == nil || f["name"] != "xo" {
		t.Errorf("failure context: %v", step)
	}
	if e := firstError(res); !strings.Contains(fmt.Sprint(e["error"]), `it is in frame "xo": switch with {"frame":{"frameId":`) || e["error"] != step["error"] {
		t.Errorf("the error does not say where the element is: %v", e)
	}
	if e := fmt.Sprint(step["error"]); !strings.HasSuffix(e, `or add "searchFrames": true`) {
		t.Errorf("click takes searchFrames, yet the error does not offer it: %s", e)
	}
	// fill has no searchFrames: the hint offers only the switch.
	res, _ = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{"label":"Name","value":"x","timeout":300}}]}`, tab))
	if e := fmt.Sprint(firstError(res)["error"]); !strings.Contains(e, `it is in frame "xo"`) || strings.Contains(e, "searchFrames") {
		t.Errorf("fill's error: %s", e)
	}
}

// When the frame the tab is switched to moves to another document, steps
// follow it there and context reports where it is now.
func TestFrameNavigatesBetweenCalls(t *testing.T) {
	// Not parallel: see the note on frames above.
	c := newCLI(t)
	tab := openFrames(t, c)
	c.call(t, tab, `{"frame":"#xo"},{"pageFunction":"location.href = '/inner.html?moved'"}`)
	c.call(t, tab, `{"wait":{"text":"Inner button"}}`)
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"document.title"}]}`, tab))
	f, _ := res["context"].(map[string]any)["frame"].(map[string]any)
	if code != 0 || stepOutputs(t, res)[0]["output"].(map[string]any)["value"] != "inner" ||
		f == nil || !strings.HasSuffix(fmt.Sprint(f["url"]), "/inner.html?moved") {
		t.Errorf("after the frame navigated: %v", res)
	}
}
