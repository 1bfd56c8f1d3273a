package dom_test

import (
	"slices"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
)

// Fill by label reaches the <input> a web component keeps in its shadow
// root, whatever labels it: a label attribute rendered in the shadow root,
// text slotted into it, a <label> of the page around the component, an
// aria-label the component gives its input; and a switch whose host is
// the control, named by its slotted text.
func TestFillByLabelInShadowRoots(t *testing.T) {
	p := openWidget(t, "components.html")
	inner := func(id, sel string) string {
		return "document.getElementById('" + id + "').shadowRoot.querySelector('" + sel + "')"
	}
	cases := []struct {
		label, value, read, want string
	}{
		{"Email", "a@b.c", "document.getElementById('email').value", "a@b.c"}, // the component's own value
		{"Full name", "Ada", inner("fullname", "input") + ".value", "Ada"},
		{"Company", "Acme", inner("company", "input") + ".value", "Acme"},
		{"Phone", "555", inner("phone", "input") + ".value", "555"},
		{"Bio", "Hi", inner("bio", "textarea") + ".value", "Hi"},
		{"Remember me", "true", inner("remember", "input") + ".checked + ''", "true"},
		{"Dark mode", "true", "document.getElementById('dark').checked + ''", "true"},
	}
	for _, c := range cases {
		res := fill(t, p, dom.FillRequest{Label: c.label, Value: c.value, Timeout: short})
		if res.AutoForced || res.Warning != "" {
			t.Errorf("%s: %+v", c.label, *res)
		}
		if got := eval[string](t, p, c.read); got != c.want {
			t.Errorf("%s: the field holds %q, want %q", c.label, got, c.want)
		}
	}
	// The light DOM's printed labels keep their fields: "Email" is the
	// component's, not "Work email *"'s.
	if got := valueOf(t, p, "email2"); got != "" {
		t.Errorf("#email2 = %q", got)
	}
}

// Click by text finds a button and a checkbox whose words are slotted into
// a shadow root, and the click lands on them through CDP (the hit test
// sees the host's slotted text as the button's), not forced.
func TestClickByTextInShadowRoots(t *testing.T) {
	p := openWidget(t, "components.html")
	fill(t, p, dom.FillRequest{Label: "Email", Value: "a@b.c", Timeout: short})
	for _, text := range []string{"Save", "Remember me", "Dark mode"} {
		res := click(t, p, dom.ClickRequest{Text: text, Timeout: short})
		if res.Method != dom.MethodCDP || !res.TargetReceived || res.AutoForced {
			t.Errorf("%s: %+v", text, *res)
		}
	}
	got := eval[[]any](t, p, `[document.getElementById('status').textContent,
		document.getElementById('remember').hasAttribute('checked'), document.getElementById('dark').checked]`)
	if got[0] != "Remember me on" || got[1] != true || got[2] != true {
		t.Errorf("after the clicks: %v", got)
	}
	eval[any](t, p, "document.getElementById('status').textContent = ''")
	click(t, p, dom.ClickRequest{Text: "save", Timeout: short})
	if got := eval[string](t, p, "document.getElementById('status').textContent"); got != "Saved a@b.c" {
		t.Errorf("Save clicked: status %q", got)
	}
}

// Labels as forms print them: a key with a colon, a required star or
// "(required)" finds its field, and so does the bare word.
func TestFillByPrintedLabels(t *testing.T) {
	p := openWidget(t, "components.html")
	res, err := dom.FillBatch(testCtx(t), p, dom.FillBatchRequest{Fields: []dom.Field{
		{Target: "Alert volume:", Value: "7"},
		{Target: "Work email *", Value: "w@x.y"},
		{Target: "Name (required)", Value: "Bob"},
	}, Timeout: short})
	if err != nil || res.Filled != 3 {
		t.Fatalf("%+v: %v", res, err)
	}
	for id, want := range map[string]string{"volume": "7", "email2": "w@x.y", "name2": "Bob"} {
		if got := valueOf(t, p, id); got != want {
			t.Errorf("#%s = %q, want %q", id, got, want)
		}
	}
	fill(t, p, dom.FillRequest{Label: "Name:", Value: "Carl", Timeout: short})
	fill(t, p, dom.FillRequest{Label: "Alert volume", Value: "9", Timeout: short})
	if got := valueOf(t, p, "name2") + " " + valueOf(t, p, "volume"); got != "Carl 9" {
		t.Errorf("by the bare words: %q", got)
	}
}

// A failed fill on a page built from web components lists the fields the
// components hold, without a selector no document query could use.
func TestFailureContextListsComponentFields(t *testing.T) {
	p := openWidget(t, "components.html")
	fc, err := dom.FailureContext(testCtx(t), p, "Emial", true)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, f := range fc.VisibleFields {
		labels = append(labels, f.Label)
		if f.Label == "Full name" && f.Selector != "" {
			t.Errorf("the shadow root's field has selector %q", f.Selector)
		}
	}
	if !slices.Contains(labels, "Full name") {
		t.Errorf("visible fields %q, want the components' fields", labels)
	}
}
