package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/fleet"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/keeper"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/route"
	"github.com/cdpskill/cdpskill/tab"
	"github.com/cdpskill/cdpskill/tabs"
)

// tabSteps open, find and close tabs.
var tabSteps = []step{
	define("chromeStatus", `true | {host, port | wsUrl, headless, autoLaunch}`,
		"is Chrome up? (launches it)", holdsTabs, decodeChromeStatus, runChromeStatus).out(`{running, launched, version, port, endpoint?, tabs, createdTab}`),
	defineFiles("openTab", `true | "url" | {url, state, host, port | wsUrl | provider, endpoint, headless}`,
		"a new tab, the call's", visual|holdsTabs, decodeOpenTab, runOpenTab).out(`{tab, url, status, title}`).did("Opened a tab").
		also(`{"openTab":"…"}`, "newTab", "newPage", "createTab", "openNewTab"),
	define("connectTab", `"t1" | {targetId} | {url: "regex"} (+ host, port | wsUrl)`,
		"make an open tab the call's tab", visual|holdsTabs, decodeConnectTab, runConnectTab).out(`{tab, url, title, otherMatches?}`).did("Connected").
		also(`{"connectTab":"…"}`, "switchTab", "switchToTab", "selectTab", "focusTab", "useTab", "attachTab"),
	define("closeTab", `"t1" | {tab}`,
		"", holdsTabs, decodeCloseTab, runCloseTab).out(`{closed, removed?, recorded?, released?}`).
		also(`{"closeTab":"…"}`, "close", "closePage"),
	define("listTabs", `true | {host, port | wsUrl}`,
		"", holdsTabs, decodeListTabs, runListTabs).out(`{count, tabs: [{tab, targetId, url, title}]}`).
		also(`{"listTabs":true}`, "tabs", "listPages", "pages", "getTabs"),
}

// endpointParams are the connection fields several tab steps accept: a
// host and port, or wsUrl, a remote endpoint (a ws:// or wss:// browser
// websocket, or an http:// or https:// debugging endpoint).
type endpointParams struct {
	Host  string `json:"host"`
	Port  int    `json:"port"`
	WSURL string `json:"wsUrl"`
}

// given reports whether the step names its browser itself.
func (e endpointParams) given() bool { return e.Host != "" || e.Port != 0 || e.WSURL != "" }

// endpoint is the browser the step names, else the call's default
// (env.defaultEndpoint).
func (p endpointParams) endpoint(e *env) (chrome.Endpoint, error) {
	switch {
	case p.WSURL != "":
		return chrome.ParseEndpoint(p.WSURL)
	case p.Host != "" || p.Port != 0:
		return chrome.Endpoint{Host: p.Host, Port: p.Port}.WithDefaults(), nil
	}
	return e.defaultEndpoint()
}

// defaultEndpoint is the browser a step that names none is about: with
// CDPSKILL_PROVIDER naming a fleet, the session's browser on its server
// there (CDP_URL, else the provider's own API; CDP_URL names the server,
// and dialling it would make a browser); else CDP_URL, else
// localhost:9222.
func (e *env) defaultEndpoint() (chrome.Endpoint, error) {
	name := e.getenv("CDPSKILL_PROVIDER")
	if name == "" || strings.EqualFold(name, fleet.Plain) {
		return tab.DefaultEndpoint(e.getenv)
	}
	srv, _, err := e.fleetServer(openTabParams{})
	if err != nil {
		return chrome.Endpoint{}, err
	}
	ep, ok := e.fleetBrowser(srv)
	if !ok {
		return ep, &Error{Type: Connection, Message: fmt.Sprintf("no %s browser of this session on %s yet: openTab makes one", srv.Provider, srv)}
	}
	return ep, nil
}

func (e endpointParams) check() error {
	if e.Port < 0 || e.Port > 65535 {
		return paramErrorf(`"port" must be between 1 and 65535, got %d`, e.Port)
	}
	if e.WSURL != "" {
		if e.Host != "" || e.Port != 0 {
			return paramErrorf(`give "wsUrl" or "host"/"port", not both`)
		}
		if _, err := chrome.ParseEndpoint(e.WSURL); err != nil {
			return paramErrorf(`"wsUrl": %v`, err)
		}
	}
	return nil
}

// --- chromeStatus

type chromeStatusParams struct {
	endpointParams
	Headless   *bool `json:"headless"`
	AutoLaunch *bool `json:"autoLaunch"`
}

func decodeChromeStatus(raw json.RawMessage) (chromeStatusParams, error) {
	p, err := decodeInto(raw, trueOnly[chromeStatusParams])
	if err == nil {
		err = p.check()
	}
	return p, err
}

func runChromeStatus(ctx context.Context, e *env, p chromeStatusParams) (output, error) {
	auto := p.AutoLaunch == nil || *p.AutoLaunch
	ep, err := p.endpoint(e)
	if err == nil {
		ep, err = fleet.Resolve(ep, e.getenv, false) // a fleet's browser is dialled with its token
	}
	if err != nil {
		return output{}, err
	}
	cs := chrome.CheckStatus(ctx, e.getenv, chrome.StatusOptions{Endpoint: ep, Headless: p.Headless, AutoLaunch: auto})
	if !cs.Running {
		return output{value: cs}, &Error{Type: Connection, Message: "Chrome is not reachable: " + cs.Error, Err: ctx.Err()}
	}
	if cs.Launched { // its keeper closes it when idle
		if v, verr := chrome.GetVersion(ctx, ep); verr == nil {
			e.tabs.visit(ctx, ep, v.WebSocketDebuggerURL)
		}
	}
	st := chromeStatusOutput{Status: cs, Keeper: keeper.Look(ctx, e.files.Temp, ep)}
	session := e.tabs.registry().Session()
	if session == "" {
		return output{value: st}, nil
	}
	if k := st.Keeper; k != nil { // a session sees its own
		k.Emulating = slices.DeleteFunc(k.Emulating, func(l string) bool { return !strings.HasPrefix(l, session+"/") })
		k.Recording = slices.DeleteFunc(k.Recording, func(l string) bool { return !strings.HasPrefix(l, session+"/") })
		k.Sessions = slices.DeleteFunc(k.Sessions, func(s string) bool { return s != session })
	}
	// A session sees its own tabs only, here as everywhere.
	var own []chrome.TargetInfo
	err = e.withBrowser(ctx, ep, func(b *chrome.Browser) (err error) {
		own, err = tab.Pages(ctx, b, e.tabs.registry())
		return err
	})
	keep := map[string]bool{}
	for _, t := range own {
		keep[t.ID] = true
	}
	st.Tabs = slices.DeleteFunc(st.Tabs, func(t chrome.StatusTab) bool { return !keep[t.TargetID] })
	if err != nil {
		return output{value: st, warning: fmt.Sprintf("session %q: %v", session, err)}, nil
	}
	return output{value: st}, nil
}

// chromeStatusOutput is chrome's status, and what the browser's keeper
// holds, if one runs.
type chromeStatusOutput struct {
	*chrome.Status
	Keeper *keeper.Status `json:"keeper,omitempty"`
}

// --- openTab

type openTabParams struct {
	endpointParams
	URL      string `json:"url"`
	Headless *bool  `json:"headless"`
	// State is a storageState file the tab starts from (loadState).
	State string `json:"state"`
	state *page.State
	// Provider is the fleet to open the tab on (package fleet), else
	// CDPSKILL_PROVIDER's; Endpoint its server, else CDP_URL.
	Provider string `json:"provider"`
	Endpoint string `json:"endpoint"`
}

// checkFleet says what is wrong with the step's provider and endpoint.
func (p openTabParams) checkFleet() error {
	if p.Provider == "" && p.Endpoint == "" {
		return nil
	}
	if p.endpointParams.given() {
		return paramErrorf(`give "provider"/"endpoint" or "host"/"port"/"wsUrl", not both`)
	}
	if p.Provider != "" {
		if _, err := fleet.Lookup(p.Provider); err != nil {
			return paramErrorf(`"provider": %v`, err)
		}
	}
	if p.Endpoint != "" && p.Provider != "" {
		if _, err := fleet.Parse(p.Provider, p.Endpoint, nil); err != nil {
			return paramErrorf(`"endpoint": %v`, err)
		}
	}
	return nil
}

func decodeOpenTab(raw json.RawMessage, files capture.Files) (openTabParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *openTabParams) error {
		if b, ok := asBool(raw); ok && b {
			return nil
		}
		if s, ok := asString(raw); ok && s != "" {
			p.URL = s
			return nil
		}
		return paramErrorf(`expected true, a URL or {url, host, port, headless}, got %s`, jsonKind(raw))
	})
	if err == nil {
		err = p.check()
	}
	if err == nil {
		err = p.checkFleet()
	}
	if err == nil && p.URL != "" {
		err = checkURL(p.URL)
	}
	if err == nil && hasField(raw, "state") {
		p.State, p.state, err = readState(files, p.State)
	}
	return p, err
}

type tabOutput struct {
	Tab    string `json:"tab"`
	URL    string `json:"url,omitempty"`
	Status int    `json:"status,omitempty"`
	Title  string `json:"title,omitempty"`
}

func runOpenTab(ctx context.Context, e *env, p openTabParams) (output, error) {
	b, err := e.openBrowser(ctx, p)
	if err != nil {
		return output{}, err
	}
	// In the session's browser context, made by its first tab.
	created, err := b.NewTarget(ctx, e.tabs.registry())
	if err != nil {
		return output{}, err
	}
	e.pruneTabs(ctx, b.Browser)
	alias, err := e.tabs.registry().Register(created, b.Endpoint)
	if err != nil {
		// A tab no alias names would be left open for good.
		_ = proto.TargetCloseTarget{TargetID: created}.Do(ctx, b.Conn.Browser())
		return output{}, &Error{Type: Connection, Message: "tab registry: " + err.Error(), Err: err}
	}
	// A new tab's history starts empty, whatever a registry lost since
	// left under its alias.
	e.files.ForgetHistory(alias)
	if err := e.attach(ctx, tab.Target{Alias: alias, Entry: tabs.Entry{TargetID: created}, Registered: true}); err != nil {
		return output{}, err
	}
	out := &tabOutput{Tab: alias, URL: "about:blank"}
	if p.state != nil {
		// Before the first request: its cookies and storage are there
		// when the site's first page loads.
		if _, err := page.LoadState(ctx, e.page(), p.state); err != nil {
			return output{value: out}, err
		}
	}
	if p.URL == "" {
		return output{value: out}, nil
	}
	nav, err := gotoURL(ctx, e, p.URL, "")
	if nav != nil {
		out.URL, out.Status, out.Title = nav.URL, nav.Status, nav.Title
	}
	return output{value: out}, err
}

// openBrowser is the browser openTab opens its tab in: on a fleet, the
// session's browser there while the server has it, else a new one;
// otherwise the endpoint's Chrome, launched when none runs locally.
func (e *env) openBrowser(ctx context.Context, p openTabParams) (*tab.Browser, error) {
	srv, onFleet, err := e.fleetServer(p)
	if err != nil {
		return nil, err
	}
	if !onFleet {
		ep, err := p.endpoint(e)
		if p.Endpoint != "" { // the plain provider's: its URL as wsUrl's
			ep, err = chrome.ParseEndpoint(p.Endpoint)
		}
		if err != nil {
			return nil, err
		}
		return e.tabs.connect(ctx, ep, p.Headless, !ep.Remote())
	}
	if ep, ok := e.fleetBrowser(srv); ok {
		ep.Token = srv.Token
		b, err := e.tabs.connect(ctx, ep, nil, false)
		if !fleet.IsGone(err) {
			return b, err
		}
		e.forgetBrowser(ep) // gone with its tabs: a new one takes its place
	}
	e.warnToken(srv)
	return e.tabs.create(ctx, srv)
}

// warnToken tells the agent, as a browser is made on srv with a token
// its endpoint carried, when later calls will find none: cdpskill keeps
// none. (A server without a token is no matter for a warning.)
func (e *env) warnToken(srv fleet.Server) {
	p, err := fleet.Lookup(srv.Provider)
	if err != nil || srv.Token == "" || p.TokenEnv() == "" || e.getenv(p.TokenEnv()) != "" || fleet.InCDPURL(srv, e.getenv) {
		return
	}
	e.warn("the token came with the endpoint only: later calls on this tab read it from %s, which is not set (cdpskill keeps no token)", p.TokenEnv())
}

// fleetServer is the fleet server openTab names: its "provider" (else
// CDPSKILL_PROVIDER, when it names no endpoint of another kind) and its
// "endpoint" (else CDP_URL). onFleet is false for the plain provider.
func (e *env) fleetServer(p openTabParams) (srv fleet.Server, onFleet bool, err error) {
	name := p.Provider
	if name == "" && !p.endpointParams.given() {
		name = e.getenv("CDPSKILL_PROVIDER")
	}
	if name == "" || strings.EqualFold(name, fleet.Plain) {
		return fleet.Server{}, false, nil
	}
	raw := p.Endpoint
	if raw == "" {
		raw = e.getenv("CDP_URL")
	}
	if raw == "" && fleet.DefaultServer(name) == "" {
		return fleet.Server{}, false, &Error{Type: Validation, Message: fmt.Sprintf(`provider %q needs its server: give openTab an "endpoint" (%s) or set CDP_URL`, name, fleet.ServerExample(name))}
	}
	srv, err = fleet.Parse(name, raw, e.getenv)
	if err != nil {
		what := `"endpoint"`
		if p.Endpoint == "" {
			what = "CDP_URL"
		}
		if p.Provider == "" {
			what += " with CDPSKILL_PROVIDER"
		}
		return srv, false, &Error{Type: Validation, Message: fmt.Sprintf("%s: %v", what, err)}
	}
	return srv, true, nil
}

// fleetBrowser is the browser the call's session has on the fleet server
// srv: the one its newest tab there is in.
func (e *env) fleetBrowser(srv fleet.Server) (chrome.Endpoint, bool) {
	entries, err := e.tabs.registry().List()
	if err != nil {
		return chrome.Endpoint{}, false
	}
	best := ""
	for a, en := range entries {
		if fleet.OnServer(en.Endpoint(), srv) && (best == "" || tabs.AliasLess(best, a)) {
			best = a
		}
	}
	if best == "" {
		return chrome.Endpoint{}, false
	}
	return entries[best].Endpoint(), true
}

// forgetBrowser forgets the tabs of the browser at ep, which the server
// no longer has, and their files.
func (e *env) forgetBrowser(ep chrome.Endpoint) {
	gone, err := e.tabs.registry().Prune(ep, func() (map[string]bool, error) { return nil, nil })
	if err != nil {
		e.warn("tab registry: %v", err)
	}
	e.forgetFiles(gone)
}

// pruneTabs drops registry entries of this browser whose tab is gone.
func (e *env) pruneTabs(ctx context.Context, b *chrome.Browser) map[string]chrome.TargetInfo {
	var pages map[string]chrome.TargetInfo
	var listErr error
	list := func() (map[string]bool, error) {
		if pages, listErr = pageTargets(ctx, b); listErr != nil {
			return nil, listErr
		}
		live := map[string]bool{}
		for id := range pages {
			live[id] = true
		}
		return live, nil
	}
	gone, err := e.tabs.registry().Prune(b.Endpoint, list)
	if err != nil && listErr == nil {
		e.warn("tab registry: %v", err)
		if pages == nil {
			list() // the registry failed before the listing
		}
	}
	e.forgetFiles(gone)
	return pages
}

// forgetFiles removes the files of tabs the registry forgot, closed
// outside cdpskill: no alias names them now.
func (e *env) forgetFiles(aliases []string) {
	for _, a := range aliases {
		e.forgetTabFiles(a)
	}
}

// forgetTabFiles removes what a closed tab kept under name (its alias,
// or the raw target id it was named by): no step reads them now. It says
// what of its history went.
func (e *env) forgetTabFiles(name string) string {
	e.files.ForgetBodies(name)
	_ = route.Remove(e.files.TabFile(name, ".routes.json")) // the keeper lets go of a closed tab anyway
	return e.files.ForgetHistory(name)
}

// pageTargets lists the browser's tabs over the open websocket.
func pageTargets(ctx context.Context, b *chrome.Browser) (map[string]chrome.TargetInfo, error) {
	pages, err := chrome.ListPagesWS(ctx, b.Conn)
	if err != nil {
		return nil, err
	}
	out := map[string]chrome.TargetInfo{}
	for _, t := range pages {
		out[t.ID] = t
	}
	return out, nil
}

// --- connectTab

type connectTabParams struct {
	endpointParams
	Alias    string `json:"tab"`
	TargetID string `json:"targetId"`
	URL      string `json:"url"`
	urlRe    *regexp.Regexp
}

func decodeConnectTab(raw json.RawMessage) (connectTabParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *connectTabParams) error {
		if s, ok := asString(raw); ok && s != "" {
			p.Alias = s
			return nil
		}
		return paramErrorf(`expected a tab alias such as "t1", {targetId} or {url: "regex"}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	n := 0
	for _, s := range []string{p.Alias, p.TargetID, p.URL} {
		if s != "" {
			n++
		}
	}
	if n != 1 {
		return p, paramErrorf(`give exactly one of an alias ("t1"), targetId or url`)
	}
	if p.URL != "" {
		if p.urlRe, err = invalid.Compile("url", p.URL); err != nil {
			return p, paramErrorf("%v", err)
		}
	}
	return p, p.check()
}

func runConnectTab(ctx context.Context, e *env, p connectTabParams) (output, error) {
	ep, err := p.endpoint(e)
	if err != nil {
		return output{}, err
	}
	targetID := p.TargetID
	if p.Alias != "" {
		_, entry, found, err := e.tabs.registry().Resolve(p.Alias)
		if err != nil {
			return output{}, err
		}
		if !found {
			return output{}, &tab.UnknownError{Tab: p.Alias, Session: e.tabs.registry().Session()}
		}
		targetID, ep = entry.TargetID, entry.Endpoint()
	}
	b, err := e.tabs.connect(ctx, ep, nil, false)
	if err != nil {
		return output{}, err
	}
	// In Chrome's order, so that a pattern two tabs match picks the same
	// one every time: the first. A session's own only.
	pages, err := tab.Pages(ctx, b.Browser, e.tabs.registry())
	if err != nil {
		return output{}, err
	}
	var matches []chrome.TargetInfo
	if p.urlRe != nil {
		for _, t := range pages {
			if p.urlRe.MatchString(t.URL) {
				matches = append(matches, t)
			}
		}
		if len(matches) == 0 {
			return output{}, &Error{Type: Connection, Message: fmt.Sprintf("no open tab's URL matches %q", p.URL)}
		}
		targetID = matches[0].ID
	}
	i := slices.IndexFunc(pages, func(t chrome.TargetInfo) bool { return t.ID == targetID })
	if i < 0 && p.TargetID != "" {
		if err := tab.CheckTarget(ctx, b.Browser, targetID, e.tabs.registry()); err != nil {
			return output{}, err // another session's, or gone
		}
	}
	if i < 0 {
		return output{}, &Error{Type: Connection, Message: fmt.Sprintf("tab %s no longer exists; listTabs shows the open tabs", orStr(p.Alias, targetID))}
	}
	t := pages[i]
	alias, err := e.tabs.registry().Register(targetID, b.Endpoint)
	if err != nil {
		return output{}, err
	}
	entry, known := entryOf(e.tabs.registry(), alias)
	entry.TargetID = targetID
	if err := e.attach(ctx, tab.Target{Alias: alias, Entry: entry, Registered: known}); err != nil {
		return output{}, err
	}
	e.tabs.arrivedAt(t.URL, e.tab.Doc)
	out := &connectOutput{tabOutput: tabOutput{Tab: alias, URL: t.URL, Title: t.Title}}
	if len(matches) > 1 {
		if len(matches) > 1+maxOtherMatches {
			out.Matches = len(matches)
		}
		aliases := e.aliasesAt(b.Endpoint)
		for _, m := range matches[1:min(len(matches), 1+maxOtherMatches)] {
			out.OtherMatches = append(out.OtherMatches, listTab(m, aliases))
		}
	}
	return output{value: out}, nil
}

// maxOtherMatches is how many of the other tabs a connectTab pattern
// matched its output lists.
const maxOtherMatches = 5

// connectOutput is connectTab's report: the tab, and when its pattern
// matched several, the others, which connectTab takes by targetId (the
// first few, and then how many matched).
type connectOutput struct {
	tabOutput
	Matches      int         `json:"matches,omitempty"`
	OtherMatches []listedTab `json:"otherMatches,omitempty"`
}

func orStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// --- closeTab

type closeTabParams struct {
	Tab string `json:"tab"`
}

func decodeCloseTab(raw json.RawMessage) (closeTabParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *closeTabParams) error {
		if s, ok := asString(raw); ok {
			p.Tab = s
			return nil
		}
		return paramErrorf(`expected a tab alias such as "t1", got %s`, jsonKind(raw))
	})
	if err == nil && p.Tab == "" {
		err = paramErrorf(`name the tab to close, e.g. {"closeTab":"t1"}`)
	}
	return p, err
}

func runCloseTab(ctx context.Context, e *env, p closeTabParams) (output, error) {
	alias, entry, found, err := e.tabs.registry().Resolve(p.Tab)
	if err != nil {
		return output{}, err
	}
	if !found {
		if !tab.IsTargetID(p.Tab) {
			return output{}, &tab.UnknownError{Tab: p.Tab, Session: e.tabs.registry().Session()}
		}
		entry = tabs.Entry{TargetID: p.Tab}
	}
	ep := entry.Endpoint()
	if !found {
		if ep, err = e.defaultEndpoint(); err != nil {
			return output{}, err
		}
	}
	// A recording ends with its tab, but its trace would go with it.
	recorded := e.recordingBeforeClose(ctx, ep, alias, entry.TargetID, found)
	// Over the websocket, which every endpoint has (remote ones may offer
	// no /json/close). A target id of another session's tab is refused.
	closeErr := e.withBrowser(ctx, ep, func(b *chrome.Browser) error {
		if !found {
			if err := tab.CheckTarget(ctx, b, entry.TargetID, e.tabs.registry()); err != nil {
				return err
			}
		}
		e.tabs.letGo(entry.TargetID)
		return chrome.CloseTargetWS(ctx, b.Conn, entry.TargetID)
	})
	removed := ""
	if closeErr == nil || cdp.IsTargetGone(closeErr) {
		tabs.ForgetTarget(e.files.Temp, entry.TargetID)
		// No step reads a closed tab's files; a tab named by its raw
		// target id kept them under it.
		files := alias
		if !found {
			files = p.Tab
		}
		removed = e.forgetTabFiles(files)
	}
	released := false
	if found && (closeErr == nil || cdp.IsTargetGone(closeErr)) {
		if err := e.tabs.registry().Remove(alias); err != nil {
			e.warn("tab registry: %v", err)
		}
		released = e.releaseIfLast(ctx, ep)
	}
	if closeErr != nil && !cdp.IsTargetGone(closeErr) {
		var e *Error
		if errors.As(closeErr, &e) {
			return output{}, e
		}
		var fe *tab.ForeignError
		if errors.As(closeErr, &fe) {
			return output{}, fe
		}
		return output{}, &Error{Type: Connection, Message: fmt.Sprintf("close tab %s: %v", p.Tab, closeErr), Err: closeErr}
	}
	return output{value: closedTab{Closed: p.Tab, Removed: removed, Recorded: recorded.value, Released: released}, warning: recorded.warning}, nil
}

// releaseIfLast releases the fleet's browser at ep when no tab of the
// call's session is left in it: its keeper lets go of it, which has the
// provider release it; without a keeper, the call asks the provider. It
// says whether it did.
func (e *env) releaseIfLast(ctx context.Context, ep chrome.Endpoint) bool {
	if !fleet.Kept(ep) || len(e.aliasesAt(ep)) > 0 {
		return false
	}
	p, err := fleet.Lookup(ep.Provider)
	if err != nil {
		return false
	}
	done, err := e.keep.Release(ctx, ep)
	if err == nil && !done {
		if ep, err = fleet.Resolve(ep, e.getenv, false); err == nil {
			err = p.Release(ctx, ep)
		}
	}
	if err != nil {
		e.warn("the %s browser at %s may not be released: %v", ep.Provider, ep, fleet.Explain(ctx, ep, err))
		return false
	}
	return true
}

// closedTab is closeTab's report: the tab, what went with it of its
// history (screenshots and snapshots), which keepArtifacts would have kept,
// and what its recording left.
type closedTab struct {
	Closed   string `json:"closed"`
	Removed  string `json:"removed,omitempty"`
	Recorded any    `json:"recorded,omitempty"`
	// Released: it was the last tab of a fleet's browser, which is
	// released (the provider stops keeping, and charging for, it).
	Released bool `json:"released,omitempty"`
}

// recordingBeforeClose stops the recording of the tab closeTab closes, if
// it has one, and says what it left.
func (e *env) recordingBeforeClose(ctx context.Context, ep chrome.Endpoint, alias, target string, found bool) output {
	if !found {
		return output{}
	}
	out, err := e.stopRecording(ctx, ep, alias, target)
	if err != nil && !errors.Is(err, keeper.ErrNotRecording) {
		out.warning = fmt.Sprintf("the tab's recording could not be stopped: %v", err)
	}
	return out
}

// withBrowser runs fn on the browser at ep: the call's own connection when
// it is that browser's websocket, else a connection of its own for fn's
// length, so a step about another browser (or tab) leaves the call's tab
// attached. Nothing is launched.
func (e *env) withBrowser(ctx context.Context, ep chrome.Endpoint, fn func(*chrome.Browser) error) error {
	if e.tabs.connection() != nil && chrome.SameEndpoint(e.tabs.connection().Endpoint, ep) && e.tabs.connection().Tab == "" {
		return fn(e.tabs.connection().Browser)
	}
	b, err := tab.Connect(ctx, e.getenv, ep, e.files.Temp, nil, false)
	if err != nil {
		return classify(err)
	}
	defer b.Close()
	return fn(b.Browser)
}

// --- listTabs

func decodeListTabs(raw json.RawMessage) (endpointParams, error) {
	p, err := decodeInto(raw, trueOnly[endpointParams])
	if err == nil {
		err = p.check()
	}
	return p, err
}

type listedTab struct {
	Tab      string `json:"tab,omitempty"`
	TargetID string `json:"targetId"`
	URL      string `json:"url"`
	Title    string `json:"title,omitempty"`
}

func runListTabs(ctx context.Context, e *env, p endpointParams) (output, error) {
	eps, dflt, err := e.listedBrowsers(p)
	if err != nil {
		return output{}, err
	}
	tabs := []listedTab{}
	for i, ep := range eps {
		at, err := e.listTabsAt(ctx, ep)
		if err != nil && (len(eps) == 1 || i != dflt) {
			return output{}, err
		}
		if err != nil { // the default browser, beside the session's on a fleet
			e.warn("the tabs of %s are not listed: %v", ep, err)
		}
		tabs = append(tabs, at...)
	}
	return output{value: map[string]any{"count": len(tabs), "tabs": tabs}}, nil
}

// listedBrowsers are the browsers listTabs lists: the one the step names,
// else the call's, else the session's on fleets (its tabs there are on
// no local Chrome) with the default browser where the environment names
// it or the session has tabs there, else the default browser alone.
// dflt is the default browser's index, -1 when it is not listed.
func (e *env) listedBrowsers(p endpointParams) (eps []chrome.Endpoint, dflt int, err error) {
	switch {
	case p.given():
		ep, err := p.endpoint(e)
		return []chrome.Endpoint{ep}, 0, err
	case e.tabs.connection() != nil:
		return []chrome.Endpoint{e.tabs.connection().Endpoint}, 0, nil
	}
	entries, _ := e.tabs.registry().List()
	aliases := slices.SortedFunc(maps.Keys(entries), func(a, b string) int {
		if tabs.AliasLess(a, b) {
			return 1 // the newest first
		}
		return -1
	})
	local := false
	for _, a := range aliases {
		ep := entries[a].Endpoint()
		if ep.Provider == "" {
			local = true
		} else if !slices.ContainsFunc(eps, func(o chrome.Endpoint) bool { return chrome.SameEndpoint(o, ep) }) {
			eps = append(eps, ep)
		}
	}
	if len(eps) > 0 && !local && e.getenv("CDP_URL") == "" && e.getenv("CDPSKILL_PROVIDER") == "" {
		return eps, -1, nil
	}
	ep, err := e.defaultEndpoint()
	if err != nil {
		return nil, -1, err
	}
	if i := slices.IndexFunc(eps, func(o chrome.Endpoint) bool { return chrome.SameEndpoint(o, ep) }); i >= 0 {
		return eps, i, nil
	}
	return append([]chrome.Endpoint{ep}, eps...), 0, nil
}

// listTabsAt lists the tabs of the browser at ep, by alias, and forgets
// the registered ones that are gone.
func (e *env) listTabsAt(ctx context.Context, ep chrome.Endpoint) ([]listedTab, error) {
	var pages []chrome.TargetInfo
	var listErr error
	listed := false
	list := func() (map[string]bool, error) {
		listed = true
		listErr = e.withBrowser(ctx, ep, func(b *chrome.Browser) (err error) {
			pages, err = tab.Pages(ctx, b, e.tabs.registry())
			return err
		})
		if listErr != nil {
			return nil, listErr
		}
		live := map[string]bool{}
		for _, t := range pages {
			live[t.ID] = true
		}
		return live, nil
	}
	gone, err := e.tabs.registry().Prune(ep, list)
	if err != nil && !listed {
		list() // the registry failed before the listing
	}
	e.forgetFiles(gone)
	if listErr != nil {
		var ce *Error
		if errors.As(listErr, &ce) {
			return nil, ce
		}
		var gone *tab.SessionGoneError
		if errors.As(listErr, &gone) {
			return nil, gone
		}
		return nil, &Error{Type: Connection, Message: fmt.Sprintf("cannot list tabs of Chrome at %s: %v", ep, listErr), Err: listErr}
	}
	if err != nil {
		e.warn("tab registry: %v", err)
	}
	aliases := e.aliasesAt(ep)
	tabs := make([]listedTab, 0, len(pages))
	for _, t := range pages {
		tabs = append(tabs, listTab(t, aliases))
	}
	return tabs, nil
}

// aliasesAt maps the registered tabs of the browser at ep to their
// aliases.
func (e *env) aliasesAt(ep chrome.Endpoint) map[string]string {
	aliases := map[string]string{}
	if entries, err := e.tabs.registry().List(); err == nil {
		for a, e := range entries {
			if chrome.SameEndpoint(e.Endpoint(), ep) {
				aliases[e.TargetID] = a
			}
		}
	}
	return aliases
}

// listTab is t as tab listings show it, with its alias if it has one.
func listTab(t chrome.TargetInfo, aliases map[string]string) listedTab {
	lt := listedTab{Tab: aliases[t.ID], TargetID: t.ID, URL: t.URL, Title: t.Title}
	if lt.Title == lt.URL || "http://"+lt.Title == lt.URL || "https://"+lt.Title == lt.URL {
		lt.Title = "" // Chrome titles an untitled page with its URL
	}
	return lt
}

// trueOnly is the shorthand decoder of steps whose only non-object form
// is `true`.
func trueOnly[P any](raw json.RawMessage, _ *P) error {
	if b, ok := asBool(raw); ok && b {
		return nil
	}
	return paramErrorf("expected true or an object, got %s", jsonKind(raw))
}

// decodeTrue is the decoder of steps that take no parameters.
func decodeTrue(name string) func(json.RawMessage) (struct{}, error) {
	return func(raw json.RawMessage) (struct{}, error) {
		if b, ok := asBool(raw); ok && b {
			return struct{}{}, nil
		}
		return struct{}{}, paramErrorf(`takes no parameters: write {%q: true}`, name)
	}
}

func entryOf(r *tabs.Registry, alias string) (tabs.Entry, bool) {
	_, e, found, err := r.Resolve(alias)
	return e, found && err == nil
}

// endpointKeys are the fields that may carry a gateway's or a fleet's
// token in their URL.
var endpointKeys = []string{"wsUrl", "endpoint"}

// redactWSURLs hides the secrets of every "wsUrl" and "endpoint" in a
// decoded JSON value, in place, so a step's echoed params and the debug
// log never show a gateway's token.
func redactWSURLs(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && slices.Contains(endpointKeys, k) {
				v[k] = cdp.RedactURL(s)
			} else {
				v[k] = redactWSURLs(x)
			}
		}
	case []any:
		for i, x := range v {
			v[i] = redactWSURLs(x)
		}
	}
	return v
}

// redactParams is redactWSURLs on a step's raw JSON.
func redactParams(raw json.RawMessage) json.RawMessage {
	if !hasEndpointKey(raw) {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return raw
	}
	out, err := json.Marshal(redactWSURLs(v))
	if err != nil {
		return raw
	}
	return out
}

// hasEndpointKey: raw may hold a field of endpointKeys.
func hasEndpointKey(raw []byte) bool {
	for _, k := range endpointKeys {
		if bytes.Contains(raw, []byte(`"`+k+`"`)) {
			return true
		}
	}
	return false
}
