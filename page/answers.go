package page

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
)

// AnswerProbe is how long a page that seems silent gets to answer a
// trivial evaluation, and how long each part of the look at its main
// thread, made meanwhile, may take.
const AnswerProbe = time.Second

// Verdict is what Look found of a page.
type Verdict int

const (
	Answering  Verdict = iota // it evaluates, or nothing could be told
	HeldBack                  // silent, its main thread free: a navigation holds it back
	BusyThread                // silent, its main thread taken
)

// Look asks s's page to evaluate 0 and, meanwhile, looks at its main
// thread (MainThreadBusy), each within AnswerProbe. Two things silence a
// page: a navigation in flight (Chrome holds back every call to a page
// whose main frame is between documents, until the new one commits) and
// the page's own JavaScript holding the main thread.
func Look(ctx context.Context, s *cdp.Session) Verdict {
	var answered, busy, ok bool
	var wg sync.WaitGroup
	wg.Go(func() { answered = len(Silent(ctx, []*cdp.Session{s})) == 0 })
	wg.Go(func() { busy, ok = MainThreadBusy(ctx, s.Conn(), s.TargetID) })
	wg.Wait()
	switch {
	case answered || ctx.Err() != nil || !ok:
		return Answering // or nothing could be told
	case busy:
		return BusyThread
	}
	return HeldBack
}

// Silent returns the sessions whose page does not evaluate 0 within
// AnswerProbe, probed together.
func Silent(ctx context.Context, sessions []*cdp.Session) []*cdp.Session {
	var (
		mu  sync.Mutex
		out []*cdp.Session
		wg  sync.WaitGroup
	)
	for _, s := range sessions {
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, AnswerProbe)
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

// MainThreadBusy tells whether the main thread of targetID's page is
// taken (its script in an endless loop, a long task), as opposed to held
// back by a navigation. A session attached now is set up in the renderer
// on its main thread, so a busy page answers it nothing; once set up, it
// is answered Performance.getMetrics even while a navigation holds the
// page back, since Chrome sends that to the renderer's IO thread, past the
// hold. (A session attached earlier would be answered by a busy page too:
// its IO thread interrupts the script.) ok is false when no session could
// be attached to look. The attach and the question each get AnswerProbe:
// a browser slow to attach on a loaded machine must not read as a busy
// page.
func MainThreadBusy(ctx context.Context, conn *cdp.Conn, targetID string) (busy, ok bool) {
	actx, cancel := context.WithTimeout(ctx, AnswerProbe)
	s, err := proto.Attach(actx, conn, targetID)
	cancel()
	if err != nil {
		return false, false
	}
	defer func() {
		dctx, cancel := xcontext.Detached(ctx, AnswerProbe)
		_ = proto.Detach(dctx, s)
		cancel()
	}()
	pctx, cancel := context.WithTimeout(ctx, AnswerProbe)
	defer cancel()
	err = proto.PerformanceGetMetrics{}.Do(pctx, s) // an error is an answer too
	if err != nil && pctx.Err() != nil && ctx.Err() == nil {
		return true, true
	}
	return false, ctx.Err() == nil
}

// Note says that a navigation holds the tab back, and where it goes when
// that is known.
func (h Held) Note() string {
	to := "a navigation"
	if h.To != "" {
		to += " to " + cdp.RedactURL(h.To)
	}
	return fmt.Sprintf("the tab is between documents: %s has had no response yet, and Chrome holds back every call to the page until it commits", to)
}
