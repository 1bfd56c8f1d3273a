package runner_test

import (
	"fmt"
	"strings"
	"testing"
)

// evalOn is a pageFunction's value on tab.
func evalOn(t *testing.T, c *cli, tab, expr string) any {
	t.Helper()
	return c.call(t, tab, fmt.Sprintf(`{"pageFunction":%q}`, expr))[0]["value"]
}

// changedTo is the value changes says ref now has, or nil.
func changedTo(res map[string]any, ref string) any {
	changed, _ := changesOf(res)["changed"].([]any)
	for _, c := range changed {
		if m, _ := c.(map[string]any); m["ref"] == ref && m["field"] == "value" {
			return m["to"]
		}
	}
	return nil
}

// The three editors real apps are built from, each filled by its label in
// the first call an agent sends: an EditContext editor (named by the
// heading above it), a CodeMirror 5 style editor that hides the page's
// labelled textarea and takes keys in a 1px one behind its rendered
// lines, and a Lexical style rich text box. Each shows the value, line
// for line, in the editor, in the snapshot and in changes.
func TestWidgetEditorsFillByLabel(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/editors.html")
	cases := []struct {
		label, value, doc string
	}{
		{"Query", "SELECT id\nFROM users;", "queryDoc()"},
		{"Script", "let total = 1;\nreturn total;", "scriptDoc()"}, // replaces "let total = 0;"
		{"Release notes", "Faster search\nFixed login", "notesDoc()"},
	}
	for _, tc := range cases {
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{"label":%q,"value":%q}}]}`, tab, tc.label, tc.value))
		if code != 0 {
			t.Fatalf("fill %q: exit %d: %v", tc.label, code, res)
		}
		step := stepOutputs(t, res)[0]
		if out := outputOf(t, res, 0); out["filled"] != true || out["value"] != nil || step["warning"] != nil {
			t.Errorf("fill %q: %v", tc.label, step)
		}
		if got := evalOn(t, c, tab, tc.doc); got != tc.value {
			t.Errorf("fill %q: the editor holds %q, want %q", tc.label, got, tc.value)
		}
		snap, _ := res["viewportSnapshot"].(string)
		line := fmt.Sprintf("textbox %q", tc.label)
		ref := refOn(t, snap, line)
		if want := fmt.Sprintf("%s [ref=%s]: %s", line, ref, jsonText(tc.value)); !strings.Contains(snap, want) {
			t.Errorf("fill %q: the snapshot does not show %s:\n%s", tc.label, want, snap)
		}
		if got := changedTo(res, ref); got != tc.value {
			t.Errorf("fill %q: changes %v", tc.label, jsonText(changesOf(res)))
		}
	}
	// The editor's lines and their numbers are its textbox's value, not
	// text beside it; the page's own textarea it hid was left alone.
	snap, _ := c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string)
	if strings.Contains(snap, `text: "1"`) || strings.Count(snap, "return total;") != 1 {
		t.Errorf("the editor's lines show beside its textbox:\n%s", snap)
	}
	if got := evalOn(t, c, tab, "document.getElementById('script-src').value"); got != "let total = 0;" {
		t.Errorf("the hidden textarea was filled: %q", got)
	}
}

// A ref from the snapshot, or the visible editor's selector, names the
// editor for fill and type too. Typed keys go through the editor's own
// handling (a bracket closes itself, typing its closer steps over it);
// a fill the editor reformats is filled, with what it shows and a
// warning saying what it did.
func TestWidgetEditorsRefTypeAndReformat(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/editors.html")
	snap, _ := c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string)
	query := refOn(t, snap, `textbox "Query"`)
	c.call(t, tab, fmt.Sprintf(`{"fill":{"ref":%q,"value":"SELECT 1;"}},{"fill":{"ref":%q,"value":"SELECT max(a)"}}`, query, query))
	if got := evalOn(t, c, tab, "queryDoc()"); got != "SELECT max(a)" {
		t.Errorf("refilled by ref, the query holds %q", got)
	}
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"type":{"ref":%q,"text":" FROM f(x)"}}]}`, tab, query))
	if code != 0 {
		t.Fatalf("type: exit %d: %v", code, res)
	}
	if got := evalOn(t, c, tab, "queryDoc()"); got != "SELECT max(a) FROM f(x)" {
		t.Errorf("typed, the query holds %q", got)
	}
	if got := changedTo(res, query); got != "SELECT max(a) FROM f(x)" {
		t.Errorf("type changes: %v", jsonText(changesOf(res)))
	}

	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{"selector":"#script-editor","value":"if (ok) {\nrun();\n}"}}]}`, tab))
	if code != 0 {
		t.Fatalf("fill the view: exit %d: %v", code, res)
	}
	step := stepOutputs(t, res)[0]
	out := outputOf(t, res, 0)
	if out["filled"] != true || out["value"] != "if (ok) {\n  run();\n}" || !strings.Contains(fmt.Sprint(step["warning"]), "indented") {
		t.Errorf("a fill the editor re-indented: %v", step)
	}
	if got := evalOn(t, c, tab, "scriptDoc()"); got != "if (ok) {\n  run();\n}" {
		t.Errorf("the script holds %q", got)
	}
}

// dragOn runs one drag on tab and returns its step and the result.
func dragOn(t *testing.T, c *cli, tab, drag string) (map[string]any, map[string]any) {
	t.Helper()
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"drag":%s}]}`, tab, drag))
	if code != 0 {
		t.Fatalf("drag %s: exit %d: %v", drag, code, res)
	}
	return stepOutputs(t, res)[0], res
}

// movedLine is changes' moved line for ref, or "".
func movedLine(res map[string]any, ref string) string {
	moved, _ := changesOf(res)["moved"].([]any)
	for _, m := range moved {
		if s, _ := m.(string); strings.Contains(s, "[ref="+ref+"]") {
			return s
		}
	}
	return ""
}

// On an HTML5 drag-and-drop board, the cards have refs, and a drag from
// one card onto a card of another list, the first call an agent sends,
// puts it there (before the card under the pointer): dragged, and changes
// shows the card moved. method html5 does the same with synthetic events.
func TestWidgetBoardDragBetweenLists(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/board.html")
	snap, _ := c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string)
	docs, ship := refOn(t, snap, `"Write docs"`), refOn(t, snap, `"Ship it"`)
	step, res := dragOn(t, c, tab, fmt.Sprintf(`{"source":%q,"target":%q}`, docs, ship))
	if out := step["output"].(map[string]any); out["dragged"] != true || out["method"] != "mouse" || step["warning"] != nil {
		t.Errorf("drag: %v", step)
	}
	if got := evalOn(t, c, tab, "board()"); got != "todo:Fix login bug|Review PR done:Write docs|Ship it|Set up CI archive:Old idea" {
		t.Errorf("board = %v", got)
	}
	if line := movedLine(res, docs); !strings.Contains(line, `"Write docs"`) {
		t.Errorf("changes do not show the card moved: %v", jsonText(changesOf(res)))
	}

	review, ci := refOn(t, snap, `"Review PR"`), refOn(t, snap, `"Set up CI"`)
	step, res = dragOn(t, c, tab, fmt.Sprintf(`{"source":%q,"target":%q,"method":"html5"}`, review, ci))
	if out := step["output"].(map[string]any); out["dragged"] != true || out["method"] != "html5" || step["warning"] != nil {
		t.Errorf("html5 drag: %v", step)
	}
	if got := evalOn(t, c, tab, "board()"); got != "todo:Fix login bug done:Write docs|Ship it|Review PR|Set up CI archive:Old idea" {
		t.Errorf("board after the html5 drag = %v", got)
	}
	if movedLine(res, review) == "" {
		t.Errorf("changes after the html5 drag: %v", jsonText(changesOf(res)))
	}
}

// A drop the page refuses (a locked column that does not cancel
// dragover) moves nothing: the drag is not dragged, and the warning says
// where the card still is and where the drop landed.
func TestWidgetBoardRefusedDrop(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/board.html")
	snap, _ := c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string)
	step, res := dragOn(t, c, tab, fmt.Sprintf(`{"source":%q,"target":%q}`, refOn(t, snap, `"Fix login bug"`), refOn(t, snap, `"Old idea"`)))
	w, _ := step["warning"].(string)
	if out := step["output"].(map[string]any); out["dragged"] != false ||
		!strings.Contains(w, `did not accept the drop`) ||
		!strings.Contains(w, `the source did not move: it is still item 2 of 3 in "To do"; the drop landed on listitem "Old idea" in "Archive (locked)"`) {
		t.Errorf("refused drop: %v", step)
	}
	if got := evalOn(t, c, tab, "board()"); got != "todo:Write docs|Fix login bug|Review PR done:Ship it|Set up CI archive:Old idea" {
		t.Errorf("board = %v", got)
	}
	if movedLine(res, refOn(t, snap, `"Fix login bug"`)) != "" {
		t.Errorf("changes say it moved: %v", jsonText(changesOf(res)))
	}
}

// A pointer-driven sortable (a 5 px activation threshold, rows sliding
// aside with a 150 ms transition, the list reordered after the dragged
// row glides into its slot) is reordered by a drag by refs, and the
// result waits for that to report it: dragged, and moved in changes.
func TestWidgetPointerSortableDrag(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/board.html")
	snap, _ := c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string)
	security := refOn(t, snap, `"Security"`)
	step, res := dragOn(t, c, tab, fmt.Sprintf(`{"source":%q,"target":%q}`, security, refOn(t, snap, `"Docs"`)))
	if out := step["output"].(map[string]any); out["dragged"] != true || out["method"] != "mouse" || step["warning"] != nil {
		t.Errorf("drag: %v", step)
	}
	if got := evalOn(t, c, tab, "order()"); got != "Speed|Docs|Security|Design" {
		t.Errorf("order = %v", got)
	}
	if movedLine(res, security) == "" || !strings.Contains(jsonText(changesOf(res)), "Security moved to position 3") {
		t.Errorf("changes: %v", jsonText(changesOf(res)))
	}
}

// The text inputs editors and UI kits stand beside, filled by their
// labels as an agent's first calls do: MUI's multiline TextField (a real
// textarea and the hidden twin that measures it) is one textbox, filled
// in the real textarea; a page's hidden textarea is not the rich text box
// after it; an EditContext editor that renders only the lines in view
// takes a long fill without a false warning and shows its whole text
// from the start; a placeholder is not an editor's value.
func TestWidgetTextInputsFillByLabel(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/textinputs.html")
	snap, _ := c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string)
	for _, line := range []string{`textbox "Description" [name=description] [ref=`, `textbox "Commit message" [ref=`} {
		if !strings.Contains(snap, line) {
			t.Errorf("the snapshot has no %s:\n%s", line, snap)
		}
	}
	if ref := refOn(t, snap, `textbox "Commit message"`); !strings.Contains(snap, `textbox "Commit message" [ref=`+ref+`]: ""`) {
		t.Errorf("the placeholder shows as the editor's value:\n%s", snap)
	}

	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{"label":"Description","value":"Line one\nLine two"}}]}`, tab))
	if code != 0 || outputOf(t, res, 0)["filled"] != true || stepOutputs(t, res)[0]["warning"] != nil {
		t.Fatalf("fill Description: exit %d: %v", code, res)
	}
	if got := evalOn(t, c, tab, "document.getElementById('desc').value"); got != "Line one\nLine two" {
		t.Errorf("the real textarea holds %q", got)
	}

	// The hidden textarea is nothing to fill; the comment box stays as it
	// was. The step's time is for one look at the page at least, which a
	// loaded machine can take half a second for.
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{"label":"Bio source","value":"Bye"},"timeout":1500}]}`, tab))
	if msg, _ := stepOutputs(t, res)[0]["error"].(string); code == 0 || !strings.Contains(msg, `no visible form field labelled "Bio source"`) {
		t.Errorf("fill of a hidden textarea: %v", stepOutputs(t, res)[0])
	}
	if got := evalOn(t, c, tab, "document.getElementById('comment').innerText.trim()"); got != "First!" {
		t.Errorf("the comment box holds %q", got)
	}

	var lines []string
	for i := 1; i <= 60; i++ {
		lines = append(lines, fmt.Sprintf("key%d = \"w%d\"", i, i))
	}
	long := strings.Join(lines, "\n")
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{"label":"Config","value":%q}}]}`, tab, long))
	step := stepOutputs(t, res)[0]
	if code != 0 || outputOf(t, res, 0)["filled"] != true || outputOf(t, res, 0)["value"] != nil || step["warning"] != nil {
		t.Errorf("fill Config: exit %d: %v", code, step)
	}
	if got := evalOn(t, c, tab, "docs.config()"); got != long {
		t.Errorf("the config holds %q", got)
	}
	if got := evalOn(t, c, tab, "document.querySelectorAll('#config .cm-line').length < 20"); got != true {
		t.Errorf("the editor rendered every line: the test shows nothing")
	}
	snap, _ = res["viewportSnapshot"].(string)
	if !strings.Contains(snap, `textbox "Config" [ref=`) || !strings.Contains(snap, `: "key1 = \"w1\"\nkey2 = \"w2\"`) {
		t.Errorf("the snapshot does not show the config from its start:\n%s", snap)
	}

	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{"label":"Commit message","value":"Fix typo"}},{"fill":{"label":"Commit message","value":""}}]}`, tab))
	for i, s := range stepOutputs(t, res) {
		if code != 0 || outputOf(t, res, i)["filled"] != true || s["warning"] != nil {
			t.Errorf("fill Commit message, step %d: exit %d: %v", i+1, code, s)
		}
	}
	if got := evalOn(t, c, tab, "docs.commit()"); got != "" {
		t.Errorf("the commit message holds %q", got)
	}
}

// On a board that rebuilds its columns with innerHTML after every drag
// (no card element outlives one), a drop the page refuses is not
// dragged, and the warning names the cause: a locked column that never
// accepts, or one at its limit that cancels dragover but asks for
// dropEffect "none". Two cards read "Write tests": one dropped on
// another column moved, one refused stayed, each told by where the cards
// that read so now are.
func TestWidgetKanbanRebuiltOnEveryDrop(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/kanban.html")
	start := "Backlog:Write tests|Design API Doing:Write tests|Deploy Review:Code review Done:Kickoff"
	cases := []struct {
		source, target, board string
		dragged               bool
		warning               []string
	}{
		{`#col-0 + ul li:nth-child(2)`, `#col-3 + ul li`, start, false, []string{
			"no dragover handler called preventDefault",
			`the source did not move: it is still item 2 of 2 in "Backlog"; the drop landed on listitem "Kickoff" in "Done"`}},
		{`#col-0 + ul li:nth-child(2)`, `#col-2 + ul li`, start, false, []string{
			`called preventDefault but set dropEffect "none"`,
			`the source did not move: it is still item 2 of 2 in "Backlog"; the drop landed on listitem "Code review" in "Review"`}},
		{`#col-0 + ul li:first-child`, `#col-1 + ul li:nth-child(2)`, "Backlog:Design API Doing:Write tests|Write tests|Deploy Review:Code review Done:Kickoff", true, nil},
		{`#col-1 + ul li:first-child`, `#col-3 + ul li`, "Backlog:Design API Doing:Write tests|Write tests|Deploy Review:Code review Done:Kickoff", false, []string{
			`the source did not move: it is still item 1 of 3 in "Doing"`}},
	}
	for _, tc := range cases {
		step, res := dragOn(t, c, tab, fmt.Sprintf(`{"source":%q,"target":%q}`, tc.source, tc.target))
		out := step["output"].(map[string]any)
		// Every card is a new element after the drop: the one that changed
		// lists is moved there, and no card reads as removed and added.
		if ch := changesOf(res); tc.dragged && (ch["added"] != nil || ch["removed"] != nil || !strings.Contains(jsonText(ch["moved"]), `Write tests\" (now in list \"Doing\")`)) {
			t.Errorf("drag %s to %s: changes %s", tc.source, tc.target, jsonText(ch))
		}
		w, _ := step["warning"].(string)
		if out["dragged"] != tc.dragged || (tc.warning == nil) != (w == "") {
			t.Errorf("drag %s to %s: %v", tc.source, tc.target, step)
		}
		for _, want := range tc.warning {
			if !strings.Contains(w, want) {
				t.Errorf("drag %s to %s: the warning does not say %s: %s", tc.source, tc.target, want, w)
			}
		}
		if got := evalOn(t, c, tab, "board()"); got != tc.board {
			t.Errorf("drag %s to %s: board = %v", tc.source, tc.target, got)
		}
	}
}
