package runner

import (
	"context"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/page"
)

// The report's screenshot follows the last step's settle, and Chrome
// takes 20–40 ms to produce one. So the last step's screenshot is asked
// for as soon as it has acted (a click, once its mouse events were
// answered), and kept only when the settle saw nothing on the page change
// or scroll after it was asked for: Chrome renders the frame it captures
// after the request, so such a shot shows the page as it settled.
// Otherwise it is abandoned and the report captures again, as it would
// have.

// earlyShot is a screenshot taken while the last step settles.
type earlyShot struct {
	sess *cdp.Session
	// at is the document's clock (page.SettleClock) just before the
	// capture was asked for.
	at     float64
	cancel context.CancelFunc
	done   chan struct{}
	shot   *capture.Shot
	err    error
	kept   bool
}

// shootOnce returns the function that starts the report's screenshot, at
// most once: a step that knows when it acted calls it then (Call.acted),
// and runHooked after the step.
func (c *Call) shootOnce(ctx context.Context, m settleMark) func() {
	tried := false
	return func() {
		if !tried {
			tried = true
			c.early = c.shootEarly(ctx, m)
		}
	}
}

// clockBudget bounds reading the clock: a page busy after the action
// gets no early shot rather than holding the step.
const clockBudget = 250 * time.Millisecond

// shootEarly starts the report's screenshot, unless the action began
// requests (their answers change the page), the step is at work in
// another frame than the one the settle watches (a click that searched
// the frames: the clocks differ), or the clock cannot be read at once.
func (c *Call) shootEarly(ctx context.Context, m settleMark) *earlyShot {
	if !m.armed || c.page.Frame != m.frame {
		return nil
	}
	if nc := c.network(); nc != nil {
		if _, began := nc.n.Busy(m.net); began {
			return nil
		}
	}
	cctx, cancel := context.WithTimeout(ctx, clockBudget)
	at, err := page.SettleClock(cctx, c.page)
	cancel()
	if err != nil || at <= 0 {
		return nil
	}
	// The step's context ends with the step; the shot is the report's.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), screenshotBudget)
	e := &earlyShot{sess: c.sess, at: at, cancel: cancel, done: make(chan struct{})}
	path := capture.AfterPath(c.alias)
	go func() {
		defer close(e.done)
		e.shot, e.err = capture.Capture(sctx, e.sess, path, capture.ShotOptions{MaxSide: capture.ReadableSide})
	}()
	return e
}

// since is the clock reading the settle compares with; 0 for no shot.
func (e *earlyShot) since() float64 {
	if e == nil {
		return 0
	}
	return e.at
}

// keepIf records the settle's verdict.
func (e *earlyShot) keepIf(still bool) {
	if e != nil {
		e.kept = still
	}
}

// take returns the shot when it may stand for a capture of sess now, and
// otherwise abandons it. Either way the capture is over when it returns,
// so a new one cannot race it for the file.
func (e *earlyShot) take(sess *cdp.Session) (*capture.Shot, bool) {
	if e == nil {
		return nil, false
	}
	keep := e.kept && e.sess == sess
	if !keep {
		e.cancel()
	}
	<-e.done
	e.cancel()
	return e.shot, keep && e.err == nil
}
