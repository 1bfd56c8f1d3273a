package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
)

// answerProbe is how long a page whose step timed out gets to answer a
// trivial evaluation before its main thread is taken as stuck.
const answerProbe = time.Second

// checkAnswers looks behind a step that timed out: when the page itself
// does not answer, its own JavaScript holds the main thread (an endless
// loop in a click handler, a timer that never yields), and no step could
// have succeeded. The call's session was attached before the script
// started, so Runtime.terminateExecution reaches it: the script is
// stopped, the tab answers again and the captures can describe it. A
// page that still does not answer ends the call; the next call on the
// tab reloads it (attach).
func (c *Call) checkAnswers(ctx context.Context, err error) error {
	if c.page == nil || c.dead.Load() || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	sessions := []*cdp.Session{c.sess}
	if s := c.page.EvalSession(); s != c.sess {
		sessions = append(sessions, s) // an out-of-process frame has a main thread of its own
	}
	stuck := silent(ctx, sessions)
	if len(stuck) == 0 {
		return err
	}
	for _, s := range stuck {
		tctx, cancel := context.WithTimeout(ctx, answerProbe)
		_ = s.Call(tctx, "Runtime.terminateExecution", nil, nil)
		cancel()
	}
	e := &Error{Type: Execution, Name: "PageUnresponsiveError", Err: err}
	if len(silent(ctx, stuck)) == 0 {
		e.Message = fmt.Sprintf("tab %s stopped answering: the page's own JavaScript kept its main thread busy past the step's timeout (an endless loop?); cdpskill stopped that script, so the tab answers again, but the page may be half-updated: look before you act", c.alias)
		return e
	}
	e.Message = fmt.Sprintf("tab %s does not answer: the page's own JavaScript keeps its main thread busy (an endless loop?) and could not be stopped; the next call on it reloads it first (or open a new tab)", c.alias)
	c.die(e)
	return e
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
			err := s.Call(pctx, "Runtime.evaluate", map[string]any{"expression": "0"}, nil)
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
