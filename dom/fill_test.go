package dom_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/page"
)

func fill(t *testing.T, p *page.Page, req dom.FillRequest) *dom.FillResult {
	t.Helper()
	res, err := dom.Fill(testCtx(t), p, req)
	if err != nil {
		t.Fatalf("fill %+v: %v", req, err)
	}
	if !res.Filled {
		t.Fatalf("fill %+v: not filled: %+v", req, res)
	}
	return res
}

func valueOf(t *testing.T, p *page.Page, id string) string {
	t.Helper()
	return eval[string](t, p, "document.getElementById('"+id+"').value")
}

func TestFillBySelectorAndRef(t *testing.T) {
	p := openFixture(t, "fill.html")
	res := fill(t, p, dom.FillRequest{Target: "#first", Value: "Ada"})
	want := dom.FillResult{Filled: true, Method: dom.MethodInsertText}
	if *res != want {
		t.Errorf("result = %+v, want %+v", *res, want)
	}
	ref := mint(t, p, "makeRef(document.getElementById('notes'), 'textbox', 'Notes', '#notes')")
	fill(t, p, dom.FillRequest{Target: ref, Value: "line one\nline two"})
	if got := valueOf(t, p, "first"); got != "Ada" {
		t.Errorf("#first = %q", got)
	}
	if got := valueOf(t, p, "notes"); got != "line one\nline two" {
		t.Errorf("#notes = %q", got)
	}
}

// Each level of the label priority chain (SPEC 6.4) finds its field, an
// exact match beats an earlier loose one, and hidden fields are skipped.
func TestFillByLabel(t *testing.T) {
	p := openFixture(t, "fill.html")
	cases := []struct {
		label string
		exact bool
		id    string
	}{
		{"First name", false, "first"},            // label[for]
		{"Last name", false, "last"},              // input nested in label
		{"Nickname", false, "nick"},               // aria-label
		{"Company", false, "company"},             // aria-labelledby
		{"Search the catalogue", false, "search"}, // placeholder
		{"first", false, "first"},                 // case-insensitive substring
		{"CATALOGUE", false, "search"},            // ... at any level
		{"Email", false, "email"},                 // label[for] beats an earlier placeholder
		{"Alias", false, "alias"},                 // the hidden twin is skipped
		{"Search the catalogue", true, "search"},  // exact
	}
	for _, c := range cases {
		value := "v-" + c.label
		fill(t, p, dom.FillRequest{Label: c.label, Exact: c.exact, Value: value})
		if got := valueOf(t, p, c.id); got != value {
			t.Errorf("label %q: #%s = %q, want %q", c.label, c.id, got, value)
		}
	}
	if got := valueOf(t, p, "email-ph"); got != "" {
		t.Errorf("placeholder field took the Email fill: %q", got)
	}
	_, err := dom.Fill(testCtx(t), p, dom.FillRequest{Label: "first", Exact: true, Value: "x", Timeout: short})
	var nf *dom.NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), `no visible form field labelled "first"`) {
		t.Errorf("exact lower-case label: err = %v", err)
	}
}

func TestFillFocusedElement(t *testing.T) {
	p := openFixture(t, "fill.html")
	run(t, p, "document.getElementById('focus-me').focus()")
	fill(t, p, dom.FillRequest{Value: "typed here"})
	if got := valueOf(t, p, "focus-me"); got != "typed here" {
		t.Errorf("#focus-me = %q", got)
	}
	run(t, p, "document.activeElement.blur()")
	_, err := dom.Fill(testCtx(t), p, dom.FillRequest{Value: "x", Timeout: short})
	var nf *dom.NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "no element has focus") {
		t.Errorf("nothing focused: err = %v", err)
	}
}

// A fill replaces what the field held; clear: false appends to it, and
// the result says so whenever the field now holds more than the value.
func TestFillClearAndAppend(t *testing.T) {
	cases := []struct {
		name     string
		id       string
		clear    *bool
		react    bool
		value    string
		want     string
		appended bool
	}{
		{"replace", "prefilled", nil, false, "Bye", "Bye", false},
		{"append", "prefilled", ptr(false), false, " world", "Hello world", true},
		{"empty clears", "prefilled", nil, false, "", "", false},
		{"append to email", "email", ptr(false), false, "@example.com", "ada@example.com", true},
		{"append to nothing", "first", ptr(false), false, "Ada", "Ada", false},
		{"append by the setter", "prefilled", ptr(false), true, "!", "Hello!", true},
		{"replace by the setter", "prefilled", nil, true, "Bye", "Bye", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := openFixture(t, "fill.html")
			run(t, p, "document.getElementById('email').value = 'ada'")
			res := fill(t, p, dom.FillRequest{Target: "#" + c.id, Value: c.value, Clear: c.clear, React: c.react})
			if got := valueOf(t, p, c.id); got != c.want {
				t.Errorf("value = %q, want %q", got, c.want)
			}
			if res.Warning != "" {
				t.Errorf("warning = %q", res.Warning)
			}
			if res.Appended != c.appended {
				t.Errorf("appended = %v, want %v", res.Appended, c.appended)
			}
		})
	}
	p := openFixture(t, "fill.html")
	clear := false
	res, err := dom.FillBatch(t.Context(), p, dom.FillBatchRequest{Fields: []dom.Field{{Target: "#prefilled", Value: "!"}, {Target: "#first", Value: "Ada"}}, Clear: &clear})
	if err != nil || !res.Results[0].Appended || res.Results[1].Appended {
		t.Errorf("batch: %v %+v", err, res)
	}
}

func TestFillContentEditable(t *testing.T) {
	p := openFixture(t, "fill.html")
	fill(t, p, dom.FillRequest{Target: "#editor", Value: "rich"})
	fill(t, p, dom.FillRequest{Target: "#editor", Value: " text", Clear: ptr(false)})
	if got := eval[string](t, p, "document.getElementById('editor').innerText"); got != "rich text" {
		t.Errorf("editor = %q", got)
	}
}

// A contenteditable keeps a trailing space as a no-break space so that
// it shows, and its innerText shows a run of spaces as one: neither is a
// cut the page made.
func TestFillContentEditableSpaces(t *testing.T) {
	for _, value := range []string{"See you at noon ", "two  spaces"} {
		p := openFixture(t, "fill.html")
		res := fill(t, p, dom.FillRequest{Target: "#editor", Value: value})
		if res.Warning != "" || res.Value != nil {
			t.Errorf("%q: warning %q, value %v", value, res.Warning, res.Value)
		}
		got := eval[string](t, p, "document.getElementById('editor').textContent")
		if strings.ReplaceAll(got, "\u00a0", " ") != value {
			t.Errorf("%q: editor = %q", value, got)
		}
	}
}

// The page's own listeners see the filled value on input, and on change
// once, when the field loses focus, as after a person's typing.
func TestFillFiresInputThenChangeOnBlur(t *testing.T) {
	p := openFixture(t, "fill.html")
	fill(t, p, dom.FillRequest{Target: "#watched", Value: "xyz"})
	if got := pageEvents(t, p); !slices.Equal(got, []string{"input:xyz"}) {
		t.Errorf("events after the fill = %v", got)
	}
	run(t, p, "document.getElementById('watched').blur()")
	if got := pageEvents(t, p); !slices.Equal(got, []string{"input:xyz", "change:xyz"}) {
		t.Errorf("events after leaving the field = %v", got)
	}
}

func TestFillNotEditable(t *testing.T) {
	cases := []struct {
		target    string
		reason    string
		permanent bool
	}{
		{"#ro", "readonly", false},
		{"#dis", "disabled", false},
		{"#range", `type "range"`, true},
		{"#plain", "not a form field", true},
	}
	p := openFixture(t, "fill.html")
	for _, c := range cases {
		_, err := dom.Fill(testCtx(t), p, dom.FillRequest{Target: c.target, Value: "x", Timeout: short})
		var ne *dom.NotEditableError
		if !errors.As(err, &ne) {
			t.Errorf("%s: err = %v (%T), want *NotEditableError", c.target, err, err)
			continue
		}
		if !strings.Contains(ne.Reason, c.reason) || ne.Permanent != c.permanent {
			t.Errorf("%s: reason %q permanent %v, want %q %v", c.target, ne.Reason, ne.Permanent, c.reason, c.permanent)
		}
		if name := errorName(err); name != "ElementNotEditableError" {
			t.Errorf("%s: ErrorName = %q", c.target, name)
		}
	}
}

// A page that empties the field as the text goes in took the text: the
// fill succeeds and says what the field holds now.
func TestFillValueConsumedByPage(t *testing.T) {
	p := openFixture(t, "fill.html")
	res := fill(t, p, dom.FillRequest{Target: "#locked", Value: "kept?"})
	if !res.Filled || res.Value == nil || *res.Value != "" || res.Warning != "" {
		t.Errorf("result = %+v", *res)
	}
}

// A covered field is still filled: it is focused from script, not by a
// click that would land on the cover.
func TestFillCoveredField(t *testing.T) {
	p := openFixture(t, "fill.html")
	run(t, p, "coverField()")
	res := fill(t, p, dom.FillRequest{Target: "#covered", Value: "under"})
	if res.AutoForced {
		t.Errorf("result = %+v", *res)
	}
	if got := valueOf(t, p, "covered"); got != "under" {
		t.Errorf("value = %q", got)
	}
}

// A hidden field is auto-forced at the timeout but cannot take focus, so
// nothing is typed into whatever else has focus.
func TestFillHiddenField(t *testing.T) {
	p := openFixture(t, "fill.html")
	run(t, p, "document.getElementById('focus-me').focus()")
	_, err := dom.Fill(testCtx(t), p, dom.FillRequest{Target: "#hidden-field", Value: "x", Timeout: short})
	var ne *dom.NotEditableError
	if !errors.As(err, &ne) || !strings.Contains(ne.Reason, "focus") {
		t.Errorf("err = %v", err)
	}
	if got := valueOf(t, p, "focus-me"); got != "" {
		t.Errorf("focused field got %q", got)
	}
}

func TestFillReactControlledInput(t *testing.T) {
	p := openFixture(t, "react.html")
	run(t, p, "naiveSet('ignored')")
	if got := eval[string](t, p, "window.state"); got != "" {
		t.Fatalf("fixture accepted a naive set: state = %q", got)
	}
	res := fill(t, p, dom.FillRequest{Target: "#name", Value: "hello", React: true})
	if res.Method != dom.MethodReact || res.Warning != "" {
		t.Errorf("result = %+v", *res)
	}
	fill(t, p, dom.FillRequest{Target: "#name", Value: " world", React: true, Clear: ptr(false)})
	if got := eval[string](t, p, "window.state"); got != "hello world" {
		t.Errorf("state = %q", got)
	}
	if got := valueOf(t, p, "name"); got != "hello world" {
		t.Errorf("DOM value = %q", got)
	}
	if got := pageEvents(t, p); !slices.Equal(got, []string{"onChange:hello", "onChange:hello world"}) {
		t.Errorf("events = %v", got)
	}
}

// Input.insertText is a real edit, so a React-style tracker accepts it too.
func TestFillReactControlledInputByInsertText(t *testing.T) {
	p := openFixture(t, "react.html")
	fill(t, p, dom.FillRequest{Target: "#name", Value: "typed"})
	if got := eval[string](t, p, "window.state"); got != "typed" {
		t.Errorf("state = %q", got)
	}
}

// Date and time inputs are edited segment by segment, so they take the
// native setter; a number input rejects letters, which is an error.
func TestFillTypedInputs(t *testing.T) {
	p := openFixture(t, "fill.html")
	for _, c := range []struct{ id, value, method string }{
		{"when", "2024-01-15", dom.MethodSetValue},
		{"at", "13:45", dom.MethodSetValue},
		{"count", "42", dom.MethodInsertText},
	} {
		res := fill(t, p, dom.FillRequest{Target: "#" + c.id, Value: c.value})
		if res.Method != c.method || valueOf(t, p, c.id) != c.value {
			t.Errorf("#%s: result %+v, value %q", c.id, *res, valueOf(t, p, c.id))
		}
	}
	_, err := dom.Fill(testCtx(t), p, dom.FillRequest{Target: "#count", Value: "abc"})
	var ne *dom.NotEditableError
	if !errors.As(err, &ne) {
		t.Errorf("letters in a number input: err = %v", err)
	}
}

// A fill chooses in the fields that take no text, as a person would: a
// select's option by value or label, a checkbox, radio or switch clicked
// into the state asked, and left alone when it is in it already.
func TestFillChoices(t *testing.T) {
	p := openFixture(t, "choices.html")
	cases := []struct {
		req    dom.FillRequest
		method string
		check  string // JavaScript that must be true after
	}{
		{dom.FillRequest{Label: "Plan", Value: "Enterprise"}, dom.MethodSelect, "plan.value === 'ent' && log.textContent === 'plan=ent'"},
		{dom.FillRequest{Target: "#plan", Value: "team"}, dom.MethodSelect, "plan.value === 'team'"},
		{dom.FillRequest{Label: "I accept the terms", Value: "true"}, dom.MethodClick, "terms.checked"},
		{dom.FillRequest{Target: "#terms", Value: "yes"}, dom.MethodUnchanged, "terms.checked"},
		{dom.FillRequest{Label: "Send me news", Value: "false"}, dom.MethodClick, "!news.checked"}, // hidden input: its label is clicked
		{dom.FillRequest{Label: "Large", Value: "true"}, dom.MethodClick, "l.checked && !s.checked"},
		{dom.FillRequest{Label: "Dark mode", Value: "on"}, dom.MethodClick, "dark.getAttribute('aria-checked') === 'true'"},
	}
	for _, c := range cases {
		res := fill(t, p, c.req)
		if res.Method != c.method {
			t.Errorf("%+v: method %q, want %q", c.req, res.Method, c.method)
		}
		if !eval[bool](t, p, c.check) {
			t.Errorf("%+v: after the fill, not %s", c.req, c.check)
		}
	}
	for _, c := range []struct {
		req  dom.FillRequest
		want string
	}{
		{dom.FillRequest{Target: "#terms", Value: "maybe"}, "give true or false"},
		{dom.FillRequest{Target: "#l", Value: "false"}, "unchecked by choosing another"},
		{dom.FillRequest{Target: "#locked", Value: "true", Timeout: short}, "left it unchecked"},
		{dom.FillRequest{Target: "#plan", Value: "Platinum", Timeout: short}, `"ent": "Enterprise"`},
	} {
		if _, err := dom.Fill(testCtx(t), p, c.req); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want one saying %q", c.req, err, c.want)
		}
	}
}

// A password field's value never shows in what the fill says, and the
// result tells the caller to keep it out of logs.
func TestFillPasswordKeepsItsValueOut(t *testing.T) {
	p := openFixture(t, "fill.html")
	eval[bool](t, p, `(() => { const i = document.createElement('input'); i.type = 'password'; i.id = 'pw'; i.maxLength = 4; document.body.prepend(i); return true })()`)
	res := fill(t, p, dom.FillRequest{Target: "#pw", Value: "hunter22"})
	if !res.Secret || strings.Contains(res.Warning, "hunter") || !strings.Contains(res.Warning, "a password of 4 characters, not a password of 8 characters") {
		t.Errorf("result = %+v", *res)
	}
	if got := valueOf(t, p, "pw"); got != "hunt" {
		t.Errorf("#pw = %q", got)
	}
}
