package page

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
)

// NavResult is where a navigation ended up.
type NavResult struct {
	URL string `json:"url"`
	// Status is the HTTP status of the main document, 0 when unknown
	// (about:, data: and file: URLs, or a bfcache restore).
	Status int    `json:"status,omitempty"`
	Title  string `json:"title,omitempty"`
	// Download is set when the URL was served as an attachment: Chrome
	// downloaded it (the runner lists the file with the step) and the tab
	// stayed where it was.
	Download bool `json:"download,omitempty"`
}

// HistoryResult is where Back or Forward ended up. With NoHistory set
// there was no entry to go to and URL and Title describe the page the tab
// stayed on.
type HistoryResult struct {
	URL       string `json:"url"`
	Title     string `json:"title,omitempty"`
	NoHistory bool   `json:"noHistory,omitempty"`
}

// NavigationError is a navigation Chrome could not perform: the host did
// not resolve, the connection was refused, the URL was unusable.
type NavigationError struct {
	URL string
	// ErrorText is Chrome's reason, e.g. "net::ERR_NAME_NOT_RESOLVED", or
	// cdpskill's own when the URL was rejected before reaching Chrome.
	ErrorText string
}

func (e *NavigationError) Error() string {
	s := fmt.Sprintf("navigation to %s failed: %s", e.URL, e.ErrorText)
	if h := netErrorHints[e.ErrorText]; h != "" {
		s += " (" + h + ")"
	}
	return s
}

func (e *NavigationError) ErrorName() string { return "NavigationError" }

// netErrorHints explain Chrome's commonest net errors to an agent.
var netErrorHints = map[string]string{
	"net::ERR_NAME_NOT_RESOLVED":      "the host name does not resolve",
	"net::ERR_CONNECTION_REFUSED":     "nothing accepts connections there; is the server running?",
	"net::ERR_ADDRESS_UNREACHABLE":    "the address cannot be reached",
	"net::ERR_CONNECTION_TIMED_OUT":   "the server did not answer",
	"net::ERR_UNSAFE_PORT":            "Chrome refuses to connect to this port",
	"net::ERR_CERT_AUTHORITY_INVALID": "the TLS certificate is not trusted",
	"net::ERR_ABORTED": "Chrome dropped the navigation: the URL scheme cannot be shown in a tab, " +
		"or the server answered without content (204)",
}

// NavigationAbortedError is a navigation superseded by another one before
// its document committed.
type NavigationAbortedError struct {
	URL    string
	NewURL string // the navigation that took over, when known
}

func (e *NavigationAbortedError) Error() string {
	if e.NewURL == "" {
		return fmt.Sprintf("navigation to %s was aborted by another navigation", e.URL)
	}
	return fmt.Sprintf("navigation to %s was aborted by another navigation to %s", e.URL, e.NewURL)
}

func (e *NavigationAbortedError) ErrorName() string { return "NavigationAbortedError" }

// Chrome's errorText for an HTTP error status with an empty body. Chrome
// shows its own error page, but the server did answer: this is a page
// with a status, not a failed navigation.
const errHTTPResponseCode = "net::ERR_HTTP_RESPONSE_CODE_FAILURE"

type navigateResult struct {
	FrameID    string `json:"frameId"`
	LoaderID   string `json:"loaderId"`
	ErrorText  string `json:"errorText"`
	IsDownload bool   `json:"isDownload"`
}

// Goto navigates the tab's main frame to rawURL and waits until waitUntil
// (commit, domcontentloaded, load (the default "") or networkidle). A URL
// differing from the current one only in its fragment is a same-document
// navigation (SPEC 19.17): Chrome scrolls to the fragment and fires
// hashchange without reloading, and Goto returns as soon as it has.
// After a cross-document navigation p.Frame is reset to the top
// frame: any frame context it named belonged to the old document.
func Goto(ctx context.Context, p *Page, rawURL, waitUntil string) (*NavResult, error) {
	if err := CheckWaitUntil(waitUntil); err != nil {
		return nil, err
	}
	if err := CheckURL(rawURL); err != nil {
		return nil, err
	}
	if err := EnableLifecycle(ctx, p); err != nil {
		return nil, fmt.Errorf("goto %s: %w", rawURL, err)
	}
	l := p.S.Listen(navEvents...)
	defer l.Close()
	var res navigateResult
	if err := p.S.Call(ctx, "Page.navigate", map[string]any{"url": rawURL}, &res); err != nil {
		var pe *cdp.ProtocolError
		if errors.As(err, &pe) && strings.Contains(pe.Message, "invalid URL") {
			return nil, &NavigationError{URL: rawURL, ErrorText: pe.Message}
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("goto %s: no response from the server: %w", rawURL, err)
		}
		return nil, fmt.Errorf("goto %s: %w", rawURL, err)
	}
	if res.IsDownload {
		return &NavResult{URL: rawURL, Download: true}, nil
	}
	if res.ErrorText != "" && res.ErrorText != errHTTPResponseCode {
		err := navigateFailure(ctx, p, l, rawURL, res)
		var ne *NavigationError
		if errors.As(err, &ne) {
			settleErrorPage(ctx, p, l, res)
		}
		return nil, err
	}
	if res.LoaderID == "" {
		// Same-document: Chrome answers once the fragment is committed and
		// scrolled to; nothing will load.
		return pageInfo(ctx, p, "")
	}
	f := newFollower(res.FrameID, waitUntil)
	f.loader = res.LoaderID
	if err := f.run(ctx, l); err != nil {
		return nil, fmt.Errorf("goto %s: %w", rawURL, err)
	}
	p.TopNavigated()
	return pageInfo(ctx, p, f.unreachable)
}

// errorPageWait bounds the wait for Chrome's error page after a failed
// navigation.
const errorPageWait = time.Second

// settleErrorPage lets Chrome's own error page (chrome-error://) finish
// loading, best effort, so that what follows — the screenshot, the page
// context, the next step — sees it rather than a tab between documents.
func settleErrorPage(ctx context.Context, p *Page, l *cdp.Listener, res navigateResult) {
	if res.LoaderID == "" {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, errorPageWait)
	defer cancel()
	f := newFollower(res.FrameID, WaitLoad)
	f.loader = res.LoaderID
	_ = f.run(wctx, l) // a slow error page is no worse than not waiting
	p.TopNavigated()
}

// schemes are the URL schemes Chrome shows in a tab. Any other hands the
// URL to another application behind a prompt the tab waits on, which a
// headless tab never answers: its input stops working.
var schemes = map[string]bool{"http": true, "https": true, "file": true, "data": true, "about": true,
	"blob": true, "chrome": true, "view-source": true, "chrome-extension": true, "devtools": true}

// CheckURL rejects what must not reach Page.navigate: no scheme, a
// scheme Chrome would not show in a tab, javascript:. A URL written
// without its scheme gets the likely one suggested.
func CheckURL(rawURL string) error {
	u, err := url.Parse(rawURL)
	switch {
	case err != nil && !strings.Contains(rawURL, "://") && hostLike(rawURL):
		return noScheme(rawURL)
	case err != nil:
		return &NavigationError{URL: rawURL, ErrorText: "invalid URL: " + err.Error()}
	case u.Scheme == "" || (u.Opaque != "" && hostLike(rawURL)):
		return noScheme(rawURL)
	case strings.EqualFold(u.Scheme, "javascript"):
		// Chrome would run it in the current page and report ERR_ABORTED.
		return &NavigationError{URL: rawURL, ErrorText: "javascript: URLs run script instead of navigating; use pageFunction"}
	case !schemes[strings.ToLower(u.Scheme)]:
		return &NavigationError{URL: rawURL, ErrorText: "unknown URL scheme " + u.Scheme + " (Chrome would hand it to another application); use http(s), file, data or about"}
	}
	return nil
}

// hostLike: "localhost:8080/a" or "example.com:443": a host and port
// where a scheme should be.
func hostLike(rawURL string) bool {
	host, rest, _ := strings.Cut(rawURL, ":")
	port := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		port = rest[:i]
	}
	return host != "" && port != "" && strings.Trim(port, "0123456789") == ""
}

func noScheme(rawURL string) error {
	s := strings.TrimPrefix(rawURL, "//")
	scheme := "https://"
	host, _, _ := strings.Cut(s, "/")
	host, _, _ = strings.Cut(host, ":")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".local") || net.ParseIP(strings.Trim(host, "[]")) != nil {
		scheme = "http://"
	}
	return &NavigationError{URL: rawURL, ErrorText: fmt.Sprintf("invalid URL: no scheme; did you mean %q?", scheme+s)}
}

// navigateFailure classifies a Page.navigate errorText. ERR_ABORTED means
// either that another navigation took over or that Chrome dropped this
// one (unknown scheme, 204); a competing navigation announces itself with
// frameStartedNavigating, which may trail the reply, so one round trip
// flushes the events Chrome emitted before answering it.
func navigateFailure(ctx context.Context, p *Page, l *cdp.Listener, rawURL string, res navigateResult) error {
	if res.ErrorText != "net::ERR_ABORTED" {
		return &NavigationError{URL: rawURL, ErrorText: res.ErrorText}
	}
	if err := p.S.Call(ctx, "Page.getFrameTree", nil, nil); err != nil {
		return &NavigationError{URL: rawURL, ErrorText: res.ErrorText}
	}
	for _, ev := range l.Drain() {
		var e struct {
			startedParams
			URL string `json:"url"`
		}
		if ev.Method != "Page.frameStartedNavigating" || json.Unmarshal(ev.Params, &e) != nil {
			continue
		}
		if e.FrameID == res.FrameID && e.LoaderID != res.LoaderID {
			return &NavigationAbortedError{URL: rawURL, NewURL: e.URL}
		}
	}
	return &NavigationError{URL: rawURL, ErrorText: res.ErrorText}
}

// Reload reloads the main frame and waits until waitUntil.
func Reload(ctx context.Context, p *Page, waitUntil string) (*NavResult, error) {
	if err := CheckWaitUntil(waitUntil); err != nil {
		return nil, err
	}
	f, err := followCommand(ctx, p, waitUntil, "Page.reload", map[string]any{"ignoreCache": false})
	if err != nil {
		return nil, fmt.Errorf("reload: %w", err)
	}
	p.TopNavigated()
	return pageInfo(ctx, p, f.unreachable)
}

// followCommand sends a navigating command whose reply carries no loader
// id and follows the navigation it starts on the main frame.
func followCommand(ctx context.Context, p *Page, waitUntil, method string, params any) (*follower, error) {
	if err := EnableLifecycle(ctx, p); err != nil {
		return nil, err
	}
	frameID, err := mainFrameID(ctx, p)
	if err != nil {
		return nil, err
	}
	l := p.S.Listen(navEvents...)
	defer l.Close()
	if err := p.S.Call(ctx, method, params, nil); err != nil {
		return nil, err
	}
	f := newFollower(frameID, waitUntil)
	return f, f.run(ctx, l)
}

// Back goes one entry back in the tab's history and waits for load.
func Back(ctx context.Context, p *Page) (*HistoryResult, error) { return goHistory(ctx, p, -1) }

// Forward goes one entry forward in the tab's history and waits for load.
func Forward(ctx context.Context, p *Page) (*HistoryResult, error) { return goHistory(ctx, p, +1) }

type historyEntry struct {
	ID    int    `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

type navHistory struct {
	CurrentIndex int            `json:"currentIndex"`
	Entries      []historyEntry `json:"entries"`
}

func getHistory(ctx context.Context, p *Page) (*navHistory, error) {
	var h navHistory
	err := p.S.Call(ctx, "Page.getNavigationHistory", nil, &h)
	return &h, err
}

// at returns entry i, if there is one.
func (h *navHistory) at(i int) (historyEntry, bool) {
	if i < 0 || i >= len(h.Entries) {
		return historyEntry{}, false
	}
	return h.Entries[i], true
}

func goHistory(ctx context.Context, p *Page, delta int) (*HistoryResult, error) {
	h, err := getHistory(ctx, p)
	if err != nil {
		return nil, err
	}
	to, ok := h.at(h.CurrentIndex + delta)
	if !ok {
		cur, _ := h.at(h.CurrentIndex)
		return &HistoryResult{URL: cur.URL, Title: cur.Title, NoHistory: true}, nil
	}
	f, err := followCommand(ctx, p, WaitLoad, "Page.navigateToHistoryEntry", map[string]any{"entryId": to.ID})
	if err != nil {
		return nil, fmt.Errorf("history navigation to %s: %w", to.URL, err)
	}
	if !f.sameDoc {
		p.TopNavigated()
	}
	info, err := pageInfo(ctx, p, f.unreachable)
	if err != nil {
		return nil, err
	}
	return &HistoryResult{URL: info.URL, Title: info.Title}, nil
}

// pageInfoExpr reads what a NavResult reports in one round trip.
const pageInfoExpr = `({url: location.href, title: document.title,
	status: performance.getEntriesByType("navigation")[0]?.responseStatus ?? 0})`

// pageInfo describes the main frame's document. unreachable, when set, is
// the URL behind a Chrome error page and is reported instead of
// chrome-error://. Should the document already be gone again, the
// history entry still names it.
func pageInfo(ctx context.Context, p *Page, unreachable string) (*NavResult, error) {
	var r NavResult
	main := p.Top()
	obj, err := main.Evaluate(ctx, map[string]any{"expression": pageInfoExpr, "returnByValue": true})
	if err == nil {
		err = json.Unmarshal(obj.Value, &r)
	}
	if err != nil {
		if !cdp.IsContextDestroyed(err) {
			return nil, err
		}
		h, herr := getHistory(ctx, p)
		cur, ok := h.at(h.CurrentIndex)
		if herr != nil || !ok {
			return nil, err
		}
		r = NavResult{URL: cur.URL, Title: cur.Title}
	}
	if unreachable != "" {
		r.URL = unreachable
	}
	return &r, nil
}
