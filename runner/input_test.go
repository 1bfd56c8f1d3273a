package runner_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// outputOf is step i's output object.
func outputOf(t *testing.T, res map[string]any, i int) map[string]any {
	t.Helper()
	steps := stepOutputs(t, res)
	if i >= len(steps) {
		t.Fatalf("no step %d in %v", i+1, res)
	}
	out, _ := steps[i]["output"].(map[string]any)
	return out
}

// type and press drive a form end to end: keys land in the field, a
// combination selects its text for the next typing to replace, and Enter
// on the button clicks it. An unknown key is a warning, not a failure.
func TestTypeAndPressEndToEnd(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/form.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[
		{"type":{"selector":"#user","text":"Ada"}},
		{"press":"Control+a"},
		{"type":"Grace"},
		{"press":{"key":"Enter","selector":"#go"}},
		{"press":"Entr"},
		{"pageFunction":"document.getElementById('out').textContent"}]}`, tab))
	if code != 0 {
		t.Fatalf("exit %d: %v", code, res)
	}
	if out := outputOf(t, res, 0); out["typed"] != "Ada" || out["length"] != float64(3) {
		t.Errorf("type output %v", out)
	}
	if out := outputOf(t, res, 3); out["pressed"] != "Enter" {
		t.Errorf("press output %v", out)
	}
	if w, _ := stepOutputs(t, res)[4]["warning"].(string); !strings.Contains(w, `did you mean "Enter"`) || outputOf(t, res, 4)["warning"] != nil {
		t.Errorf("unknown key: %v", stepOutputs(t, res)[4])
	}
	if got := outputOf(t, res, 5)["value"]; got != "Hi Grace" {
		t.Errorf("#out = %v, want Hi Grace", got)
	}
	if res["screenshot"] == nil {
		t.Error("input steps are visual: no screenshot")
	}
}

// selectOption chooses by value and reports the selection; a miss fails
// with the options the select has.
func TestSelectOptionEndToEnd(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/form.html")
	inject := `document.querySelector('main').insertAdjacentHTML('beforeend', '<select id=colour><option value=r>Red</option><option value=g>Green</option></select>'); window.changes = 0; document.getElementById('colour').addEventListener('change', () => window.changes++)`
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[
		{"pageFunction":%q},
		{"selectOption":{"selector":"#colour","label":"Green"}},
		{"pageFunction":"window.changes"}]}`, tab, inject))
	if code != 0 {
		t.Fatalf("exit %d: %v", code, res)
	}
	out := outputOf(t, res, 1)
	if sel, _ := out["selected"].([]any); !slices.Equal(sel, []any{"g"}) || out["multiple"] != false {
		t.Errorf("selectOption output %v", out)
	}
	if n := outputOf(t, res, 2)["value"]; n != float64(1) {
		t.Errorf("change events: %v", n)
	}
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"selectOption":{"selector":"#colour","value":"blue","timeout":200}}]}`, tab))
	e := firstError(res)
	if code != 1 || e == nil || e["name"] != "ElementNotFoundError" {
		t.Fatalf("miss: exit %d, %v", code, res)
	}
	if msg, _ := e["error"].(string); !strings.Contains(msg, `"r": "Red"`) || !strings.Contains(msg, `"g": "Green"`) {
		t.Errorf("the error does not list the options: %s", msg)
	}
}
