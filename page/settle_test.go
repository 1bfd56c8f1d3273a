package page_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/pagetest"
	"github.com/cdpskill/cdpskill/page"
)

// The settle counts only changes an agent could see: a page that redraws
// what it had, or sets an attribute to its own value, on a clock is
// quiet; one that reorders its list on a clock is not, though no node
// is new.
func TestSettleIgnoresRedrawsThatChangeNothing(t *testing.T) {
	for _, tc := range []struct {
		clock string
		quiet bool
	}{{"rebuild", true}, {"restyle", true}, {"rotate", false}} {
		t.Run(tc.clock, func(t *testing.T) {
			p, _ := evalPage(t, "settle-clock.html")
			ctx := pagetest.Ctx(t)
			pagetest.Eval[float64](t, p, "start('"+tc.clock+"')")
			if err := page.ArmSettle(ctx, p, "test"); err != nil {
				t.Fatal(err)
			}
			// A quiet page has 3 s to settle on a loaded machine; a page
			// that keeps changing has moved within a second.
			most := time.Second
			if tc.quiet {
				most = 3 * time.Second
			}
			q, err := page.AwaitQuiet(ctx, p, 50*time.Millisecond, most, page.Fresh)
			if err != nil {
				t.Fatal(err)
			}
			// Whether a page that keeps changing ever has a quiet window
			// depends on the machine's timers; that it changed does not.
			if q.Moved == tc.quiet || tc.quiet && !q.Settled {
				t.Errorf("settled %v, moved %v; want moved %v", q.Settled, q.Moved, !tc.quiet)
			}
		})
	}
}

// A list that scrolled is a scroll while it shows; one that scrolled an
// item into view and then closed moved nothing the agent can see.
func TestSettleScrollOfAClosedListIsNone(t *testing.T) {
	for _, close := range []bool{false, true} {
		p, _ := evalPage(t, "settle-scroll.html")
		ctx := pagetest.Ctx(t)
		if err := page.ArmSettle(ctx, p, "test"); err != nil {
			t.Fatal(err)
		}
		pagetest.Eval[float64](t, p, fmt.Sprintf("pick(%v)", close))
		q, err := page.AwaitQuiet(ctx, p, 50*time.Millisecond, time.Second, page.AfterFrame)
		if err != nil {
			t.Fatal(err)
		}
		if q.Scrolled == close {
			t.Errorf("closed %v: scrolled %v", close, q.Scrolled)
		}
	}
}

// The settle waits for the transition an action starts (a drawer sliding
// away, removed when it ends), but not for a spinner that ran before it
// and never ends, nor for a fade longer than a second.
func TestSettleWaitsForTheActionsAnimations(t *testing.T) {
	for _, tc := range []struct {
		act, gone string
	}{{"closeDrawer()", "!document.getElementById('drawer')"}, {"fade()", "true"}} {
		p, _ := evalPage(t, "settle-animate.html")
		ctx := pagetest.Ctx(t)
		if err := page.ArmSettle(ctx, p, "test"); err != nil {
			t.Fatal(err)
		}
		pagetest.Eval[float64](t, p, tc.act)
		// Time for the drawer's 300 ms on a loaded machine; the fade's 5 s
		// would outlast it.
		q, err := page.AwaitQuiet(ctx, p, 33*time.Millisecond, 4*time.Second, page.AfterFrame)
		if err != nil {
			t.Fatal(err)
		}
		if !q.Settled || !pagetest.Eval[bool](t, p, tc.gone) {
			t.Errorf("%s: settled %v, and what it ends is not done yet", tc.act, q.Settled)
		}
	}
}
