package tab

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"syscall"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/tabs"
)

// A session (tabs.OpenSession) keeps an agent's tabs in a browser context
// of its own. The call's registry is the session's, so an alias is only
// ever one of the session's tabs; the tab layer adds the context: made on
// the session's first openTab in a browser (NewTarget), found again in the
// registry by later calls, the only one whose tabs the session lists
// (Pages) or reaches by target id (CheckTarget). Chrome keeps it until it
// is disposed of or Chrome exits; a context that is gone is never made
// again on the quiet, since what the agent built up in it (a login) went
// with it: the call that finds it gone fails saying so and forgets it
// (SessionGoneError), and the session's next openTab makes a new one.

// SessionGoneError is a session whose browser context is gone, with its
// tabs, cookies and storage.
type SessionGoneError struct {
	Session string
	// Why says what became of the context.
	Why string
}

func (e *SessionGoneError) Error() string {
	return fmt.Sprintf("session %q is gone: %s, and its tabs, cookies, storage and logins went with it; openTab starts the session afresh (sign in again)", e.Session, e.Why)
}
func (e *SessionGoneError) ErrorType() string { return Connection }

// ForeignError is a tab, named by its target id, that is not in the
// call's session.
type ForeignError struct {
	Tab, Session string
}

func (e *ForeignError) Error() string {
	return fmt.Sprintf("tab %s is not one of session %q's tabs: a session reaches only its own; listTabs shows them", e.Tab, e.Session)
}
func (e *ForeignError) ErrorType() string { return Connection }

// NewTarget opens a blank tab, in a window of its own, in the context of
// reg's session on b, and returns its target id. A session's first tab
// in a browser makes its context there; the default session's tabs open
// in Chrome's default context.
func (b *Browser) NewTarget(ctx context.Context, reg *tabs.Registry) (string, error) {
	id, err := b.sessionContext(ctx, reg, true)
	if err != nil {
		return "", err
	}
	// A window of its own: in headless Chrome only a window's active tab
	// renders, and a hidden tab stalls input and screenshots.
	created, err := proto.TargetCreateTarget{URL: "about:blank", NewWindow: true, BrowserContextID: id}.Do(ctx, b.Conn.Browser())
	if cdp.IsBrowserContextGone(err) {
		b.Context = "" // a later openTab of the call makes a new one
		return "", contextGone(reg, b.Endpoint, id, restarted(b.Endpoint))
	}
	return created.TargetID, err
}

// sessionContext is the browser context of reg's session on b: "" for
// the default session, or for a session with none there unless create,
// which makes it. Of two calls that make one at once, the first to
// record it wins and the other disposes of its own.
func (b *Browser) sessionContext(ctx context.Context, reg *tabs.Registry, create bool) (string, error) {
	if reg.Session() == "" || b.Context != "" {
		return b.Context, nil
	}
	c, found, err := reg.Context(b.Endpoint)
	if err != nil {
		return "", &RegistryError{Err: err}
	}
	if c.Closed != "" {
		return "", contextGone(reg, b.Endpoint, c.ID, c.Closed)
	}
	id := c.ID
	if !found && create {
		made, err := proto.TargetCreateBrowserContext{DisposeOnDetach: false}.Do(ctx, b.Conn.Browser())
		if err != nil {
			return "", fmt.Errorf("session %q: Chrome made no browser context for it: %w", reg.Session(), err)
		}
		if id, err = reg.AddContext(b.Endpoint, made.BrowserContextID); err != nil || id != made.BrowserContextID {
			_ = proto.TargetDisposeBrowserContext{BrowserContextID: made.BrowserContextID}.Do(ctx, b.Conn.Browser())
		}
		if err != nil {
			return "", &RegistryError{Err: err}
		}
	}
	b.Context = id
	return id, nil
}

// Pages lists the tabs of b that reg's session may reach, in Chrome's
// order: those in its context (none before its first openTab there), or
// every tab for the default session. A session whose context is gone is
// a *SessionGoneError.
func Pages(ctx context.Context, b *chrome.Browser, reg *tabs.Registry) ([]chrome.TargetInfo, error) {
	pages, err := chrome.ListPagesWS(ctx, b.Conn)
	if err != nil || reg.Session() == "" {
		return pages, err
	}
	c, found, err := reg.Context(b.Endpoint)
	if err != nil {
		return nil, &RegistryError{Err: err}
	}
	if !found {
		return nil, nil
	}
	if c.Closed != "" {
		return nil, contextGone(reg, b.Endpoint, c.ID, c.Closed)
	}
	id := c.ID
	var own []chrome.TargetInfo
	for _, p := range pages {
		if p.BrowserContextID == id {
			own = append(own, p)
		}
	}
	if len(own) == 0 { // a tab of its own proves the context; none may mean it is gone
		if err := checkContext(ctx, b, reg, id); err != nil {
			return nil, err
		}
	}
	return own, nil
}

// checkContext tells whether reg's session's context id is still in b.
func checkContext(ctx context.Context, b *chrome.Browser, reg *tabs.Registry, id string) error {
	res, err := (proto.TargetGetBrowserContexts{}).Do(ctx, b.Conn.Browser())
	if err != nil {
		return err
	}
	if slices.Contains(res.BrowserContextIDs, id) {
		return nil
	}
	return contextGone(reg, b.Endpoint, id, restarted(b.Endpoint))
}

// CheckTarget refuses, in a session, the tab targetID when it is not in
// the session's context: a target id does not bring another session's
// tab within reach. A tab that is gone is a *GoneError.
func CheckTarget(ctx context.Context, b *chrome.Browser, targetID string, reg *tabs.Registry) error {
	if reg.Session() == "" {
		return nil
	}
	info, err := proto.TargetGetTargetInfo{TargetID: targetID}.Do(ctx, b.Conn.Browser())
	if cdp.IsTargetGone(err) {
		return &GoneError{Alias: targetID, Err: err}
	}
	if err != nil {
		return err
	}
	c, found, err := reg.Context(b.Endpoint)
	if err != nil {
		return &RegistryError{Err: err}
	}
	if c.Closed != "" {
		return contextGone(reg, b.Endpoint, c.ID, c.Closed)
	}
	if !found || info.TargetInfo.BrowserContextID != c.ID {
		return &ForeignError{Tab: targetID, Session: reg.Session()}
	}
	return nil
}

// sessionGone is what err, a session's tab not reached (a *ConnectError)
// or not there (a *GoneError), says of the session: a *SessionGoneError
// when its context went with the tab, as Chrome no longer runs at ep, or
// runs without it; else nil. b is the browser reached, if any.
func sessionGone(ctx context.Context, b *Browser, ep chrome.Endpoint, reg *tabs.Registry, err error) error {
	if reg.Session() == "" {
		return nil
	}
	c, found, rerr := reg.Context(ep)
	if rerr != nil || !found {
		return nil
	}
	id := c.ID
	var ce *ConnectError
	var ge *GoneError
	switch {
	case c.Closed != "":
		return contextGone(reg, ep, id, c.Closed)
	case errors.As(err, &ce) && !ep.Remote() && errors.Is(err, syscall.ECONNREFUSED):
		why := fmt.Sprintf("Chrome at %s is no longer running (it exited or was closed)", ep)
		if ce.Why != "" {
			why = fmt.Sprintf("Chrome at %s is no longer running: %s", ep, ce.Why)
		}
		return contextGone(reg, ep, id, why)
	case errors.As(err, &ge) && b != nil && b.Tab == "":
		if gone := checkContext(ctx, b.Browser, reg, id); errors.As(gone, new(*SessionGoneError)) {
			return gone
		}
	}
	return nil
}

// contextGone forgets the session's context id on ep, which is gone, and
// the tabs it held, and says so.
func contextGone(reg *tabs.Registry, ep chrome.Endpoint, id, why string) error {
	_, _ = reg.DropContext(ep, id) // a registry that cannot be written tells the next call the same
	return &SessionGoneError{Session: reg.Session(), Why: why}
}

func restarted(ep chrome.Endpoint) string {
	return fmt.Sprintf("its browser context is no longer in Chrome at %s (Chrome was restarted, or the context was closed)", ep)
}
