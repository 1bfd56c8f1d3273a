package proto

import (
	"context"

	"github.com/cdpskill/cdpskill/cdp"
)

// The Browser domain's commands go to the browser: a connection's own
// session (cdp.Conn.Browser), or a tab's own websocket, which hands them
// on.

// BrowserGetVersion asks the browser what it is. Its reply follows every
// event the browser sent before it, which makes it a cheap flush of the
// connection's events.
type BrowserGetVersion struct{}

type BrowserGetVersionResult struct {
	// Product is the browser's name and version: "HeadlessChrome/…",
	// "Chrome/…".
	Product string `json:"product"`
}

func (p BrowserGetVersion) Do(ctx context.Context, c Caller) (BrowserGetVersionResult, error) {
	return call[BrowserGetVersionResult](ctx, c, "Browser.getVersion", p)
}

// BrowserSetDownloadBehavior says what the browser does with downloads.
// The setting is a browser context's and lasts only as long as the
// connection that made it: when it closes Chrome goes back to its
// default, saving into ~/Downloads (a context made over the protocol
// cancels them).
type BrowserSetDownloadBehavior struct {
	// Behavior is deny, allow, allowAndName (saved into DownloadPath
	// named by the download's guid) or default.
	Behavior     string `json:"behavior"`
	DownloadPath string `json:"downloadPath,omitempty"`
	// BrowserContextID is the context it is for; empty is the default
	// one only, not the others.
	BrowserContextID string `json:"browserContextId,omitempty"`
	// EventsEnabled sends Browser.downloadWillBegin and
	// Browser.downloadProgress to this connection.
	EventsEnabled bool `json:"eventsEnabled,omitempty"`
}

func (p BrowserSetDownloadBehavior) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Browser.setDownloadBehavior", p)
}

// BrowserGetWindowForTarget finds the window a tab is in.
type BrowserGetWindowForTarget struct {
	TargetID string `json:"targetId,omitempty"`
}

type BrowserGetWindowForTargetResult struct {
	WindowID int `json:"windowId"`
}

func (p BrowserGetWindowForTarget) Do(ctx context.Context, c Caller) (BrowserGetWindowForTargetResult, error) {
	return call[BrowserGetWindowForTargetResult](ctx, c, "Browser.getWindowForTarget", p)
}

// PermissionDescriptor names a permission as the Permissions API does
// (Browser.PermissionDescriptor): geolocation, camera, clipboard-read…
type PermissionDescriptor struct {
	Name string `json:"name"`
	// UserVisibleOnly is required, and true, for push.
	UserVisibleOnly bool `json:"userVisibleOnly,omitempty"`
	// AllowWithoutGesture is required, and true, for fullscreen.
	AllowWithoutGesture bool `json:"allowWithoutGesture,omitempty"`
}

// BrowserSetPermission overrides what the browser answers a page that
// asks for a permission, in a browser context: for every origin when
// Origin is empty. Overrides are the browser context's, not the
// session's: every tab in the context has them, and when any session
// that set one detaches, Chrome resets them all, every tab's.
type BrowserSetPermission struct {
	Permission PermissionDescriptor `json:"permission"`
	// Setting is granted, denied or prompt.
	Setting          string `json:"setting"`
	Origin           string `json:"origin,omitempty"`
	BrowserContextID string `json:"browserContextId,omitempty"`
}

func (p BrowserSetPermission) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Browser.setPermission", p)
}

func (p BrowserSetPermission) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Browser.setPermission", p)
}

// BrowserResetPermissions ends every permission override of a browser
// context (the default one when BrowserContextID is empty), whoever set
// it.
type BrowserResetPermissions struct {
	BrowserContextID string `json:"browserContextId,omitempty"`
}

func (p BrowserResetPermissions) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Browser.resetPermissions", p)
}

// BrowserClose is Browser.close: Chrome closes every window and exits.
type BrowserClose struct{}

func (p BrowserClose) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Browser.close", p)
}

// The Browser domain's events: sent to every connection that asked for
// download events (BrowserSetDownloadBehavior.EventsEnabled), whichever
// tab the download is in.
const (
	EventBrowserDownloadWillBegin = "Browser.downloadWillBegin"
	EventBrowserDownloadProgress  = "Browser.downloadProgress"
)

// BrowserDownloadWillBegin is Browser.downloadWillBegin's params.
type BrowserDownloadWillBegin struct {
	// FrameID is the frame that began the download: a tab's main frame
	// has the tab's target id.
	FrameID           string `json:"frameId"`
	GUID              string `json:"guid"`
	URL               string `json:"url"`
	SuggestedFilename string `json:"suggestedFilename"`
}

// BrowserDownloadProgress is Browser.downloadProgress's params.
type BrowserDownloadProgress struct {
	GUID          string  `json:"guid"`
	TotalBytes    float64 `json:"totalBytes"`
	ReceivedBytes float64 `json:"receivedBytes"`
	// State is inProgress, completed or canceled.
	State string `json:"state"`
	// FilePath is where Chrome put the finished file.
	FilePath string `json:"filePath"`
}
