package proto

import (
	"context"

	"github.com/cdpskill/cdpskill/cdp"
)

// TargetInfo is what the browser knows of a target (Target.TargetInfo).
type TargetInfo struct {
	TargetID string `json:"targetId"`
	// Type is page, iframe, service_worker, worker, browser…
	Type     string `json:"type"`
	Title    string `json:"title"`
	URL      string `json:"url"`
	Attached bool   `json:"attached"`
	// OpenerID is the target that opened this one (window.open, a link
	// with a target).
	OpenerID string `json:"openerId"`
	// ParentFrameID is, for an out-of-process iframe, the frame that
	// holds it.
	ParentFrameID string `json:"parentFrameId"`
	// ParentID is, for an iframe or a worker, the target it belongs to.
	ParentID string `json:"parentId"`
	// BrowserContextID is the context the target is in: the default
	// one's (Target.getBrowserContexts), or one made for a session.
	BrowserContextID string `json:"browserContextId"`
}

// TargetFilter picks targets by type (Target.TargetFilter's entries).
type TargetFilter struct {
	Type    string `json:"type,omitempty"`
	Exclude bool   `json:"exclude,omitempty"`
}

// TargetGetTargets lists the browser's targets.
type TargetGetTargets struct {
	Filter []TargetFilter `json:"filter,omitempty"`
}

type TargetGetTargetsResult struct {
	TargetInfos []TargetInfo `json:"targetInfos"`
}

func (p TargetGetTargets) Do(ctx context.Context, c Caller) (TargetGetTargetsResult, error) {
	return call[TargetGetTargetsResult](ctx, c, "Target.getTargets", p)
}

// TargetGetTargetInfo asks the browser about a target; with no TargetID,
// about the one the session is attached to. The browser answers while the
// page is busy or between documents.
type TargetGetTargetInfo struct {
	TargetID string `json:"targetId,omitempty"`
}

type TargetGetTargetInfoResult struct {
	TargetInfo TargetInfo `json:"targetInfo"`
}

func (p TargetGetTargetInfo) Do(ctx context.Context, c Caller) (TargetGetTargetInfoResult, error) {
	return call[TargetGetTargetInfoResult](ctx, c, "Target.getTargetInfo", p)
}

// TargetCreateTarget opens a tab.
type TargetCreateTarget struct {
	URL string `json:"url"`
	// NewWindow opens it in a window of its own: a headless browser
	// renders only the front tab of each window.
	NewWindow  bool `json:"newWindow,omitempty"`
	Background bool `json:"background,omitempty"`
	// BrowserContextID is the context it opens in; empty is the
	// default one. A context that is gone fails it (cdp.IsContextGone).
	BrowserContextID string `json:"browserContextId,omitempty"`
}

type TargetCreateTargetResult struct {
	TargetID string `json:"targetId"`
}

func (p TargetCreateTarget) Do(ctx context.Context, c Caller) (TargetCreateTargetResult, error) {
	return call[TargetCreateTargetResult](ctx, c, "Target.createTarget", p)
}

// TargetCreateBrowserContext makes a browser context: a profile of its
// own in the running browser (cookies, storage, cache, permissions), as
// an incognito window has, whose tabs see nothing of the others'.
type TargetCreateBrowserContext struct {
	// DisposeOnDetach closes the context, with its tabs, when the
	// connection that made it closes. Each cdpskill call is a process
	// whose connection ends with it, so it is sent false, outright: the
	// protocol leaves the default unsaid (Chrome 156 keeps the context).
	DisposeOnDetach bool `json:"disposeOnDetach"`
}

type TargetCreateBrowserContextResult struct {
	BrowserContextID string `json:"browserContextId"`
}

func (p TargetCreateBrowserContext) Do(ctx context.Context, c Caller) (TargetCreateBrowserContextResult, error) {
	return call[TargetCreateBrowserContextResult](ctx, c, "Target.createBrowserContext", p)
}

// TargetGetBrowserContexts lists the contexts made over the protocol,
// from any connection; the default one is apart. A tab's own websocket
// is refused it ("Not allowed").
type TargetGetBrowserContexts struct{}

type TargetGetBrowserContextsResult struct {
	BrowserContextIDs       []string `json:"browserContextIds"`
	DefaultBrowserContextID string   `json:"defaultBrowserContextId"`
}

func (p TargetGetBrowserContexts) Do(ctx context.Context, c Caller) (TargetGetBrowserContextsResult, error) {
	return call[TargetGetBrowserContextsResult](ctx, c, "Target.getBrowserContexts", p)
}

// TargetDisposeBrowserContext closes a context and every tab in it.
type TargetDisposeBrowserContext struct {
	BrowserContextID string `json:"browserContextId"`
}

func (p TargetDisposeBrowserContext) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Target.disposeBrowserContext", p)
}

// TargetCloseTarget closes a tab.
type TargetCloseTarget struct {
	TargetID string `json:"targetId"`
}

func (p TargetCloseTarget) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Target.closeTarget", p)
}

// TargetActivateTarget brings a tab to the front of its window.
type TargetActivateTarget struct {
	TargetID string `json:"targetId"`
}

func (p TargetActivateTarget) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Target.activateTarget", p)
}

// TargetAttachToTarget opens a session to a target.
type TargetAttachToTarget struct {
	TargetID string `json:"targetId"`
	// Flatten: the session's messages travel over this connection, tagged
	// with its id (the only mode cdpskill uses).
	Flatten bool `json:"flatten,omitempty"`
}

type TargetAttachToTargetResult struct {
	SessionID string `json:"sessionId"`
}

func (p TargetAttachToTarget) Do(ctx context.Context, c Caller) (TargetAttachToTargetResult, error) {
	return call[TargetAttachToTargetResult](ctx, c, "Target.attachToTarget", p)
}

// TargetDetachFromTarget ends a session; its target lives on.
type TargetDetachFromTarget struct {
	SessionID string `json:"sessionId"`
}

func (p TargetDetachFromTarget) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Target.detachFromTarget", p)
}

// TargetSetAutoAttach attaches the session to the targets its target
// starts (service workers, out-of-process frames) as they start.
type TargetSetAutoAttach struct {
	AutoAttach bool `json:"autoAttach"`
	// WaitForDebuggerOnStart holds each new target until the session
	// resumes it (Runtime.runIfWaitingForDebugger), so nothing it does
	// before its setup goes unseen.
	WaitForDebuggerOnStart bool           `json:"waitForDebuggerOnStart"`
	Flatten                bool           `json:"flatten,omitempty"`
	Filter                 []TargetFilter `json:"filter,omitempty"`
}

func (p TargetSetAutoAttach) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Target.setAutoAttach", p)
}

// TargetSetDiscoverTargets turns the target events on for the connection.
type TargetSetDiscoverTargets struct {
	Discover bool `json:"discover"`
}

func (p TargetSetDiscoverTargets) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Target.setDiscoverTargets", p)
}

// Attach opens a flat session to targetID over conn.
func Attach(ctx context.Context, conn *cdp.Conn, targetID string) (*cdp.Session, error) {
	res, err := TargetAttachToTarget{TargetID: targetID, Flatten: true}.Do(ctx, conn.Browser())
	if err != nil {
		return nil, err
	}
	return cdp.Adopt(conn, res.SessionID, targetID), nil
}

// Detach ends s; its target lives on. A tab's own websocket's session
// (cdp.TabSession) ends when its connection closes.
func Detach(ctx context.Context, s *cdp.Session) error {
	if s.ID == "" {
		return nil
	}
	return TargetDetachFromTarget{SessionID: s.ID}.Do(ctx, s.Conn().Browser())
}

// The Target domain's events.
const (
	EventTargetCreated      = "Target.targetCreated"
	EventTargetInfoChanged  = "Target.targetInfoChanged"
	EventTargetDestroyed    = "Target.targetDestroyed"
	EventTargetAttachedTo   = "Target.attachedToTarget"
	EventTargetDetachedFrom = "Target.detachedFromTarget"
)

// TargetCreated is Target.targetCreated's and Target.targetInfoChanged's
// params.
type TargetCreated struct {
	TargetInfo TargetInfo `json:"targetInfo"`
}

// TargetDestroyed is Target.targetDestroyed's params.
type TargetDestroyed struct {
	TargetID string `json:"targetId"`
}

// TargetAttachedToTarget is Target.attachedToTarget's params.
type TargetAttachedToTarget struct {
	SessionID          string     `json:"sessionId"`
	TargetInfo         TargetInfo `json:"targetInfo"`
	WaitingForDebugger bool       `json:"waitingForDebugger"`
}

// TargetDetachedFromTarget is Target.detachedFromTarget's params.
type TargetDetachedFromTarget struct {
	SessionID string `json:"sessionId"`
	TargetID  string `json:"targetId"`
}
