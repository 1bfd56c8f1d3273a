package runner

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/page"
)

// The settle after an action (SPEC 17.4, 18.3): the page's DOM and the
// requests the action started must go quiet before a later step or the
// call's report looks at the page. It never fails a step.
const (
	settleMax = 2 * time.Second
	// settleWindow is two frames at 60 Hz: a change a framework makes in
	// answer to another lands within the next frame, so a window with
	// two frames and no change has seen the page's reaction through.
	settleWindow = 33 * time.Millisecond
)

// settleMark is where an action's own activity starts.
type settleMark struct {
	net      int  // the network capture's mark
	armed    bool // the DOM observer is counting
	rendered bool // the action waited for a frame after it
	// frame is the frame the observer watches (nil: the top document).
	frame *page.Frame
}

// name tells this call from the others on the tab, for what its
// settles gather (page.ArmSettle).
func (c *Call) name() string { return strconv.FormatInt(c.start.UnixNano(), 36) }

// settles: actions on a tab, whose effects a later look must not miss.
func settles(s *step) bool { return s.has(needsTab) && s.has(visual) }

// armSettle marks the network and arms the DOM observer, just before the
// action.
func (c *Call) armSettle(ctx context.Context, s *step) settleMark {
	m := settleMark{rendered: s.has(rendered)}
	if nc := c.network(); nc != nil {
		m.net = nc.Mark()
	}
	m.armed = page.ArmSettle(ctx, c.page(), c.name()) == nil
	m.frame = c.page().Frame
	return m
}

// settle waits, bounded by settleMax and the step's time, until the DOM
// has been quiet for settleWindow and the requests the action started
// have finished, and then quiet for a window again (their answers are
// rendered after they arrive); not at all when the action changed nothing
// and started nothing. A navigation the action started is followed into
// the new document. It returns a warning when requests outlived the wait,
// and still: the page settled at the first look, with no request begun,
// in the same document, and nothing in it changed or scrolled after
// since, on the document's clock (0: no such time).
func (c *Call) settle(ctx context.Context, m settleMark, since float64) (warning string, still bool) {
	if !m.armed || c.page() == nil {
		return "", false
	}
	deadline := time.Now().Add(settleMax)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	sctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	nc := c.network()
	busy := func() ([]string, bool) {
		if nc == nil {
			return nil, false
		}
		reqs, began := nc.Busy(m.net)
		urls := make([]string, len(reqs))
		for i, r := range reqs {
			urls[i] = r.URL
		}
		return urls, began
	}
	fresh := false
	for first := true; ; first = false {
		start := page.AfterFrame
		switch {
		case fresh:
			start = page.Fresh
		case m.rendered:
			start = page.Rendered
		}
		q, err := page.AwaitQuiet(sctx, c.page(), settleWindow, time.Until(deadline), start)
		c.scrolled = c.scrolled || q.Scrolled
		pending, began := busy()
		still = err == nil && first && !began && !q.NewDocument && since > 0 && q.Seen <= since
		switch {
		case sctx.Err() != nil:
			return stillLoading(pending), false
		case err != nil && !cdp.IsContextDestroyed(err):
			return "", false // the page cannot say; the report will show what it can
		case err == nil && first && !q.Moved && !began:
			return "", still
		case err == nil && !q.Settled:
			return stillLoading(pending), false
		case err == nil && len(pending) == 0 && (fresh || !began):
			return "", still
		}
		// Requests are under way, or the document is being replaced:
		// wait for the network to finish, then for a quiet DOM again.
		for len(pending) > 0 {
			if nc.WaitEvent(sctx) != nil {
				return stillLoading(pending), false
			}
			pending, _ = busy()
		}
		fresh = true
	}
}

// stillLoading is the warning for requests an action started that had not
// finished when the settle gave up.
func stillLoading(urls []string) string {
	if len(urls) == 0 {
		return ""
	}
	shown := urls[:min(2, len(urls))]
	for i, u := range shown {
		if r := []rune(u); len(r) > 80 {
			shown[i] = string(r[:79]) + "…"
		}
	}
	more := ""
	if len(urls) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(urls)-len(shown))
	}
	return fmt.Sprintf("%d request(s) begun since the action were still loading after %d ms (%s%s); the report shows the page as it was then",
		len(urls), settleMax.Milliseconds(), strings.Join(shown, ", "), more)
}
