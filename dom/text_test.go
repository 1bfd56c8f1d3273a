package dom_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

// Click by text follows SPEC 6.4: buttons before links before role=button
// before other clickables, visible elements only, a whole-text match
// before a substring match, and names as well as text.
func TestClickByText(t *testing.T) {
	cases := []struct {
		name  string
		req   dom.ClickRequest
		event string
	}{
		{"button beats an earlier link", dom.ClickRequest{Text: "Continue"}, "go-button"},
		{"case-insensitive", dom.ClickRequest{Text: "continue"}, "go-button"},
		{"whole text beats substring", dom.ClickRequest{Text: "Save"}, "save-link"},
		{"substring", dom.ClickRequest{Text: "draft"}, "save-draft"},
		{"role=button beats tabindex, hidden skipped", dom.ClickRequest{Text: "Ship it"}, "ship-role"},
		{"aria-label name", dom.ClickRequest{Text: "Close dialog"}, "close"},
		{"visible text of a named button", dom.ClickRequest{Text: "×"}, "close"},
		{"submit value", dom.ClickRequest{Text: "Send"}, "send"},
		{"summary", dom.ClickRequest{Text: "More options"}, "more"},
		{"label", dom.ClickRequest{Text: "Remember me"}, "remember-label"},
		{"within", dom.ClickRequest{Text: "Delete", Within: "#second"}, "second-delete"},
		{"shortest substring", dom.ClickRequest{Text: "cart"}, "short-add"},
		{"exact", dom.ClickRequest{Text: "Save draft", Exact: true}, "save-draft"},
		{"option beats tabindex", dom.ClickRequest{Text: "Albania"}, "albania"},
		{"tab", dom.ClickRequest{Text: "billing"}, "billing-tab"},
		{"menuitemcheckbox", dom.ClickRequest{Text: "Word wrap"}, "wrap-item"},
		{"switch", dom.ClickRequest{Text: "Dark mode"}, "dark-switch"},
		{"treeitem", dom.ClickRequest{Text: "src", Exact: true}, "src-item"},
		{"button beats option", dom.ClickRequest{Text: "Open"}, "open-button"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := openFixture(t, "text.html")
			res := click(t, p, c.req)
			if res.Method != dom.MethodCDP || !res.TargetReceived {
				t.Errorf("result = %+v", *res)
			}
			got := pageEvents(t, p)
			if len(got) == 0 || got[0] != c.event {
				t.Errorf("events = %v, want %s first", got, c.event)
			}
		})
	}
}

func TestClickByTextNotFound(t *testing.T) {
	p := openFixture(t, "text.html")
	cases := []struct {
		req  dom.ClickRequest
		want string
	}{
		{dom.ClickRequest{Text: "continue", Exact: true}, `clickable element with text "continue"`},
		{dom.ClickRequest{Text: "Nowhere to be found"}, `clickable element with text "Nowhere to be found"`},
		{dom.ClickRequest{Text: "Delete", Within: "#third"}, `nothing matches withinSelector "#third"`},
	}
	for _, c := range cases {
		c.req.Timeout = short
		_, err := dom.Click(testCtx(t), p, c.req)
		var nf *dom.NotFoundError
		if !errors.As(err, &nf) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want NotFoundError mentioning %s", c.req, err, c.want)
			continue
		}
		var s dom.Searched
		if !errors.As(err, &s) || s.SearchTerm() != c.req.Text {
			t.Errorf("%+v: search term = %v", c.req, s)
		}
	}
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Text: "Delete", Within: "[[bad"})
	var bad *invalid.Selector
	if !errors.As(err, &bad) || bad.Selector != "[[bad" {
		t.Errorf("bad withinSelector: err = %v", err)
	}
}

// Multi-selector: the first selector with a visible match is clicked and
// reported; a hidden-only match loses to a later visible one.
func TestClickSelectors(t *testing.T) {
	cases := []struct {
		selectors []string
		index     int
		event     string
	}{
		{[]string{"#nope", "#save", "#dbl"}, 1, "save:click"},
		{[]string{"#dbl", "#save"}, 0, "dbl:click"},
		{[]string{"#hidden-btn", "#nope", ".dup"}, 2, "dup2:click"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.selectors, ","), func(t *testing.T) {
			p := openFixture(t, "click.html")
			run(t, p, "document.getElementById('dbl').addEventListener('click', log('dbl'))")
			res := click(t, p, dom.ClickRequest{Selectors: c.selectors})
			if res.MatchedIndex == nil || *res.MatchedIndex != c.index || res.MatchedSelector != c.selectors[c.index] {
				t.Errorf("result = %+v (index %v)", *res, res.MatchedIndex)
			}
			if got := pageEvents(t, p); !slices.Equal(got, []string{c.event}) {
				t.Errorf("events = %v", got)
			}
		})
	}
}

func TestClickSelectorsFailures(t *testing.T) {
	p := openFixture(t, "click.html")
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Selectors: []string{"#nope", "#gone"}, Timeout: short})
	var nf *dom.NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), `any of selectors "#nope", "#gone"`) {
		t.Errorf("none match: err = %v", err)
	}
	_, err = dom.Click(testCtx(t), p, dom.ClickRequest{Selectors: []string{"#nope", "a[[b", "#save"}})
	var bad *invalid.Selector
	if !errors.As(err, &bad) || bad.Selector != "a[[b" {
		t.Errorf("invalid second selector: err = %v", err)
	}
	_, err = dom.Click(testCtx(t), p, dom.ClickRequest{Selectors: []string{"#save"}, Text: "Save"})
	var arg *invalid.Option
	if !errors.As(err, &arg) {
		t.Errorf("two targets: err = %v", err)
	}
}

// Of elements that match alike, the one a person can reach is acted on:
// the twin no banner covers; with a modal <dialog> open, the dialog's
// button and field, not the inert ones under it.
func TestTwinsThePersonReaches(t *testing.T) {
	p := openFixture(t, "twins.html")
	click(t, p, dom.ClickRequest{Text: "Accept"})
	run(t, p, "document.getElementById('dlg').showModal()")
	click(t, p, dom.ClickRequest{Text: "OK"})
	if got := pageEvents(t, p); !slices.Equal(got, []string{"open", "dialog-ok"}) {
		t.Errorf("events = %v, want the uncovered Accept, then the dialog's OK", got)
	}
	run(t, p, "document.getElementById('dlg').showModal()")
	fill(t, p, dom.FillRequest{Label: "Name", Value: "Ada"})
	if v := fieldValue(t, p, "dialog-name"); v != "Ada" {
		t.Errorf("dialog field = %q, page field = %q: want the dialog's filled", v, fieldValue(t, p, "page-name"))
	}
	run(t, p, "document.getElementById('dlg').close(); document.getElementById('m2').hidden = false")
	click(t, p, dom.ClickRequest{Text: "Remove"})
	fill(t, p, dom.FillRequest{Label: "Note", Value: "kept"})
	if got := pageEvents(t, p); !slices.Equal(got[2:], []string{"modal-remove"}) || fieldValue(t, p, "modal-note") != "kept" {
		t.Errorf("events = %v, modal note %q: want the modal's role=button and field over the page's", got, fieldValue(t, p, "modal-note"))
	}
}
