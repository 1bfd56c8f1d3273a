package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/page"
)

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
//     page.MainThreadBusy. The call's session was attached before the
//     script started, so Runtime.terminateExecution reaches it: the script
//     is stopped, the tab answers again and the captures can describe it.
//     A page that still does not answer ends the call, and the next call
//     on the tab, finding its main thread busy still, reloads it (tab.Open).
func (c *Call) checkAnswers(ctx context.Context, err error) error {
	if c.page() == nil || c.dead() || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	sessions := []*cdp.Session{c.sess()}
	if s := c.page().EvalSession(); s != c.sess() {
		sessions = append(sessions, s) // an out-of-process frame has a main thread of its own
	}
	verdicts := make([]page.Verdict, len(sessions))
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Go(func() { verdicts[i] = page.Look(ctx, s) })
	}
	wg.Wait()
	var busy []*cdp.Session
	held := false
	for i, v := range verdicts {
		switch v {
		case page.BusyThread:
			busy = append(busy, sessions[i])
		case page.HeldBack:
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
		tctx, cancel := context.WithTimeout(ctx, page.AnswerProbe)
		_ = proto.RuntimeTerminateExecution{}.Do(tctx, s)
		cancel()
	}
	e := &Error{Type: Execution, Name: "PageUnresponsiveError", Err: err}
	if len(page.Silent(ctx, busy)) == 0 {
		e.Message = fmt.Sprintf("tab %s stopped answering: the page's own JavaScript kept its main thread busy past the step's timeout (an endless loop?); cdpskill stopped that script, so the tab answers again, but the page may be half-updated: look before you act", c.alias())
		return e
	}
	e.Message = fmt.Sprintf("tab %s does not answer: the page's own JavaScript keeps its main thread busy (an endless loop?) and could not be stopped; the next call on it reloads it first if it is still busy (or open a new tab)", c.alias())
	c.tab.Die(e)
	return e
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
	hctx, cancel := context.WithTimeout(ctx, page.AnswerProbe)
	defer cancel()
	h := page.PendingNavigation(hctx, c.page())
	if h.To == "" {
		h.To = c.pendingDocument()
	}
	e := *classify(err)
	e.Err = err
	note := h.Note()
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
	reqs := nc.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if r := reqs[i]; r.Type == "Document" && r.Pending {
			return r.URL
		}
	}
	return ""
}

func joinHint(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
