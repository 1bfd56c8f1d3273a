package dom_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/dom"
)

// A ref whose number is at or below the document's floor was issued by a
// document the tab has since left: the click fails at once with a
// StaleElementError that says so and asks for a new snapshot, instead of
// waiting out the actionability timeout.
func TestClickRefFromBeforeNavigation(t *testing.T) {
	cases := []struct {
		name, setup, ref, snapshot string
	}{
		{"below the floor", "makeRef(document.getElementById('first'), 'textbox', 'First name', '#first'); window.__ariaDocFloor = 9", "s2e7", "s2"},
		{"no refs at all", "", "s4e2", "s4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := openFixture(t, "fill.html") // no refs unless the setup makes some
			if c.setup != "" {
				run(t, p, c.setup)
			}
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			start := time.Now()
			_, err := dom.Click(ctx, p, dom.ClickRequest{Target: c.ref})
			var stale *dom.StaleElementError
			if !errors.As(err, &stale) || !stale.Navigated || stale.Snapshot != c.snapshot {
				t.Fatalf("err = %v (%T)", err, err)
			}
			if !strings.Contains(err.Error(), "navigated since snapshot "+c.snapshot) || !strings.Contains(err.Error(), "new snapshot") {
				t.Errorf("message = %v", err)
			}
			// Short of the actionability timeout it would otherwise wait out.
			if waited := time.Since(start); waited > dom.DefaultTimeout*4/5 {
				t.Errorf("took %v: a navigated-away ref must fail at once", waited)
			}
		})
	}
}

// Above the floor, a ref no snapshot of this document issued is simply
// unknown.
func TestClickRefAboveFloor(t *testing.T) {
	p := openFixture(t, "click.html")
	run(t, p, "window.__ariaDocFloor = 2")
	_, err := dom.Click(testCtx(t), p, dom.ClickRequest{Target: "s1e99"})
	var nf *dom.NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "no snapshot of this page issued it") {
		t.Errorf("err = %v", err)
	}
}

// A ref re-resolved on an attempt that then failed another check (here,
// its replacement is covered for a while) is still reported as
// re-resolved when a later attempt clicks it.
func TestClickReResolvedSurvivesRetries(t *testing.T) {
	p := openFixture(t, "click.html")
	run(t, p, "replaceSave(); cover(300)")
	res := click(t, p, dom.ClickRequest{Target: "s1e1"})
	if !res.ReResolved || res.AutoForced {
		t.Errorf("result = %+v", *res)
	}
}
