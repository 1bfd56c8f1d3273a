package runner_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The web-component kit (testdata/widgets/components.html) is driven as a
// new agent would: the first call it would send for each task, asserting
// what the page then holds and what the result said.

// changed finds the change of field on ref in a result's changes.
func changed(t *testing.T, res map[string]any, ref, field string) map[string]any {
	t.Helper()
	list, _ := changesOf(res)["changed"].([]any)
	for _, c := range list {
		m := c.(map[string]any)
		if m["ref"] == ref && m["field"] == field {
			return m
		}
	}
	t.Errorf("changes have no %s change of %s: %s", field, ref, jsonText(changesOf(res)))
	return nil
}

// The first result on the page lists the components' controls with refs,
// named by their labels (an attribute, slotted text, a <label> around
// the component, an aria-label), and says which textbox is read-only and
// which disabled.
func TestShadowControlsInFirstResult(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	res, code := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`,
		fixture.URL+"/widgets/components.html", chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	if code != 0 {
		t.Fatalf("openTab: %v", res)
	}
	tab, _ := res["tab"].(string)
	t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab)) })
	view, _ := res["viewportSnapshot"].(string)
	for _, line := range []string{`textbox "Email"`, `textbox "Full name"`, `textbox "Company"`, `textbox "Phone"`,
		`textbox "Bio"`, `checkbox "Remember me"`, `switch "Dark mode"`, `button "Save"`} {
		refOn(t, view, line)
	}
	for _, line := range []string{`textbox "Account ID" [readonly] [ref=`, `textbox "Referral code" [disabled] [ref=`} {
		if !strings.Contains(view, line) {
			t.Errorf("no %q in:\n%s", line, view)
		}
	}
	// Its refs act on the controls in the shadow roots.
	email, save := refOn(t, view, `textbox "Email"`), refOn(t, view, `button "Save"`)
	after := c.act(t, tab, fmt.Sprintf(`{"fill":{"ref":%q,"value":"ref@x.y"}},{"click":%q}`, email, save))
	if got := c.value(t, tab, "document.getElementById('status').textContent"); got != "Saved ref@x.y" {
		t.Errorf("after fill and click by ref: status %q", got)
	}
	if m := changed(t, after, email, "value"); m != nil && m["to"] != "ref@x.y" {
		t.Errorf("value change: %v", m)
	}
}

// Fill by label reaches the fields inside the components, the page's
// state says they took, and the result's changes show each new value.
func TestShadowFillByLabel(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/components.html")
	res := c.act(t, tab, `{"fill":{"label":"Email","value":"a@b.c"}}`)
	if got := c.value(t, tab, "document.getElementById('email').value"); got != "a@b.c" {
		t.Errorf("the component's value is %q", got)
	}
	if out := stepOutputs(t, res)[0]; out["status"] != "ok" {
		t.Errorf("fill: %v", out)
	}
	view := res["viewportSnapshot"].(string)
	email := refOn(t, view, `textbox "Email"`)
	if m := changed(t, res, email, "value"); m != nil && m["to"] != "a@b.c" {
		t.Errorf("value change: %v", m)
	}

	res = c.act(t, tab, `{"fill":{"Full name":"Ada","Company":"Acme","Phone":"555","Bio":"Hi","Remember me":true,"Dark mode":true}}`)
	got := c.value(t, tab, `['fullname','company','phone'].map((id) => document.getElementById(id).shadowRoot.querySelector('input').value)
		.concat([document.getElementById('bio').shadowRoot.querySelector('textarea').value,
			document.getElementById('remember').shadowRoot.querySelector('input').checked,
			document.getElementById('dark').checked])`)
	if jsonText(got) != `["Ada","Acme","555","Hi",true,true]` {
		t.Errorf("after the batch: %v", got)
	}
	view = res["viewportSnapshot"].(string)
	for name, to := range map[string]string{`textbox "Full name"`: "Ada", `textbox "Company"`: "Acme", `textbox "Phone"`: "555", `textbox "Bio"`: "Hi"} {
		if m := changed(t, res, refOn(t, view, name), "value"); m != nil && m["to"] != to {
			t.Errorf("%s: %v", name, m)
		}
	}
	for _, name := range []string{`checkbox "Remember me"`, `switch "Dark mode"`} {
		if m := changed(t, res, refOn(t, view, name), "checked"); m != nil && m["to"] != true {
			t.Errorf("%s: %v", name, m)
		}
	}
}

// Click by text finds the button and the checkbox whose words are slotted
// into their shadow roots, clicks them through CDP (not forced), and the
// changes show what that did.
func TestShadowClickByText(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/components.html")
	res := c.act(t, tab, `{"click":{"text":"Remember me"}}`)
	if got := c.value(t, tab, "document.getElementById('remember').shadowRoot.querySelector('input').checked"); got != true {
		t.Errorf("the checkbox is not checked")
	}
	out, _ := stepOutputs(t, res)[0]["output"].(map[string]any)
	if out["method"] != "cdp" || out["targetReceived"] != true || out["autoForced"] != nil {
		t.Errorf("click: %v", out)
	}
	view := res["viewportSnapshot"].(string)
	if m := changed(t, res, refOn(t, view, `checkbox "Remember me"`), "checked"); m != nil && m["to"] != true {
		t.Errorf("checked change: %v", m)
	}

	res = c.act(t, tab, `{"click":{"text":"Save"}}`)
	if got := c.value(t, tab, "document.getElementById('status').textContent"); got != "Saved " {
		t.Errorf("status after Save: %q", got)
	}
	if s, _ := changesOf(res)["summary"].(string); !strings.Contains(s, "text changed") {
		t.Errorf("changes: %s", jsonText(changesOf(res)))
	}

	res = c.act(t, tab, `{"click":{"text":"Dark mode"}}`)
	if got := c.value(t, tab, "document.getElementById('dark').checked"); got != true {
		t.Errorf("the switch is off")
	}
	if m := changed(t, res, refOn(t, res["viewportSnapshot"].(string), `switch "Dark mode"`), "checked"); m != nil && m["to"] != true {
		t.Errorf("checked change: %v", m)
	}
}

// Keys that read like printed labels ("Alert volume:", "Work email *",
// "Name (required)") fill their fields instead of failing as CSS.
func TestFillPrintedLabels(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/components.html")
	res := c.act(t, tab, `{"fill":{"Alert volume:":"7","Work email *":"w@x.y","Name (required)":"Bob"}}`)
	got := c.value(t, tab, "['volume','email2','name2'].map((id) => document.getElementById(id).value)")
	if jsonText(got) != `["7","w@x.y","Bob"]` {
		t.Errorf("fields hold %v", got)
	}
	list, _ := changesOf(res)["changed"].([]any)
	var tos []string
	for _, ch := range list {
		tos = append(tos, fmt.Sprint(ch.(map[string]any)["to"]))
	}
	slices.Sort(tos)
	if !slices.Equal(tos, []string{"7", "Bob", "w@x.y"}) {
		t.Errorf("changes: %s", jsonText(changesOf(res)))
	}
	// The bare words find them too.
	c.act(t, tab, `{"fill":{"label":"Name:","value":"Carl"}}`)
	if got := c.value(t, tab, "document.getElementById('name2').value"); got != "Carl" {
		t.Errorf("by Name: %q", got)
	}
}

// The context's focused element is the field a component holds, not its
// host: an <input>, editable, with its value, and the host's selector,
// which a document query reaches.
func TestShadowFocusedField(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/components.html")
	res := c.act(t, tab, `{"fill":{"label":"Full name","value":"Ada"}}`)
	ctx, _ := res["context"].(map[string]any)
	a, _ := ctx["activeElement"].(map[string]any)
	if a["tag"] != "input" || a["editable"] != true || a["value"] != "Ada" || a["selector"] != "#fullname" {
		t.Errorf("activeElement %s", jsonText(a))
	}
}
