package dom_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

// scrollUntilVisible scrolls an infinite list until the item it needs has
// been loaded, by selector and by text, then clicks it natively.
func TestClickScrollUntilVisible(t *testing.T) {
	cases := []dom.ClickRequest{
		{Target: "#item-45"},
		{Text: "Item 45", Exact: true},
	}
	for _, req := range cases {
		t.Run(req.Target+req.Text, func(t *testing.T) {
			p := openFixture(t, "lazy.html")
			req.ScrollUntilVisible = &dom.ScrollSearch{}
			res := click(t, p, req)
			if res.Method != dom.MethodCDP || !res.TargetReceived {
				t.Errorf("result = %+v", *res)
			}
			if got := pageEvents(t, p); !slices.Equal(got, []string{"item-45"}) {
				t.Errorf("events = %v", got)
			}
		})
	}
}

// Without it the item is not there; with too few attempts, or past the
// end of the list, the search gives up with ElementNotFoundError.
func TestScrollUntilVisibleGivesUp(t *testing.T) {
	p := openFixture(t, "lazy.html")
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Target: "#item-45", Timeout: short})
	var nf *dom.NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("no scrolling: err = %v", err)
	}
	_, err = dom.Click(testCtx(t), p, dom.ClickRequest{Target: "#item-45", ScrollUntilVisible: &dom.ScrollSearch{MaxAttempts: 1}})
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "after scrolling 1 times") {
		t.Errorf("one attempt: err = %v", err)
	}
	p = openFixture(t, "lazy.html?max=20")
	_, err = dom.Click(testCtx(t), p, dom.ClickRequest{Target: "#item-500", ScrollUntilVisible: &dom.ScrollSearch{Distance: 5000}})
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "stopped scrolling and growing") {
		t.Errorf("past the end: err = %v", err)
	}
	_, err = dom.Click(testCtx(t), p, dom.ClickRequest{Target: "#x", ScrollUntilVisible: &dom.ScrollSearch{Direction: "sideways"}})
	var bad *invalid.Option
	if !errors.As(err, &bad) {
		t.Errorf("bad direction: err = %v", err)
	}
}

// A target no scrolling can produce is reported by the click at once.
func TestScrollUntilVisibleHopeless(t *testing.T) {
	p := openFixture(t, "lazy.html")
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Target: "[[bad", ScrollUntilVisible: &dom.ScrollSearch{}})
	var bad *invalid.Selector
	if !errors.As(err, &bad) {
		t.Errorf("invalid selector: err = %v", err)
	}
	if y := eval[float64](t, p, "window.scrollY"); y != 0 {
		t.Errorf("scrolled to %v for an invalid selector", y)
	}
}
