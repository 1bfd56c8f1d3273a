package aria_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/aria"
)

// Issue 9: the flattened views say where an unnamed or repeated control
// sits (its row, list item or card), and a page without main scopes to
// the app beside a long sidebar.
func TestContextGolden(t *testing.T) {
	inter := aria.Options{Detail: aria.DetailInteractive}
	cases := []struct {
		name, fixture string
		opts          aria.Options
	}{
		{"products", "products.html", aria.Options{}},
		{"products_interactive", "products.html", inter},
		{"todos_interactive", "todos.html", inter},
		{"table_interactive", "table.html", inter},
		{"sidebar", "sidebar.html", aria.Options{}},
		{"sidebar_interactive", "sidebar.html", inter},
		{"nomain", "nomain.html", aria.Options{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := open(t, c.fixture)
			golden(t, c.name, snap(t, p, c.opts).YAML)
		})
	}
}

// The report's lean view, flattened too, says the same, on every line
// (products_lean: beside the card's heading too). It is of the whole
// screen but for a landmark or sidebar crowded with controls beside the
// app, which one line names with the root that shows it (sidebar_lean:
// its 38 links are not repeated in every result).
func TestContextLean(t *testing.T) {
	for _, f := range []string{"products", "todos", "table", "sidebar"} {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			p := open(t, f+".html")
			r := takeReport(t, p, aria.ReportOptions{Viewport: true})
			golden(t, f+"_lean", r.Lean)
			if strings.Contains(r.Viewport, " in \"") {
				t.Errorf("the full viewport, which the diff reads, has contexts:\n%s", r.Viewport)
			}
		})
	}
}

// interactiveOf is the interactive snapshot of a page whose body is html.
func interactiveOf(t *testing.T, html string) *aria.Result {
	t.Helper()
	p := open(t, "refs.html")
	eval(t, p, "document.body.innerHTML = "+strconv.Quote(html))
	return snap(t, p, aria.Options{Detail: aria.DetailInteractive, Root: "body"})
}

// A context is added only where it tells controls apart, from the place
// that does, and stays short.
func TestContextRules(t *testing.T) {
	long := strings.Repeat("very long name ", 6)
	cases := []struct {
		name, html  string
		has, hasNot []string
	}{
		{"the same place tells nothing apart",
			`<div><p>Cart</p><button>Remove</button><button>Remove</button></div>`,
			[]string{"- button \"Remove\" [ref=s1e1]\n"}, []string{" in "}},
		{"the tree already tells them apart",
			`<section aria-label="News"><a href="/1">Read more</a></section><section aria-label="Sports"><a href="/2">Read more</a></section>`,
			[]string{`region "News"`}, []string{" in "}},
		{"a control named once needs none",
			`<div class="card"><h3>Pro</h3><button>Buy</button></div><div class="card"><h3>Team</h3><button>Subscribe</button></div>`,
			nil, []string{" in "}},
		{"an unnamed control takes the text beside it",
			`<div><input type="checkbox"> Remember me</div><p>Footer text</p>`,
			[]string{`checkbox [ref=s1e1] in "Remember me"`}, nil},
		{"an unnamed control with no text in its row stays bare",
			`<h1>Title</h1><ul><li><input type="checkbox"></li></ul>`,
			[]string{"- checkbox [ref=s1e1]"}, []string{" in "}},
		{"a labelled container names its controls",
			`<div aria-label="Shipping"><button>Edit</button></div><fieldset><legend>Billing</legend><button>Edit</button></fieldset>`,
			[]string{`button "Edit" [ref=s1e1] in "Shipping"`, `in "Billing"`}, nil},
		{"the card's first text when it has no heading",
			`<div class="item"><a href="/1"><img alt="Backpack"></a><div>Backpack</div><div><span>$29</span><button>Add</button></div></div>` +
				`<div class="item"><a href="/2"><img alt="Light"></a><div>Bike light</div><div><span>$9</span><button>Add</button></div></div>`,
			[]string{`button "Add" [ref=s1e2] in "Backpack"`, `button "Add" [ref=s1e4] in "Light"`}, nil},
		{"a long context is cut",
			`<div><h4>One ` + long + `</h4><button>Go</button></div><div><h4>Two ` + long + `</h4><button>Go</button></div>`,
			[]string{`button "Go" [ref=s1e1] in "One very long name very long name very long name…"`}, nil},
		{"cut alike, they are not told apart",
			`<div><h4>` + long + `1</h4><button>Go</button></div><div><h4>` + long + `2</h4><button>Go</button></div>`,
			nil, []string{" in "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			yaml := interactiveOf(t, c.html).YAML + "\n"
			for _, s := range c.has {
				if !strings.Contains(yaml, s) {
					t.Errorf("lacks %s:\n%s", s, yaml)
				}
			}
			for _, s := range c.hasNot {
				if strings.Contains(yaml, s) {
					t.Errorf("has %s:\n%s", s, yaml)
				}
			}
		})
	}
}

// A crowded sidebar beside the app is one line of the lean view; a
// layout merely named "sidebar" that holds the app is not left out, nor
// is a landmark that holds main.
func TestLeanLeavesOutOnlyWhatIsBeside(t *testing.T) {
	links := strings.Repeat(`<li><a href="/p">Page</a></li>`, 25)
	cases := []struct{ name, html, has, hasNot string }{
		{"a sidebar beside the app",
			`<nav aria-label="Docs"><ul>` + links + `</ul></nav><div><h1>App</h1><button>Save</button></div>`,
			`# left out: navigation "Docs" (25 links in view: snapshot {root:"body > nav"})`, `link "Page"`},
		{"a layout named sidebar around everything",
			`<div class="sidebar-layout"><nav aria-label="Docs"><ul>` + links + `</ul></nav><div><h1>App</h1><button>Save</button></div></div><a href="#top">Top</a>`,
			`button "Save"`, `# left out: sidebar`},
		{"a landmark that holds main",
			`<aside><main><h1>App</h1><ul>` + links + `</ul><button>Save</button></main></aside><a href="#top">Top</a>`,
			`button "Save"`, `# left out`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := open(t, "refs.html")
			eval(t, p, "document.body.innerHTML = "+strconv.Quote(c.html))
			lean := takeReport(t, p, aria.ReportOptions{Viewport: true}).Lean
			if !strings.Contains(lean, c.has) || strings.Contains(lean, c.hasNot) {
				t.Errorf("want %s and no %s in:\n%s", c.has, c.hasNot, lean)
			}
		})
	}
}
