package dom_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

func selectOption(t *testing.T, p *page.Page, req dom.SelectOptionRequest) *dom.SelectOptionResult {
	t.Helper()
	res, err := dom.SelectOption(testCtx(t), p, req)
	if err != nil {
		t.Fatalf("selectOption %+v: %v", req, err)
	}
	return res
}

// A single select takes one option by value, label (spacing and case
// aside) or index, fires input then change, and reports the value.
func TestSelectOptionSingle(t *testing.T) {
	p := openFixture(t, "input-select.html")
	cases := []struct {
		name string
		req  dom.SelectOptionRequest
		want string
	}{
		{"value", dom.SelectOptionRequest{Target: "#country", Value: ptr("fr")}, "fr"},
		{"label", dom.SelectOptionRequest{Target: "#country", Label: ptr("Germany")}, "de"},
		{"label any case", dom.SelectOptionRequest{Target: "#country", Label: ptr("united states")}, "us"},
		{"index", dom.SelectOptionRequest{Target: "#country", Index: ptr(2)}, "fr"},
	}
	for _, c := range cases {
		run(t, p, "window.events = []")
		res := selectOption(t, p, c.req)
		if !slices.Equal(res.Selected, []string{c.want}) || res.Multiple {
			t.Errorf("%s: result %+v, want [%s]", c.name, *res, c.want)
		}
		want := []string{"country:input:" + c.want, "country:change:" + c.want}
		if got := eval[[]string](t, p, "window.events"); !slices.Equal(got, want) {
			t.Errorf("%s: events %v, want %v", c.name, got, want)
		}
	}
}

// values replaces the whole selection of a multiple select, matching
// each by value or by label; a ref names the select.
func TestSelectOptionMultipleReplaces(t *testing.T) {
	p := openFixture(t, "input-select.html")
	res := selectOption(t, p, dom.SelectOptionRequest{Target: "s1e1", Values: []string{"olives", "Fresh basil"}})
	if !slices.Equal(res.Selected, []string{"olives", "basil"}) || !res.Multiple {
		t.Errorf("result = %+v", *res)
	}
	res = selectOption(t, p, dom.SelectOptionRequest{Target: "#toppings", Value: ptr("ham")})
	if !slices.Equal(res.Selected, []string{"ham"}) {
		t.Errorf("a single value on a multiple select: %+v", *res)
	}
	_, err := dom.SelectOption(testCtx(t), p, dom.SelectOptionRequest{Target: "#country", Values: []string{"us", "fr"}})
	var ia *invalid.Option
	if !errors.As(err, &ia) {
		t.Errorf("two values on a single select: %v", err)
	}
}

// Options that load after another choice are waited for.
func TestSelectOptionWaitsForOptions(t *testing.T) {
	p := openFixture(t, "input-select.html")
	selectOption(t, p, dom.SelectOptionRequest{Target: "#country", Value: ptr("fr")})
	res := selectOption(t, p, dom.SelectOptionRequest{Target: "#city", Label: ptr("Lyon")})
	if !slices.Equal(res.Selected, []string{"lyon"}) {
		t.Errorf("result = %+v", *res)
	}
}

// A miss lists the first ten options and how many there are.
func TestSelectOptionMissListsOptions(t *testing.T) {
	p := openFixture(t, "input-select.html")
	_, err := dom.SelectOption(testCtx(t), p, dom.SelectOptionRequest{Target: "#many", Value: ptr("item99"), Timeout: brief})
	var nf *dom.OptionNotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v, want *OptionNotFoundError", err)
	}
	if len(nf.Options) != 10 || nf.Total != 15 || nf.Options[0] != (dom.Option{Value: "item1", Label: "Item 1"}) {
		t.Errorf("options = %+v, total %d", nf.Options, nf.Total)
	}
	for _, s := range []string{`"item99"`, `"item1": "Item 1"`, `"item10": "Item 10"`, "(15 in all)"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("message lacks %s: %v", s, err)
		}
	}
	if nf.ErrorName() != "ElementNotFoundError" {
		t.Errorf("name = %s", nf.ErrorName())
	}
}

// A non-<select> fails at once, naming a custom listbox for what it is;
// a disabled select or option fails at the timeout.
func TestSelectOptionWrongTargets(t *testing.T) {
	p := openFixture(t, "input-select.html")
	_, err := dom.SelectOption(testCtx(t), p, dom.SelectOptionRequest{Target: "#custom", Value: ptr("Red")})
	var ne *dom.NotEditableError
	if !errors.As(err, &ne) || !ne.Permanent || !strings.Contains(ne.Reason, "custom listbox") {
		t.Errorf("custom listbox: %v", err)
	}
	for _, req := range []dom.SelectOptionRequest{
		{Target: "#off", Value: ptr("1"), Timeout: brief},
		{Target: "#country", Value: ptr("xx"), Timeout: brief},
	} {
		_, err := dom.SelectOption(testCtx(t), p, req)
		if !errors.As(err, &ne) || !strings.Contains(ne.Reason, "disabled") {
			t.Errorf("%s: %v", req.Target, err)
		}
	}
}

// A native select hidden behind a custom widget is still selected: it
// need only be attached.
func TestSelectOptionHiddenNative(t *testing.T) {
	p := openFixture(t, "input-select.html")
	res := selectOption(t, p, dom.SelectOptionRequest{Target: "#native", Value: ptr("b")})
	if !slices.Equal(res.Selected, []string{"b"}) {
		t.Errorf("result = %+v", *res)
	}
}

// selectText selects all or a range of a field (with focus) or of an
// element's text, and returns what is selected.
func TestSelectText(t *testing.T) {
	p := openFixture(t, "input-select.html")
	cases := []struct {
		name      string
		req       dom.SelectTextRequest
		want      string
		focused   string
		selection string // document selection, for elements
	}{
		{"input all", dom.SelectTextRequest{Target: "#name"}, "Ada Lovelace", "name", ""},
		{"input range", dom.SelectTextRequest{Target: "#name", Start: ptr(4), End: ptr(12)}, "Lovelace", "name", ""},
		{"input to end", dom.SelectTextRequest{Target: "#name", Start: ptr(4)}, "Lovelace", "name", ""},
		{"email all", dom.SelectTextRequest{Target: "#email"}, "ada@example.com", "email", ""},
		{"textarea", dom.SelectTextRequest{Target: "#bio", Start: ptr(0), End: ptr(5)}, "Wrote", "bio", ""},
		{"element all", dom.SelectTextRequest{Target: "#para"}, "Hello big world", "", "Hello big world"},
		{"element range", dom.SelectTextRequest{Target: "#para", Start: ptr(6), End: ptr(9)}, "big", "", "big"},
	}
	for _, c := range cases {
		res, err := dom.SelectText(testCtx(t), p, c.req)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !res.Selected || res.Text != c.want {
			t.Errorf("%s: result %+v, want %q", c.name, *res, c.want)
		}
		if c.focused != "" {
			if id := eval[string](t, p, "document.activeElement.id"); id != c.focused {
				t.Errorf("%s: focus on %q", c.name, id)
			}
			// email inputs have no selection API to read back.
			if got := eval[string](t, p, "(() => { const a = document.activeElement; return a.type === 'email' ? '' : a.value.slice(a.selectionStart, a.selectionEnd); })()"); c.focused != "email" && got != c.want {
				t.Errorf("%s: the field's selection is %q", c.name, got)
			}
		}
		if c.selection != "" {
			if got := eval[string](t, p, "getSelection().toString()"); got != c.selection {
				t.Errorf("%s: document selection %q", c.name, got)
			}
		}
	}
	_, err := dom.SelectText(testCtx(t), p, dom.SelectTextRequest{Target: "#email", Start: ptr(1), End: ptr(3)})
	var ia *invalid.Option
	if !errors.As(err, &ia) {
		t.Errorf("range in an email input: %v", err)
	}
}
