package runner

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"
	"golang.org/x/sync/errgroup"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/page"
)

// Call is the state of one cdpskill invocation: the browser connection,
// the attached tab and what the executors report beyond their outputs.
type Call struct {
	getenv  cdp.Env
	tabs    *cdp.Registry
	browser *cdp.Browser
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

	// dialogs answers the page's JavaScript dialogs for the whole call.
	dialogs *dialogWatch

	// net records the tab's requests for the network step and the
	// failed-request summary.
	net *networkCapture

	// downloads saves and reports the downloads the call's tab starts.
	downloads *capture.Downloads

	// workers follows the tab's service workers.
	workers *workerWatch
}

// warn may be called from the concurrent parts of attach and finish. A
// warning already given is not repeated: one cause (a read-only registry)
// can fail several writes of a call.
func (c *Call) warn(format string, args ...any) {
	c.warnMu.Lock()
	defer c.warnMu.Unlock()
	w := fmt.Sprintf(format, args...)
	if !contains(c.warnings, w) {
		c.warnings = append(c.warnings, w)
	}
}

// connect reaches the browser at ep, reusing the open connection when it
// is the same endpoint.
func (c *Call) connect(ctx context.Context, ep cdp.Endpoint, headless *bool, autoLaunch bool) (*cdp.Browser, error) {
	ep = ep.WithDefaults()
	if c.browser != nil && c.browser.Endpoint == ep {
		return c.browser, nil
	}
	opts := cdp.LaunchOptions{Endpoint: ep, Headless: cdp.DefaultHeadless(c.getenv)}
	if headless != nil {
		opts.Headless = *headless
	}
	b, err := cdp.Connect(ctx, c.getenv, opts, autoLaunch && !ep.Remote())
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
func connectError(ep cdp.Endpoint, err error) *Error {
	if errors.Is(err, cdp.ErrNoChrome) {
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

// attach makes targetID the call's tab, in frame when an earlier call
// switched it there (the frame id its registry entry holds).
func (c *Call) attach(ctx context.Context, alias, targetID, frame string) error {
	c.detach()
	unlock, err := cdp.LockTarget(targetID, c.lockWait)
	var busy *cdp.TargetBusyError
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
	sess, err := cdp.Attach(ctx, c.browser.Conn, targetID)
	if err != nil {
		if cdp.IsTargetGone(err) {
			return &Error{Type: Connection, Message: fmt.Sprintf("tab %s no longer exists (it was closed); open a new one with openTab", alias), Err: err}
		}
		return &Error{Type: Connection, Message: fmt.Sprintf("cannot attach to tab %s: %v", alias, err), Err: err}
	}
	c.sess, c.alias, c.page = sess, alias, page.New(sess)
	// What the call knew of its earlier tab says nothing of this one.
	c.startURL, c.startDoc, c.before, c.beforeFailed, c.arrived = "", 0, nil, false, true
	c.landed, c.rebased = false, false
	c.stopWatch = c.watchTab(sess)
	emu := c.loadEmulation()
	var g errgroup.Group
	// A dialog left open blocks every page call, Runtime.enable included,
	// until the dialog watch, which runs on its own, answers it.
	g.Go(func() error { c.followDialogs(ctx, c.dialogs); return nil })
	g.Go(func() error { c.attachURL = c.targetURL(ctx); return nil })
	// Console capture starts with the session (Runtime.enable replays what
	// the page logged earlier; the report keeps only this call's).
	g.Go(func() (err error) {
		if c.console, err = capture.StartConsole(ctx, sess); err == nil {
			c.page.RuntimeEnabled()
		}
		return err
	})
	g.Go(func() error { return sess.Call(ctx, "Inspector.enable", nil, nil) })
	g.Go(func() error { return c.startNetwork(ctx) })
	g.Go(func() error {
		var n page.NetworkConditions
		if emu.Network != nil {
			n = *emu.Network
		}
		if err := c.startWorkers(ctx, sess, n); err != nil && ctx.Err() == nil {
			c.warn("the tab's service workers are not followed (no console, no emulated network): %v", err)
		}
		return nil
	})
	g.Go(func() error { c.readDocument(ctx); return nil })
	g.Go(func() error { c.followDownloads(ctx); return nil })
	if err := g.Wait(); err != nil {
		return classify(err)
	}
	// Emulation ends with each session; what the agent set is re-applied.
	c.restoreEmulation(ctx, emu)
	c.restoreFrame(ctx, frame)
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
	err := c.tabs.Update(c.alias, func(t *cdp.TabEntry) { t.Frame = id })
	var gone *cdp.UnknownAliasError // a closed tab, or a bare target id
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
	if err := c.browser.Call(ctx, "", "Target.activateTarget", map[string]any{"targetId": c.sess.TargetID}, nil); err != nil {
		c.warn("tab %s is hidden and could not be brought to the front: %v", c.alias, err)
	}
}

func (c *Call) detach() {
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
	if c.unlock != nil {
		c.unlock()
	}
	c.sess, c.page, c.console, c.fconsole, c.stopWatch, c.unlock, c.savedFrame = nil, nil, nil, nil, nil, nil, ""
}

// watchTab aborts the call when its tab crashes or is closed by someone
// else, or the browser connection drops, so no step waits out its timeout
// on a dead page.
func (c *Call) watchTab(sess *cdp.Session) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	crashed := sess.Listen("Inspector.targetCrashed")
	detached := c.browser.Listen("", "Target.detachedFromTarget")
	go func() {
		if _, err := crashed.Next(ctx); err == nil {
			c.die(&Error{Type: Execution, Name: "PageCrashedError",
				Message: fmt.Sprintf("tab %s crashed; reload it or open a new tab", c.alias)})
		}
	}()
	go func() {
		for {
			ev, err := detached.Next(ctx)
			if err != nil {
				return
			}
			if gjson.GetBytes(ev.Params, "sessionId").String() == sess.ID {
				c.die(&Error{Type: Connection,
					Message: fmt.Sprintf("tab %s was closed during the call; open a new one with openTab", c.alias)})
				return
			}
		}
	}()
	// A browser that goes away, or a remote endpoint that drops the
	// connection, ends the call at once rather than at the step's timeout.
	conn := c.browser.Conn
	go func() {
		select {
		case <-ctx.Done():
		case <-conn.Done():
			if ctx.Err() == nil {
				c.die(&Error{Type: Connection, Err: conn.Err(),
					Message: fmt.Sprintf("tab %s: %v", c.alias, conn.Err())})
			}
		}
	}()
	return func() {
		cancel()
		crashed.Close()
		detached.Close()
	}
}

func (c *Call) die(cause *Error) {
	c.dead.Store(true)
	if c.abort != nil {
		c.abort(cause)
	}
}

var rawTargetID = regexp.MustCompile(`^[0-9A-Fa-f]{32}$`)

// attachAlias attaches to the tab named by the top-level "tab" field.
func (c *Call) attachAlias(ctx context.Context, tab string) error {
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
		alias, entry = tab, cdp.TabEntry{TargetID: tab}
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
	if entry.BrowserWS != "" {
		if conn, err := cdp.Dial(cctx, entry.BrowserWS); err == nil {
			c.browser = &cdp.Browser{Conn: conn, Endpoint: ep}
		}
	}
	if _, err := c.connect(cctx, ep, nil, false); err != nil {
		var e *Error
		if errors.As(err, &e) {
			if ep.Remote() {
				e.Message = fmt.Sprintf("tab %s: %s", alias, e.Message)
			} else {
				e.Message = fmt.Sprintf("tab %s is gone: %s", alias, e.Message)
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

// connectWait bounds reaching the tab's browser: the call's timeout.
func (c *Call) connectWait() time.Duration {
	if c.lockWait > 0 {
		return c.lockWait
	}
	return 30 * time.Second
}

// rememberBrowser caches the browser's websocket URL in the tab's entry
// when it changed (a new Chrome on the same port).
func (c *Call) rememberBrowser(alias string, entry cdp.TabEntry) {
	if c.browser.Version == nil || c.browser.Version.WebSocketDebuggerURL == entry.BrowserWS {
		return
	}
	ws := c.browser.Version.WebSocketDebuggerURL
	if err := c.tabs.Update(alias, func(e *cdp.TabEntry) { e.BrowserWS = ws }); err != nil {
		c.warn("tab registry: %v", err)
	}
}

// targetURL asks the browser (not the page) for the tab's URL: cheap and
// it works while the page is busy.
func (c *Call) targetURL(ctx context.Context) string {
	var res struct {
		TargetInfo struct {
			URL string `json:"url"`
		} `json:"targetInfo"`
	}
	if c.sess == nil || c.browser.Call(ctx, "", "Target.getTargetInfo", map[string]any{"targetId": c.sess.TargetID}, &res) != nil {
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
	c.detach()
	c.stopDownloads()
	if c.browser != nil {
		c.browser.Close()
	}
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
	err := c.tabs.Update(c.alias, func(t *cdp.TabEntry) {
		t.SnapshotID = max(t.SnapshotID, snapshot)
		t.ElementID = max(t.ElementID, element)
	})
	if err != nil {
		c.warn("tab registry: %v", err)
	}
}
