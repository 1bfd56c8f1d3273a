package aria_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/aria"
)

var scopedRE = regexp.MustCompile(`^# scoped to (\S+); left out: (.*) — use \{root:"body"\} for all$`)

// links is n list items of links, a sidebar's worth.
func links(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(`<li><a href="/p/` + strconv.Itoa(i) + `">Page ` + strconv.Itoa(i) + `</a></li>`)
	}
	return "<ul>" + b.String() + "</ul>"
}

// Without main, the snapshot scopes to the app beside a long sidebar, and
// the note's selector is a root that gives the same snapshot.
func TestAutoScopeBesideSidebar(t *testing.T) {
	p := open(t, "sidebar.html")
	res := snap(t, p, aria.Options{})
	head, body, _ := strings.Cut(res.YAML, "\n")
	m := scopedRE.FindStringSubmatch(head)
	if m == nil || m[2] != `banner (3 controls), navigation "Docs" (84 links)` || strings.Contains(body, "Page 12") {
		t.Fatalf("not scoped beside the sidebar:\n%s", res.YAML)
	}
	if again := snap(t, p, aria.Options{Root: m[1]}); again.YAML != body {
		t.Errorf("root %s gives\n%s\nwant\n%s", m[1], again.YAML, body)
	}
	if all := snap(t, p, aria.Options{Root: "body"}); !strings.Contains(all.YAML, `link "Page 84"`) {
		t.Errorf("root body lost the sidebar:\n%s", all.YAML)
	}
	if sum := snap(t, p, aria.Options{Detail: aria.DetailSummary}); strings.Contains(sum.YAML, "scoped") {
		t.Errorf("the summary is of the whole page:\n%s", sum.YAML)
	}
}

// Scoping happens only when something sizeable is left out and the root
// holds most of the rest of the page.
func TestAutoScopeOnlyWhenItFits(t *testing.T) {
	cases := []struct {
		name, html string
		note       string // the left-out list, "" for no scope
	}{
		{"a short nav stays",
			`<nav>` + links(8) + `</nav><div id="app"><h1>App</h1><button>Go</button><p>Text</p></div>`, ""},
		{"content loose in the body stays",
			`<nav>` + links(84) + `</nav><h1>Title</h1><p>One</p><button>A</button><button>B</button>`, ""},
		{"content spread over two parts stays",
			`<nav>` + links(84) + `</nav><div><h1>Post</h1><p>a</p><p>b</p><p>c</p><a href="/x">x</a></div>` +
				`<div class="comments"><button>Reply</button><button>Reply</button><button>Like</button><p>d</p></div>`, ""},
		{"a sidebar by its class",
			`<div class="layout"><div class="Sidebar_root__x1">` + links(30) + `</div><div id="app"><h1>App</h1><button>Go</button></div></div>`,
			`sidebar (30 links)`},
		{"a sidebar layout wrapper is no sidebar",
			`<div class="sidebar-layout"><nav aria-label="Docs">` + links(40) + `</nav><div id="app"><h1>App</h1><button>Go</button></div></div>`,
			`navigation "Docs" (40 links)`},
		{"a stray control outside is counted",
			`<a href="#app">Skip</a><aside>` + links(25) + `</aside><div id="app"><h1>App</h1><p>x</p><button>Go</button><button>Stop</button></div>`,
			`complementary (25 links), 1 other control`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := open(t, "refs.html")
			eval(t, p, "document.body.innerHTML = "+strconv.Quote(c.html))
			yaml := snap(t, p, aria.Options{}).YAML
			head, _, _ := strings.Cut(yaml, "\n")
			m := scopedRE.FindStringSubmatch(head)
			switch {
			case c.note == "" && strings.HasPrefix(head, "#"):
				t.Errorf("scoped:\n%s", yaml)
			case c.note != "" && (m == nil || m[2] != c.note):
				t.Errorf("want left out: %s, got:\n%s", c.note, yaml)
			}
		})
	}
}

// A snapshot scoped to main still shows what apps mount outside it: an
// open dialog, a toast with something to say, a named details panel;
// not a closed dialog or an empty status line.
func TestScopeKeepsDialogsToastsAndPanels(t *testing.T) {
	p := open(t, "outside.html")
	res := snap(t, p, aria.Options{})
	for _, want := range []string{`# scoped to main; also: banner`, `heading "Inbox"`, `dialog "New message"`, `button "Send"`,
		`status: "Message sent"`, `region "Order details"`, `Total $42`} {
		if !strings.Contains(res.YAML, want) {
			t.Errorf("lacks %s:\n%s", want, res.YAML)
		}
	}
	if strings.Contains(res.YAML, "Discard") || strings.Contains(res.YAML, "link \"Home\"") || strings.Count(res.YAML, "status") != 1 {
		t.Errorf("shows what it should leave out:\n%s", res.YAML)
	}
}
