package diff

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	nodes := Parse(strings.Join([]string{
		`# scoped to main`,
		`- main:`,
		`  - heading "Todos (2)" [level=1]`,
		`  - textbox "New [item]" [name="a b]"] [ref=s1e1]: "Buy \"bread\""`,
		`  - list:`,
		`    - listitem: "Buy milk"`,
		`  - button "Menu" [collapsed] [ref=s1e3]`,
		`  - text: "x: y"`,
		`  - checkbox [checked] [ref=s1e4] in "Buy \"milk\": 2"`,
		`  - textbox [ref=s1e5] in "Ada": "x"`,
		`  - button in "a" in "b"`,
		`not a line`,
		`- button "unterminated`,
	}, "\n"))
	want := []Node{
		{Depth: 0, Role: "main", Parent: -1, Line: "main"},
		{Depth: 1, Role: "heading", Name: "Todos (2)", Attrs: []string{"level=1"}, Parent: 0, Line: `heading "Todos (2)" [level=1]`},
		{Depth: 1, Role: "textbox", Name: "New [item]", Ref: "s1e1", Attrs: []string{`name="a b]"`}, Text: `Buy "bread"`, HasText: true, Parent: 0,
			Line: `textbox "New [item]" [name="a b]"] [ref=s1e1]: "Buy \"bread\""`},
		{Depth: 1, Role: "list", Parent: 0, Line: "list"},
		{Depth: 2, Role: "listitem", Parent: 3, Line: `listitem: "Buy milk"`},
		{Depth: 3, Role: "text", Text: "Buy milk", HasText: true, Parent: 4, Line: `text: "Buy milk"`, Inline: true},
		{Depth: 1, Role: "button", Name: "Menu", Ref: "s1e3", Attrs: []string{"collapsed"}, Parent: 0, Line: `button "Menu" [collapsed] [ref=s1e3]`},
		{Depth: 1, Role: "text", Text: "x: y", HasText: true, Parent: 0, Line: `text: "x: y"`},
		{Depth: 1, Role: "checkbox", Ref: "s1e4", Attrs: []string{"checked"}, Context: `Buy "milk": 2`, Parent: 0,
			Line: `checkbox [checked] [ref=s1e4] in "Buy \"milk\": 2"`, bare: `checkbox [checked] [ref=s1e4]`},
		{Depth: 1, Role: "textbox", Ref: "s1e5", Context: "Ada", Text: "x", HasText: true, Parent: 0,
			Line: `textbox [ref=s1e5] in "Ada": "x"`, bare: `textbox [ref=s1e5]: "x"`},
	}
	if !reflect.DeepEqual(nodes, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", nodes, want)
	}
}

// A lone text the renderer folds into its element's line, then unfolds
// when a sibling arrives, is no change; a new text in the line is the
// element's change.
func TestFoldedTextIsNoChange(t *testing.T) {
	before := "- listitem [uid=4]: \"Buy milk\"\n- status [uid=5]: \"Idle\""
	after := "- listitem [uid=4]:\n  - text: \"Buy milk\"\n  - button \"Delete\" [ref=s1e9]\n- status [uid=5]: \"Busy\""
	got := asJSON(Compare(Parse(before), Parse(after), Options{}).Report("Hovered", 10))
	want := `{"summary":"Hovered. 1 added (s1e9). 1 text changed (status).","added":["button \"Delete\" [ref=s1e9]"],"changed":[{"role":"status","field":"text","from":"Idle","to":"Busy"}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// An element whose name and text both changed is one changed element.
func TestChangedElementsCountOnce(t *testing.T) {
	c := Compare(Parse(`- button "A" [ref=s1e1]: "x"`), Parse(`- button "B" [ref=s1e1]: "y"`), Options{}).Report("Clicked", 10)
	if !strings.HasPrefix(c.Summary, "Clicked. 1 text changed (s1e1).") || len(c.Changed) != 2 {
		t.Errorf("%+v", c)
	}
}

func changesOf(t *testing.T, before, after string) *Changes {
	t.Helper()
	return Compare(Parse(before), Parse(after), Options{}).Report("Clicked", 10)
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestCompare(t *testing.T) {
	cases := []struct {
		name, before, after string
		want                string // the Changes as JSON, "null" for none
	}{
		{"nothing", "- button \"A\" [ref=s1e1]", "- button \"A\" [ref=s1e1]", "null"},
		{"menu expands",
			`- button "Menu" [collapsed] [ref=s1e3]`,
			"- button \"Menu\" [expanded] [ref=s1e3]\n- menu:\n  - menuitem \"Edit\" [ref=s1e5]\n  - menuitem \"Delete\" [ref=s1e6]",
			`{"summary":"Clicked. 1 added (menu). 1 expanded (s1e3).","added":["menu","menuitem \"Edit\" [ref=s1e5]","menuitem \"Delete\" [ref=s1e6]"],"changed":[{"ref":"s1e3","field":"expanded","from":false,"to":true}]}`},
		{"checkbox",
			`- checkbox "Done" [ref=s1e4]`, `- checkbox "Done" [checked] [ref=s1e4]`,
			`{"summary":"Clicked. 1 checked (s1e4).","changed":[{"ref":"s1e4","field":"checked","from":false,"to":true}]}`},
		{"list grows, heading and status change",
			"- heading \"Todos (2)\" [level=1]\n- list:\n  - listitem: \"Buy milk\"\n  - listitem: \"Walk dog\"\n- status: \"Nothing saved\"",
			"- heading \"Todos (3)\" [level=1]\n- list:\n  - listitem: \"Buy milk\"\n  - listitem: \"Walk dog\"\n  - listitem: \"Buy bread\"\n- status: \"Saved Buy bread\"",
			`{"summary":"Clicked. 1 added (listitem \"Buy bread\"). 2 text changed (heading, status).","added":["listitem: \"Buy bread\""],"changed":[{"role":"heading","field":"name","from":"Todos (2)","to":"Todos (3)"},{"role":"status","field":"text","from":"Nothing saved","to":"Saved Buy bread"}]}`},
		{"field rewritten by a script",
			`- textbox "Phone" [ref=s1e2]: "5551234"`, `- textbox "Phone" [ref=s1e2]: "(555) 1234"`,
			`{"summary":"Clicked. 1 value changed (s1e2).","changed":[{"ref":"s1e2","field":"value","from":"5551234","to":"(555) 1234"}]}`},
		{"alert appears",
			`- button "Save" [ref=s1e1]`, "- button \"Save\" [ref=s1e1]\n- alert: \"Email is required\"",
			`{"summary":"Clicked. 1 added (alert).","added":["alert: \"Email is required\""]}`},
		{"scroll: lines leave and arrive, nothing pairs up",
			"- paragraph: \"p1\"\n- paragraph: \"p2\"\n- paragraph: \"p3\"\n- link \"a\" [ref=s1e1]",
			"- paragraph: \"p3\"\n- paragraph: \"p4\"\n- paragraph: \"p5\"\n- link \"b\" [ref=s1e2]",
			`{"summary":"Clicked. 3 added (s1e2, paragraph). 3 removed (s1e1, paragraph).","added":["paragraph: \"p4\"","paragraph: \"p5\"","link \"b\" [ref=s1e2]"],"removed":["paragraph: \"p1\"","paragraph: \"p2\"","link \"a\" [ref=s1e1]"]}`},
		{"elements known by uid: one scrolled away, one changed in place",
			"- heading \"Shopping list\" [level=1] [uid=3]\n- status [uid=4]: \"Nothing loaded\"",
			"- status [uid=4]: \"Loaded\"\n- heading \"Details\" [level=2] [uid=9]",
			`{"summary":"Clicked. 1 added (heading \"Details\"). 1 removed (heading \"Shopping list\"). 1 text changed (status).","added":["heading \"Details\" [level=2]"],"removed":["heading \"Shopping list\" [level=1]"],"changed":[{"role":"status","field":"text","from":"Nothing loaded","to":"Loaded"}]}`},
		{"element replaced by its twin in a re-render is no change",
			`- button "Save" [ref=s1e1]`, `- button "Save" [ref=s1e7]`, `null`},
		{"a rebuilt list is no change, its text neither",
			"- list [uid=2]:\n  - listitem [uid=3]: \"first\"\n- button \"Count\" [ref=s1e1]",
			"- list [uid=8]:\n  - listitem [uid=9]: \"first\"\n- button \"Count\" [ref=s1e4]", `null`},
		{"a rebuilt app: its changed elements are changes, found by place",
			"- main [uid=1]:\n  - heading \"Items\" [level=1] [uid=2]\n  - combobox \"Size\" [ref=s1e1]: \"Medium\"\n  - paragraph [uid=3]: \"Clicked 0\"",
			"- main [uid=1]:\n  - heading \"Items\" [level=1] [uid=5]\n  - combobox \"Size\" [ref=s1e4]: \"Small\"\n  - paragraph [uid=6]: \"Clicked 1\"",
			`{"summary":"Clicked. 1 value changed (s1e4). 1 text changed (paragraph).","changed":[{"ref":"s1e4","field":"value","from":"Medium","to":"Small"},{"role":"paragraph","field":"text","from":"Clicked 0","to":"Clicked 1"}]}`},
		{"a rebuilt card's changed children too",
			"- group \"Onesie\" [uid=1]:\n  - paragraph [uid=2]: \"In stock\"\n  - button \"Add\" [ref=s1e1]",
			"- group \"Onesie\" [uid=7]:\n  - paragraph [uid=8]: \"In cart\"\n  - button \"Add\" [ref=s1e2]",
			`{"summary":"Clicked. 1 text changed (paragraph).","changed":[{"role":"paragraph","field":"text","from":"In stock","to":"In cart"}]}`},
		{"a rebuilt list that lost its first item: that item is removed, the others unchanged",
			"- list [uid=1]:\n  - listitem [uid=2]:\n    - checkbox [ref=s1e1] in \"Buy milk\"\n    - text: \"Buy milk\"\n  - listitem [uid=3]:\n    - checkbox [ref=s1e2] in \"Walk dog\"\n    - text: \"Walk dog\"\n  - listitem [uid=4]:\n    - checkbox [ref=s1e3] in \"Pay rent\"\n    - text: \"Pay rent\"",
			"- list [uid=1]:\n  - listitem [uid=5]:\n    - checkbox [ref=s1e4] in \"Walk dog\"\n    - text: \"Walk dog\"\n  - listitem [uid=6]:\n    - checkbox [ref=s1e5] in \"Pay rent\"\n    - text: \"Pay rent\"",
			`{"summary":"Clicked. 1 removed (listitem \"Buy milk\").","removed":["listitem","checkbox [ref=s1e1] in \"Buy milk\"","text: \"Buy milk\""]}`},
		{"a rebuilt list whose second box was ticked: that box is checked",
			"- list [uid=1]:\n  - listitem [uid=2]:\n    - checkbox [ref=s1e1]\n    - text: \"Buy milk\"\n  - listitem [uid=3]:\n    - checkbox [ref=s1e2]\n    - text: \"Walk dog\"",
			"- list [uid=1]:\n  - listitem [uid=5]:\n    - checkbox [ref=s1e4]\n    - text: \"Buy milk\"\n  - listitem [uid=6]:\n    - checkbox [checked] [ref=s1e5]\n    - text: \"Walk dog\"",
			`{"summary":"Clicked. 1 checked (s1e5).","changed":[{"ref":"s1e5","field":"checked","from":false,"to":true}]}`},
		{"an empty status line that now says something changed its text",
			"- main [uid=1]:\n  - button \"Go\" [ref=s1e1]\n  - status [uid=2]",
			"- main [uid=1]:\n  - button \"Go\" [ref=s1e1]\n  - status [uid=2]: \"Welcome\"",
			`{"summary":"Clicked. 1 text changed (status).","changed":[{"role":"status","field":"text","from":null,"to":"Welcome"}]}`},
		{"and one that went quiet too",
			"- status [uid=2]: \"Saving…\"", "- status [uid=2]",
			`{"summary":"Clicked. 1 text changed (status).","changed":[{"role":"status","field":"text","from":"Saving…","to":null}]}`},
		{"items replaced where nothing was rebuilt are removed and added",
			"- list [uid=1]:\n  - listitem [uid=2]: \"A\"\n  - listitem [uid=3]: \"B\"",
			"- list [uid=1]:\n  - listitem [uid=4]: \"C\"\n  - listitem [uid=5]: \"D\"",
			`{"summary":"Clicked. 2 added (listitem \"C\", listitem \"D\"). 2 removed (listitem \"A\", listitem \"B\").","added":["listitem: \"C\"","listitem: \"D\""],"removed":["listitem: \"A\"","listitem: \"B\""]}`},
		{"element replaced by a different one",
			`- button "Save" [ref=s1e1]`, `- button "Saved" [ref=s1e7]`,
			`{"summary":"Clicked. 1 added (s1e7). 1 removed (s1e1).","added":["button \"Saved\" [ref=s1e7]"],"removed":["button \"Save\" [ref=s1e1]"]}`},
		{"twins at another depth are not one",
			"- button \"Save\" [ref=s1e1]", "- group:\n  - button \"Save\" [ref=s1e7]",
			`{"summary":"Clicked. 1 added (group). 1 removed (s1e1).","added":["group","button \"Save\" [ref=s1e7]"],"removed":["button \"Save\" [ref=s1e1]"]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := asJSON(changesOf(t, tc.before, tc.after)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// A control's context comes and goes with its look-alikes (a second
// "Edit" row gives the first one its row's name) and follows its row's
// text: never a change on its own; an added line shows it.
func TestContextIsNoChange(t *testing.T) {
	before := "- main:\n  - button \"Edit\" [ref=s1e3]\n  - checkbox [ref=s1e4] in \"Buy milk\"\n  - button [uid=7] in \"Ada\""
	after := "- main:\n  - button \"Edit\" [ref=s1e3] in \"Ada\"\n  - checkbox [ref=s1e4] in \"Buy oat milk\"\n  - button [uid=7]\n" +
		"  - button \"Edit\" [ref=s1e9] in \"Alan\""
	got := asJSON(changesOf(t, before, after))
	want := `{"summary":"Clicked. 1 added (s1e9).","added":["button \"Edit\" [ref=s1e9] in \"Alan\""]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Lines without refs or uids (plain snapshots) pair up by their
	// content, the context left out.
	if d := Compare(Parse(`- checkbox in "A"`), Parse(`- checkbox in "B"`), Options{}); !d.Empty() {
		t.Errorf("plain lines whose context changed:\n%s", d)
	}
}

// The summary counts everything; the lists stop at the limit.
func TestReportLimit(t *testing.T) {
	var b, a strings.Builder
	for i := range 15 {
		a.WriteString("- link \"l\" [ref=s1e" + string(rune('a'+i)) + "]\n")
	}
	c := Compare(Parse(b.String()), Parse(a.String()), Options{Scrolled: true}).Report("Scrolled", 10)
	if len(c.InView) != 10 || len(c.Added) != 0 || !strings.HasPrefix(c.Summary, "Scrolled. 15 in view (s1ea, s1eb, s1ec, s1ed, s1ee, …).") {
		t.Errorf("got %d in view, %d added, summary %q", len(c.InView), len(c.Added), c.Summary)
	}
}

// A capped list keeps the telling lines, in page order: the alert and
// the items' text before the bare list and listitem lines they sit in.
func TestReportKeepsTellingLines(t *testing.T) {
	var a strings.Builder
	a.WriteString("- list\n")
	for i := range 6 {
		fmt.Fprintf(&a, "  - listitem:\n    - text: \"Item %d\"\n", i)
	}
	a.WriteString("- alert: \"Saved\"\n")
	c := Compare(Parse(""), Parse(a.String()), Options{}).Report("Clicked", 7)
	want := []string{`text: "Item 0"`, `text: "Item 1"`, `text: "Item 2"`, `text: "Item 3"`, `text: "Item 4"`, `text: "Item 5"`, `alert: "Saved"`}
	if !slices.Equal(c.Added, want) {
		t.Errorf("added %q, want %q", c.Added, want)
	}
}

// A long run of changed lines is not aligned pairwise forever.
func TestAlignIsBounded(t *testing.T) {
	var b, a strings.Builder
	for i := range 1500 {
		b.WriteString("- listitem: \"old " + strings.Repeat("x", i%7) + "\"\n")
		a.WriteString("- listitem: \"new " + strings.Repeat("y", i%5) + "\"\n")
	}
	d := Compare(Parse(b.String()), Parse(a.String()), Options{})
	if len(d.Added) != 1500 || len(d.Removed) != 1500 {
		t.Errorf("got %d added, %d removed", len(d.Added), len(d.Removed))
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"- button \"A\" [ref=s1e1]",
		"- main:\n  - textbox \"x\" [name=\"a]\"] [ref=s2e3]: \"v\"",
		"  - text: \"\\u00e9\"\n- link [url=\"/a b\"]",
		"- a [\"",
		"- checkbox [checked] [ref=s1e3] in \"Buy milk\"\n- button \"Edit\" [ref=s1e4] in \"Ada\": \"x\"",
		"- button in \"",
	} {
		f.Add(s, "- button \"B\" [ref=s1e1]")
	}
	f.Fuzz(func(t *testing.T, before, after string) {
		b, a := Parse(before), Parse(after)
		for i, n := range append(b, a...) {
			if n.Parent >= i && n.Parent != -1 {
				t.Fatalf("line %d has parent %d after it", i, n.Parent)
			}
		}
		_ = Compare(b, a, Options{}).Report("Clicked", 10)
		_ = Compare(b, a, Options{Scrolled: true})
	})
}

// After a scroll, text lines that take one another's place are not one
// line that changed.
func TestScrolledTextIsNotPaired(t *testing.T) {
	before := Parse("- main [uid=1]:\n  - text: \"first screen\"")
	after := Parse("- main [uid=1]:\n  - text: \"second screen\"")
	if d := Compare(before, after, Options{Scrolled: true}); len(d.Added) != 1 || len(d.Removed) != 1 || len(d.Changed) != 0 {
		t.Errorf("scrolled:\n%s", d)
	}
	if d := Compare(before, after, Options{}); len(d.Changed) != 1 {
		t.Errorf("in place:\n%s", d)
	}
}

// rows writes a list of to-do rows as the report's viewport shows them:
// each row "uid:title:checkbox ref:checked".
func rows(list string, items ...string) string {
	var b strings.Builder
	b.WriteString("- list [uid=" + list + "]:\n")
	for _, it := range items {
		f := strings.Split(it, ":")
		check := ""
		if f[3] == "x" {
			check = " [checked]"
		}
		b.WriteString("  - listitem [uid=" + f[0] + "]:\n    - checkbox" + check + " [ref=" + f[2] + "]\n    - text: \"" + f[1] + "\"\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// A filtered or re-sorted list reads as rows removed, added and moved,
// however the framework re-renders it: never as rows renamed, nor as a
// box ticked that no one ticked. A row's own change still shows.
func TestListsFollowTheirRows(t *testing.T) {
	cases := []struct {
		name, before, after, want string
	}{
		{"rebuilt rows filtered: one leaves, another comes",
			rows("1", "2:Buy milk:s1e1:x", "3:Call mom:s1e2:-"),
			rows("1", "4:Call mom:s1e3:-", "5:Pay rent:s1e4:-"),
			`{"summary":"Clicked. 1 added (listitem \"Pay rent\"). 1 removed (listitem \"Buy milk\").","added":["listitem","checkbox [ref=s1e4]","text: \"Pay rent\""],"removed":["listitem","checkbox [checked] [ref=s1e1]","text: \"Buy milk\""]}`},
		{"rebuilt rows: two arrive around one that was unticked meanwhile",
			rows("1", "2:Buy milk:s1e1:x", "3:Pay rent:s1e2:x"),
			rows("1", "4:Buy milk:s1e3:x", "5:Call mom:s1e4:-", "6:Pay rent:s1e5:-", "7:Walk the dog:s1e6:-"),
			`{"summary":"Clicked. 2 added (listitem \"Call mom\", listitem \"Walk the dog\"). 1 unchecked (s1e5).","added":["listitem","checkbox [ref=s1e4]","text: \"Call mom\"","listitem","checkbox [ref=s1e6]","text: \"Walk the dog\""],"changed":[{"ref":"s1e5","field":"checked","from":true,"to":false}]}`},
		{"rows patched in place by position: the first row now shows the second",
			rows("1", "2:Buy milk:s1e1:x", "3:Call mom:s1e2:-", "4:Pay rent:s1e3:-"),
			rows("1", "2:Call mom:s1e1:-", "3:Pay rent:s1e2:-"),
			`{"summary":"Clicked. 1 removed (listitem \"Buy milk\").","removed":["listitem","checkbox [checked] [ref=s1e1]","text: \"Buy milk\""]}`},
		{"rows patched in place, none of them left",
			rows("1", "2:Buy milk:s1e1:x", "3:Call mom:s1e2:x"),
			rows("1", "2:Walk the dog:s1e1:-"),
			`{"summary":"Clicked. 1 added (listitem \"Walk the dog\"). 2 removed (listitem \"Buy milk\", listitem \"Call mom\").","added":["listitem","checkbox [ref=s1e1]","text: \"Walk the dog\""],"removed":["listitem","checkbox [checked] [ref=s1e1]","text: \"Buy milk\"","listitem","checkbox [checked] [ref=s1e2]","text: \"Call mom\""]}`},
		{"rows patched in place by a filter that keeps their number: every row reads otherwise",
			rows("1", "2:Pay rent:s1e1:-", "3:Buy milk:s1e2:-"),
			rows("1", "2:Walk the dog:s1e3:x", "3:Call mom:s1e4:x"),
			`{"summary":"Clicked. 2 added (listitem \"Walk the dog\", listitem \"Call mom\"). 2 removed (listitem \"Pay rent\", listitem \"Buy milk\").","added":["listitem","checkbox [checked] [ref=s1e3]","text: \"Walk the dog\"","listitem","checkbox [checked] [ref=s1e4]","text: \"Call mom\""],"removed":["listitem","checkbox [ref=s1e1]","text: \"Pay rent\"","listitem","checkbox [ref=s1e2]","text: \"Buy milk\""]}`},
		{"cells that count up read otherwise: their text changed",
			"- row [uid=1]:\n  - cell [uid=2]: \"0\"\n  - cell [uid=3]: \"1\"",
			"- row [uid=1]:\n  - cell [uid=2]: \"1\"\n  - cell [uid=3]: \"2\"",
			`{"summary":"Clicked. 2 text changed (cell).","changed":[{"role":"cell","field":"text","from":"0","to":"1"},{"role":"cell","field":"text","from":"1","to":"2"}]}`},
		{"a row renamed in place is a rename",
			rows("1", "2:Buy milk:s1e1:x", "3:Call mom:s1e2:-"),
			rows("1", "2:Buy milk:s1e1:x", "3:Call dad:s1e2:-"),
			`{"summary":"Clicked. 1 text changed (text).","changed":[{"role":"text","field":"text","from":"Call mom","to":"Call dad"}]}`},
		{"keyed rows sorted: they moved",
			rows("1", "2:A:s1e1:-", "3:B:s1e2:-", "4:C:s1e3:-"),
			rows("1", "4:C:s1e3:-", "2:A:s1e1:-", "3:B:s1e2:-"),
			`{"summary":"Clicked. 1 moved (listitem \"C\").","moved":["listitem: \"C\""]}`},
		{"rebuilt rows sorted: they moved",
			rows("1", "2:A:s1e1:-", "3:B:s1e2:-", "4:C:s1e3:-"),
			rows("1", "7:C:s1e6:-", "6:B:s1e5:-", "5:A:s1e4:-"),
			`{"summary":"Clicked. 2 moved (listitem \"C\", listitem \"B\").","moved":["listitem: \"C\"","listitem: \"B\""]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := asJSON(changesOf(t, tc.before, tc.after)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// A card dropped into another list of the board is moved, not unchanged:
// it is under another element that was there before too.
func TestMovedToAnotherList(t *testing.T) {
	before := "- list \"To do\" [uid=1]:\n  - listitem [ref=s1e1]: \"Write docs\"\n  - listitem [ref=s1e2]: \"Review PR\"\n- list \"Done\" [uid=2]:\n  - listitem [ref=s1e3]: \"Ship it\""
	after := "- list \"To do\" [uid=1]:\n  - listitem [ref=s1e2]: \"Review PR\"\n- list \"Done\" [uid=2]:\n  - listitem [ref=s1e1]: \"Write docs\"\n  - listitem [ref=s1e3]: \"Ship it\""
	got := asJSON(Compare(Parse(before), Parse(after), Options{}).Report("Dragged", 10))
	want := `{"summary":"Dragged. 1 moved (s1e1).","moved":["listitem [ref=s1e1]: \"Write docs\" (now in list \"Done\")"]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// What changed out of view is said side first, whatever the region's name
// holds, and counted in the summary by side.
func TestWithElsewhere(t *testing.T) {
	c := (*Changes)(nil).WithElsewhere("Clicked", []Away{
		{Side: "below", Region: `section "Response (200)"`, Text: `{"id": 7}`},
		{Side: "below", Region: `main "Items"`, Text: "Saved"},
	})
	want := `Clicked. 2 out of view: below (section "Response (200)", main "Items").`
	if c.Summary != want || c.Elsewhere[0] != `below, in section "Response (200)": "{\"id\": 7}"` {
		t.Errorf("summary %q, lines %q", c.Summary, c.Elsewhere)
	}
}

// A board that rebuilds every column on a drop gives every card a new
// element and ref: the card that changed lists is moved, the others are
// no change, and no card reads as removed and added.
func TestMovedAcrossARebuiltBoard(t *testing.T) {
	before := "- main [uid=1]:\n  - heading \"Backlog\" [level=2] [uid=2]\n  - list \"Backlog\" [uid=3]:\n    - listitem [ref=s0e1]: \"Write tests\"\n    - listitem [ref=s0e2]: \"Design API\"\n" +
		"  - heading \"Doing\" [level=2] [uid=4]\n  - list \"Doing\" [uid=5]:\n    - listitem [ref=s0e3]: \"Write tests\"\n    - listitem [ref=s0e4]: \"Deploy\""
	after := "- main [uid=1]:\n  - heading \"Backlog\" [level=2] [uid=6]\n  - list \"Backlog\" [uid=7]:\n    - listitem [ref=s0e5]: \"Write tests\"\n" +
		"  - heading \"Doing\" [level=2] [uid=8]\n  - list \"Doing\" [uid=9]:\n    - listitem [ref=s0e6]: \"Write tests\"\n    - listitem [ref=s0e7]: \"Design API\"\n    - listitem [ref=s0e8]: \"Deploy\""
	got := asJSON(Compare(Parse(before), Parse(after), Options{}).Report("Dragged", 10))
	want := `{"summary":"Dragged. 1 moved (s0e7).","moved":["listitem [ref=s0e7]: \"Design API\" (now in list \"Doing\")"]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// String is a short description for test failures.
func (d *Diff) String() string {
	var b strings.Builder
	for _, n := range d.Added {
		fmt.Fprintf(&b, "+ %s\n", n.Line)
	}
	for _, n := range d.Removed {
		fmt.Fprintf(&b, "- %s\n", n.Line)
	}
	for _, c := range d.Changed {
		fmt.Fprintf(&b, "~ %s%s %s: %v -> %v\n", c.Ref, c.Role, c.Field, c.From, c.To)
	}
	return b.String()
}
