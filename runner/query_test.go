package runner_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// queryOutput is step i's output object.
func queryOutput(t *testing.T, res map[string]any, i int) map[string]any {
	t.Helper()
	steps := stepOutputs(t, res)
	if i >= len(steps) {
		t.Fatalf("no step %d in %v", i, res)
	}
	out, _ := steps[i]["output"].(map[string]any)
	return out
}

func TestReadingSteps(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/query.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[
		{"queryAll":{"links":{"selector":"#links a","output":["text","href"]},"heading":"h1"}},
		{"extract":"#orders"},
		{"formState":"#login"},
		{"inspect":true},
		{"assert":{"url":{"endsWith":"/query.html"},"text":"Orders","selector":"h1"}}
	]}`, tab))
	if code != 0 {
		t.Fatalf("exit %d: %v", code, res)
	}
	if _, ok := res["screenshot"]; ok {
		t.Error("reading steps took a screenshot")
	}
	all := queryOutput(t, res, 0)
	links := all["links"].(map[string]any)
	first := links["results"].([]any)[0].(map[string]any)["value"].(map[string]any)
	if links["total"] != float64(2) || first["text"] != "Alpha" || first["href"] != fixture.URL+"/a" {
		t.Errorf("queryAll: %v", all)
	}
	if h := all["heading"].(map[string]any); h["results"].([]any)[0].(map[string]any)["value"] != "Orders" {
		t.Errorf("queryAll heading: %v", h)
	}
	if tbl := queryOutput(t, res, 1); fmt.Sprint(tbl["headers"], tbl["rows"], tbl["rowCount"]) != "[Id Total] [[1 9.50] [2 12.00]] 2" {
		t.Errorf("extract: %v", tbl)
	}
	if fs := queryOutput(t, res, 2); fs["valid"] != false || fs["fieldCount"] != float64(2) {
		t.Errorf("formState: %v", fs)
	}
	if in := queryOutput(t, res, 3); in["title"] != "Query fixture" || in["elements"].(map[string]any)["button"] != float64(2) {
		t.Errorf("inspect: %v", in)
	}
	if as := queryOutput(t, res, 4); as["passed"] != true || len(as["assertions"].([]any)) != 2 {
		t.Errorf("assert: %v", as)
	}
}

// A failed assertion stops the batch as an EXECUTION error naming the
// actual value; the step keeps its output.
func TestAssertFailureStopsTheBatch(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/query.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"assert":{"url":{"contains":"/checkout"}}},{"getTitle":true}]}`, tab))
	e := firstError(res)
	if code != 1 || e == nil || e["type"] != "EXECUTION" || e["name"] != "AssertionError" || !strings.Contains(e["error"].(string), fixture.URL+"/query.html") {
		t.Fatalf("got %v", res)
	}
	steps := stepOutputs(t, res)
	if len(steps) != 1 || queryOutput(t, res, 0)["passed"] != false {
		t.Errorf("steps %v", steps)
	}
}

// An elementsAt ref is good for the next call's click, and the tab
// registry remembers the counters it used.
func TestElementsAtRefClickable(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/query.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"elementsAt":{"x":460,"y":40}}]}`, tab))
	el := queryOutput(t, res, 0)
	ref, _ := el["ref"].(string)
	// openTab's report already gave the on-screen button its ref.
	if code != 0 || el["tag"] != "button" || el["existing"] != true || el["clickable"] != true || ref == "" {
		t.Fatalf("got %v", res)
	}
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":%q},{"getBox":%q},{"pageFunction":"document.getElementById('msg').textContent"}]}`, tab, ref, ref))
	if code != 0 || queryOutput(t, res, 2)["value"] != "big clicked" {
		t.Fatalf("click on %s: %v", ref, res)
	}
	if box := queryOutput(t, res, 1); box["width"] != float64(120) || box["center"].(map[string]any)["x"] != float64(460) {
		t.Errorf("getBox %v", box)
	}
	var reg struct {
		Tabs map[string]struct {
			ElementID int `json:"elementId"`
		} `json:"tabs"`
	}
	data, err := os.ReadFile(filepath.Join(c.tmp, "cdp-skill-tabs.json"))
	if err == nil {
		err = json.Unmarshal(data, &reg)
	}
	if err != nil || fmt.Sprintf("e%d", reg.Tabs[tab].ElementID) != ref[strings.Index(ref, "e"):] {
		t.Errorf("the registry lacks the counters of %s: %s %v", ref, data, err)
	}
}

func TestPipelineAndSubmit(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/query.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[
		{"submit":"#login"}
	]}`, tab))
	if e := firstError(res); code != 1 || e["name"] != "FormValidationError" || queryOutput(t, res, 0)["submitted"] != false {
		t.Fatalf("invalid submit: %v", res)
	}
	if _, ok := res["screenshot"]; !ok {
		t.Error("submit is visual but took no screenshot")
	}
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[
		{"pipeline":[{"find":"#user","fill":"ada"},{"find":"#pass","type":"pw"},{"return":"document.getElementById('pass').value.length"}]},
		{"submit":{"selector":"#send"}},
		{"pipeline":[{"waitFor":"() => document.getElementById('msg').textContent"},{"return":"document.getElementById('msg').textContent"}]}
	]}`, tab))
	if code != 0 {
		t.Fatalf("exit %d: %v", code, res)
	}
	if p := queryOutput(t, res, 0); fmt.Sprint(p["completed"], p["steps"], p["results"]) != "true 3 [true true 2]" {
		t.Errorf("pipeline: %v", p)
	}
	if s := queryOutput(t, res, 1); s["submitted"] != true {
		t.Errorf("submit: %v", s)
	}
	if p := queryOutput(t, res, 2); fmt.Sprint(p["results"]) != "[true welcome ada]" {
		t.Errorf("after submit: %v", p)
	}
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pipeline":[{"find":"#user","fill":"x"},{"find":"#nope","click":true}]}]}`, tab))
	e := firstError(res)
	if p := queryOutput(t, res, 0); code != 1 || e["name"] != "ElementNotFoundError" || p["failedAt"] != float64(1) || len(p["results"].([]any)) != 1 {
		t.Errorf("failing pipeline: %v", res)
	}
}

// A selector that cannot parse is a VALIDATION error before anything runs.
func TestBadSelectorRejectedBeforeChrome(t *testing.T) {
	t.Parallel()
	res, code := newCLI(t).run(`{"tab":"t1","steps":[{"extract":"table >"}]}`)
	if typ, msg := errorOf(res); code != 1 || typ != "VALIDATION" || !strings.Contains(msg, `invalid CSS selector "table >"`) {
		t.Fatalf("got %v", res)
	}
}
