package runner

import (
	"context"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

// The report's screenshot follows the last step's settle, and Chrome
// takes 20–40 ms to produce one. So the screenshot is asked for as soon
// as the batch's last action has acted (a click, once its mouse events
// were answered), and kept only when nothing on the page changed after it
// was asked for: the settle saw nothing change or scroll after (the
// document's clock), and the page's fingerprint (aria.Fingerprint) is the
// same when the report looks, whatever steps ran since. Chrome renders the
// frame it captures after the request, so such a shot shows the page as
// the report sees it. Otherwise it is abandoned and the report captures
// again, as it would have.

// earlyShot is a screenshot taken while the last step settles.
type earlyShot struct {
	sess  *cdp.Session
	frame *page.Frame
	// at is the document's clock (page.SettleClock), and print the page's
	// fingerprint, just before the capture was asked for.
	at     float64
	print  string
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
	if !m.armed || c.page().Frame != m.frame {
		return nil
	}
	if nc := c.network(); nc != nil {
		if _, began := nc.Busy(m.net); began {
			return nil
		}
	}
	cctx, cancel := context.WithTimeout(ctx, clockBudget)
	defer cancel()
	fp, err := aria.Fingerprint(cctx, c.page())
	if err != nil {
		return nil
	}
	at, err := page.SettleClock(cctx, c.page())
	if err != nil || at <= 0 {
		return nil
	}
	// The step's context ends with the step; the shot is the report's.
	sctx, stop := xcontext.Detached(ctx, screenshotBudget)
	e := &earlyShot{sess: c.sess(), frame: m.frame, at: at, print: fp, cancel: stop, done: make(chan struct{})}
	path := c.callFile(capture.AfterShot)
	go func() {
		defer close(e.done)
		e.shot, e.err = c.files.Capture(sctx, e.sess, path, capture.ShotOptions{MaxSide: capture.ReadableSide})
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

// takeEarly returns the early shot when it may stand for a capture of the
// page now, and otherwise abandons it. Either way the capture is over when
// it returns, so a new one cannot race it for the file.
func (c *Call) takeEarly(ctx context.Context) (*capture.Shot, bool) {
	e := c.early
	if e == nil {
		return nil, false
	}
	keep := e.kept && c.page() != nil && e.sess == c.sess() && e.frame == c.page().Frame
	if keep {
		fctx, cancel := context.WithTimeout(ctx, clockBudget)
		fp, err := aria.Fingerprint(fctx, c.page())
		cancel()
		keep = err == nil && fp == e.print
	}
	if !keep {
		e.cancel()
	}
	<-e.done
	e.cancel()
	return e.shot, keep && e.err == nil
}

// abandon ends the early shot, if any, unused.
func (e *earlyShot) abandon() {
	if e != nil {
		e.cancel()
		<-e.done
	}
}
