package runner_test

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
	t.Parallel()
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
	if got := jsonText(res["console"]); strings.Contains(got, "oldlib.js") {
		t.Errorf("cdpskill's own code tripped over the library, in the page's console: %s", got)
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

// A to-do box that adds on change adds once, on the agent's Enter, not at
// the fill; one that adds on Enter adds once too; a field the page
// reformats or uppercases as the text goes in is filled, and the output
// says what it holds now.
func TestFillJudgedByWhatItDid(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/todo-change.html")
	items := func() any {
		return c.value(t, tab, "[...document.querySelectorAll('#items li')].map(li => li.textContent).join(',')")
	}
	out := c.call(t, tab, `{"fill":{"label":"Add on change","value":"Milk"}}`)
	if got := items(); got != "" || out[0]["value"] != nil {
		t.Errorf("after the fill alone: items %q, output %v", got, out[0])
	}
	c.call(t, tab, `{"press":"Enter"}`)
	c.call(t, tab, `{"fill":{"label":"Add on Enter","value":"Eggs"}},{"press":"Enter"},{"fill":{"label":"Add on change","value":"Tea"}},{"click":"h1"}`)
	if got := items(); got != "Milk,Eggs,Tea" {
		t.Errorf("items = %q, want each added once: Milk,Eggs,Tea", got)
	}
	out = c.call(t, tab, `{"fill":{"label":"Phone","value":"5551234567"}},{"fill":{"label":"Code","value":"ab12"}}`)
	if out[0]["filled"] != true || out[0]["value"] != "(555) 123-4567" || out[1]["value"] != "AB12" {
		t.Errorf("reformatted fields: %v", out)
	}
}

// An app that rebuilds its whole DOM on every keystroke, on Enter and on
// a 40 ms clock: fills by label and by ref, Enter and clicks by text all
// land once, on whatever element stands for the target now, and an
// output that says reResolved names what it acted on.
func TestTargetsReplacedUnderTheAction(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/rerender.html")
	snap := c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string)
	box := refOn(t, snap, `textbox "New item"`)
	c.call(t, tab, `{"fill":{"label":"New item","value":"first"}},{"press":"Enter"}`)
	out := c.call(t, tab, fmt.Sprintf(`{"fill":{"ref":%q,"value":"second"}},{"press":"Enter"}`, box))
	if out[0]["reResolved"] != true || out[0]["target"] != `textbox "New item"` {
		t.Errorf("fill by a ref whose element was replaced: %v", out[0])
	}
	for i := 0; i < 3; i++ {
		c.call(t, tab, `{"click":{"text":"Count"}}`)
	}
	if got := c.value(t, tab, "[...document.querySelectorAll('li')].map(li => li.textContent).join(',') + ' ' + document.getElementById('clicks').textContent"); got != "first,second Clicked 3" {
		t.Errorf("page = %q", got)
	}

	// Every other action finds its replaced target again too.
	out = c.call(t, tab, `{"selectOption":{"selector":"select","value":"l"}},`+
		`{"hover":{"selector":"#help","captureResult":true}},`+
		`{"drag":{"source":"#volume","target":"#app > p:nth-last-of-type(2)"}},`+
		`{"scroll":{"selector":"#end"}}`)
	for i, o := range out[:2] {
		if o["reResolved"] == true && o["target"] == nil {
			t.Errorf("step %d found its target again and says not what it acted on: %v", i+1, o)
		}
	}
	if sel, _ := out[0]["selected"].([]any); len(sel) != 1 || sel[0] != "l" {
		t.Errorf("selectOption = %v", out[0])
	}
	if cap, _ := out[1]["capturedResult"].(map[string]any); cap == nil || fmt.Sprint(cap["visibleElements"]) == "[]" {
		t.Errorf("hover captured no tooltip: %v", out[1])
	}
	if out[2]["value"] != "100" {
		t.Errorf("drag = %v", out[2])
	}
	if got := c.value(t, tab, "document.querySelector('#app > p:nth-last-of-type(2)').textContent + ' ' + (scrollY > 1000)"); got != "Size l, volume 100 true" {
		t.Errorf("page after select, drag and scroll = %q", got)
	}
}
