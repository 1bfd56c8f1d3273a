package dom_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
)

// A batch fills every field it can, in order, by selector and by ref; a
// field that fails does not stop the others, but fails the batch with a
// typed error that carries the first failure's subtype.
func TestFillBatch(t *testing.T) {
	p := openFixture(t, "fill.html")
	ref := mint(t, p, "makeRef(document.getElementById('notes'), 'textbox', 'Notes', '#notes')")
	res, err := dom.FillBatch(testCtx(t), p, dom.FillBatchRequest{Fields: []dom.Field{
		{Target: "#first", Value: "Ada"},
		{Target: "#missing", Value: "x"},
		{Target: ref, Value: "notes"},
		{Target: "#ro", Value: "y"},
		{Target: "#last", Value: "Lovelace"},
	}, Timeout: short})
	if res == nil {
		t.Fatalf("no result: %v", err)
	}
	if res.Total != 5 || res.Filled != 3 || res.Failed != 2 || len(res.Results) != 5 {
		t.Errorf("counts = %+v", *res)
	}
	for i, want := range []bool{true, false, true, false, true} {
		r := res.Results[i]
		if r.Filled != want || (r.Error == "") != want {
			t.Errorf("results[%d] = %+v", i, r)
		}
	}
	if res.Results[2].Field != ref {
		t.Errorf("results keep the given keys: %+v", res.Results[2])
	}
	for id, want := range map[string]string{"first": "Ada", "notes": "notes", "last": "Lovelace"} {
		if got := valueOf(t, p, id); got != want {
			t.Errorf("#%s = %q", id, got)
		}
	}
	var be *dom.BatchFillError
	if !errors.As(err, &be) || len(be.Errs) != 2 || be.Fields[1] != "#ro" {
		t.Fatalf("err = %v", err)
	}
	if name := errorName(err); name != "ElementNotFoundError" {
		t.Errorf("ErrorName = %q, want the first failure's", name)
	}
	var s dom.Searched
	if !errors.As(err, &s) || s.SearchTerm() != "#missing" {
		t.Errorf("search term = %v", s)
	}
}

// Each field of a batch says what it holds now when the page changed
// what went in, as a single fill does; a field kept as typed says nothing.
func TestFillBatchReportsValue(t *testing.T) {
	p := openFixture(t, "fill.html")
	run(t, p, `const cut = document.getElementById('first');
		cut.addEventListener('input', () => { cut.value = cut.value.slice(0, 5); });
		const shout = document.getElementById('last');
		shout.addEventListener('input', () => { shout.value = shout.value.toUpperCase().replace(/[^A-Z0-9]/g, ''); });`)
	res, err := dom.FillBatch(testCtx(t), p, dom.FillBatchRequest{Fields: []dom.Field{
		{Target: "#first", Value: "Bobby Tables"},
		{Target: "#last", Value: "save-10"},
		{Target: "#nick", Value: "kept"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"Bobby", "SAVE10", ""} {
		r := res.Results[i]
		switch {
		case !r.Filled:
			t.Errorf("results[%d] = %+v", i, r)
		case want == "" && r.Value != nil:
			t.Errorf("results[%d]: value %q for a field kept as typed", i, *r.Value)
		case want != "" && (r.Value == nil || *r.Value != want):
			t.Errorf("results[%d]: value %v, want %q", i, r.Value, want)
		}
	}
}

func TestFillBatchAllGood(t *testing.T) {
	p := openFixture(t, "react.html")
	res, err := dom.FillBatch(testCtx(t), p, dom.FillBatchRequest{Fields: []dom.Field{{Target: "#name", Value: "hi"}}, React: true})
	if err != nil || res.Filled != 1 || res.Failed != 0 {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if got := eval[string](t, p, "window.state"); got != "hi" {
		t.Errorf("react state = %q", got)
	}
}

// A step timeout part-way through still reports the fields already done.
func TestFillBatchStepTimeout(t *testing.T) {
	p := openFixture(t, "fill.html")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err := dom.FillBatch(ctx, p, dom.FillBatchRequest{Fields: []dom.Field{{Target: "#first", Value: "x"}}})
	if err == nil || (res != nil && res.Filled != 0) {
		t.Errorf("res = %+v, err = %v", res, err)
	}
}

// A batch's keys may be labels, as an agent reads them off the form: a
// key without CSS punctuation that is no form tag is one.
func TestFillBatchByLabels(t *testing.T) {
	p := openFixture(t, "fill.html")
	res, err := dom.FillBatch(testCtx(t), p, dom.FillBatchRequest{Fields: []dom.Field{
		{Target: "First name", Value: "Ada"},
		{Target: "Last name", Value: "Lovelace"},
		{Target: "Email", Value: "ada@example.com"},
		{Target: "#nick", Value: "Countess"},
	}, Timeout: short})
	if err != nil || res.Filled != 4 {
		t.Fatalf("%+v: %v", res, err)
	}
	for id, want := range map[string]string{"first": "Ada", "last": "Lovelace", "email": "ada@example.com", "nick": "Countess"} {
		if got := valueOf(t, p, id); got != want {
			t.Errorf("#%s = %q, want %q", id, got, want)
		}
	}
}
