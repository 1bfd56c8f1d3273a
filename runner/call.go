package runner

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"
	"golang.org/x/sync/errgroup"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/tabs"
)

// Call is the state of one cdpskill invocation: the browser connection,
// the attached tab and what the executors report beyond their outputs.
type Call struct {
	getenv  chrome.Env
	tabs    *tabs.Registry
	browser *chrome.Browser
	sess    *cdp.Session
	page    *page.Page
	console *capture.Console
	// fconsole captures the out-of-process frame the tab is switched to.
	fconsole *capture.Console
	alias    string
	start    time.Time

	// startURL is the tab's URL when the call attached to it, for
	// navigation detection; empty for a tab the call opened.
	startURL string
	// arrived: the tab was opened or connected by a step of this call.
	arrived bool
	// attachURL is the tab's URL as attach found it, attachDoc its
	// document; startDoc is attachDoc for a tab the call did not open.
	attachURL string
	attachDoc float64
	startDoc  float64
	// before is the screen before the steps, for the diff; beforeFailed
	// says it could not be taken. scrolled: an action scrolled the page
	// or an element in it.
	before       *aria.Report
	beforeFailed bool
	// scripts: the batch runs the agent's code (script steps), so the
	// screen before carries the page's fingerprint, for the summary.
	scripts bool
	// landed: a step loaded another document, so the next action's screen
	// is taken afresh (rebased) and the changes span only what followed.
	landed, rebased bool
	scrolled        bool
	warnings        []string
	warnMu          sync.Mutex
	// lost are the files the call could not save (unsaved.go).
	lost []lostFile
	// damage is the tab registry's damage this call found and repaired.
	damage error
	// secrets are values the debug log must not show (Result.secrets).
	secrets []string
	// savedFrame is the frame the registry holds for the tab.
	savedFrame string

	// abort ends the whole call with a cause when the tab dies under it;
	// stopWatch ends the watch of the current tab.
	abort     context.CancelCauseFunc
	stopWatch func()
	dead      atomic.Bool

	// lockWait bounds the wait for a tab another call is driving; unlock
	// releases the current tab.
	lockWait time.Duration
	unlock   func()
	// timeout is the call's: the setup waits that long, from start, for
	// a navigation that holds the tab back.
	timeout time.Duration
	// held: a step timed out while a navigation held the page back
	// (checkAnswers); the captures do not wait on it.
	held bool

	// dialogs answers the page's JavaScript dialogs for the whole call.
	dialogs *page.DialogWatch

	// net records the tab's requests for the network step and the
	// failed-request summary.
	net *networkCapture

	// downloads saves and reports the downloads the call's tab starts.
	downloads *capture.Downloads
	// exiting: the process ends with the call (Options.Exiting).
	exiting bool
	// early is the report's screenshot, taken while the last step settled;
	// acted, while the last step runs, starts it (see shootOnce).
	early *earlyShot
	acted func()

	// workers follows the tab's service workers.
	workers *workerWatch
	// emu is the tab's emulation, as stored.
	emu page.Emulation
}

// warn may be called from the concurrent parts of attach and finish. A
// warning already given is not repeated: one cause (a read-only registry)
// can fail several writes of a call.
func (c *Call) warn(format string, args ...any) {
	c.warnMu.Lock()
	defer c.warnMu.Unlock()
	w := fmt.Sprintf(format, args...)
	if !slices.Contains(c.warnings, w) {
		c.warnings = append(c.warnings, w)
	}
}

// connect reaches the browser at ep, reusing the open connection when it
// is that browser's websocket. The callers attach another tab next, so a
// tab's own websocket (chrome.DialTab) is left with its tab.
func (c *Call) connect(ctx context.Context, ep chrome.Endpoint, headless *bool, autoLaunch bool) (*chrome.Browser, error) {
	ep = ep.WithDefaults()
	if c.browser != nil && c.browser.Endpoint == ep && c.browser.Tab == "" {
		return c.browser, nil
	}
	opts := chrome.LaunchOptions{Endpoint: ep, Headless: chrome.DefaultHeadless(c.getenv)}
	if headless != nil {
		opts.Headless = *headless
	}
	b, err := chrome.Connect(ctx, c.getenv, opts, autoLaunch && !ep.Remote())
	if err != nil {
		return nil, connectError(ep, err)
	}
	if c.browser != nil {
		c.detach()
		c.browser.Close()
	}
	c.browser = b
	return b, nil
}

// connectError says, as a CONNECTION error, why the browser at ep could
// not be reached. A remote endpoint is named with its secrets redacted.
func connectError(ep chrome.Endpoint, err error) *Error {
	if errors.Is(err, chrome.ErrNotFound) {
		return &Error{Type: Connection, Message: err.Error(), Err: err}
	}
	msg := fmt.Sprintf("cannot connect to Chrome at %s: %v", ep, err)
	var ce *cdp.ConnectError
	if errors.As(err, &ce) {
		msg = ce.Error() // it names the endpoint already
	}
	if ep.Remote() {
		msg += " (the remote endpoint refused, dropped or did not answer; no local Chrome is launched when an endpoint is set)"
	}
	return &Error{Type: Connection, Message: cdp.RedactText(msg), Err: err}
}

// pageAnswerWait bounds setting a session up on a tab. The page's main
// thread answers the setup, so a page that has not answered in this long
// is taken as hung (an endless loop in its JavaScript): a legitimate task
// that blocks the main thread for seconds is rare enough to name a hang.
const pageAnswerWait = 5 * time.Second

// attach makes targetID the call's tab, in frame when an earlier call
// switched it there (the frame id its registry entry holds). A tab whose
// renderer crashed, or whose page does not answer, is reloaded once and
// the call goes on there, with a warning: a new session cannot stop a
// script that is already running, and the agent's next move would be the
// reload anyway.
func (c *Call) attach(ctx context.Context, alias, targetID, frame string) error {
	c.detach()
	unlock, waited, err := tabs.LockTarget(targetID, c.lockWait)
	var busy *tabs.TargetBusyError
	switch {
	case errors.As(err, &busy):
		return &Error{Type: Connection, Message: fmt.Sprintf("tab %s: %v", alias, err), Err: err}
	case err != nil:
		// The lock file cannot be had (a refused or read-only temp
		// directory): the tab is driven all the same, and the agent told.
		if _, ok := private.File(err); ok {
			c.unsaved(fmt.Sprintf("tab %s's lock (another call may drive the tab at once)", alias), err)
		} else {
			c.warn("tab %s is not locked against other cdpskill calls: %v", alias, err)
		}
	}
	c.unlock = unlock
	if waited > 0 {
		c.warn("tab %s was in use by another cdpskill call; this call waited %d ms for it (the page may have changed since you last saw it)", alias, waited.Milliseconds())
	}
	err = c.open(ctx, alias, targetID, frame)
	switch e := err.(type) {
	case *heldTab:
		return c.leaveHeld(ctx, alias)
	case *mutedTab:
		return e.failure(alias)
	}
	var sick *sickTab
	if !errors.As(err, &sick) {
		return err
	}
	if err := c.revive(ctx, alias, sick); err != nil {
		return err
	}
	if err := c.open(ctx, alias, targetID, ""); err != nil {
		if errors.As(err, &sick) {
			return sick.failure(alias, "even after a reload; close it (closeTab) and open a new tab")
		}
		return err
	}
	c.savedFrame = frame // the reload left that frame behind: the registry forgets it
	return nil
}

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
func (c *Call) leaveHeld(ctx context.Context, alias string) error {
	sctx, cancel := xcontext.Detached(ctx, reviveWait)
	defer cancel()
	h := page.PendingNavigation(sctx, c.page)
	msg := fmt.Sprintf("tab %s did not answer within the call's timeout (%d ms), so none of your steps ran: %s", alias, c.timeout.Milliseconds(), h.Note())
	if page.StopLoading(sctx, c.page) != nil {
		msg += fmt.Sprintf("; cdpskill could not stop that navigation: the tab shows %s until the server answers, then the new page", orUnknown(h.Shows))
	} else {
		if shows := page.PendingNavigation(sctx, c.page).Shows; shows != "" {
			h.Shows = shows
		}
		msg += fmt.Sprintf("; cdpskill has stopped that navigation, as the Stop button does, so the tab still shows %s, as it was, with all it held (go there again with a longer timeout if you need the new page)", orUnknown(h.Shows))
	}
	return &Error{Type: Execution, Name: "TimeoutError", Message: msg, Err: context.DeadlineExceeded}
}

func orUnknown(url string) string {
	if url == "" {
		return "the page it showed"
	}
	return url
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
func (e *sickTab) failure(alias, todo string) *Error {
	if e.crashed {
		return &Error{Type: Execution, Name: "PageCrashedError", Err: e,
			Message: fmt.Sprintf("tab %s crashed %s", alias, todo)}
	}
	return &Error{Type: Execution, Name: "PageUnresponsiveError", Err: e,
		Message: fmt.Sprintf("tab %s does not answer: its page's JavaScript keeps the main thread busy (an endless loop?) %s", alias, todo)}
}

// open attaches a session to targetID and starts what the call follows on
// it, bounded by pageAnswerWait; a crashed or hung tab is a *sickTab.
func (c *Call) open(ctx context.Context, alias, targetID, frame string) error {
	sess, err := c.session(ctx, targetID)
	if err != nil {
		if cdp.IsTargetGone(err) {
			return &Error{Type: Connection, Message: fmt.Sprintf("tab %s no longer exists (it was closed); open a new one with openTab", alias), Err: err}
		}
		return &Error{Type: Connection, Message: fmt.Sprintf("cannot attach to tab %s: %v", alias, err), Err: err}
	}
	c.sess, c.alias, c.page = sess, alias, page.New(sess)
	c.page.TrackRequests(c.traffic)
	// What the call knew of its earlier tab says nothing of this one.
	c.startURL, c.startDoc, c.before, c.beforeFailed, c.arrived = "", 0, nil, false, true
	c.landed, c.rebased = false, false
	// Subscribed before Inspector.enable, which announces a crash that
	// happened earlier before it replies.
	crashed := sess.Listen(proto.EventInspectorTargetCrashed)
	sctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	answered := make(chan struct{})
	defer close(answered)
	go c.watchSetup(sctx, answered, stop, sess)
	emu := c.loadEmulation()
	c.emu = emu
	var g errgroup.Group
	// A dialog left open blocks every page call, Runtime.enable included,
	// until the dialog watch, which runs on its own, answers it.
	g.Go(func() error { c.followDialogs(sctx, c.dialogs); return nil })
	g.Go(func() error { c.attachURL = c.targetURL(sctx); return nil })
	// Console capture starts with the session (Runtime.enable replays what
	// the page logged earlier; the report keeps only this call's).
	g.Go(func() (err error) {
		if c.console, err = capture.StartConsole(sctx, sess); err != nil {
			return err
		}
		// The helper world an earlier call made is among the contexts
		// Runtime.enable replayed: asked after it, the page's first
		// evaluation finds that world instead of creating one.
		c.page.RuntimeEnabled()
		c.readDocument(sctx)
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
	g.Go(func() error { return c.startNetwork(sctx) })
	g.Go(func() error {
		var n page.NetworkConditions
		if emu.Network != nil {
			n = *emu.Network
		}
		if err := c.startWorkers(sctx, sess, n); err != nil && sctx.Err() == nil {
			c.warn("the tab's service workers are not followed (no console, no emulated network): %v", err)
		}
		return nil
	})
	g.Go(func() error { c.followDownloads(sctx); return nil })
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
		return classify(err)
	}
	c.stopWatch = c.watchTab(sess, crashed)
	// Emulation ends with each session; what the agent set is re-applied.
	c.restoreEmulation(sctx, emu)
	c.restoreFrame(sctx, frame)
	return nil
}

// watchSetup ends, with the reason as ctx's cause, the setup of sess's
// tab when its page does not answer; answered closes when the setup is
// done. After page.AnswerProbe of silence it looks at the page's main thread:
// a page that a navigation holds back (a slow server) is waited for as
// long as the call may take (heldUntil), since the navigation may still
// commit, then, its main thread still free, the tab is a *heldTab, which
// attach leaves as it is; a busy one (the page's script in an endless
// loop) gets pageAnswerWait in all and is looked at again: busy both
// times, the tab is a *sickTab, which attach reloads. A page cdpskill
// could not look at is a *mutedTab: nothing is done to it on a guess.
func (c *Call) watchSetup(ctx context.Context, answered <-chan struct{}, stop context.CancelCauseFunc, sess *cdp.Session) {
	start := time.Now()
	if !quietFor(ctx, answered, page.AnswerProbe) {
		return
	}
	look := func() (busy, ok bool) { return page.MainThreadBusy(ctx, sess.Conn(), sess.TargetID) }
	busy, ok := look()
	if ok && !busy {
		if !quietFor(ctx, answered, time.Until(c.heldUntil(ctx))) {
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

// mutedTab is a tab whose page did not answer and whose main thread no
// session could look at in time (a browser too loaded to attach one).
type mutedTab struct{}

func (e *mutedTab) Error() string { return "the tab's page did not answer" }

// failure is the call's error for a muted tab: what was seen, and that
// nothing was done to the tab.
func (e *mutedTab) failure(alias string) *Error {
	return &Error{Type: Execution, Name: "TimeoutError", Err: e,
		Message: fmt.Sprintf("tab %s did not answer within %d ms and cdpskill could not look at its page (the browser attached no session in time), so none of your steps ran and nothing was done to the tab; try again, or close it (closeTab) and open a new tab", alias, pageAnswerWait.Milliseconds())}
}

// heldUntil is how long the setup waits for a navigation that holds the
// tab back: until the call's timeout, counted from its start, or ctx's
// deadline (a step's: openTab, connectTab) when that comes first.
func (c *Call) heldUntil(ctx context.Context) time.Time {
	until := c.start.Add(c.timeout)
	if c.timeout <= 0 {
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
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
	case <-ctx.Done():
	}
	return false
}

// session is a session on targetID: over the tab's own websocket when the
// call has it, else attached over the browser's.
func (c *Call) session(ctx context.Context, targetID string) (*cdp.Session, error) {
	if c.browser.Tab == targetID {
		return cdp.TabSession(c.browser.Conn, targetID), nil
	}
	return proto.Attach(ctx, c.browser.Conn, targetID)
}

// reviveWait bounds each round trip of revive: the browser, not the
// stuck page, carries out a navigation, and answers at once.
const reviveWait = 2 * time.Second

// revive reloads the call's sick tab and leaves the call detached from
// it, ready to open it again. The browser carries a navigation out
// whatever the renderer is doing, but one to the same site may be handed
// to the same stuck renderer process; a blank data: page first moves the
// tab to a process of its own, then it goes back to its address.
func (c *Call) revive(ctx context.Context, alias string, sick *sickTab) error {
	sess := c.sess
	c.release()
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
			return &Error{Type: Connection, Message: fmt.Sprintf("tab %s no longer exists (it was closed); open a new one with openTab", alias), Err: err}
		case err != nil:
			return sick.failure(alias, "and a reload did not get through; close it (closeTab) and open a new tab")
		}
	}
	why := "had crashed (its renderer died)"
	if !sick.crashed {
		why = fmt.Sprintf("did not answer for %v: its page's main thread stayed busy (its JavaScript in an endless loop?)", pageAnswerWait)
	}
	c.warn("tab %s %s; cdpskill reloaded %s before your steps: whatever the page held is gone", alias, why, cdp.RedactURL(url))
	return nil
}

// restoreFrame enters the frame an earlier call switched the tab to. A
// frame that is gone (the page navigated, the iframe was removed) leaves
// the call in the top document, with a warning.
func (c *Call) restoreFrame(ctx context.Context, id string) {
	if id == "" {
		return
	}
	c.savedFrame = id
	f, err := c.page.FindFrame(ctx, id)
	if err == nil {
		c.page.Enter(f)
		return
	}
	c.warn("the frame this tab was switched to is gone (%v); steps run in the top document", err)
}

// saveFrame records the tab's current frame for the next call.
func (c *Call) saveFrame() {
	if c.page == nil {
		return
	}
	id := ""
	if c.page.Frame != nil {
		id = c.page.Frame.ID
	}
	if id == c.savedFrame {
		return
	}
	err := c.tabs.Update(c.alias, func(t *tabs.Entry) { t.Frame = id })
	var gone *tabs.UnknownAliasError // a closed tab, or a bare target id
	if err != nil && !errors.As(err, &gone) {
		c.warn("tab registry: %v", err)
	}
}

// readDocument notes the tab's document (see page.Context.Doc) and
// activates a tab that is hidden behind another in its window (a tab
// opened by a click shares its opener's window): headless Chrome does not
// render hidden tabs, so screenshots would hang. Visible tabs are left
// alone; activating one fires a resize in the page.
func (c *Call) readDocument(ctx context.Context) {
	var st struct {
		State string  `json:"state"`
		Doc   float64 `json:"doc"`
	}
	if err := c.page.CallJS(ctx, "() => ({state: document.visibilityState, doc: performance.timeOrigin})", &st); err != nil {
		return
	}
	c.attachDoc = st.Doc
	if st.State != "hidden" {
		return
	}
	if err := (proto.TargetActivateTarget{TargetID: c.sess.TargetID}).Do(ctx, c.browser.Browser()); err != nil {
		c.warn("tab %s is hidden and could not be brought to the front: %v", c.alias, err)
	}
}

func (c *Call) detach() {
	c.release()
	if c.unlock != nil {
		c.unlock()
	}
	c.unlock = nil
}

// release ends what the call follows on its tab, keeping the tab's lock.
func (c *Call) release() {
	c.saveFrame()
	if c.stopWatch != nil {
		c.stopWatch()
	}
	if c.console != nil {
		c.console.Close()
	}
	if c.fconsole != nil {
		c.fconsole.Close()
	}
	if c.page != nil {
		c.page.Close()
	}
	if err := c.stopNetwork(); err != nil {
		c.fileTrouble("network log", err)
	}
	if c.workers != nil {
		c.workers.stop() // before the tab is another call's: its workers are resumed, auto-attach is off
		c.workers = nil
	}
	c.sess, c.page, c.console, c.fconsole, c.stopWatch, c.savedFrame = nil, nil, nil, nil, nil, ""
}

// watchTab aborts the call when its tab crashes (an event on crashed,
// which it closes) or is closed by someone else, or the browser connection
// drops, so no step waits out its timeout on a dead page. It starts once
// the session is set up: until then a crash is the setup's to handle.
func (c *Call) watchTab(sess *cdp.Session, crashed *cdp.Listener) (stop func()) {
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
			c.die(&Error{Type: Execution, Name: "PageCrashedError",
				Message: fmt.Sprintf("tab %s crashed, and what the page held is gone; the next call on it reloads it first (or open a new tab)", c.alias)})
		}
	}()
	go func() {
		for {
			ev, err := detached.Next(ctx)
			if err != nil {
				break
			}
			if sess.ID == "" || gjson.GetBytes(ev.Params, "sessionId").String() == sess.ID {
				c.die(&Error{Type: Connection,
					Message: fmt.Sprintf("tab %s was closed during the call; open a new one with openTab", c.alias)})
				return
			}
		}
		// A browser that goes away, or a remote endpoint that drops the
		// connection, ends the call at once rather than at the step's
		// timeout. (Next drains the events that came before the close.)
		if ctx.Err() == nil {
			<-conn.Done()
			c.die(&Error{Type: Connection, Err: conn.Err(), Message: droppedMessage(c.alias, conn.Err())})
		}
	}()
	return func() {
		cancel()
		crashed.Close()
		detached.Close()
	}
}

// droppedMessage says that the browser connection closed mid-call, in the
// agent's words rather than the websocket's.
func droppedMessage(alias string, err error) string {
	var ce *cdp.ClosedError
	if !errors.As(err, &ce) || ce.Endpoint == "" {
		return fmt.Sprintf("tab %s: %v", alias, err)
	}
	return fmt.Sprintf("tab %s: the connection to Chrome at %s closed during the call (Chrome exited or was killed, or the endpoint dropped it); open a new tab with openTab", alias, ce.Endpoint)
}

func (c *Call) die(cause *Error) {
	c.dead.Store(true)
	if c.abort != nil {
		c.abort(cause)
	}
}

var rawTargetID = regexp.MustCompile(`^[0-9A-Fa-f]{32}$`)

// attachAlias attaches to the tab named by the top-level "tab" field,
// over the tab's own websocket when the batch stays on it (onlyTab).
func (c *Call) attachAlias(ctx context.Context, tab string, onlyTab bool) error {
	alias, entry, found, err := c.tabs.Resolve(tab)
	if err != nil {
		return &Error{Type: Connection, Message: "tab registry: " + err.Error(), Err: err}
	}
	if !found {
		if !rawTargetID.MatchString(tab) {
			msg := fmt.Sprintf("unknown tab %q: no such alias; listTabs shows the open tabs, openTab opens a new one", tab)
			if c.damage != nil {
				msg += fmt.Sprintf(" (the alias may have been lost: %v)", c.damage)
			}
			return &Error{Type: Connection, Message: msg}
		}
		alias, entry = tab, tabs.Entry{TargetID: tab}
	}
	ep := entry.Endpoint()
	if !found {
		if ep, err = defaultEndpoint(c.getenv); err != nil {
			return err
		}
	}
	// The connection is bounded by the call's timeout: nothing else bounds
	// a remote endpoint that accepts and never answers.
	cctx, cancel := context.WithTimeout(ctx, c.connectWait())
	defer cancel()
	if err := c.reach(cctx, ep, entry, onlyTab); err != nil {
		var e *Error
		if errors.As(err, &e) {
			if ep.Remote() {
				e.Message = fmt.Sprintf("tab %s: %s", alias, e.Message)
			} else {
				e.Message = fmt.Sprintf("tab %s is gone: %s; open a new tab with openTab, which starts Chrome when none runs", alias, e.Message)
			}
		}
		return err
	}
	if err := c.attach(ctx, alias, entry.TargetID, entry.Frame); err != nil {
		return err
	}
	if found {
		c.rememberBrowser(alias, entry)
	}
	c.startURL, c.startDoc, c.arrived = c.attachURL, c.attachDoc, false
	return nil
}

// reach connects the call to the browser of the tab entry names: over the
// tab's own websocket for a batch that stays on a tab of a local Chrome
// (chrome.DialTab), else over the browser's, dialled at the URL the registry
// cached while it answers.
func (c *Call) reach(ctx context.Context, ep chrome.Endpoint, entry tabs.Entry, onlyTab bool) error {
	if onlyTab && !ep.Remote() {
		b, err := chrome.DialTab(ctx, ep, entry.TargetID)
		if err == nil {
			c.browser = b
			return nil
		}
		// The tab or Chrome is gone: the browser's websocket tells which.
	}
	if entry.BrowserWS != "" {
		if conn, err := cdp.Dial(ctx, entry.BrowserWS); err == nil {
			c.browser = &chrome.Browser{Conn: conn, Endpoint: ep}
		}
	}
	_, err := c.connect(ctx, ep, nil, false)
	return err
}

// connectWait bounds reaching the tab's browser: the call's timeout.
func (c *Call) connectWait() time.Duration {
	if c.lockWait > 0 {
		return c.lockWait
	}
	return 30 * time.Second
}

// rememberBrowser caches the browser's websocket URL in the tab's entry
// when it changed (a new Chrome on the same port).
func (c *Call) rememberBrowser(alias string, entry tabs.Entry) {
	if c.browser.Version == nil || c.browser.Version.WebSocketDebuggerURL == entry.BrowserWS {
		return
	}
	ws := c.browser.Version.WebSocketDebuggerURL
	if err := c.tabs.Update(alias, func(e *tabs.Entry) { e.BrowserWS = ws }); err != nil {
		c.warn("tab registry: %v", err)
	}
}

// targetURL asks the browser (not the page) for the tab's URL: cheap and
// it works while the page is busy.
func (c *Call) targetURL(ctx context.Context) string {
	if c.sess == nil {
		return ""
	}
	res, err := proto.TargetGetTargetInfo{TargetID: c.sess.TargetID}.Do(ctx, c.browser.Browser())
	if err != nil {
		return ""
	}
	return res.TargetInfo.URL
}

// requirePage returns the attached page or a clear error.
func (c *Call) requirePage() (*page.Page, error) {
	if c.page == nil {
		return nil, &Error{Type: Connection, Message: `no tab attached: pass "tab":"t1" or start with openTab`}
	}
	return c.page, nil
}

func (c *Call) close() {
	cdp.TraceMark("closing")
	c.early.abandon() // its file is written whole, or not at all, before the process ends
	c.detach()
	c.stopDownloads()
	if c.browser != nil && (c.browser.Tab != "" || !c.exiting) {
		c.browser.Close()
	}
	cdp.TraceMark("closed")
}

// refFloors are the tab's ref counters as the registry last saw them:
// snapshots start numbering above them even on a fresh document.
func (c *Call) refFloors() (snapshot, element int) {
	_, e, found, err := c.tabs.Resolve(c.alias)
	if err != nil || !found {
		return 0, 0
	}
	return e.SnapshotID, e.ElementID
}

// saveRefCounters records the tab's ref counters after a snapshot handed
// out refs; counters only grow.
func (c *Call) saveRefCounters(snapshot, element int) {
	s, e := c.refFloors()
	if snapshot <= s && element <= e {
		return
	}
	err := c.tabs.Update(c.alias, func(t *tabs.Entry) {
		t.SnapshotID = max(t.SnapshotID, snapshot)
		t.ElementID = max(t.ElementID, element)
	})
	if err != nil {
		c.warn("tab registry: %v", err)
	}
}
