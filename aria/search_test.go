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

func search(t *testing.T, p *page.Page, o aria.SearchOptions) *aria.SearchResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	res, err := aria.Search(ctx, p, o)
	if err != nil {
		t.Fatalf("Search(%+v): %v", o, err)
	}
	return res
}

// TestSearchWholePage (issue 3 lesson): snapshotSearch searches the whole
// page, not the main an agent-facing snapshot scopes to.
func TestSearchWholePage(t *testing.T) {
	p := open(t, "landmarks.html")
	if y := snap(t, p, aria.Options{Mode: aria.ModePlain}).YAML; strings.Contains(y, "Privacy") {
		t.Fatalf("the fixture's footer should be outside the auto-scoped snapshot:\n%s", y)
	}
	res := search(t, p, aria.SearchOptions{Text: "privacy"})
	if res.MatchCount != 1 || len(res.Matches) != 1 {
		t.Fatalf("matches %+v", res)
	}
	m := res.Matches[0]
	if m.Role != "link" || m.Name != "Privacy" || m.Ref == "" || m.Path != `contentinfo > navigation "Legal"` {
		t.Errorf("match %+v", m)
	}
	if res.SearchedElements < 20 || res.Criteria.Text != "privacy" {
		t.Errorf("searched %d elements, criteria %+v", res.SearchedElements, res.Criteria)
	}
}

// TestSearchRefsPersist: the refs a search hands out are refs like any
// other: the next snapshot shows the same one, and the search did not
// start a snapshot number.
func TestSearchRefsPersist(t *testing.T) {
	p := open(t, "landmarks.html")
	ref := search(t, p, aria.SearchOptions{Text: "Sign Up", Exact: true}).Matches[0].Ref
	if ref != "s0e1" {
		t.Errorf("first search ref = %s, want s0e1 (no snapshot yet)", ref)
	}
	res := snap(t, p, aria.Options{})
	if res.SnapshotID != "s1" || refNamed(t, res.YAML, `button "Sign Up"`) != ref {
		t.Errorf("snapshot after the search:\n%s", res.YAML)
	}
	checkRefs(t, p)
}

func TestSearchCriteria(t *testing.T) {
	p := open(t, "landmarks.html")
	cases := []struct {
		name  string
		opts  aria.SearchOptions
		count int
		first string
	}{
		{"substring", aria.SearchOptions{Text: "ho"}, 1, "Home"},
		{"exact", aria.SearchOptions{Text: "hom", Exact: true}, 0, ""},
		{"pattern", aria.SearchOptions{Pattern: "^(home|faq)$"}, 2, "Home"},
		{"role", aria.SearchOptions{Role: "link"}, 7, "Acme"},
		{"role and text", aria.SearchOptions{Role: "heading", Text: "news"}, 1, "News"},
		{"value", aria.SearchOptions{Role: "searchbox", Text: "Search site"}, 1, "Search site"},
		{"limit", aria.SearchOptions{Role: "link", Limit: 2}, 7, "Acme"},
		{"lookbehind", aria.SearchOptions{Pattern: "(?<=sign )up$"}, 1, "Sign Up"},
	}
	for _, c := range cases {
		res := search(t, p, c.opts)
		if res.MatchCount != c.count {
			t.Errorf("%s: %d matches, want %d: %+v", c.name, res.MatchCount, c.count, res.Matches)
			continue
		}
		limit := 10
		if c.opts.Limit > 0 {
			limit = c.opts.Limit
		}
		if len(res.Matches) != min(c.count, limit) {
			t.Errorf("%s: %d matches returned", c.name, len(res.Matches))
		}
		if c.count > 0 && res.Matches[0].Name != c.first {
			t.Errorf("%s: first match %+v, want %q", c.name, res.Matches[0], c.first)
		}
	}

	// An unnamed node matches by its own text, and says so.
	res := search(t, p, aria.SearchOptions{Text: "newsletter", Context: new(int)})
	if len(res.Matches) != 1 || res.Matches[0].Role != "paragraph" || res.Matches[0].Text != "Sign up for the newsletter." || res.Matches[0].Path != "" {
		t.Errorf("own text match: %+v", res.Matches)
	}
}

func TestSearchNear(t *testing.T) {
	p := open(t, "landmarks.html")
	var box struct{ X, Y float64 }
	if err := p.CallJS(t.Context(), `function () {
		const r = document.querySelector('main button').getBoundingClientRect();
		return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
	}`, &box); err != nil {
		t.Fatal(err)
	}
	res := search(t, p, aria.SearchOptions{Near: &aria.Near{X: box.X + 3, Y: box.Y, Radius: 10}})
	if len(res.Matches) != 1 || res.Matches[0].Name != "Sign Up" || res.Matches[0].Box == nil || res.Matches[0].Box.Width == 0 {
		t.Fatalf("near the button: %+v", res.Matches)
	}
	if res := search(t, p, aria.SearchOptions{Role: "button", Near: &aria.Near{X: 5000, Y: 5000}}); res.MatchCount != 0 {
		t.Errorf("far away: %+v", res.Matches)
	}
}

func TestSearchInFramesAndShadow(t *testing.T) {
	p := open(t, "frames.html")
	if res := search(t, p, aria.SearchOptions{Text: "Srcdoc button"}); res.MatchCount != 0 {
		t.Errorf("frames searched without includeFrames: %+v", res.Matches)
	}
	// The nested frame of the same-origin child, and of the cross-origin
	// copy of that child, which is searched in its own context.
	res := search(t, p, aria.SearchOptions{Text: "Nested link", IncludeFrames: true})
	if len(res.Matches) != 2 || res.Matches[0].Path != `document "Child frame" > document "Nested"` ||
		res.Matches[1].Path != `document "Child page" > document "Nested"` || res.Matches[0].Ref == res.Matches[1].Ref {
		t.Errorf("in nested frames: %+v", res.Matches)
	}
	p = open(t, "shadow.html")
	res = search(t, p, aria.SearchOptions{Text: "deep twin"})
	if len(res.Matches) != 1 || res.Matches[0].Ref == "" {
		t.Errorf("in a shadow root: %+v", res.Matches)
	}
	checkRefs(t, p)
}

// TestSearchPatternRejectedByPage: a pattern only JavaScript can judge
// (Go's regexp lacks lookbehind) fails as a typed error when it is bad.
func TestSearchPatternRejectedByPage(t *testing.T) {
	p := open(t, "landmarks.html")
	_, err := aria.Search(t.Context(), p, aria.SearchOptions{Pattern: "(?<=a"})
	var pe *invalid.Pattern
	if !errors.As(err, &pe) || pe.ErrorName() != "StepValidationError" {
		t.Errorf("err = %v, want *invalid.Pattern", err)
	}
}
