package dom_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
)

// A click by text on an item a virtualized list has not rendered scrolls
// the list to it, from where it stood down to its end and then from its
// top, and says which list it scrolled and how far.
func TestClickByTextScrollsAVirtualList(t *testing.T) {
	p := openFixture(t, "virtual.html")
	for _, c := range []struct {
		text string
		up   bool
	}{{"Fruit 170", false}, {"Fruit 30", true}} {
		from := eval[float64](t, p, "document.getElementById('list').scrollTop")
		res, err := dom.Click(testCtx(t), p, dom.ClickRequest{Text: c.text, Exact: true})
		if err != nil {
			t.Fatalf("click %q: %v", c.text, err)
		}
		if got := eval[string](t, p, "document.getElementById('picked').textContent"); got != "picked "+c.text {
			t.Errorf("click %q: the page says %q", c.text, got)
		}
		to := eval[float64](t, p, "document.getElementById('list').scrollTop")
		if res.Scrolled == nil || res.Scrolled.Container != `listbox "Fruits"` || res.Scrolled.By != to-from || (res.Scrolled.By < 0) != c.up {
			t.Errorf("click %q: scrolled %+v, want listbox \"Fruits\" by %v", c.text, res.Scrolled, to-from)
		}
	}
}

// Text that no container holds fails, naming the containers searched,
// and leaves each where it stood.
func TestScrollSearchInVain(t *testing.T) {
	p := openFixture(t, "virtual.html")
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Text: "Fruit 9999"})
	var nf *dom.NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), `scrolled through listbox "Fruits", div#notes to their ends`) {
		t.Fatalf("err = %v", err)
	}
	if got := eval[float64](t, p, "document.getElementById('list').scrollTop"); got != 100*25 {
		t.Errorf("the list was left at %v, not where it stood", got)
	}
	if got := eval[string](t, p, "document.querySelector('#inner').firstChild.textContent"); got != "Fruit 99" {
		t.Errorf("the list shows %q first, not what it showed", got)
	}
}

// A selector names an item not rendered: a click fails as before, unless
// it asks for scrollUntilVisible, which searches the page's containers
// first; a scroll to it searches them by itself and reports the
// container's position.
func TestSelectorsScrollTheContainerWhenAsked(t *testing.T) {
	p := openFixture(t, "virtual.html")
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Target: "#fruit-160"})
	var nf *dom.NotFoundError
	if !errors.As(err, &nf) || nf.ScrollNote != "" {
		t.Fatalf("a click by selector searched the containers: %v", err)
	}
	res, err := dom.Click(testCtx(t), p, dom.ClickRequest{Target: "#fruit-160", ScrollUntilVisible: &dom.ScrollSearch{}})
	if err != nil || res.Scrolled == nil || res.Scrolled.Container != `listbox "Fruits"` || res.Scrolled.By <= 0 {
		t.Fatalf("scrollUntilVisible: %+v, %v", res, err)
	}
	if got := eval[string](t, p, "document.getElementById('picked').textContent"); got != "picked Fruit 160" {
		t.Errorf("the page says %q", got)
	}
	sr := scroll(t, p, dom.ScrollRequest{Target: "#fruit-5"})
	top := eval[float64](t, p, "document.getElementById('list').scrollTop")
	if sr.Scrolled == nil || sr.Scrolled.By >= 0 || sr.ScrollY != top || sr.Element != "div#list.scroller" {
		t.Errorf("scroll to #fruit-5: %+v (scrolled %+v), list at %v", *sr, sr.Scrolled, top)
	}
	if !eval[bool](t, p, "(() => { const r = document.getElementById('fruit-5').getBoundingClientRect(), l = document.getElementById('list').getBoundingClientRect(); return r.top >= l.top && r.bottom <= l.bottom; })()") {
		t.Errorf("#fruit-5 is not in the list's view")
	}
}

// Text found only as part of a rendered item's ("Fruit 3" in "Fruit 30")
// is the whole text of an item not rendered: that one is clicked.
func TestClickByTextPrefersTheWholeTextOfARowNotRendered(t *testing.T) {
	p := openFixture(t, "virtual.html")
	run(t, p, "document.getElementById('list').scrollTop = 28 * 25")
	if got := eval[bool](t, p, "new Promise(r => requestAnimationFrame(() => r(!!document.getElementById('fruit-30') && !document.getElementById('fruit-3'))))"); !got {
		t.Fatal("the fixture must show Fruit 30 and not Fruit 3")
	}
	res, err := dom.Click(testCtx(t), p, dom.ClickRequest{Text: "fruit 3"})
	if err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, p, "document.getElementById('picked').textContent"); got != "picked Fruit 3" || res.Scrolled == nil || res.Scrolled.By >= 0 {
		t.Errorf("clicked %q, scrolled %+v", got, res.Scrolled)
	}
	res, err = dom.Click(testCtx(t), p, dom.ClickRequest{Text: "Fruit 1"})
	if err != nil || res.Scrolled != nil {
		t.Errorf("Fruit 1 is on screen: %+v, %v", res, err)
	}
}

// Text not rendered that the search first finds as part of an item's
// ("Fruit 17" in "Fruit 170") is then looked for as an item's whole text
// from there: scrolled is both moves added up, where the list now
// stands; when no item's whole text it is ("ruit 170"), the item the
// search stopped on is clicked and scrolled keeps that move.
func TestScrolledAddsUpTheSearches(t *testing.T) {
	p := openFixture(t, "virtual.html")
	for _, c := range []struct{ text, picked string }{{"Fruit 17", "Fruit 17"}, {"ruit 170", "Fruit 170"}} {
		run(t, p, "document.getElementById('list').scrollTop = 100 * 25")
		from := eval[float64](t, p, "new Promise(r => requestAnimationFrame(() => r(document.getElementById('list').scrollTop)))")
		res, err := dom.Click(testCtx(t), p, dom.ClickRequest{Text: c.text})
		if err != nil {
			t.Fatalf("click %q: %v", c.text, err)
		}
		if got := eval[string](t, p, "document.getElementById('picked').textContent"); got != "picked "+c.picked {
			t.Errorf("click %q: the page says %q", c.text, got)
		}
		to := eval[float64](t, p, "document.getElementById('list').scrollTop")
		if res.Scrolled == nil || res.Scrolled.Container != `listbox "Fruits"` || res.Scrolled.By != to-from {
			t.Errorf("click %q: scrolled %+v, the list went from %v to %v", c.text, res.Scrolled, from, to)
		}
	}
}
