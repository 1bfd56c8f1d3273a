package tab

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/fleet"
	"github.com/cdpskill/cdpskill/page"
)

// The layer's errors carry the spec's error type (SPEC 16.1) as
// ErrorType, and those of a subtype its name as ErrorName; their messages
// say what the agent can do.
const (
	Connection = "CONNECTION"
	Execution  = "EXECUTION"
)

// RegistryError is a tab registry that could not be read.
type RegistryError struct{ Err error }

func (e *RegistryError) Error() string     { return "tab registry: " + e.Err.Error() }
func (e *RegistryError) Unwrap() error     { return e.Err }
func (e *RegistryError) ErrorType() string { return Connection }

// UnknownError is a tab name that is neither an alias (of the call's
// session, when it names one) nor a target id. Damage is the registry's
// damage the call found, which may have lost it.
type UnknownError struct {
	Tab     string
	Session string
	Damage  error
}

func (e *UnknownError) Error() string {
	msg := fmt.Sprintf("unknown tab %q: no such alias; listTabs shows the open tabs, openTab opens a new one", e.Tab)
	if e.Session != "" {
		msg = fmt.Sprintf("unknown tab %q in session %q: no such alias among its tabs; listTabs shows them, openTab opens a new one", e.Tab, e.Session)
	}
	if e.Damage != nil {
		msg += fmt.Sprintf(" (the alias may have been lost: %v)", e.Damage)
	}
	return msg
}
func (e *UnknownError) ErrorType() string { return Connection }

// CDPURLError is a CDP_URL in the environment that names no endpoint.
type CDPURLError struct{ Err error }

func (e *CDPURLError) Error() string     { return "CDP_URL in the environment: " + e.Err.Error() }
func (e *CDPURLError) Unwrap() error     { return e.Err }
func (e *CDPURLError) ErrorType() string { return Connection }

// ConnectError says why the browser at Endpoint could not be reached; a
// remote endpoint is named with its secrets redacted. With Alias, it is
// the browser of that tab, which Open was reaching.
type ConnectError struct {
	Endpoint chrome.Endpoint
	Alias    string
	Err      error
	// Why is why the Chrome there is gone, when cdpskill knows: its
	// keeper closed it when idle.
	Why string
}

func (e *ConnectError) Error() string {
	msg := e.reason()
	switch {
	case e.Alias == "":
		return msg
	case e.Endpoint.Remote():
		return fmt.Sprintf("tab %s: %s", e.Alias, msg)
	}
	return fmt.Sprintf("tab %s is gone: %s; open a new tab with openTab, which starts Chrome when none runs", e.Alias, msg)
}

func (e *ConnectError) reason() string {
	if e.Why != "" {
		return e.Why
	}
	if errors.Is(e.Err, chrome.ErrNotFound) {
		return e.Err.Error()
	}
	var r *fleet.Refusal
	if errors.As(e.Err, &r) {
		return cdp.RedactText(r.Error()) // who refused and why, said whole
	}
	msg := fmt.Sprintf("cannot connect to Chrome at %s: %v", e.Endpoint, e.Err)
	var ce *cdp.ConnectError
	if errors.As(e.Err, &ce) {
		msg = ce.Error() // it names the endpoint already
	}
	if e.Endpoint.Remote() {
		msg += " (the remote endpoint refused, dropped or did not answer; no local Chrome is launched when an endpoint is set)"
	}
	return cdp.RedactText(msg)
}
func (e *ConnectError) Unwrap() error     { return e.Err }
func (e *ConnectError) ErrorType() string { return Connection }

// BusyError is a tab another call kept driving for longer than the call
// could wait for its lock.
type BusyError struct {
	Alias string
	Err   error // a *tabs.TargetBusyError
}

func (e *BusyError) Error() string     { return fmt.Sprintf("tab %s: %v", e.Alias, e.Err) }
func (e *BusyError) Unwrap() error     { return e.Err }
func (e *BusyError) ErrorType() string { return Connection }

// GoneError is a tab that was closed: before the call (no session could
// attach to it), or During it, by someone else.
type GoneError struct {
	Alias  string
	During bool
	Err    error
}

func (e *GoneError) Error() string {
	if e.During {
		return fmt.Sprintf("tab %s was closed during the call; open a new one with openTab", e.Alias)
	}
	return fmt.Sprintf("tab %s no longer exists (it was closed); open a new one with openTab", e.Alias)
}
func (e *GoneError) Unwrap() error     { return e.Err }
func (e *GoneError) ErrorType() string { return Connection }

// AttachError is a tab no session could be attached to.
type AttachError struct {
	Alias string
	Err   error
}

func (e *AttachError) Error() string {
	return fmt.Sprintf("cannot attach to tab %s: %v", e.Alias, e.Err)
}
func (e *AttachError) Unwrap() error     { return e.Err }
func (e *AttachError) ErrorType() string { return Connection }

// DroppedError is the browser connection closing mid-call, said in the
// agent's words rather than the websocket's. Remote: a remote endpoint
// dropped it, which says nothing of the tab: a fleet server cuts a
// connection at its job timeout and keeps the browser its keeper holds.
type DroppedError struct {
	Alias  string
	Remote bool
	Err    error
}

func (e *DroppedError) Error() string {
	var ce *cdp.ClosedError
	switch {
	case !errors.As(e.Err, &ce) || ce.Endpoint == "":
		return fmt.Sprintf("tab %s: %v", e.Alias, e.Err)
	case e.Remote:
		return fmt.Sprintf("tab %s: the endpoint at %s closed the connection after %s (its job timeout?), so the call stopped there; that alone does not close the tab: run the call again, in shorter batches if the server cuts long calls", e.Alias, ce.Endpoint, seconds(ce.After))
	}
	return fmt.Sprintf("tab %s: the connection to Chrome at %s closed during the call (Chrome exited or was killed, or the endpoint dropped it); open a new tab with openTab", e.Alias, ce.Endpoint)
}

// seconds is d as a message says it: "31 s", "0.4 s".
func seconds(d time.Duration) string {
	if d >= 10*time.Second {
		return fmt.Sprintf("%d s", int(d.Round(time.Second)/time.Second))
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
func (e *DroppedError) Unwrap() error     { return e.Err }
func (e *DroppedError) ErrorType() string { return Connection }

// CrashedError is a tab whose renderer crashed: before the call, and a
// reload did not bring it back, or during it.
type CrashedError struct {
	Alias string
	then  string // what followed, and what to do
}

func (e *CrashedError) Error() string     { return "tab " + e.Alias + " crashed" + e.then }
func (e *CrashedError) ErrorType() string { return Execution }
func (e *CrashedError) ErrorName() string { return "PageCrashedError" }

// UnresponsiveError is a tab whose page's main thread stayed busy, and a
// reload did not free it.
type UnresponsiveError struct {
	Alias string
	then  string // what followed, and what to do
}

func (e *UnresponsiveError) Error() string {
	return fmt.Sprintf("tab %s does not answer: its page's JavaScript keeps the main thread busy (an endless loop?) %s", e.Alias, e.then)
}
func (e *UnresponsiveError) ErrorType() string { return Execution }
func (e *UnresponsiveError) ErrorName() string { return "PageUnresponsiveError" }

// HeldError is a tab whose page a navigation begun before the call held
// back for the call's whole time (its server has not answered), so none
// of the steps ran. Stopped: cdpskill stopped that navigation, so the
// tab shows Held.Shows as it was.
type HeldError struct {
	Alias   string
	Timeout time.Duration
	Held    page.Held
	Stopped bool
}

func (e *HeldError) Error() string {
	msg := fmt.Sprintf("tab %s did not answer within the call's timeout (%d ms), so none of your steps ran: %s", e.Alias, e.Timeout.Milliseconds(), e.Held.Note())
	if !e.Stopped {
		return msg + fmt.Sprintf("; cdpskill could not stop that navigation: the tab shows %s until the server answers, then the new page", orUnknown(e.Held.Shows))
	}
	return msg + fmt.Sprintf("; cdpskill has stopped that navigation, as the Stop button does, so the tab still shows %s, as it was, with all it held (go there again with a longer timeout if you need the new page)", orUnknown(e.Held.Shows))
}
func (e *HeldError) Unwrap() error     { return context.DeadlineExceeded }
func (e *HeldError) ErrorType() string { return Execution }
func (e *HeldError) ErrorName() string { return "TimeoutError" }

func orUnknown(url string) string {
	if url == "" {
		return "the page it showed"
	}
	return url
}

// MutedError is a tab whose page did not answer and whose main thread no
// session could look at in time (a browser too loaded to attach one):
// nothing was done to it.
type MutedError struct{ Alias string }

func (e *MutedError) Error() string {
	return fmt.Sprintf("tab %s did not answer within %d ms and cdpskill could not look at its page (the browser attached no session in time), so none of your steps ran and nothing was done to the tab; try again, or close it (closeTab) and open a new tab", e.Alias, pageAnswerWait.Milliseconds())
}
func (e *MutedError) ErrorType() string { return Execution }
func (e *MutedError) ErrorName() string { return "TimeoutError" }

// death is the cause the call's context ends with (Options.Abort) when
// its tab dies under it.
type death struct{ err error }

func (d *death) Error() string { return d.err.Error() }
func (d *death) Unwrap() error { return d.err }

// Died returns what killed the call's tab when ctx, the context whose
// cancel is Options.Abort, ended because of that (a crash, a close, the
// connection dropping, or what the runner gave Die); else nil. That, not
// whatever was interrupted, is the news.
func Died(ctx context.Context) error {
	var d *death
	if errors.As(context.Cause(ctx), &d) {
		return d.err
	}
	return nil
}
