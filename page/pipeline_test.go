package page_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/cdpskill/cdpskill/internal/pagetest"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/page"
)

func runPipeline(t *testing.T, p *page.Page, req page.PipelineRequest) (*page.PipelineResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	return page.Pipeline(ctx, p, req)
}

func pageEval[T any](t *testing.T, p *page.Page, expr string) T {
	t.Helper()
	obj, err := p.Main().Evaluate(t.Context(), proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true})
	if err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	var v T
	if err := json.Unmarshal(obj.Value, &v); err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

// One evaluation fills, types, checks, selects and clicks, waits for what
// the click caused and returns it.
func TestPipelineCompletes(t *testing.T) {
	p, _ := evalPage(t, "pipe-form.html")
	res, err := runPipeline(t, p, page.PipelineRequest{Steps: []page.PipelineOp{
		{Find: "#name", Fill: ptr("Ada")},
		{Find: "#search", Type: ptr("hi")},
		{Find: "#agree", Check: ptr(true)},
		{Find: "#news", Check: ptr(false)},
		{Find: "#size", Select: ptr("Large")},
		{Find: "#go", Click: ptr(true)},
		{WaitFor: "() => document.getElementById('out').textContent !== ''"},
		{Sleep: ptr(10)},
		{Return: "document.getElementById('out').textContent"},
		{Return: "() => ({size: document.getElementById('size').value, agree: document.getElementById('agree').checked})"},
		{Return: "() => document.getElementById('go')"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"completed":true,"steps":11,"results":[true,true,true,true,true,true,true,true,"Hello Ada",{"size":"l","agree":true},{"tag":"button","id":"go","text":"Go"}]}`
	if got := mustJSON(t, res); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	state := pageEval[map[string]any](t, p, `({
		name: document.getElementById('name').value, search: document.getElementById('search').value,
		news: document.getElementById('news').checked, intercepted: !!window.intercepted, seen: window.seen})`)
	if state["name"] != "Ada" || state["search"] != "hi" || state["news"] != false || state["intercepted"] != false {
		t.Errorf("page state %v", state)
	}
	seen := mustJSON(t, state["seen"])
	for _, w := range []string{
		`"name":["input","change"]`,
		`"search":["keydown","keypress","input","keyup","keydown","keypress","input","keyup"]`,
		`"agree":["click","input","change"]`,
		`"size":["input","change"]`,
	} {
		if !strings.Contains(seen, w) {
			t.Errorf("events: want %s in %s", w, seen)
		}
	}
}

// The first operation that fails stops the pipeline: failedAt names it
// (zero-based), results hold what completed, and the error is typed.
func TestPipelineFailedAt(t *testing.T) {
	cases := []struct {
		name string
		ops  []page.PipelineOp
		at   int
		sub  string // ErrorName
		msg  string
	}{
		{"missing element", []page.PipelineOp{{Find: "#name", Fill: ptr("x")}, {Find: "#nope", Click: ptr(true)}}, 1, "ElementNotFoundError", `no element matches "#nope"`},
		{"invalid selector", []page.PipelineOp{{Find: "#name:frob", Fill: ptr("x")}}, 0, "StepValidationError", "invalid CSS selector"},
		{"readonly", []page.PipelineOp{{Find: "#ro", Fill: ptr("x")}}, 0, "ElementNotEditableError", "readonly"},
		{"not a checkbox", []page.PipelineOp{{Find: "#name", Check: ptr(true)}}, 0, "ElementNotEditableError", "not a checkbox"},
		{"no option", []page.PipelineOp{{Find: "#size", Select: ptr("XL")}}, 0, "ElementNotFoundError", `no option "XL"`},
		{"waitFor timeout", []page.PipelineOp{{Sleep: ptr(0)}, {WaitFor: "() => false", Timeout: 300}}, 1, "TimeoutError", "waitFor timed out after 300ms"},
		{"waitFor keeps the last exception", []page.PipelineOp{{WaitFor: "document.querySelector('#later').id", Timeout: 200}}, 0, "TimeoutError", "last error: TypeError"},
		{"return throws", []page.PipelineOp{{Return: "() => { throw new RangeError('boom') }"}}, 0, "EvaluationError", "RangeError: boom"},
		{"syntax error", []page.PipelineOp{{Find: "#name", Fill: ptr("x")}, {Return: "() => ("}}, 1, "EvaluationError", "SyntaxError"},
	}
	p, _ := evalPage(t, "pipe-form.html")
	for _, tc := range cases {
		res, err := runPipeline(t, p, page.PipelineRequest{Steps: tc.ops})
		var pe *page.PipelineError
		if !errors.As(err, &pe) || pe.Index != tc.at || pe.ErrorName() != tc.sub || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: got %v (%+v)", tc.name, err, pe)
			continue
		}
		if res == nil || res.Completed || res.FailedAt == nil || *res.FailedAt != tc.at || len(res.Results) > tc.at || res.Error == "" {
			t.Errorf("%s: result %s", tc.name, mustJSON(t, res))
		}
		if tc.sub == "TimeoutError" && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: a timeout does not wrap DeadlineExceeded", tc.name)
		}
	}
}

func TestPipelineSyntaxErrorRunsNothing(t *testing.T) {
	p, _ := evalPage(t, "pipe-form.html")
	res, err := runPipeline(t, p, page.PipelineRequest{Steps: []page.PipelineOp{
		{Find: "#name", Fill: ptr("ran")}, {WaitFor: "() => true"}, {Return: "x =>> 1"},
	}})
	if err == nil || *res.FailedAt != 2 || len(res.Results) != 0 {
		t.Fatalf("got %s %v", mustJSON(t, res), err)
	}
	if v := pageEval[string](t, p, "document.getElementById('name').value"); v != "" {
		t.Errorf("an operation ran before the syntax error was found: %q", v)
	}
}

// The pipeline's own timeout fails the operation that would outlast it.
func TestPipelineBudget(t *testing.T) {
	p, _ := evalPage(t, "pipe-form.html")
	// Time for the first operation on a loaded machine; the second would
	// outlast it whatever the load.
	res, err := runPipeline(t, p, page.PipelineRequest{Timeout: 2 * time.Second, Steps: []page.PipelineOp{
		{Sleep: ptr(100)}, {Sleep: ptr(10000)},
	}})
	if !errors.Is(err, context.DeadlineExceeded) || res == nil || *res.FailedAt != 1 || len(res.Results) != 1 {
		t.Fatalf("got %s %v", mustJSON(t, res), err)
	}
	res, err = runPipeline(t, p, page.PipelineRequest{Timeout: 300 * time.Millisecond, Steps: []page.PipelineOp{
		{WaitFor: "() => false"},
	}})
	if err == nil || !strings.Contains(err.Error(), "ran out of time") || *res.FailedAt != 0 {
		t.Fatalf("waitFor past the budget: %s %v", mustJSON(t, res), err)
	}
}

// Code that never yields is terminated; the tab stays usable.
func TestPipelineBusyLoopIsTerminated(t *testing.T) {
	p, _ := evalPage(t, "pipe-form.html")
	_, err := runPipeline(t, p, page.PipelineRequest{Timeout: 300 * time.Millisecond, Steps: []page.PipelineOp{
		{Return: "() => { for (;;) {} }"},
	}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if got := pageEval[string](t, p, "document.title"); got != "Pipeline fixture" {
		t.Errorf("tab unusable after the loop: %q", got)
	}
}

func TestPipelineValidate(t *testing.T) {
	bad := map[string]page.PipelineRequest{
		"empty":             {},
		"two actions":       {Steps: []page.PipelineOp{{Find: "#a", Fill: ptr("x"), Click: ptr(true)}}},
		"no action":         {Steps: []page.PipelineOp{{Find: "#a"}}},
		"fill without find": {Steps: []page.PipelineOp{{Fill: ptr("x")}}},
		"find with sleep":   {Steps: []page.PipelineOp{{Find: "#a", Sleep: ptr(1)}}},
		"click false":       {Steps: []page.PipelineOp{{Find: "#a", Click: ptr(false)}}},
		"timeout on fill":   {Steps: []page.PipelineOp{{Find: "#a", Fill: ptr("x"), Timeout: 5}}},
		"long sleep":        {Steps: []page.PipelineOp{{Sleep: ptr(60001)}}},
	}
	for name, req := range bad {
		if err := req.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	err := page.PipelineRequest{Steps: []page.PipelineOp{{Sleep: ptr(1)}, {Find: "#a"}}}.Validate()
	if err == nil || !strings.HasPrefix(err.Error(), "pipeline[1]: ") {
		t.Errorf("the error does not name the operation: %v", err)
	}
}

// find takes refs as well as selectors; a stale ref fails like a missing
// element.
func TestPipelineFindsRefs(t *testing.T) {
	p, _ := evalPage(t, "pipe-form.html")
	pagetest.EvalHelper[any](t, p, `(() => {
		const gone = document.createElement('input');
		window.__ariaRefs = new Map([['s1e1', document.getElementById('search')], ['s1e2', gone]]);
		return null;
	})()`)
	res, err := runPipeline(t, p, page.PipelineRequest{Steps: []page.PipelineOp{
		{Find: "s1e1", Fill: ptr("by ref")}, {Find: "s1e2", Fill: ptr("x")},
	}})
	var pe *page.PipelineError
	if !errors.As(err, &pe) || pe.ErrorName() != "ElementNotFoundError" || !strings.Contains(err.Error(), "s1e2 is stale") || *res.FailedAt != 1 {
		t.Fatalf("got %s %v", mustJSON(t, res), err)
	}
	if v := pageEval[string](t, p, "document.getElementById('search').value"); v != "by ref" {
		t.Errorf("search is %q", v)
	}
}
