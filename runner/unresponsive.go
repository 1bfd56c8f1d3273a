package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

// answerProbe is how long a page whose step timed out gets to answer a
// trivial evaluation, and how long the look at its main thread, made
// meanwhile, may take.
const answerProbe = time.Second

// checkAnswers looks behind a step that timed out on a page that then
// does not answer. Two things silence a page, and only one is the page's
// fault:
//
//   - a navigation in flight: Chrome holds back every call to a page
//     whose main frame is between documents, until the new one commits
//     (a slow server, say). The old document is fine and the navigation
//     may still commit; the tab is left as it is and the step's error
//     says what is pending (heldNavigation).
//   - the page's own JavaScript holding the main thread (an endless
//     loop in a click handler, a timer that never yields), proven by
//     mainThreadBusy. The call's session was attached before the script
//     started, so Runtime.terminateExecution reaches it: the script is
//     stopped, the tab answers again and the captures can describe it.
//     A page that still does not answer ends the call, and the next call
//     on the tab, finding its main thread busy still, reloads it (attach).
func (c *Call) checkAnswers(ctx context.Context, err error) error {
	if c.page == nil || c.dead.Load() || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	sessions := []*cdp.Session{c.sess}
	if s := c.page.EvalSession(); s != c.sess {
		sessions = append(sessions, s) // an out-of-process frame has a main thread of its own
	}
	verdicts := make([]verdict, len(sessions))
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Go(func() { verdicts[i] = look(ctx, s) })
	}
	wg.Wait()
	var busy []*cdp.Session
	held := false
	for i, v := range verdicts {
		switch v {
		case busyThread:
			busy = append(busy, sessions[i])
		case heldBack:
			held = true
		}
	}
	if len(busy) == 0 {
		if held {
			return c.heldNavigation(ctx, err)
		}
		return err
	}
	for _, s := range busy {
		tctx, cancel := context.WithTimeout(ctx, answerProbe)
		_ = proto.RuntimeTerminateExecution{}.Do(tctx, s)
		cancel()
	}
	e := &Error{Type: Execution, Name: "PageUnresponsiveError", Err: err}
	if len(silent(ctx, busy)) == 0 {
		e.Message = fmt.Sprintf("tab %s stopped answering: the page's own JavaScript kept its main thread busy past the step's timeout (an endless loop?); cdpskill stopped that script, so the tab answers again, but the page may be half-updated: look before you act", c.alias)
		return e
	}
	e.Message = fmt.Sprintf("tab %s does not answer: the page's own JavaScript keeps its main thread busy (an endless loop?) and could not be stopped; the next call on it reloads it first if it is still busy (or open a new tab)", c.alias)
	c.die(e)
	return e
}

// verdict is what look found of a page.
type verdict int

const (
	answering  verdict = iota // it evaluates, or nothing could be told
	heldBack                  // silent, its main thread free: a navigation holds it back
	busyThread                // silent, its main thread taken
)

// look asks s's page to evaluate 0 and, meanwhile, looks at its main
// thread (mainThreadBusy), each within answerProbe.
func look(ctx context.Context, s *cdp.Session) verdict {
	var answered, busy, ok bool
	var wg sync.WaitGroup
	wg.Go(func() { answered = len(silent(ctx, []*cdp.Session{s})) == 0 })
	wg.Go(func() { busy, ok = mainThreadBusy(ctx, s.Conn(), s.TargetID) })
	wg.Wait()
	switch {
	case answered || ctx.Err() != nil || !ok:
		return answering // or nothing could be told: the step's own error stands
	case busy:
		return busyThread
	}
	return heldBack
}

// silent returns the sessions whose page does not evaluate 0 within
// answerProbe, probed together.
func silent(ctx context.Context, sessions []*cdp.Session) []*cdp.Session {
	var (
		mu  sync.Mutex
		out []*cdp.Session
		wg  sync.WaitGroup
	)
	for _, s := range sessions {
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, answerProbe)
			defer cancel()
			_, err := proto.RuntimeEvaluate{Expression: "0"}.Do(pctx, s)
			if err != nil && pctx.Err() != nil && ctx.Err() == nil {
				mu.Lock()
				out = append(out, s)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}

// mainThreadBusy tells whether the main thread of targetID's page is taken
// (its script in an endless loop, a long task), as opposed to held back by
// a navigation. A session attached now is set up in the renderer on its
// main thread, so a busy page answers it nothing; once set up, it is
// answered Performance.getMetrics even while a navigation holds the page
// back, since Chrome sends that to the renderer's IO thread, past the
// hold. (A session attached earlier would be answered by a busy page too:
// its IO thread interrupts the script.) ok is false when no session could
// be attached to look. The attach and the question each get answerProbe:
// a browser slow to attach on a loaded machine must not read as a busy
// page.
func mainThreadBusy(ctx context.Context, conn *cdp.Conn, targetID string) (busy, ok bool) {
	actx, cancel := context.WithTimeout(ctx, answerProbe)
	s, err := proto.Attach(actx, conn, targetID)
	cancel()
	if err != nil {
		return false, false
	}
	defer func() {
		dctx, cancel := xcontext.Detached(ctx, answerProbe)
		_ = proto.Detach(dctx, s)
		cancel()
	}()
	pctx, cancel := context.WithTimeout(ctx, answerProbe)
	defer cancel()
	err = proto.PerformanceGetMetrics{}.Do(pctx, s) // an error is an answer too
	if err != nil && pctx.Err() != nil && ctx.Err() == nil {
		return true, true
	}
	return false, ctx.Err() == nil
}

// heldNavigation words a step that timed out while a navigation held the
// page back: what is pending, what the tab shows, and that nothing was
// done to it; the captures will not wait on the page. A navigation timeout
// of the step's own (goto) says all that already.
func (c *Call) heldNavigation(ctx context.Context, err error) error {
	c.held = true
	var nt *page.NavTimeoutError
	if errors.As(err, &nt) {
		return err
	}
	hctx, cancel := context.WithTimeout(ctx, answerProbe)
	defer cancel()
	h := page.PendingNavigation(hctx, c.page)
	if h.To == "" {
		h.To = c.pendingDocument()
	}
	e := *classify(err)
	e.Err = err
	note := heldNote(h)
	if h.Shows != "" {
		note += "; the tab still shows " + h.Shows
	}
	e.Hint = joinHint(e.Hint, note+"; the next call waits for that navigation, within its timeout, and stops it if it is pending still")
	return &e
}

// pendingDocument is the URL of the last document request this call saw
// begin that has had no response: a navigation the page began.
func (c *Call) pendingDocument() string {
	nc := c.network()
	if nc == nil {
		return ""
	}
	reqs := nc.n.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if r := reqs[i]; r.Type == "Document" && r.Pending {
			return r.URL
		}
	}
	return ""
}

// heldNote says that a navigation holds the tab back, and where it goes
// when that is known.
func heldNote(h page.Held) string {
	to := "a navigation"
	if h.To != "" {
		to += " to " + cdp.RedactURL(h.To)
	}
	return fmt.Sprintf("the tab is between documents: %s has had no response yet, and Chrome holds back every call to the page until it commits", to)
}

func joinHint(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
