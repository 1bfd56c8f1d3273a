package proto

import (
	"context"

	"github.com/cdpskill/cdpskill/cdp"
)

// Frame is a frame of a page's frame tree (Page.Frame), as far as
// cdpskill reads it.
type Frame struct {
	ID       string `json:"id"`
	ParentID string `json:"parentId"`
	// LoaderID is the frame's document: a navigation that commits gives
	// the frame a new one, a same-document one does not.
	LoaderID string `json:"loaderId"`
	Name     string `json:"name"`
	// URL leaves the fragment out: it is URLFragment, "#" included.
	URL         string `json:"url"`
	URLFragment string `json:"urlFragment"`
	// SecurityOrigin is "://" or "null" for a frame with no origin of
	// its own (about:blank, srcdoc, data:), which has its parent's.
	SecurityOrigin string `json:"securityOrigin"`
	// UnreachableURL is the URL Chrome could not load, when the frame
	// shows its error page (chrome-error://) instead.
	UnreachableURL string `json:"unreachableUrl"`
}

// FrameTree is a frame and its children (Page.FrameTree).
type FrameTree struct {
	Frame       Frame       `json:"frame"`
	ChildFrames []FrameTree `json:"childFrames"`
}

// NavigationEntry is an entry of a tab's history (Page.NavigationEntry).
type NavigationEntry struct {
	ID    int    `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

// Viewport is a region of the page in CSS pixels and the scale to render
// it at (Page.Viewport): a screenshot's clip.
type Viewport struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Scale  float64 `json:"scale"`
}

// VisualViewport is the part of the page the screen shows
// (Page.VisualViewport).
type VisualViewport struct {
	// PageX and PageY are its place in the page, in CSS pixels.
	PageX        float64 `json:"pageX"`
	PageY        float64 `json:"pageY"`
	ClientWidth  float64 `json:"clientWidth"`
	ClientHeight float64 `json:"clientHeight"`
}

// PageEnable turns on the Page domain's events for the session. It is
// idempotent, so callers that need the events enable it rather than
// trusting that someone did. Chrome reports a JavaScript dialog only to
// the sessions that had the domain on when it opened, and lets only them
// answer it (Page.handleJavaScriptDialog). A page held by a dialog no
// session can answer holds this command too.
type PageEnable struct{}

func (p PageEnable) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.enable", p)
}

// PageSetLifecycleEventsEnabled turns Page.lifecycleEvent on (init,
// DOMContentLoaded, load, networkIdle…, per frame and loader).
type PageSetLifecycleEventsEnabled struct {
	Enabled bool `json:"enabled"`
}

func (p PageSetLifecycleEventsEnabled) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.setLifecycleEventsEnabled", p)
}

// PageGetFrameTree reads the frames the session's target renders: a
// tab's tree leaves out its out-of-process iframes, each a target of its
// own with a tree of its own. Its reply follows every event Chrome sent
// before it, which makes it a cheap flush of those events.
type PageGetFrameTree struct{}

type PageGetFrameTreeResult struct {
	FrameTree FrameTree `json:"frameTree"`
}

func (p PageGetFrameTree) Do(ctx context.Context, c Caller) (PageGetFrameTreeResult, error) {
	return call[PageGetFrameTreeResult](ctx, c, "Page.getFrameTree", p)
}

// PageNavigate loads URL in the tab's main frame. Chrome answers once the
// new document commits or the navigation fails: until then the server
// has not answered, and Chrome holds back every call to the page.
type PageNavigate struct {
	URL string `json:"url"`
}

type PageNavigateResult struct {
	FrameID string `json:"frameId"`
	// LoaderID is the new document's; none for a same-document
	// navigation (to a fragment), which Chrome answers once the fragment
	// is committed and scrolled to.
	LoaderID string `json:"loaderId"`
	// ErrorText is Chrome's net error (net::ERR_…) when the navigation
	// failed; net::ERR_HTTP_RESPONSE_CODE_FAILURE is an HTTP error status
	// with an empty body, which the server did answer.
	ErrorText string `json:"errorText"`
	// IsDownload: the URL was served as an attachment, and the tab stayed
	// where it was.
	IsDownload bool `json:"isDownload"`
}

func (p PageNavigate) Do(ctx context.Context, c Caller) (PageNavigateResult, error) {
	return call[PageNavigateResult](ctx, c, "Page.navigate", p)
}

// Send sends the navigation without waiting for its answer, which may
// take as long as the server does.
func (p PageNavigate) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Page.navigate", p)
}

// PageStopLoading stops the tab's pending navigation, as the Stop button
// does. The browser answers it while the navigation holds the page back.
type PageStopLoading struct{}

func (p PageStopLoading) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.stopLoading", p)
}

// PageReload reloads the main frame. Its reply carries no loader id: the
// navigation is followed through its events.
type PageReload struct {
	// IgnoreCache is sent even when false: the cache is revalidated, as
	// the Reload button does, not bypassed.
	IgnoreCache bool `json:"ignoreCache"`
}

func (p PageReload) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.reload", p)
}

// PageGetNavigationHistory reads the tab's history. The browser answers
// it while a navigation holds the page back.
type PageGetNavigationHistory struct{}

type PageGetNavigationHistoryResult struct {
	CurrentIndex int               `json:"currentIndex"`
	Entries      []NavigationEntry `json:"entries"`
}

func (p PageGetNavigationHistory) Do(ctx context.Context, c Caller) (PageGetNavigationHistoryResult, error) {
	return call[PageGetNavigationHistoryResult](ctx, c, "Page.getNavigationHistory", p)
}

// PageNavigateToHistoryEntry goes to an entry of the tab's history. Its
// reply carries no loader id: the navigation is followed through its
// events.
type PageNavigateToHistoryEntry struct {
	EntryID int `json:"entryId"`
}

func (p PageNavigateToHistoryEntry) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.navigateToHistoryEntry", p)
}

// PageHandleJavaScriptDialog answers the dialog the page shows. Only a
// session that had the Page domain on when the dialog opened may; to any
// other Chrome says "No dialog is showing".
type PageHandleJavaScriptDialog struct {
	Accept bool `json:"accept"`
	// PromptText is the answer to a prompt; nil leaves it to Chrome.
	PromptText *string `json:"promptText,omitempty"`
}

func (p PageHandleJavaScriptDialog) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.handleJavaScriptDialog", p)
}

// PageCreateIsolatedWorld makes a frame a world of its own: the page's
// DOM without its scripts' globals. Chrome hands every session the same
// world for a name, so what one call keeps in it the next finds.
type PageCreateIsolatedWorld struct {
	FrameID   string `json:"frameId"`
	WorldName string `json:"worldName,omitempty"`
	// GrantUniveralAccess (the protocol's spelling) lets the world reach
	// into frames of other origins.
	GrantUniveralAccess bool `json:"grantUniveralAccess,omitempty"`
}

type PageCreateIsolatedWorldResult struct {
	ExecutionContextID int `json:"executionContextId"`
}

func (p PageCreateIsolatedWorld) Do(ctx context.Context, c Caller) (PageCreateIsolatedWorldResult, error) {
	return call[PageCreateIsolatedWorldResult](ctx, c, "Page.createIsolatedWorld", p)
}

// PageAddScriptToEvaluateOnNewDocument has Chrome run Source in every
// document the session's target loads from now on, before the page's own
// scripts, in the world WorldName names (the main world when empty).
// Chrome drops it with the session that added it.
type PageAddScriptToEvaluateOnNewDocument struct {
	Source    string `json:"source"`
	WorldName string `json:"worldName,omitempty"`
}

type PageAddScriptToEvaluateOnNewDocumentResult struct {
	Identifier string `json:"identifier"`
}

func (p PageAddScriptToEvaluateOnNewDocument) Do(ctx context.Context, c Caller) (PageAddScriptToEvaluateOnNewDocumentResult, error) {
	return call[PageAddScriptToEvaluateOnNewDocumentResult](ctx, c, "Page.addScriptToEvaluateOnNewDocument", p)
}

// PageRemoveScriptToEvaluateOnNewDocument takes back a script
// PageAddScriptToEvaluateOnNewDocument added.
type PageRemoveScriptToEvaluateOnNewDocument struct {
	Identifier string `json:"identifier"`
}

func (p PageRemoveScriptToEvaluateOnNewDocument) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.removeScriptToEvaluateOnNewDocument", p)
}

// PageGetLayoutMetrics measures the page and what of it the screen shows.
// Under device emulation its device-pixel numbers do not tell the scale;
// cdpskill reads the CSS-pixel ones.
type PageGetLayoutMetrics struct{}

type PageGetLayoutMetricsResult struct {
	CSSVisualViewport VisualViewport `json:"cssVisualViewport"`
	// CSSContentSize is the page's whole size in CSS pixels.
	CSSContentSize Rect `json:"cssContentSize"`
}

func (p PageGetLayoutMetrics) Do(ctx context.Context, c Caller) (PageGetLayoutMetricsResult, error) {
	return call[PageGetLayoutMetricsResult](ctx, c, "Page.getLayoutMetrics", p)
}

// PageCaptureScreenshot captures what the tab shows, or Clip of it.
type PageCaptureScreenshot struct {
	// Format is png, jpeg or webp.
	Format string `json:"format,omitempty"`
	// Quality is jpeg's and webp's, 0 to 100.
	Quality int       `json:"quality,omitempty"`
	Clip    *Viewport `json:"clip,omitempty"`
	// CaptureBeyondViewport is sent even when false: capturing beyond
	// the viewport resizes it for a moment, which can relayout the page,
	// and a viewport shot never needs it.
	CaptureBeyondViewport bool `json:"captureBeyondViewport"`
	OptimizeForSpeed      bool `json:"optimizeForSpeed,omitempty"`
}

type PageCaptureScreenshotResult struct {
	Data []byte `json:"data"` // base64 in the JSON
}

func (p PageCaptureScreenshot) Do(ctx context.Context, c Caller) (PageCaptureScreenshotResult, error) {
	return call[PageCaptureScreenshotResult](ctx, c, "Page.captureScreenshot", p)
}

// PagePrintToPDF prints the page as the print preview would.
type PagePrintToPDF struct {
	Landscape           bool `json:"landscape"`
	DisplayHeaderFooter bool `json:"displayHeaderFooter"`
	// PrintBackground is sent even when false: Chrome's default (false)
	// is not cdpskill's (true).
	PrintBackground bool `json:"printBackground"`
	// Scale, PaperWidth and PaperHeight (inches) are Chrome's defaults
	// when 0: 1, and US Letter.
	Scale       float64 `json:"scale,omitempty"`
	PaperWidth  float64 `json:"paperWidth,omitempty"`
	PaperHeight float64 `json:"paperHeight,omitempty"`
	// Margins are in inches; nil is Chrome's default (about 1 cm), 0 none.
	MarginTop         *float64 `json:"marginTop,omitempty"`
	MarginBottom      *float64 `json:"marginBottom,omitempty"`
	MarginLeft        *float64 `json:"marginLeft,omitempty"`
	MarginRight       *float64 `json:"marginRight,omitempty"`
	PageRanges        string   `json:"pageRanges,omitempty"`
	HeaderTemplate    string   `json:"headerTemplate,omitempty"`
	FooterTemplate    string   `json:"footerTemplate,omitempty"`
	PreferCSSPageSize bool     `json:"preferCSSPageSize"`
}

type PagePrintToPDFResult struct {
	Data []byte `json:"data"` // base64 in the JSON
}

func (p PagePrintToPDF) Do(ctx context.Context, c Caller) (PagePrintToPDFResult, error) {
	return call[PagePrintToPDFResult](ctx, c, "Page.printToPDF", p)
}

// PageStartScreencast has Chrome send the frames the tab renders as
// Page.screencastFrame events, each to be acknowledged: after
// MaxFramesInFlight unacknowledged frames (3 by default) it sends no
// more. A page that does not change renders, and sends, nothing.
type PageStartScreencast struct {
	// Format is jpeg or png.
	Format  string `json:"format,omitempty"`
	Quality int    `json:"quality,omitempty"`
	// MaxWidth and MaxHeight bound a frame, in device pixels; it keeps
	// the page's proportions.
	MaxWidth  int `json:"maxWidth,omitempty"`
	MaxHeight int `json:"maxHeight,omitempty"`
	// EveryNthFrame sends one frame in n of those rendered.
	EveryNthFrame int `json:"everyNthFrame,omitempty"`
}

func (p PageStartScreencast) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.startScreencast", p)
}

// PageStopScreencast stops the frames.
type PageStopScreencast struct{}

func (p PageStopScreencast) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.stopScreencast", p)
}

// PageScreencastFrameAck acknowledges a frame, so that Chrome sends more.
type PageScreencastFrameAck struct {
	SessionID int `json:"sessionId"`
}

func (p PageScreencastFrameAck) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.screencastFrameAck", p)
}

// PageScreencastFrame is Page.screencastFrame's params.
type PageScreencastFrame struct {
	Data     []byte                  `json:"data"` // base64 in the JSON
	Metadata ScreencastFrameMetadata `json:"metadata"`
	// SessionID is the frame's number, for its ack.
	SessionID int `json:"sessionId"`
}

// ScreencastFrameMetadata is what Chrome says of a screencast frame.
type ScreencastFrameMetadata struct {
	// Timestamp is when the frame was shown, in seconds since the epoch.
	Timestamp float64 `json:"timestamp"`
}

// PageCrash crashes the tab's renderer, for tests. It never answers: the
// renderer is gone.
type PageCrash struct{}

func (p PageCrash) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Page.crash", p)
}

// The Page domain's events, reported once Page.enable is sent.
const (
	EventPageLoadEventFired          = "Page.loadEventFired"
	EventPageDomContentEventFired    = "Page.domContentEventFired"
	EventPageLifecycleEvent          = "Page.lifecycleEvent"
	EventPageFrameStartedNavigating  = "Page.frameStartedNavigating"
	EventPageFrameNavigated          = "Page.frameNavigated"
	EventPageNavigatedWithinDocument = "Page.navigatedWithinDocument"
	EventPageFrameStoppedLoading     = "Page.frameStoppedLoading"
	EventPageFrameDetached           = "Page.frameDetached"
	// EventPageDownloadWillBegin is sent to the tab's session, as
	// Browser.downloadWillBegin is to the connections that asked for
	// download events (Browser.setDownloadBehavior).
	EventPageDownloadWillBegin       = "Page.downloadWillBegin"
	EventPageJavascriptDialogOpening = "Page.javascriptDialogOpening"
	EventPageJavascriptDialogClosed  = "Page.javascriptDialogClosed"
	// EventPageScreencastFrame is sent while a screencast runs
	// (PageStartScreencast).
	EventPageScreencastFrame = "Page.screencastFrame"
)

// PageLifecycleEvent is Page.lifecycleEvent's params: a frame's document
// reached a point of its life. Chrome's "networkIdle" means no requests
// for 500 ms.
type PageLifecycleEvent struct {
	FrameID  string `json:"frameId"`
	LoaderID string `json:"loaderId"`
	// Name is init, DOMContentLoaded, load, networkIdle…
	Name string `json:"name"`
}

// PageFrameStartedNavigating is Page.frameStartedNavigating's params.
type PageFrameStartedNavigating struct {
	FrameID string `json:"frameId"`
	URL     string `json:"url"`
	// LoaderID is the document the navigation will commit, if it does.
	LoaderID string `json:"loaderId"`
	// NavigationType is sameDocument or historySameDocument for a
	// navigation within the document, which loads nothing.
	NavigationType string `json:"navigationType"`
}

// PageFrameNavigated is Page.frameNavigated's params: a frame committed a
// document.
type PageFrameNavigated struct {
	Frame Frame `json:"frame"`
	// Type is BackForwardCacheRestore when the old document came back
	// whole: no lifecycle event will fire for it.
	Type string `json:"type"`
}

// PageNavigatedWithinDocument is Page.navigatedWithinDocument's params: a
// fragment, history.pushState or replaceState changed the URL.
type PageNavigatedWithinDocument struct {
	FrameID string `json:"frameId"`
}

// PageFrameDetached is Page.frameDetached's params.
type PageFrameDetached struct {
	FrameID string `json:"frameId"`
	// Reason is remove, or swap for a frame moving to another process,
	// where it lives on.
	Reason string `json:"reason"`
}

// PageJavascriptDialogOpening is Page.javascriptDialogOpening's params.
type PageJavascriptDialogOpening struct {
	// Type is alert, confirm, prompt or beforeunload.
	Type          string `json:"type"`
	Message       string `json:"message"`
	DefaultPrompt string `json:"defaultPrompt"`
}

// PageJavascriptDialogClosed is Page.javascriptDialogClosed's params.
type PageJavascriptDialogClosed struct {
	// Result: the dialog was accepted.
	Result bool `json:"result"`
}
