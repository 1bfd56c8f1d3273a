package tab

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tidwall/gjson"
	"golang.org/x/sync/errgroup"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

// pageAnswerWait bounds setting a session up on a tab. The page's main
// thread answers the setup, so a page that has not answered in this long
// is taken as hung (an endless loop in its JavaScript): a legitimate task
// that blocks the main thread for seconds is rare enough to name a hang.
const pageAnswerWait = 5 * time.Second

// heldTab is a tab whose page a navigation held back (Chrome sends a page
// nothing while its main frame is between documents) for as long as the
// call could wait: its server has not answered.
type heldTab struct{}

func (e *heldTab) Error() string { return "a navigation holds the tab's page back" }

// leaveHeld ends a call whose tab a navigation begun before it held back
// for the call's whole time. A page's own navigation is the agent's to
// judge, not cdpskill's to guess at, and the steps were meant for the page
// it would bring: the call fails, saying what it saw, and none of them
// runs. The navigation is stopped, as the Stop button does, so the tab
// shows its document as it was, with all it held, and answers the next
// call at once; a navigation that commits meanwhile is fine too.
func (t *Tab) leaveHeld(ctx context.Context) error {
	sctx, cancel := xcontext.Detached(ctx, reviveWait)
	defer cancel()
	e := &HeldError{Alias: t.Alias, Timeout: t.opts.Timeout, Held: page.PendingNavigation(sctx, t.Page)}
	if page.StopLoading(sctx, t.Page) == nil {
		e.Stopped = true
		if shows := page.PendingNavigation(sctx, t.Page).Shows; shows != "" {
			e.Held.Shows = shows
		}
	}
	return e
}

// sickTab is a tab that cannot take a session: its renderer crashed, or
// its page's main thread stayed busy for pageAnswerWait.
type sickTab struct {
	crashed bool
}

func (e *sickTab) Error() string {
	if e.crashed {
		return "the tab's renderer crashed"
	}
	return "the tab's page does not answer"
}

// failure is the call's error for the sick tab, ending with what to do.
func (e *sickTab) failure(alias, todo string) error {
	if e.crashed {
		return &CrashedError{Alias: alias, then: " " + todo}
	}
	return &UnresponsiveError{Alias: alias, then: todo}
}

// mutedTab is a tab whose page did not answer and whose main thread no
// session could look at in time (a browser too loaded to attach one).
type mutedTab struct{}

func (e *mutedTab) Error() string { return "the tab's page did not answer" }

// open attaches a session to targetID and starts what the call follows on
// it, bounded by pageAnswerWait; a crashed or hung tab is a *sickTab.
func (t *Tab) open(ctx context.Context, targetID, frame string) error {
	sess, err := t.session(ctx, targetID)
	if err != nil {
		if cdp.IsTargetGone(err) {
			return &GoneError{Alias: t.Alias, Err: err}
		}
		return &AttachError{Alias: t.Alias, Err: err}
	}
	t.Session, t.Page = sess, page.New(sess)
	t.Page.TrackRequests(t.traffic)
	// Subscribed before Inspector.enable, which announces a crash that
	// happened earlier before it replies.
	crashed := sess.Listen(proto.EventInspectorTargetCrashed)
	sctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	answered := make(chan struct{})
	defer close(answered)
	go t.watchSetup(sctx, answered, stop, sess)
	emu := t.LoadEmulation()
	t.Emulation = emu
	var g errgroup.Group
	// A dialog left open blocks every page call, Runtime.enable included,
	// until the dialog watch, which runs on its own, answers it.
	g.Go(func() error { t.FollowDialogs(sctx); return nil })
	g.Go(func() error { t.URL, _ = page.TargetURL(sctx, t.Page); return nil })
	// Console capture starts with the session (Runtime.enable replays what
	// the page logged earlier; the report keeps only this call's).
	g.Go(func() (err error) {
		if t.Console, err = capture.StartConsole(sctx, sess); err != nil {
			return err
		}
		// The helper world an earlier call made is among the contexts
		// Runtime.enable replayed: asked after it, the page's first
		// evaluation finds that world instead of creating one.
		t.Page.RuntimeEnabled()
		t.readDocument(sctx)
		return nil
	})
	g.Go(func() error {
		if err := (proto.InspectorEnable{}).Do(sctx, sess); err != nil {
			return err
		}
		if len(crashed.Drain()) > 0 {
			// Nothing else will answer: end the setup now.
			stop(&sickTab{crashed: true})
			return context.Cause(sctx)
		}
		return nil
	})
	g.Go(func() error { return t.startNetwork(sctx) })
	g.Go(func() error {
		var n page.NetworkConditions
		if emu.Network != nil {
			n = *emu.Network
		}
		if err := t.startWorkers(sctx, sess, n); err != nil && sctx.Err() == nil {
			t.warn("the tab's service workers are not followed (no console, no emulated network): %v", err)
		}
		return nil
	})
	g.Go(func() error { t.Browser.followDownloads(sctx, t); return nil })
	err = g.Wait()
	var sick *sickTab
	if err != nil && ctx.Err() == nil && cdp.IsTargetCrashed(err) {
		// A command of the setup heard of the crash before Inspector did.
		stop(&sickTab{crashed: true})
	}
	if err != nil && ctx.Err() == nil {
		switch cause := context.Cause(sctx).(type) {
		case *heldTab, *mutedTab: // attach says what it saw; nothing is done to the tab
			crashed.Close()
			return cause
		}
	}
	if err != nil && ctx.Err() == nil && errors.As(context.Cause(sctx), &sick) {
		sick.crashed = sick.crashed || len(crashed.Drain()) > 0
		crashed.Close()
		return sick
	}
	if err != nil {
		crashed.Close()
		return err
	}
	t.stopWatch = t.watch(sess, crashed)
	// Emulation ends with each session; what the agent set is re-applied.
	t.restoreEmulation(sctx, emu)
	t.restoreRoutes(sctx)
	t.restoreFrame(sctx, frame)
	return nil
}

// watchSetup ends, with the reason as ctx's cause, the setup of sess's
// tab when its page does not answer; answered closes when the setup is
// done. After page.AnswerProbe of silence it looks at the page's main
// thread: a page that a navigation holds back (a slow server) is waited
// for as long as the call may take (heldUntil), since the navigation may
// still commit, then, its main thread still free, the tab is a *heldTab,
// which attach leaves as it is; a busy one (the page's script in an
// endless loop) gets pageAnswerWait in all and is looked at again: busy
// both times, the tab is a *sickTab, which attach reloads. A page cdpskill
// could not look at is a *mutedTab: nothing is done to it on a guess.
func (t *Tab) watchSetup(ctx context.Context, answered <-chan struct{}, stop context.CancelCauseFunc, sess *cdp.Session) {
	start := time.Now()
	if !quietFor(ctx, answered, page.AnswerProbe) {
		return
	}
	look := func() (busy, ok bool) { return page.MainThreadBusy(ctx, sess.Conn(), sess.TargetID) }
	busy, ok := look()
	if ok && !busy {
		if !quietFor(ctx, answered, time.Until(t.heldUntil(ctx))) {
			return
		}
		if busy, ok = look(); ok && !busy {
			stop(&heldTab{})
			return
		}
	}
	if !quietFor(ctx, answered, pageAnswerWait-time.Since(start)) {
		return
	}
	switch busy, ok = look(); {
	case ok && busy:
		stop(&sickTab{})
	case ok:
		stop(&heldTab{})
	default:
		stop(&mutedTab{})
	}
}

// heldUntil is how long the setup waits for a navigation that holds the
// tab back: until the call's timeout, counted from its start, or ctx's
// deadline (a step's: openTab, connectTab) when that comes first.
func (t *Tab) heldUntil(ctx context.Context) time.Time {
	until := t.opts.Start.Add(t.opts.Timeout)
	if t.opts.Timeout <= 0 {
		until = time.Now().Add(pageAnswerWait)
	}
	if dl, ok := ctx.Deadline(); ok && dl.Before(until) {
		until = dl
	}
	return until
}

// quietFor waits d and tells whether it passed with neither done closed
// nor ctx ended.
func quietFor(ctx context.Context, done <-chan struct{}, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-done:
	case <-ctx.Done():
	}
	return false
}

// session is a session on targetID: over the tab's own websocket when the
// call has it, else attached over the browser's.
func (t *Tab) session(ctx context.Context, targetID string) (*cdp.Session, error) {
	if t.Browser.Tab == targetID {
		return cdp.TabSession(t.Browser.Conn, targetID), nil
	}
	return proto.Attach(ctx, t.Browser.Conn, targetID)
}

// reviveWait bounds each round trip of revive: the browser, not the
// stuck page, carries out a navigation, and answers at once.
const reviveWait = 2 * time.Second

// revive reloads the sick tab and leaves it released, ready to open
// again. The browser carries a navigation out whatever the renderer is
// doing, but one to the same site may be handed to the same stuck
// renderer process; a blank data: page first moves the tab to a process
// of its own, then it goes back to its address.
func (t *Tab) revive(ctx context.Context, sick *sickTab) error {
	sess := t.Session
	t.release()
	defer func() {
		dctx, cancel := context.WithTimeout(ctx, reviveWait)
		_ = proto.Detach(dctx, sess) // its calls, stuck in the old page, go with it
		cancel()
	}()
	hctx, cancel := context.WithTimeout(ctx, reviveWait)
	defer cancel()
	url := "about:blank"
	if h, err := (proto.PageGetNavigationHistory{}).Do(hctx, sess); err == nil && h.CurrentIndex >= 0 && h.CurrentIndex < len(h.Entries) && h.Entries[h.CurrentIndex].URL != "" {
		url = h.Entries[h.CurrentIndex].URL
	}
	for i, to := range []string{"data:text/html,", url} {
		nctx, cancel := context.WithTimeout(ctx, reviveWait)
		_, err := proto.PageNavigate{URL: to}.Do(nctx, sess)
		if err == nil && i == 0 {
			// The blank page answers once it is in its new process.
			_, err = proto.RuntimeEvaluate{Expression: "0"}.Do(nctx, sess)
		}
		cancel()
		switch {
		case err != nil && cdp.IsTargetGone(err):
			return &GoneError{Alias: t.Alias, Err: err}
		case err != nil:
			return sick.failure(t.Alias, "and a reload did not get through; close it (closeTab) and open a new tab")
		}
	}
	why := "had crashed (its renderer died)"
	if !sick.crashed {
		why = fmt.Sprintf("did not answer for %v: its page's main thread stayed busy (its JavaScript in an endless loop?)", pageAnswerWait)
	}
	t.warn("tab %s %s; cdpskill reloaded %s before your steps: whatever the page held is gone", t.Alias, why, cdp.RedactURL(url))
	return nil
}

// readDocument notes the tab's document (see page.Context.Doc) and
// activates a tab that is hidden behind another in its window (a tab
// opened by a click shares its opener's window): headless Chrome does not
// render hidden tabs, so screenshots would hang. Visible tabs are left
// alone; activating one fires a resize in the page.
func (t *Tab) readDocument(ctx context.Context) {
	var st struct {
		State string  `json:"state"`
		Doc   float64 `json:"doc"`
	}
	if err := t.Page.CallJS(ctx, "() => ({state: document.visibilityState, doc: performance.timeOrigin})", &st); err != nil {
		return
	}
	t.Doc = st.Doc
	if st.State != "hidden" {
		return
	}
	if err := (proto.TargetActivateTarget{TargetID: t.Session.TargetID}).Do(ctx, t.Browser.Conn.Browser()); err != nil {
		t.warn("tab %s is hidden and could not be brought to the front: %v", t.Alias, err)
	}
}

// watch aborts the call when its tab crashes (an event on crashed, which
// it closes) or is closed by someone else, or the browser connection
// drops, so no step waits out its timeout on a dead page. It starts once
// the session is set up: until then a crash is the setup's to handle.
func (t *Tab) watch(sess *cdp.Session, crashed *cdp.Listener) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	// An attached session hears of its end from the browser; a tab's own
	// websocket is told it is detached, then closes.
	conn := sess.Conn()
	var detached *cdp.Listener
	if sess.ID == "" {
		detached = sess.Listen(proto.EventInspectorDetached)
	} else {
		detached = conn.Listen("", proto.EventTargetDetachedFrom)
	}
	go func() {
		if _, err := crashed.Next(ctx); err == nil {
			t.Die(&CrashedError{Alias: t.Alias, then: ", and what the page held is gone; the next call on it reloads it first (or open a new tab)"})
		}
	}()
	go func() {
		for {
			ev, err := detached.Next(ctx)
			if err != nil {
				break
			}
			if sess.ID == "" || gjson.GetBytes(ev.Params, "sessionId").String() == sess.ID {
				t.Die(&GoneError{Alias: t.Alias, During: true})
				return
			}
		}
		// A browser that goes away, or a remote endpoint that drops the
		// connection, ends the call at once rather than at the step's
		// timeout. (Next drains the events that came before the close.)
		if ctx.Err() == nil {
			<-conn.Done()
			t.Die(&DroppedError{Alias: t.Alias, Remote: t.Browser.Endpoint.Remote(), Err: conn.Err()})
		}
	}()
	return func() {
		cancel()
		crashed.Close()
		detached.Close()
	}
}
