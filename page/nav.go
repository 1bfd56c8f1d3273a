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
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
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

// Goto navigates the tab's main frame to rawURL and waits until waitUntil
// (commit, domcontentloaded, load (the default "") or networkidle). A URL
// differing from the current one only in its fragment is a same-document
// navigation (SPEC 19.17): Chrome scrolls to the fragment and fires
// hashchange without reloading, and Goto returns as soon as it has.
// After a cross-document navigation p.Frame is reset to the top
// frame: any frame context it named belonged to the old document.
func Goto(ctx context.Context, p *Page, rawURL, waitUntil string) (*NavResult, error) {
	start := time.Now()
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
	var res proto.PageNavigateResult
	nav := proto.PageNavigate{URL: rawURL}.Send(ctx, p.S)
	if err := nav.Wait(ctx, &res); err != nil {
		var pe *cdp.ProtocolError
		if errors.As(err, &pe) && strings.Contains(pe.Message, "invalid URL") {
			return nil, &NavigationError{URL: rawURL, ErrorText: pe.Message}
		}
		if ctx.Err() != nil {
			return nil, stopNavigation(ctx, p, nav, rawURL, waitUntil, waitedSince(ctx, start))
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

// NavTimeoutError is a navigation of the step's own that had no response
// from its server when the step's time ran out. While a tab's navigation
// is pending Chrome holds back every call to its page until the new
// document commits, so nothing could run on it: cdpskill stops the
// navigation, as the Stop button does, and the tab stays on the document
// it showed, with everything that document held. The next call finds it
// as it was.
type NavTimeoutError struct {
	URL    string        // where the navigation was going
	Waited time.Duration // how long it waited for the server
	Shows  string        // the URL the tab shows now
	// Stopped: Chrome confirmed the navigation ended without a new
	// document. Otherwise it may still commit later.
	Stopped bool
}

func (e *NavTimeoutError) Error() string {
	s := fmt.Sprintf("no response from %s after %d ms", cdp.RedactURL(e.URL), e.Waited.Round(100*time.Millisecond).Milliseconds())
	shows := "the page it showed"
	if e.Shows != "" {
		shows = e.Shows
	}
	if !e.Stopped {
		return s + fmt.Sprintf("; cdpskill could not stop that navigation: the tab shows %s until the server answers, then the new page", shows)
	}
	return s + fmt.Sprintf("; cdpskill stopped that navigation (as the Stop button does), so the tab still shows %s, as it was (if the server is only slow, give the step a longer timeout)", shows)
}

func (e *NavTimeoutError) ErrorName() string { return "TimeoutError" }

// Unwrap lets errors.Is(err, context.DeadlineExceeded) hold: the step's
// time ran out.
func (e *NavTimeoutError) Unwrap() error { return context.DeadlineExceeded }

// waitedSince is how long a navigation begun at start had when ctx ran
// out: until its deadline, however late the timeout was noticed.
func waitedSince(ctx context.Context, start time.Time) time.Duration {
	if dl, ok := ctx.Deadline(); ok && dl.After(start) {
		return dl.Sub(start)
	}
	return time.Since(start)
}

// navStopWait bounds stopping a navigation whose step ran out of time,
// and reading where the tab is then: the step's own time is spent.
const navStopWait = time.Second

// stopNavigation ends Goto's navigation to rawURL, whose Page.navigate
// (nav) had no answer after waited, when the step's time ran out:
// Page.stopLoading ends it, and Chrome then answers nav, aborted, or
// committed after all when the response came just as the time ran out.
func stopNavigation(ctx context.Context, p *Page, nav *cdp.Sent, rawURL, waitUntil string, waited time.Duration) error {
	sctx, cancel := xcontext.Detached(ctx, navStopWait)
	defer cancel()
	defer nav.Forget()
	e := &NavTimeoutError{URL: rawURL, Waited: waited}
	var res proto.PageNavigateResult
	if (proto.PageStopLoading{}).Do(sctx, p.S) == nil && nav.Wait(sctx, &res) == nil {
		switch {
		case res.ErrorText == "" || res.ErrorText == errHTTPResponseCode:
			p.TopNavigated()
			return fmt.Errorf("goto %s: the server answered as the step's time ran out; the page did not reach %q: %w", rawURL, orLoad(waitUntil), context.DeadlineExceeded)
		case res.ErrorText != "net::ERR_ABORTED":
			return &NavigationError{URL: rawURL, ErrorText: res.ErrorText}
		}
		e.Stopped = true
	}
	e.Shows = shownURL(sctx, p)
	return e
}

// stopFollowed ends a navigation the follower f saw begin but not commit
// by the step's deadline (a reload, a history step): Page.stopLoading, then
// a look at the events that came meanwhile, in case it committed after
// all. e says where it was going (URL, "" for the current entry: a
// reload) and how long it was waited for; the rest it fills in.
func stopFollowed(ctx context.Context, p *Page, l *cdp.Listener, f *follower, e *NavTimeoutError, timedOut error) error {
	sctx, cancel := xcontext.Detached(ctx, navStopWait)
	defer cancel()
	e.Stopped = proto.PageStopLoading{}.Do(sctx, p.S) == nil
	e.Shows = shownURL(sctx, p)
	for _, ev := range l.Drain() {
		_ = f.handle(ev)
	}
	if f.committed || f.done {
		return timedOut
	}
	if e.URL == "" {
		e.URL = e.Shows
	}
	return e
}

// shownURL is the URL of the document the tab shows, as the browser has
// it: it answers while a navigation holds the page back.
func shownURL(ctx context.Context, p *Page) string {
	h, err := getHistory(ctx, p)
	if err != nil {
		return ""
	}
	cur, _ := h.at(h.CurrentIndex)
	return cur.URL
}

// Held describes a tab whose navigation holds its page back: Shows is the
// URL of the document it shows (the browser's history, which answers
// meanwhile), and To where the navigation goes when the browser tells:
// its URL for a navigation the browser began (goto, reload); one the page
// began (a link, a form, a script) keeps the old URL there until it
// commits, and To is then "".
type Held struct {
	To, Shows string
}

// PendingNavigation reads what the browser knows of a tab whose page does
// not answer because a navigation holds it back.
func PendingNavigation(ctx context.Context, p *Page) Held {
	h := Held{Shows: shownURL(ctx, p)}
	res, err := proto.TargetGetTargetInfo{TargetID: p.S.TargetID}.Do(ctx, p.S.Conn().Browser())
	if err == nil && res.TargetInfo.URL != h.Shows {
		h.To = res.TargetInfo.URL
	}
	return h
}

// StopLoading stops the tab's pending navigation, as the Stop button does.
func StopLoading(ctx context.Context, p *Page) error {
	return proto.PageStopLoading{}.Do(ctx, p.S)
}

func orLoad(waitUntil string) string {
	if waitUntil == "" {
		return WaitLoad
	}
	return waitUntil
}

// errorPageWait bounds the wait for Chrome's error page after a failed
// navigation.
const errorPageWait = time.Second

// settleErrorPage lets Chrome's own error page (chrome-error://) finish
// loading, best effort, so that what follows — the screenshot, the page
// context, the next step — sees it rather than a tab between documents.
func settleErrorPage(ctx context.Context, p *Page, l *cdp.Listener, res proto.PageNavigateResult) {
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
func navigateFailure(ctx context.Context, p *Page, l *cdp.Listener, rawURL string, res proto.PageNavigateResult) error {
	if res.ErrorText != "net::ERR_ABORTED" {
		return &NavigationError{URL: rawURL, ErrorText: res.ErrorText}
	}
	if _, err := (proto.PageGetFrameTree{}).Do(ctx, p.S); err != nil {
		return &NavigationError{URL: rawURL, ErrorText: res.ErrorText}
	}
	for _, ev := range l.Drain() {
		var e proto.PageFrameStartedNavigating
		if ev.Method != proto.EventPageFrameStartedNavigating || json.Unmarshal(ev.Params, &e) != nil {
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
	f, err := followCommand(ctx, p, waitUntil, "", proto.PageReload{IgnoreCache: false}.Do)
	if err != nil {
		return nil, err
	}
	p.TopNavigated()
	return pageInfo(ctx, p, f.unreachable)
}

// followCommand sends a navigating command whose reply carries no loader
// id and follows the navigation it starts on the main frame, going to the
// URL to ("" for a reload). One that has no response by ctx's deadline is
// stopped (stopFollowed).
func followCommand(ctx context.Context, p *Page, waitUntil, to string, command func(context.Context, proto.Caller) error) (*follower, error) {
	start := time.Now()
	if err := EnableLifecycle(ctx, p); err != nil {
		return nil, err
	}
	frameID, err := mainFrameID(ctx, p)
	if err != nil {
		return nil, err
	}
	l := p.S.Listen(navEvents...)
	defer l.Close()
	if err := command(ctx, p.S); err != nil {
		return nil, err
	}
	f := newFollower(frameID, waitUntil)
	err = f.run(ctx, l)
	if err != nil && ctx.Err() != nil && !f.committed {
		err = stopFollowed(ctx, p, l, f, &NavTimeoutError{URL: to, Waited: waitedSince(ctx, start)}, err)
	}
	return f, err
}

// Back goes one entry back in the tab's history and waits for load.
func Back(ctx context.Context, p *Page) (*HistoryResult, error) { return goHistory(ctx, p, -1) }

// Forward goes one entry forward in the tab's history and waits for load.
func Forward(ctx context.Context, p *Page) (*HistoryResult, error) { return goHistory(ctx, p, +1) }

type navHistory struct {
	proto.PageGetNavigationHistoryResult
}

func getHistory(ctx context.Context, p *Page) (*navHistory, error) {
	h, err := proto.PageGetNavigationHistory{}.Do(ctx, p.S)
	return &navHistory{h}, err
}

// at returns entry i, if there is one.
func (h *navHistory) at(i int) (proto.NavigationEntry, bool) {
	if i < 0 || i >= len(h.Entries) {
		return proto.NavigationEntry{}, false
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
	f, err := followCommand(ctx, p, WaitLoad, to.URL, proto.PageNavigateToHistoryEntry{EntryID: to.ID}.Do)
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
	obj, err := main.Evaluate(ctx, proto.RuntimeEvaluate{Expression: pageInfoExpr, ReturnByValue: true})
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
