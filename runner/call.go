package runner

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/fleet"
	"github.com/cdpskill/cdpskill/keeper"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/tab"
	"github.com/cdpskill/cdpskill/tabs"
)

// Call is the state of one cdpskill invocation: the browser connection
// and the tab the tab layer holds for it, and what the executors report
// beyond their outputs.
type Call struct {
	getenv chrome.Env
	tabs   *tabs.Registry
	// files is where the call's files go (Options.TempDir, Options.Dir).
	files capture.Files
	// trace records the call's CDP calls for the debug log (Options.Trace).
	trace *cdp.Trace
	// browser is the call's browser connection, which outlives the tabs
	// the call attaches over it.
	browser *tab.Browser
	// keep reaches the keepers of the call's browsers; nil: none.
	keep *keeper.Client
	// relay: the keeper brings the downloads of the call's tab (tab.Options.Relay).
	relay bool
	// tab is the call's tab: nil until one is attached, and once closeTab
	// closed it.
	tab   *tab.Tab
	start time.Time

	// startURL is the tab's URL when the call attached to it, for
	// navigation detection; empty for a tab the call opened.
	startURL string
	// arrived: the tab was opened or connected by a step of this call.
	arrived bool
	// startDoc is the document attach found, for a tab the call did not
	// open.
	startDoc float64
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

	// abort ends the whole call with a cause when the tab dies under it.
	abort context.CancelCauseFunc
	// timeout is the call's: the tab layer waits that long for the tab's
	// lock, its browser, and a navigation that holds it back.
	timeout time.Duration
	// held: a step timed out while a navigation held the page back
	// (checkAnswers); the captures do not wait on it.
	held bool

	// dialogs answers the page's JavaScript dialogs for the whole call.
	dialogs *page.DialogWatch

	// exiting: the process ends with the call (Options.Exiting).
	exiting bool
	// after, when the call asked for "annotate", brings the report's
	// screenshot its marks.
	after *afterMarks
	// early is the report's screenshot, taken while the last step settled
	// (see shootOnce).
	early *earlyShot
	// turn is the call's number in the history of tab turnAlias, taken
	// when the report first names a file of it (history.go).
	turnMu    sync.Mutex
	turnAlias string
	turn      int
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

// tabOptions are what the tab layer needs of the call; tabSocket: the
// batch stays on its top-level tab (Open).
func (c *Call) tabOptions(tabSocket bool) tab.Options {
	return tab.Options{
		Registry: c.tabs, Getenv: c.getenv, Timeout: c.timeout, Start: c.start,
		Warn:    func(w string) { c.warn("%s", w) },
		Unsaved: c.unsaved,
		Abort:   c.abort,
		Dialogs: c.dialogs,
		Damage: func() error {
			c.warnMu.Lock()
			defer c.warnMu.Unlock()
			return c.damage
		},
		Exiting:   c.exiting,
		Files:     c.files,
		TabSocket: tabSocket,
		Keeper:    c.keep,
		Relay:     tabSocket && c.relay,
	}
}

// open holds the tab the top-level "tab" names, over the tab's own
// websocket when the batch stays on it (tabSocket).
func (c *Call) open(ctx context.Context, name string, tabSocket bool) error {
	t, err := tab.Open(ctx, name, c.tabOptions(tabSocket))
	if err != nil {
		return err
	}
	c.browser = t.Browser
	c.use(t)
	c.startURL, c.startDoc, c.arrived = t.URL, t.Doc, false
	return nil
}

// connect reaches the browser at ep, reusing the open connection when it
// is that browser's websocket. The callers attach another tab next, so a
// tab's own websocket (chrome.DialTab) is left with its tab.
func (c *Call) connect(ctx context.Context, ep chrome.Endpoint, headless *bool, autoLaunch bool) (*tab.Browser, error) {
	ep = ep.WithDefaults()
	if c.browser != nil && chrome.SameEndpoint(c.browser.Endpoint, ep) && c.browser.Tab == "" {
		return c.browser, nil
	}
	b, err := tab.Connect(ctx, c.getenv, ep, c.files.Temp, headless, autoLaunch)
	if err != nil {
		return nil, err
	}
	if b.Relaunched != "" {
		c.warn("Chrome at %s was not running (%s), so a new one was launched: the tabs and sessions of the one before are gone", ep, b.Relaunched)
	}
	c.adopt(b)
	return b, nil
}

// create makes a browser on the fleet server srv and connects the call
// to it; its keeper keeps it from then on.
func (c *Call) create(ctx context.Context, srv fleet.Server) (*tab.Browser, error) {
	b, err := tab.Create(ctx, srv, c.files.Temp)
	if err != nil {
		return nil, err
	}
	if fleet.Kept(b.Endpoint) {
		note, err := c.keep.Keep(ctx, b.Endpoint, c.tabs.Session())
		if note != "" {
			c.warn("%s", note)
		}
		switch {
		case c.keep == nil || c.keep.Exe == nil:
			c.warn("no keeper can be started in this process: the %s browser at %s is closed when this call ends", srv.Provider, b.Endpoint)
		case err != nil:
			b.Close() // nothing would keep it past the call
			return nil, &Error{Type: Connection, Err: err, Message: fmt.Sprintf("the %s browser made at %s was closed, as nothing could keep it between calls: %v", srv.Provider, srv, err)}
		}
	}
	c.adopt(b)
	return b, nil
}

// adopt makes b the call's browser connection, letting the one before go.
func (c *Call) adopt(b *tab.Browser) {
	if c.browser != nil {
		c.detach()
		c.browser.Close()
	}
	c.browser = b
}

// attach makes target the call's tab, over the browser a tab step
// connected to, letting the current one go first.
func (c *Call) attach(ctx context.Context, target tab.Target) error {
	c.detach()
	t, err := tab.Attach(ctx, c.browser, target, c.tabOptions(false))
	if err != nil {
		return err
	}
	c.use(t)
	return nil
}

// use makes t the call's tab. What the call knew of its earlier tab says
// nothing of this one.
func (c *Call) use(t *tab.Tab) {
	c.tab = t
	c.startURL, c.startDoc, c.before, c.beforeFailed, c.arrived = "", 0, nil, false, true
	c.landed, c.rebased = false, false
}

// detach lets the call's tab go.
func (c *Call) detach() {
	if c.tab != nil {
		c.tab.Close()
		c.tab = nil
	}
}

func (c *Call) close() {
	c.trace.Mark("closing")
	c.early.abandon() // its file is written whole, or not at all, before the process ends
	c.detach()
	if c.browser != nil {
		c.browser.Release(c.exiting)
	}
	c.trace.Mark("closed")
}

// requirePage returns the attached page or a clear error.
func (c *Call) requirePage() (*page.Page, error) {
	if c.page() == nil {
		return nil, &Error{Type: Connection, Message: `no tab attached: pass "tab":"t1" or start with openTab`}
	}
	return c.page(), nil
}

// The call's tab as the executors use it; the zero value when none is
// attached.

func (c *Call) page() *page.Page {
	if c.tab == nil {
		return nil
	}
	return c.tab.Page
}

func (c *Call) sess() *cdp.Session {
	if c.tab == nil {
		return nil
	}
	return c.tab.Session
}

func (c *Call) alias() string {
	if c.tab == nil {
		return ""
	}
	return c.tab.Alias
}

func (c *Call) console() *capture.Console {
	if c.tab == nil {
		return nil
	}
	return c.tab.Console
}

// dead: the tab died under the call (tab.Died says how).
func (c *Call) dead() bool { return c.tab != nil && c.tab.Dead() }

// network is the tab's network capture; nil when it did not start.
func (c *Call) network() *tab.Network {
	if c.tab == nil {
		return nil
	}
	return c.tab.Network()
}

// downloads saves and reports the downloads the call's tab starts.
func (c *Call) downloads() *capture.Downloads {
	if c.browser == nil {
		return nil
	}
	return c.browser.Downloads
}
