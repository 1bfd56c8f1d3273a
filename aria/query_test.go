package aria_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

func query(t *testing.T, p *page.Page, q aria.RoleQuery) *aria.RoleResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	res, err := aria.QueryRoles(ctx, p, q)
	if err != nil {
		t.Fatalf("QueryRoles(%+v): %v", q, err)
	}
	return res
}

func names(ms []aria.RoleMatch) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func TestQueryRoles(t *testing.T) {
	p := open(t, "form.html")
	cases := []struct {
		name  string
		q     aria.RoleQuery
		total int
		first []string
	}{
		{"role", aria.RoleQuery{Role: "checkbox"}, 3, []string{"I agree to the terms", "Send news", "Some of them"}},
		{"substring", aria.RoleQuery{Role: "textbox", Name: "USER"}, 1, []string{"User name"}},
		{"exact flag", aria.RoleQuery{Role: "textbox", Name: "Bio", NameExact: true}, 1, []string{"Bio"}},
		{"exact flag misses part", aria.RoleQuery{Role: "textbox", Name: "Bi", NameExact: true}, 0, nil},
		{"exact name", aria.RoleQuery{Role: "button", NameExact: "Log in"}, 1, []string{"Log in"}},
		{"regex", aria.RoleQuery{Role: "combobox", NameRegex: "^country"}, 2, []string{"Country", "Country of birth"}},
		{"roles", aria.RoleQuery{Roles: []string{"radio", "switch"}}, 3, []string{"Dark mode", "Free", "Pro"}},
		{"checked", aria.RoleQuery{Roles: []string{"checkbox", "radio"}, Checked: ptr(true)}, 2, []string{"I agree to the terms", "Pro"}},
		{"unchecked", aria.RoleQuery{Role: "checkbox", Checked: ptr(false)}, 1, []string{"Send news"}},
		{"disabled", aria.RoleQuery{Roles: []string{"button", "textbox"}, Disabled: ptr(true)}, 3, []string{"Card", "Verify", "Delete"}},
		{"limit", aria.RoleQuery{Role: "button", Limit: 2}, 11, []string{"Favourite colour", "Avatar"}},
		{"case", aria.RoleQuery{Role: "Switch"}, 1, []string{"Dark mode"}},
	}
	for _, c := range cases {
		res := query(t, p, c.q)
		got := names(res.Results)
		if res.Total != c.total || len(got) < len(c.first) {
			t.Errorf("%s: total %d %v, want %d starting %v", c.name, res.Total, got, c.total, c.first)
			continue
		}
		for i, n := range c.first {
			if got[i] != n {
				t.Errorf("%s: results %v, want %v first", c.name, got, c.first)
				break
			}
		}
	}
}

func TestQueryRoleStatesAndRefs(t *testing.T) {
	p := open(t, "form.html")
	snapRef := refNamed(t, snap(t, p, aria.Options{}).YAML, `checkbox "Some of them"`)
	res := query(t, p, aria.RoleQuery{Role: "checkbox", Name: "some"})
	m := res.Results[0]
	if m.Ref != snapRef || m.Checked != "mixed" {
		t.Errorf("query result %+v, want the snapshot's ref %s and checked mixed", m, snapRef)
	}
	res = query(t, p, aria.RoleQuery{Role: "textbox", Name: "user"})
	if m := res.Results[0]; m.Value == nil || *m.Value != "ada" || m.Ref == "" {
		t.Errorf("textbox result %+v", m)
	}
	before := checkRefs(t, p).Size
	if res := query(t, p, aria.RoleQuery{Role: "link", CountOnly: true}); res.Total != 1 || len(res.Results) != 0 {
		t.Errorf("countOnly: %+v", res)
	}
	if after := checkRefs(t, p).Size; after != before {
		t.Errorf("countOnly created refs: %d -> %d", before, after)
	}

	p = open(t, "structure.html")
	res = query(t, p, aria.RoleQuery{Role: "heading", Level: 2})
	if got := names(res.Results); len(got) != 2 || got[0] != "Section two" || got[1] != "Default level" || res.Results[0].Level != 2 {
		t.Errorf("level 2 headings: %+v", res.Results)
	}
	res = query(t, p, aria.RoleQuery{Role: "tab", Name: "one"})
	if len(res.Results) != 1 || !res.Results[0].Selected {
		t.Errorf("explicit role tab: %+v", res.Results)
	}
	checkRefs(t, p)
}

// Each match says what it shows when its name does not: a list item has
// no name of its own, and its text is what tells the items apart. A
// button named by its text says it once; a field has its value instead.
func TestQueryRoleNameAndText(t *testing.T) {
	p := open(t, "todos.html")
	res := query(t, p, aria.RoleQuery{Role: "listitem"})
	var texts []string
	for _, m := range res.Results {
		texts = append(texts, m.Text)
	}
	if want := []string{"Buy milk", "Walk the dog", "Call mum about the weekend"}; strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("list items' texts %q, want %q", texts, want)
	}
	res = query(t, p, aria.RoleQuery{Role: "button", Name: "Clear"})
	if m := res.Results[0]; m.Name != "Clear completed" || m.Text != "" {
		t.Errorf("a button named by its text: %+v", m)
	}
	res = query(t, p, aria.RoleQuery{Role: "textbox"})
	if m := res.Results[0]; m.Text != "" || m.Value == nil {
		t.Errorf("a field: %+v", m)
	}
	// A name the page gave differs from the text, and both are said.
	eval(t, p, `document.querySelector("h1").setAttribute("aria-label", "Todo list")`)
	res = query(t, p, aria.RoleQuery{Role: "heading"})
	if m := res.Results[0]; m.Name != "Todo list" || m.Text != "todos" {
		t.Errorf("a heading named by aria-label: %+v", m)
	}
}

func TestQueryRolesSkipsHidden(t *testing.T) {
	p := open(t, "hidden.html")
	res := query(t, p, aria.RoleQuery{Roles: []string{"button", "link"}})
	for _, m := range res.Results {
		if strings.Contains(m.Name, "SECRET") {
			t.Errorf("hidden element found: %+v", m)
		}
	}
	if res.Total != 3 {
		t.Errorf("total %d %v, want the 3 shown buttons", res.Total, names(res.Results))
	}
}

func TestQueryPatternRejectedByPage(t *testing.T) {
	p := open(t, "form.html")
	_, err := aria.QueryRoles(t.Context(), p, aria.RoleQuery{Role: "button", NameRegex: "(?<!x"})
	var pe *invalid.Pattern
	if !errors.As(err, &pe) || pe.Field != "nameRegex" {
		t.Errorf("err = %v, want *invalid.Pattern on nameRegex", err)
	}
}
