package dom_test

import (
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
)

// The failure context describes the page and scores near matches as SPEC
// 16.3 says: 100 same text, 80 text containing the term, 70 text inside
// the term, 50 a shared word; or the similarity by edit distance, when
// higher, for a misspelling.
func TestFailureContext(t *testing.T) {
	p := openFixture(t, "text.html")
	ref := mint(t, p, "makeRef(document.getElementById('save-draft'), 'button', 'Save draft', '#save-draft')")
	run(t, p, "window.scrollTo(0, 0)")
	fc, err := dom.FailureContext(testCtx(t), p, "save", false)
	if err != nil {
		t.Fatal(err)
	}
	if fc.Title != "click-by-text fixture" || !strings.HasSuffix(fc.URL, "/text.html") || fc.ScrollPosition == nil {
		t.Errorf("page = %q %q %+v", fc.Title, fc.URL, fc.ScrollPosition)
	}
	if len(fc.VisibleButtons) == 0 || len(fc.VisibleButtons) > 8 {
		t.Fatalf("buttons = %+v", fc.VisibleButtons)
	}
	var sawRef bool
	for _, b := range fc.VisibleButtons {
		if b.Text == "" || b.Selector == "" {
			t.Errorf("button %+v", b)
		}
		if b.Selector == "#ship-hidden" {
			t.Errorf("a hidden button is listed: %+v", b)
		}
		sawRef = sawRef || (b.Ref == ref && b.Selector == "#save-draft")
	}
	if !sawRef {
		t.Errorf("no button carries its ref %s: %+v", ref, fc.VisibleButtons)
	}
	if len(fc.VisibleLinks) == 0 || len(fc.VisibleLinks) > 5 || fc.VisibleLinks[0].Href == "" {
		t.Errorf("links = %+v", fc.VisibleLinks)
	}
	if len(fc.VisibleErrors) != 1 || fc.VisibleErrors[0] != "Something went wrong" {
		t.Errorf("errors = %+v", fc.VisibleErrors)
	}
	scores := map[string]int{}
	for _, m := range fc.NearMatches {
		scores[m.Selector] = m.Score
	}
	if scores["#save-link"] != 100 || scores["#save-draft"] != 80 || fc.NearMatches[0].Selector != "#save-link" {
		t.Errorf("near matches = %+v", fc.NearMatches)
	}
}

func TestFailureContextScores(t *testing.T) {
	p := openFixture(t, "text.html")
	cases := []struct {
		term, selector string
		score          int
	}{
		{"please ship it", "#ship-role", 70},  // the element's text is inside the term
		{"Send message now", "#send", 75},     // ... or more by edit distance
		{"remove the cart", "#short-add", 50}, // a shared word
		{"Add to crat", "#short-add", 91},     // a misspelling: two letters swapped, one edit in 11
		{"#email", "#email", 100},             // a selector's id
		{".email-address", "#email", 100},     // a selector's words against a placeholder
		{"documentation", "#docs", 100},       // a link, case-insensitive
	}
	for _, c := range cases {
		fc, err := dom.FailureContext(testCtx(t), p, c.term, false)
		if err != nil {
			t.Fatal(err)
		}
		got := -1
		for _, m := range fc.NearMatches {
			if m.Selector == c.selector {
				got = m.Score
			}
		}
		if got != c.score {
			t.Errorf("%q: %s scored %d, want %d (%+v)", c.term, c.selector, got, c.score, fc.NearMatches)
		}
	}
	fc, err := dom.FailureContext(testCtx(t), p, "", false)
	if err != nil || len(fc.NearMatches) != 0 {
		t.Errorf("no term: %+v, %v", fc, err)
	}
}

// Typos find their target first: misspelt button text, a misspelt
// list item's label (text that is no button or link), a misspelt id.
func TestNearMatchesFindTyposFirst(t *testing.T) {
	p := openFixture(t, "diagnose.html")
	for _, c := range []struct{ term, first string }{
		{"Sgin in", "#signin"},
		{"Buy bred", "#bread"},
		{"#submti", "#submit"},
		{"#loa", "#load"}, // "loa" is in #loader too, earlier, but #load is closer
	} {
		fc, err := dom.FailureContext(testCtx(t), p, c.term, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(fc.NearMatches) == 0 || fc.NearMatches[0].Selector != c.first {
			t.Errorf("%q: near matches %+v, want %s first", c.term, fc.NearMatches, c.first)
		}
	}
}

// After a failed fill the context lists the fields, not the buttons, and
// the near matches are fields; errors are only what says something went
// wrong, a field's own error message included.
func TestFailureContextForFields(t *testing.T) {
	p := openFixture(t, "diagnose.html")
	fc, err := dom.FailureContext(testCtx(t), p, "Emial", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(fc.VisibleButtons) != 0 || len(fc.VisibleFields) != 5 {
		t.Fatalf("fields %+v, buttons %+v", fc.VisibleFields, fc.VisibleButtons)
	}
	if f := fc.VisibleFields[2]; f.Label != "Email" || f.Selector != "#mail" || f.Type != "email" {
		t.Errorf("email field %+v", f)
	}
	if f := fc.VisibleFields[3]; f.Label != "Postcode" || f.Type != "" {
		t.Errorf("postcode field %+v", f)
	}
	if len(fc.NearMatches) == 0 || fc.NearMatches[0].Selector != "#mail" {
		t.Errorf("near matches %+v", fc.NearMatches)
	}
	want := []string{"Enter an email address like ada@example.com", "Upload failed: the file is too large"}
	if strings.Join(fc.VisibleErrors, "|") != "Email: "+want[0]+"|"+want[1] {
		t.Errorf("errors %q", fc.VisibleErrors)
	}
}

// Near matches are ranked for the action (issue 21): after a click, what
// can be clicked comes before fields and plain text, though the textbox
// "Item" shares more words with "Submit item" than the button "Save
// item" does; after a fill, fields come first, though a button matches
// better.
func TestNearMatchesRankedForTheAction(t *testing.T) {
	p := openFixture(t, "near.html")
	cases := []struct {
		term   string
		fields bool
		first  string
		after  string // a match that must come later
	}{
		{"Submit item", false, "#save", "#item"},
		{"Save itme", true, "#item", "#save"},
	}
	for _, c := range cases {
		fc, err := dom.FailureContext(testCtx(t), p, c.term, c.fields)
		if err != nil {
			t.Fatal(err)
		}
		at := map[string]int{}
		for i, m := range fc.NearMatches {
			at[m.Selector] = i
		}
		if i, ok := at[c.after]; len(fc.NearMatches) == 0 || fc.NearMatches[0].Selector != c.first || !ok || i == 0 {
			t.Errorf("%q (fields %v): near matches %+v, want %s first and %s after it", c.term, c.fields, fc.NearMatches, c.first, c.after)
		}
	}
	fc, err := dom.FailureContext(testCtx(t), p, "Submit item", false)
	if err != nil {
		t.Fatal(err)
	}
	if m := fc.NearMatches[0]; m.Role != "button" || m.Text != "Save item" {
		t.Errorf("first near match %+v, want the button \"Save item\"", m)
	}
}

// A text search that finds nothing offers whatever on screen is close:
// a field's value (a rename typed but not saved), a button inside a web
// component's shadow root (no selector reaches it: none is offered), the
// label of a to-do item that still has its old name.
func TestNearMatchesFindTextWhereverItShows(t *testing.T) {
	p := openFixture(t, "near.html")
	for _, c := range []struct{ term, text, selector string }{
		{"Call mom tonight", "Call mom tonight", "#edit2"},
		{"Archive all", "Archive done", ""},
		{"Fix bike brakes", "Fix bike", "#l1"},
	} {
		fc, err := dom.FailureContext(testCtx(t), p, c.term, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(fc.NearMatches) == 0 || fc.NearMatches[0].Text != c.text || fc.NearMatches[0].Selector != c.selector {
			t.Errorf("%q: near matches %+v, want %q (%q) first", c.term, fc.NearMatches, c.text, c.selector)
		}
	}
}
