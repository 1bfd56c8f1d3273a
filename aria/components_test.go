package aria_test

import (
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/page"
)

// openWidget loads a page of the CLI's widget fixtures
// (runner/testdata/widgets), so the package and the CLI are proven
// on one page.
func openWidget(t *testing.T, file string) *page.Page {
	t.Helper()
	return openIn(t, "../runner/testdata/widgets", file)
}

// A web-component kit's controls are in the snapshot by default, each
// named as a person reads it: by the label its shadow root renders from
// an attribute or from slotted text, by a <label> around the component,
// by its slotted words (a button, a checkbox, a switch whose host is the
// control). A read-only or disabled textbox says so. pierceShadow: false
// shows the light DOM alone.
func TestComponentsSnapshot(t *testing.T) {
	p := openWidget(t, "components.html")
	res := snap(t, p, aria.Options{})
	golden(t, "components", res.YAML)
	for _, line := range []string{`textbox "Email" [ref=`, `textbox "Full name" [ref=`, `textbox "Company" [ref=`,
		`textbox "Phone" [ref=`, `textbox "Bio" [ref=`, `checkbox "Remember me" [ref=`, `switch "Dark mode" [ref=`,
		`button "Save" [ref=`, `textbox "Account ID" [readonly] [ref=`, `textbox "Referral code" [disabled] [ref=`} {
		if !strings.Contains(res.YAML, line) {
			t.Errorf("no %q in:\n%s", line, res.YAML)
		}
	}
	checkRefs(t, p)
	light := snap(t, p, aria.Options{PierceShadow: ptr(false), Detail: aria.DetailInteractive})
	if strings.Contains(light.YAML, `textbox "Email"`) || !strings.Contains(light.YAML, `switch "Dark mode"`) {
		t.Errorf("pierceShadow false:\n%s", light.YAML)
	}
	// A search finds them too.
	if s := search(t, p, aria.SearchOptions{Text: "Remember me"}); s.MatchCount == 0 {
		t.Errorf("search: %+v", s)
	}
}

// since sees a value or a checked state a script set inside a component's
// shadow root, which no mutation and no event tells.
func TestSinceSeesShadowValues(t *testing.T) {
	for name, js := range map[string]string{
		"value":   `document.getElementById('fullname').shadowRoot.querySelector('input').value = 'Ada'`,
		"checked": `document.getElementById('remember').shadowRoot.querySelector('input').checked = true`,
	} {
		t.Run(name, func(t *testing.T) {
			p := openWidget(t, "components.html")
			s := snap(t, p, aria.Options{})
			if res := snap(t, p, aria.Options{Since: s.SnapshotID}); !res.Unchanged {
				t.Fatalf("unchanged page: %+v", res)
			}
			eval(t, p, js)
			if res := snap(t, p, aria.Options{Since: s.SnapshotID}); res.Unchanged {
				t.Errorf("after %s: unchanged", js)
			}
		})
	}
}

// A query by role finds a web component's controls, with refs that act.
func TestQueryRolesInComponents(t *testing.T) {
	p := openWidget(t, "components.html")
	res := query(t, p, aria.RoleQuery{Roles: []string{"textbox", "checkbox"}, NameExact: "Email"})
	if got := names(res.Results); res.Total != 1 || len(got) != 1 || got[0] != "Email" || res.Results[0].Ref == "" {
		t.Fatalf("results %+v", res.Results)
	}
	res = query(t, p, aria.RoleQuery{Role: "checkbox", Name: "Remember me"})
	if res.Total != 1 {
		t.Errorf("Remember me: %+v", res.Results)
	}
}
