package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pageFunction and poll as an agent writes them: scripts in files, and
// what the code logs in the step's output (js-exec-requirements AC8,
// AC15, AC16); uncaught exceptions with the async stack that led to them.

// script writes a JavaScript file for a step and returns its path.
func script(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// logged renders a step output's console entries as level:text lines.
func logged(out map[string]any) []string {
	var lines []string
	for _, e := range field(out, "console").([]any) {
		m := e.(map[string]any)
		line := fmt.Sprintf("%s:%s", m["level"], m["text"])
		if n := num(m["count"]); n > 0 {
			line += fmt.Sprintf(" x%d", n)
		}
		lines = append(lines, line)
	}
	return lines
}

// AC8 and AC16: a file runs as inline code would, and its console calls
// at every level come back in order with the value.
func TestPageFunctionFileLogs(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	levels := script(t, "levels.js", `// four levels, then a value
console.log('step', 1);
console.info({user: 'ann'});
console.warn('careful');
console.error(new Error('bad input'));
document.title.length > 0
`)
	fn := script(t, "fn.js", "/* a function after a comment is called */\nasync (n = 2) => {\n  console.log('in fn');\n  return n * 21;\n}\n")
	outs := c.call(t, tab, fmt.Sprintf(`{"pageFunction":{"file":%q}},{"pageFunction":{"file":%q}},{"pageFunction":"const x = {a: 1}; console.log(x); 42"},{"pageFunction":"1 + 1"}`, levels, fn))

	if outs[0]["type"] != "boolean" || outs[0]["value"] != true {
		t.Errorf("file value: %v", outs[0])
	}
	want := []string{"log:step 1", "info:{user: 'ann'}", "warning:careful", "error:Error: bad input"}
	if got := logged(outs[0]); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("file console:\n got %q\nwant %q", got, want)
	}
	if outs[1]["value"] != float64(42) || strings.Join(logged(outs[1]), "|") != "log:in fn" {
		t.Errorf("a function in a file: %v", outs[1])
	}
	// AC16: console.log(x); 42 shows both.
	if outs[2]["type"] != "number" || outs[2]["value"] != float64(42) || strings.Join(logged(outs[2]), "|") != "log:{a: 1}" {
		t.Errorf("console.log(x); 42: %v", outs[2])
	}
	if _, ok := outs[3]["console"]; ok {
		t.Errorf("console on a step that logged nothing: %v", outs[3])
	}
}

// The step's console is its own code's: the page's chatter of the same
// moment stays out; page code it calls is in.
func TestPageFunctionConsoleIsItsOwn(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/js-chatter.html")
	res := c.runOK(t, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"console.log('mine'); await new Promise(r => setTimeout(r, 60)); setTimeout(() => console.info('scheduled'), 0); await new Promise(r => setTimeout(r, 30)); console.warn('agent warning'); helper()"}]}`, tab))
	out := field(res, "steps", 0, "output").(map[string]any)
	want := []string{"log:mine", "info:scheduled", "warning:agent warning", "log:helper ran"}
	if got := logged(out); strings.Join(got, "|") != strings.Join(want, "|") || out["value"] != float64(7) {
		t.Errorf("console:\n got %q\nwant %q (output %v)", got, want, out)
	}
	// The call's report has the page's warnings, not the step's again.
	if report := jsonText(res["console"]); !strings.Contains(report, "page warning") || strings.Contains(report, "agent warning") {
		t.Errorf("report: %s", report)
	}
	// A predicate that logs on every evaluation: one entry, counted.
	outs := c.call(t, tab, `{"poll":{"fn":"() => { console.log('waiting'); return (window.n = (window.n || 0) + 1) >= 3 }","interval":10}}`)
	if got := logged(outs[0]); len(got) != 1 || got[0] != "log:waiting x3" || outs[0]["resolved"] != true {
		t.Errorf("poll console %q: %v", got, outs[0])
	}
}

// A file's SyntaxError names the file and the line; a failed evaluation
// still shows what it logged before it threw.
func TestPageFunctionFileErrors(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	bad := script(t, "bad.js", "// fills the form\nconst name = 'x';\nif (name {\n  console.log(name);\n}\n")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":{"file":%q}}]}`, tab, bad))
	e := firstError(res)
	if code != 1 || e == nil || e["name"] != "EvaluationError" || !strings.Contains(e["error"].(string), "SyntaxError") ||
		!strings.Contains(e["error"].(string), bad+":3:") {
		t.Errorf("syntax error in a file: %v", res)
	}

	throws := script(t, "throws.js", "console.log('before');\nconst items = null;\nitems.length\n")
	// The poll's time is for one evaluation at least, on a loaded machine.
	res, _ = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"poll":{"file":%q,"timeout":2000}},{"pageFunction":{"file":%q}}]}`, tab, throws, throws))
	steps := stepOutputs(t, res)
	if last := field(steps[0], "output", "lastError"); !strings.Contains(fmt.Sprint(last), "TypeError") || !strings.Contains(fmt.Sprint(last), throws+":3:") {
		t.Errorf("poll of a throwing file: %v", steps[0])
	}
	if len(steps) < 2 {
		t.Fatalf("steps: %v", res)
	}
	s := steps[1]
	if !strings.Contains(fmt.Sprint(s["error"]), throws+":3:") || strings.Join(logged(s["output"].(map[string]any)), "|") != "log:before" {
		t.Errorf("a throwing file: %v", s)
	}
}

// AC15: a missing file is a VALIDATION error naming it, before anything
// runs: the batch's goto does not happen.
func TestPageFunctionMissingFile(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	missing := filepath.Join(t.TempDir(), "nope", "script.js")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"goto":%q},{"pageFunction":{"file":%q}},{"poll":{"file":%q}}]}`,
		tab, fixture.URL+"/small.html", missing, missing+"x"))
	typ, msg := errorOf(res)
	if code != 1 || typ != "VALIDATION" || !strings.Contains(msg, fmt.Sprintf("step 2: pageFunction: script file %q does not exist", missing)) ||
		!strings.Contains(msg, fmt.Sprintf("step 3: poll: script file %q does not exist", missing+"x")) {
		t.Errorf("missing file: exit %d %v", code, res)
	}
	if url := c.value(t, tab, "location.pathname"); url != "/hello.html" {
		t.Errorf("the batch ran before its missing file was noticed: the tab is at %v", url)
	}
}

// An uncaught exception in a timer or a promise shows, in the call's
// console report and in the console step, the handler that scheduled it.
func TestExceptionAsyncStacks(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/js-async.html")
	res := c.runOK(t, fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#save"},{"poll":"() => window.saveFailed"},
		{"console":{"type":"exception"}}]}`, tab))
	report := jsonText(res["console"])
	if !strings.Contains(report, `"setTimeout (async)","onSave (js-async.html:7:`) || !strings.Contains(report, `"stack":["failLater (js-async.html:6:`) {
		t.Errorf("report lacks the timer's async stack: %s", report)
	}
	view := jsonText(field(stepOutputs(t, res)[2], "output", "messages"))
	if !strings.Contains(view, `"function":"onSave"`) || !strings.Contains(view, `"async":"setTimeout"`) {
		t.Errorf("console step lacks the timer's async stack: %s", view)
	}

	res = c.runOK(t, fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#load"},{"poll":"() => window.rendered"},
		{"console":{"type":"exception"}}]}`, tab))
	report = jsonText(res["console"])
	if !strings.Contains(report, "Uncaught (in promise) TypeError") || !strings.Contains(report, `"Promise.then (async)","onLoad (js-async.html:`) {
		t.Errorf("report lacks the rejection's async stack: %s", report)
	}
	view = jsonText(field(stepOutputs(t, res)[2], "output", "messages"))
	if !strings.Contains(view, `"function":"onLoad"`) || !strings.Contains(view, `"async":"Promise.then"`) {
		t.Errorf("console step lacks the rejection's async stack: %s", view)
	}
	if strings.Contains(report+view, `"cdpskill`) {
		t.Errorf("cdpskill's own frames shown: %s %s", report, view)
	}
}
