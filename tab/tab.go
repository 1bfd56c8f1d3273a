// Package tab holds one tab for one call: it finds the tab in the
// registry, reaches its browser, locks the tab against other calls,
// attaches a session, revives a tab that crashed or hangs, restores what
// earlier calls left on it (its frame, emulation and network conditions),
// starts what the call follows on it (console, network, downloads,
// service workers, JavaScript dialogs), watches it for a crash or a close,
// and at the end saves what the next call needs and lets it go.
package tab

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/keeper"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/route"
	"github.com/cdpskill/cdpskill/tabs"
)

// Options are what the call gives the layer.
type Options struct {
	Registry *tabs.Registry
	Getenv   chrome.Env
	// Timeout is the call's. It bounds the wait for a tab another call is
	// driving, and reaching its browser; and the setup waits that long,
	// from Start, for a navigation that holds the tab back.
	Timeout time.Duration
	Start   time.Time
	// Warn tells the agent something; a tab that could not be set up in
	// full still serves the call.
	Warn func(string)
	// Unsaved notes a file that could not be written and what it cost.
	Unsaved func(what string, err error)
	// Abort ends the call, with the cause Died finds, when the tab dies
	// under it.
	Abort context.CancelCauseFunc
	// Dialogs answers the tab's JavaScript dialogs; the setup points it at
	// the tab, since an open dialog blocks every call into the page.
	Dialogs *page.DialogWatch
	// Damage is the tab registry's damage the call found, if any.
	Damage func() error
	// Exiting: the process ends with the call (Browser.Release).
	Exiting bool
	// Files is where the tab's files go: its per-tab state, network log,
	// downloads and lock.
	Files capture.Files
	// TabSocket: Open reaches a tab of a local Chrome over the tab's own
	// websocket, for a batch that stays on the tab.
	TabSocket bool
	// Keeper holds the tab's emulation between calls; nil: the call
	// applies it, and it ends with the call.
	Keeper *keeper.Client
	// Relay: the keeper brings the download events (keeper.Relay), which
	// a batch that clicks over the tab's own websocket would not hear for
	// the tabs its clicks open.
	Relay bool
}

// connectWait bounds reaching the tab's browser: the call's timeout.
func (o Options) connectWait() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return 30 * time.Second
}

// Tab is the call's hold on one tab. Its fields are set by Open or
// Attach and cleared by Close.
type Tab struct {
	Alias   string
	Browser *Browser
	Session *cdp.Session
	Page    *page.Page
	// Console captures what the page logs, nil if it did not start.
	Console *capture.Console
	// URL is the tab's URL as attach found it, Doc its document
	// (performance.timeOrigin, as page.Context.Doc).
	URL string
	Doc float64
	// Emulation is the tab's emulation, as stored.
	Emulation page.Emulation

	opts      Options
	net       *Network
	fconsole  *capture.Console // the out-of-process frame's the tab is switched to
	workers   *workers
	frame     string // the frame the registry holds for the tab
	unlock    func()
	stopWatch func()
	// selfHeld: the call's session applied the emulation a keeper would
	// hold, as none could be had, so it changes it itself too.
	selfHeld bool
	// routes serves the tab's routes when no keeper can: for the call.
	routes *route.Server
	dead   atomic.Bool
}

// Target is a tab to attach: its alias, and its registry entry (its
// target id, the frame an earlier call switched it to, the browser's
// websocket URL the registry caches). Registered: the alias is in the
// registry, whose entry the attach keeps up to date.
type Target struct {
	Alias string
	tabs.Entry
	Registered bool
}

var rawTargetID = regexp.MustCompile(`^[0-9A-Fa-f]{32}$`)

// IsTargetID reports a raw target id (SPEC 18.7), which names a tab of
// the default endpoint that no alias names.
func IsTargetID(s string) bool { return rawTargetID.MatchString(s) }

// Open holds the tab the call's top-level "tab" names (an alias, a
// registered target id, else a raw target id on the default endpoint,
// which in a session must be the session's): it reaches the tab's
// browser and attaches. The Tab's Browser is the
// caller's to release, after the Tab is closed.
func Open(ctx context.Context, name string, opts Options) (*Tab, error) {
	alias, entry, found, err := opts.Registry.Resolve(name)
	if err != nil {
		return nil, &RegistryError{Err: err}
	}
	reg := opts.Registry
	if !found {
		if !IsTargetID(name) {
			e := &UnknownError{Tab: name, Session: reg.Session()}
			if opts.Damage != nil {
				e.Damage = opts.Damage()
			}
			return nil, e
		}
		alias, entry = name, tabs.Entry{TargetID: name}
	}
	ep := entry.Endpoint()
	if !found {
		if ep, err = DefaultEndpoint(opts.Getenv); err != nil {
			return nil, err
		}
	}
	// The connection is bounded by the call's timeout: nothing else bounds
	// a remote endpoint that accepts and never answers.
	cctx, cancel := context.WithTimeout(ctx, opts.connectWait())
	defer cancel()
	b, err := reach(cctx, ep, entry, opts)
	if err != nil {
		if gone := sessionGone(ctx, nil, ep, reg, err); gone != nil {
			return nil, gone
		}
		var ce *ConnectError
		if errors.As(err, &ce) {
			ce.Alias = alias
		}
		return nil, err
	}
	if !found {
		err = CheckTarget(cctx, b.Browser, entry.TargetID, reg)
	}
	var t *Tab
	if err == nil {
		t, err = Attach(ctx, b, Target{Alias: alias, Entry: entry, Registered: found}, opts)
	}
	if err != nil {
		if gone := sessionGone(ctx, b, ep, reg, err); gone != nil {
			err = gone
		}
		b.Release(opts.Exiting)
		return nil, err
	}
	return t, nil
}

// Attach holds target over b, a browser the caller holds (a tab step's,
// which may switch tabs on it). A tab whose renderer crashed, or whose
// page does not answer, is reloaded once and the call goes on there, with
// a warning: a new session cannot stop a script that is already running,
// and the agent's next move would be the reload anyway. On an error
// nothing of the tab is held.
func Attach(ctx context.Context, b *Browser, target Target, opts Options) (*Tab, error) {
	t := &Tab{Alias: target.Alias, Browser: b, opts: opts}
	if err := t.attach(ctx, target.TargetID, target.Frame); err != nil {
		t.Close()
		return nil, err
	}
	if target.Registered {
		t.rememberBrowser(target.Entry)
	}
	return t, nil
}

// attach locks the tab and sets a session up on it, in frame when an
// earlier call switched it there.
func (t *Tab) attach(ctx context.Context, targetID, frame string) error {
	unlock, waited, err := tabs.LockTarget(t.opts.Files.Temp, targetID, t.opts.Timeout)
	var busy *tabs.TargetBusyError
	switch {
	case errors.As(err, &busy):
		return &BusyError{Alias: t.Alias, Err: err}
	case err != nil:
		// The lock file cannot be had (a refused or read-only temp
		// directory): the tab is driven all the same, and the agent told.
		if _, ok := private.File(err); ok {
			t.unsaved(fmt.Sprintf("tab %s's lock (another call may drive the tab at once)", t.Alias), err)
		} else {
			t.warn("tab %s is not locked against other cdpskill calls: %v", t.Alias, err)
		}
	}
	t.unlock = unlock
	if waited > 0 {
		t.warn("tab %s was in use by another cdpskill call; this call waited %d ms for it (the page may have changed since you last saw it)", t.Alias, waited.Milliseconds())
	}
	err = t.open(ctx, targetID, frame)
	switch err.(type) {
	case *heldTab:
		return t.leaveHeld(ctx)
	case *mutedTab:
		return &MutedError{Alias: t.Alias}
	}
	var sick *sickTab
	if !errors.As(err, &sick) {
		return err
	}
	if err := t.revive(ctx, sick); err != nil {
		return err
	}
	if err := t.open(ctx, targetID, ""); err != nil {
		if errors.As(err, &sick) {
			return sick.failure(t.Alias, "even after a reload; close it (closeTab) and open a new tab")
		}
		return err
	}
	t.frame = frame // the reload left that frame behind: the registry forgets it
	return nil
}

// Close lets the tab go: it saves the frame the tab is in for the next
// call, stops the watches, closes the captures (writing the network log)
// and the service worker watch, and unlocks the tab. The browser stays
// the caller's.
func (t *Tab) Close() {
	t.release()
	if t.unlock != nil {
		t.unlock()
	}
	t.unlock = nil
}

// release ends what the call follows on the tab, keeping its lock.
func (t *Tab) release() {
	t.saveFrame()
	if t.stopWatch != nil {
		t.stopWatch()
	}
	if t.Console != nil {
		t.Console.Close()
	}
	if t.fconsole != nil {
		t.fconsole.Close()
	}
	if t.Page != nil {
		t.Page.Close()
	}
	if err := t.stopNetwork(); err != nil {
		t.fileTrouble("network log", err)
	}
	t.stopRoutes()
	if t.workers != nil {
		t.workers.stop() // before the tab is another call's: its workers are resumed, auto-attach is off
		t.workers = nil
	}
	t.Session, t.Page, t.Console, t.fconsole, t.stopWatch, t.frame = nil, nil, nil, nil, nil, ""
}

// Dead reports that the tab died under the call (Die).
func (t *Tab) Dead() bool { return t.dead.Load() }

// Die marks the tab dead and ends the call with cause, which Died then
// returns: the tab watch's verdict on a crash or a close, or the caller's
// on a page that stays silent.
func (t *Tab) Die(cause error) {
	t.dead.Store(true)
	if t.opts.Abort != nil {
		t.opts.Abort(&death{cause})
	}
}

// FollowDialogs points the call's dialog watch at the tab.
func (t *Tab) FollowDialogs(ctx context.Context) {
	d := t.opts.Dialogs
	if d == nil || t.Session == nil || t.Dead() {
		return
	}
	if err := d.Follow(ctx, t.Session); err != nil && ctx.Err() == nil {
		t.warn("JavaScript dialogs of tab %s may go unanswered: %v", t.Alias, err)
	}
}

// rememberBrowser caches the browser's websocket URL in the tab's entry
// when it changed (a new Chrome on the same port).
func (t *Tab) rememberBrowser(entry tabs.Entry) {
	v := t.Browser.Version
	if v == nil || v.WebSocketDebuggerURL == entry.BrowserWS || t.Browser.Endpoint.Provider != "" {
		return
	}
	ws := v.WebSocketDebuggerURL
	if err := t.opts.Registry.Update(t.Alias, func(e *tabs.Entry) { e.BrowserWS = ws }); err != nil {
		t.warn("tab registry: %v", err)
	}
}

// RefFloors are the tab's ref counters as the registry last saw them:
// snapshots start numbering above them even on a fresh document.
func (t *Tab) RefFloors() (snapshot, element int) {
	_, e, found, err := t.opts.Registry.Resolve(t.Alias)
	if err != nil || !found {
		return 0, 0
	}
	return e.SnapshotID, e.ElementID
}

// SaveRefCounters records the tab's ref counters after a snapshot handed
// out refs; counters only grow.
func (t *Tab) SaveRefCounters(snapshot, element int) {
	s, e := t.RefFloors()
	if snapshot <= s && element <= e {
		return
	}
	err := t.opts.Registry.Update(t.Alias, func(e *tabs.Entry) {
		e.SnapshotID = max(e.SnapshotID, snapshot)
		e.ElementID = max(e.ElementID, element)
	})
	if err != nil {
		t.warn("tab registry: %v", err)
	}
}

// restoreFrame enters the frame an earlier call switched the tab to. A
// frame that is gone (the page navigated, the iframe was removed) leaves
// the call in the top document, with a warning.
func (t *Tab) restoreFrame(ctx context.Context, id string) {
	if id == "" {
		return
	}
	t.frame = id
	f, err := t.Page.FindFrame(ctx, id)
	if err == nil {
		t.Page.Enter(f)
		return
	}
	t.warn("the frame this tab was switched to is gone (%v); steps run in the top document", err)
}

// saveFrame records the tab's current frame for the next call.
func (t *Tab) saveFrame() {
	if t.Page == nil {
		return
	}
	id := ""
	if t.Page.Frame != nil {
		id = t.Page.Frame.ID
	}
	if id == t.frame {
		return
	}
	err := t.opts.Registry.Update(t.Alias, func(e *tabs.Entry) { e.Frame = id })
	var gone *tabs.UnknownAliasError // a closed tab, or a bare target id
	if err != nil && !errors.As(err, &gone) {
		t.warn("tab registry: %v", err)
	}
}

func (t *Tab) warn(format string, args ...any) {
	if t.opts.Warn != nil {
		t.opts.Warn(fmt.Sprintf(format, args...))
	}
}

func (t *Tab) unsaved(what string, err error) {
	if t.opts.Unsaved != nil {
		t.opts.Unsaved(what, err)
	}
}

// fileTrouble notes err as an unsaved file when it is one, else warns
// with what it was about.
func (t *Tab) fileTrouble(what string, err error) {
	if path, ok := private.File(err); ok {
		t.unsaved(filepath.Base(path), err)
		return
	}
	t.warn("%s: %v", what, err)
}
