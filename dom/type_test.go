package dom_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/page"
)

// brief is the actionability timeout of tests that expect it to run out.
const brief = 300 * time.Millisecond

func typeText(t *testing.T, p *page.Page, req dom.TypeRequest) *dom.TypeResult {
	t.Helper()
	res, err := dom.Type(testCtx(t), p, req)
	if err != nil {
		t.Fatalf("type %+v: %v", req, err)
	}
	return res
}

func fieldValue(t *testing.T, p *page.Page, id string) string {
	t.Helper()
	return eval[string](t, p, "document.getElementById('"+id+"').value")
}

// An autocomplete that filters on every input event sees one per
// character, and each character arrives as keydown, keypress and keyup
// with its own key, code and key code.
func TestTypeAutocompletePerKeystroke(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	res := typeText(t, p, dom.TypeRequest{Target: "#ac", Text: "Ap"})
	if res.Typed != "Ap" || res.Length != 2 || res.Warning != "" {
		t.Errorf("result = %+v", *res)
	}
	if n := eval[int](t, p, "window.acInputs"); n != 2 {
		t.Errorf("input events = %d, want 2", n)
	}
	if got := eval[[]string](t, p, "shownSuggestions()"); !slices.Equal(got, []string{"Apple", "Apricot"}) {
		t.Errorf("suggestions = %v", got)
	}
	var typed []string
	for _, e := range keyLog(t, p) {
		if e.Target == "ac" {
			typed = append(typed, e.String())
		}
	}
	want := []string{
		"keydown:A:KeyA:65", "keypress:A:KeyA:65", "keyup:A:KeyA:65",
		"keydown:p:KeyP:80", "keypress:p:KeyP:112", "keyup:p:KeyP:80",
	}
	if !slices.Equal(typed, want) {
		t.Errorf("events:\n got %v\nwant %v", typed, want)
	}
}

// Typing into a field that did not have focus appends at the end, not
// where the focusing click put the caret.
func TestTypeAppendsAtEnd(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	typeText(t, p, dom.TypeRequest{Target: "#field", Text: " again"})
	if v := fieldValue(t, p, "field"); v != "hello world again" {
		t.Errorf("value = %q", v)
	}
}

// Newlines are Enter (a line break in a textarea), characters no US key
// types arrive as they are, and a contenteditable takes typing too.
func TestTypeSpecialCharacters(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	typeText(t, p, dom.TypeRequest{Target: "#notes", Text: "one\ntwo\r\nété 😀"})
	if v := fieldValue(t, p, "notes"); v != "one\ntwo\nété 😀" {
		t.Errorf("textarea = %q", v)
	}
	typeText(t, p, dom.TypeRequest{Target: "#editor", Text: " hi"})
	if v := eval[string](t, p, "document.getElementById('editor').textContent"); v != "Draft: hi" {
		t.Errorf("editor = %q", v)
	}
}

// delay spaces the keystrokes out, as the page's clock sees them.
func TestTypeDelay(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	typeText(t, p, dom.TypeRequest{Target: "#q", Text: "abc", Delay: 60 * time.Millisecond})
	var downs []float64
	for _, e := range keyLog(t, p) {
		if e.Type == "keydown" {
			downs = append(downs, e.T)
		}
	}
	if len(downs) != 3 {
		t.Fatalf("keydowns = %v", downs)
	}
	for i := 1; i < len(downs); i++ {
		if gap := downs[i] - downs[i-1]; gap < 50 {
			t.Errorf("gap %d = %.0f ms, want at least the 60 ms delay", i, gap)
		}
	}
}

// With no target the keys go to the focused element; with nothing
// focused they go to the body, with a warning.
func TestTypeIntoFocused(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	res := typeText(t, p, dom.TypeRequest{Text: "x"})
	if !strings.Contains(res.Warning, "no element had focus") {
		t.Errorf("nothing focused: result = %+v", *res)
	}
	run(t, p, "document.getElementById('second').focus()")
	res = typeText(t, p, dom.TypeRequest{Text: "yz"})
	if res.Warning != "" || fieldValue(t, p, "second") != "yz" {
		t.Errorf("result = %+v, value %q", *res, fieldValue(t, p, "second"))
	}
}

// An editor in a frame whose body is the field (design mode, as older
// rich-text editors have it) has focus: the keys land there, with no
// warning.
func TestTypeIntoAFramedEditor(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	run(t, p, `(() => {
		const f = document.createElement('iframe');
		f.srcdoc = '<body contenteditable="true"><p>Hi </p></body>';
		document.body.append(f);
		return new Promise((ok) => { f.onload = () => { f.contentDocument.body.focus(); ok(); }; });
	})()`)
	res := typeText(t, p, dom.TypeRequest{Text: "there"})
	got := eval[string](t, p, "document.querySelector('iframe').contentDocument.body.textContent")
	if res.Warning != "" || !strings.Contains(got, "there") {
		t.Errorf("result = %+v, editor reads %q", *res, got)
	}
}

// A ref finds the field like a selector does.
func TestTypeByRef(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	typeText(t, p, dom.TypeRequest{Target: "s1e1", Text: "by ref"})
	if v := fieldValue(t, p, "q"); v != "by ref" {
		t.Errorf("value = %q", v)
	}
}

// Targets that cannot take text fail as type, not fill: a checkbox at
// once, a readonly field at the actionability timeout.
func TestTypeNotEditable(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	for _, target := range []string{"#box", "#ro"} {
		_, err := dom.Type(testCtx(t), p, dom.TypeRequest{Target: target, Text: "x", Timeout: brief})
		var ne *dom.NotEditableError
		var ae *dom.ActionabilityError
		if !errors.As(err, &ne) || !errors.As(err, &ae) || ae.Action != dom.ActionType {
			t.Errorf("%s: %v, want a type actionability error for not editable", target, err)
		}
	}
	if got := keyLog(t, p); len(got) != 0 {
		t.Errorf("keys were sent: %v", keyStrings(got))
	}
}
