package main

import (
	"fmt"
	"strings"
	"testing"
)

// A page whose libraries rewrote Array.from, JSON, Object.keys, Map,
// Node.prototype.contains, EventTarget.prototype.dispatchEvent and
// getComputedStyle (testdata/oldlib.js) is snapshotted, filled, clicked
// and read as any other: cdpskill's own code runs where the page cannot
// reach it. The exception the page's input listener throws is a warning
// on the fill that went through, not its failure.
func TestPageThatRewritesBuiltins(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/oldlib.html")
	res := c.act(t, tab, `{"snapshot":{"detail":"interactive"}},{"fill":{"label":"Email","value":"a@b.c"}},{"fill":{"label":"Name","value":"Ada"}},{"click":{"text":"Weekly digest"}},{"click":{"text":"Join"}}`)
	steps := stepOutputs(t, res)
	yaml, _ := steps[0]["output"].(map[string]any)["yaml"].(string)
	for _, want := range []string{`textbox "Email" [name=email] [ref=`, `checkbox "Weekly digest" [ref=`, `button "Join" [ref=`} {
		if !strings.Contains(yaml, want) {
			t.Errorf("snapshot lacks %s:\n%s", want, yaml)
		}
	}
	if w, _ := steps[1]["warning"].(string); !strings.Contains(w, "reading 'indexOf'") || !strings.Contains(w, "went through") {
		t.Errorf("fill of the field whose listener throws: warning %q, output %v", w, steps[1]["output"])
	}
	if w, _ := steps[2]["warning"].(string); w != "" {
		t.Errorf("a fill whose field has no throwing listener warns %q", w)
	}
	if got := jsonText(changesOf(res)); !strings.Contains(got, "Joined as a@b.c") {
		t.Errorf("changes after the click: %s", got)
	}
	join := refOn(t, yaml, `button "Join"`)
	out := c.call(t, tab, fmt.Sprintf(`{"query":{"role":"checkbox"}},{"formState":"#signup"},{"pageFunction":"document.getElementById('status').textContent"},{"pageFunction":{"fn":"(refs) => refs.get('%s').id","refs":true}},{"click":%q}`, join, join))
	if got := jsonText(out[0]); !strings.Contains(got, `"checked":true`) {
		t.Errorf("query by role: %s", got)
	}
	if got := jsonText(out[1]); !strings.Contains(got, `"value":"a@b.c"`) || !strings.Contains(got, `"value":"Ada"`) {
		t.Errorf("formState: %s", got)
	}
	if out[2]["value"] != "Joined as a@b.c" {
		t.Errorf("pageFunction in the page's own world: %v", out[2])
	}
	if out[3]["value"] != "join" {
		t.Errorf("refs handed to the agent's function: %v", out[3])
	}
}
