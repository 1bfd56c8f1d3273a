package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/suggest"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/tab"
)

// captureSteps save what the page shows and report what it logged and
// fetched.
var captureSteps = []step{
	defineFiles("screenshot", `true | "path" | {path, fullPage, clip: {x, y, width, height}, selector|ref, padding, format: png|jpeg|webp, quality, omitBackground, fullResolution, annotate}`,
		"",
		needsTab, decodeScreenshot, runScreenshot).out(`{path, width, height, format, scale?, annotated?, legend?}`).
		also(`{"screenshot":true}`, "takeScreenshot", "captureScreenshot"),
	defineFiles("pdf", `true | "path" | {path, landscape, scale, pageRanges: "1-3, 5", margin{Top,Bottom,Left,Right}, paperWidth, paperHeight (inches), displayHeaderFooter, headerTemplate, footerTemplate, printBackground, preferCSSPageSize}`,
		"",
		needsTab, decodePDF, runPDF).out(`{path, pages, size, valid}`).
		also(`{"pdf":true}`, "printPdf", "printToPdf", "savePdf", "print"),
	define("console", `true | {limit (50), level: "error"|"warning,error"|…, type: console|exception, since (ms timestamp), stackTrace, clear}`,
		"messages, newest last, earlier calls' too",
		needsTab|sized, decodeConsole, runConsole).out(`{total, showing, messages: [{level, text, url, stack?, …}], file?} | {cleared}`).
		also(`{"console":true}`, "consoleMessages", "consoleLogs", "getConsole", "getConsoleLogs", "logs", "getLogs"),
	defineFiles("network", `true | {limit (50), filter: "text"|"/regex/", status: 404|"4xx", failed, type: "fetch,xhr", sort: slowest|largest} | {body: "/api/x"|id} | {har: "x.har"|true} | {clear: true} | {offline} | {throttle: "slow-3g"|"fast-3g"|"slow-4g"|"fast-4g"|"off"|{latency (ms), download, upload (bytes/s)}}`,
		"the last 1,000; offline, throttle stay on",
		needsTab|sized, decodeNetwork, runNetwork).out(`{total, showing, requests: [{id, url, method, status, from, ms, …}], file?} | {id, request, body, …} | {path, entries, bodies, bytes} | {cleared} | {offline, throttle?}`).
		also(`{"network":true}`, "networkRequests", "requests", "getRequests", "getNetwork").
		also(`{"network":{"offline":true}}`, "offline", "setOffline", "goOffline").
		also(`{"network":{"throttle":"slow-3g"}}`, "throttle", "throttleNetwork", "emulateNetwork", "networkConditions"),
}

// --- screenshot

type screenshotParams struct {
	Path           string        `json:"path"`
	FullPage       bool          `json:"fullPage"`
	Clip           *capture.Rect `json:"clip"`
	Selector       string        `json:"selector"`
	Ref            string        `json:"ref"`
	Padding        float64       `json:"padding"`
	Format         string        `json:"format"`
	Quality        int           `json:"quality"`
	OmitBackground bool          `json:"omitBackground"`
	FullResolution bool          `json:"fullResolution"`
	// Annotate boxes the interactive elements the image shows, each
	// labelled with its ref.
	Annotate bool `json:"annotate"`
}

func decodeScreenshot(raw json.RawMessage, files capture.Files) (screenshotParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *screenshotParams) error {
		if s, ok := asString(raw); ok && s != "" {
			p.Path = s
			return nil
		}
		return trueOnly(raw, p)
	})
	if err != nil {
		return p, err
	}
	if p.Selector != "" && dom.IsRef(p.Selector) {
		p.Selector, p.Ref = "", p.Selector
	}
	element := p.Selector != "" || p.Ref != ""
	switch {
	case p.Selector != "" && p.Ref != "":
		return p, paramErrorf(`give "selector" or "ref", not both`)
	case element && (p.FullPage || p.Clip != nil):
		return p, paramErrorf(`an element screenshot takes no "fullPage" or "clip"`)
	case p.Padding < 0 || (p.Padding > 0 && !element):
		return p, paramErrorf(`"padding" (CSS pixels, at least 0) goes with "selector" or "ref"`)
	}
	if p.Format, err = formatFromPath(p.Path, p.Format); err != nil {
		return p, err
	}
	if p.Quality != 0 && p.Format == "png" {
		return p, paramErrorf(`"quality" applies to jpeg and webp, not png`)
	}
	if p.Annotate && p.Format == "webp" {
		return p, paramErrorf(`"annotate" draws on png and jpeg images, not webp`)
	}
	if err := p.options().Validate(); err != nil {
		return p, paramErrorf("%v", err)
	}
	return p, resolveOutputPath(files, &p.Path, "."+extension(p.Format))
}

// formatFromPath reconciles "format" with the path's extension: either
// may name it, and they must agree.
func formatFromPath(path, format string) (string, error) {
	f, ok := capture.Format(format)
	if !ok {
		return "", paramErrorf(`"format" must be png, jpeg or webp, got %q`, format)
	}
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if ext == "" {
		return f, nil
	}
	byExt, ok := capture.Format(ext)
	switch {
	case !ok:
		return "", paramErrorf(`the path's extension .%s is not png, jpg, jpeg or webp`, ext)
	case format == "":
		return byExt, nil
	case byExt != f:
		return "", paramErrorf(`"format" %s does not match the path's extension .%s`, format, ext)
	}
	return f, nil
}

func extension(format string) string {
	if format == "jpeg" {
		return "jpg"
	}
	return format
}

// resolveOutputPath makes a given path absolute and gives it ext when it
// has none; an empty path stays empty (the step picks one when it runs).
func resolveOutputPath(files capture.Files, path *string, ext string) error {
	if *path == "" {
		return nil
	}
	if filepath.Ext(*path) == "" {
		*path += ext
	}
	abs, err := files.OutputPath(*path)
	if err != nil {
		return paramErrorf("%v", err)
	}
	*path = abs
	return nil
}

func (p screenshotParams) options() capture.ShotOptions {
	o := capture.ShotOptions{Format: p.Format, Quality: p.Quality, FullPage: p.FullPage,
		Clip: p.Clip, OmitBackground: p.OmitBackground, MaxSide: capture.ReadableSide}
	if p.FullResolution {
		o.MaxSide = 0
	}
	return o
}

func runScreenshot(ctx context.Context, e *env, p screenshotParams) (output, error) {
	opts := p.options()
	if p.Selector != "" || p.Ref != "" {
		clip, err := capture.ElementClip(ctx, e.page(), capture.ElementTarget{Selector: p.Selector, Ref: p.Ref, Padding: p.Padding})
		if err != nil {
			return output{}, err
		}
		opts.Clip = clip
	}
	path := p.Path
	if path == "" {
		path = e.files.NextPath(e.alias(), "shot", extension(p.Format))
	}
	if p.Annotate {
		opts.Marks = e.shotMarks
	}
	shot, err := e.files.Capture(ctx, e.tab.Session, path, opts)
	if shot == nil {
		return output{}, err
	}
	return output{value: shot, warning: joinWarnings(shot.Warning, shot.Unannotated)}, err
}

// joinWarnings joins the warnings that say something.
func joinWarnings(ws ...string) string {
	return strings.Join(slices.DeleteFunc(ws, func(w string) bool { return w == "" }), "; ")
}

// --- pdf

type pdfParams struct {
	Path string `json:"path"`
	capture.PDFOptions
}

func decodePDF(raw json.RawMessage, files capture.Files) (pdfParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *pdfParams) error {
		if s, ok := asString(raw); ok && s != "" {
			p.Path = s
			return nil
		}
		return trueOnly(raw, p)
	})
	if err != nil {
		return p, err
	}
	if err := p.Validate(); err != nil {
		return p, paramErrorf("%v", err)
	}
	return p, resolveOutputPath(files, &p.Path, ".pdf")
}

func runPDF(ctx context.Context, e *env, p pdfParams) (output, error) {
	path := p.Path
	if path == "" {
		path = e.files.NextPath(e.alias(), "print", "pdf")
	}
	return value(e.files.PrintPDF(ctx, e.tab.Session, path, p.PDFOptions))
}

// --- console

type consoleParams struct {
	Limit      int     `json:"limit"`
	Level      string  `json:"level"`
	Type       string  `json:"type"`
	Since      float64 `json:"since"`
	StackTrace bool    `json:"stackTrace"`
	Clear      bool    `json:"clear"`

	levels []string
}

func decodeConsole(raw json.RawMessage) (consoleParams, error) {
	p, err := decodeInto(raw, trueOnly[consoleParams])
	if err != nil {
		return p, err
	}
	switch {
	case p.Limit < 0:
		return p, paramErrorf(`"limit" must be positive`)
	case p.Type != "" && p.Type != "console" && p.Type != "exception":
		return p, paramErrorf(`"type" must be console or exception, got %q`, p.Type)
	case p.Since < 0:
		return p, paramErrorf(`"since" is a timestamp in milliseconds since the epoch, as messages carry it`)
	}
	if p.Level != "" {
		if p.levels, err = capture.ParseLevels(p.Level); err != nil {
			return p, paramErrorf("%v", err)
		}
	}
	return p, nil
}

func runConsole(ctx context.Context, e *env, p consoleParams) (output, error) {
	if e.console() == nil {
		return output{}, newError(Execution, "console capture did not start for this tab")
	}
	if err := e.console().Flush(ctx); err != nil {
		return output{}, err
	}
	q := capture.ConsoleQuery{Limit: p.Limit, Levels: p.levels, Type: p.Type, StackTrace: p.StackTrace}
	if p.Since > 0 {
		q.Since = msTime(p.Since)
	}
	msgs := e.withFrameConsole(ctx, e.console().Messages(), (*capture.Console).Messages)
	msgs = e.withWorkerConsoles(ctx, msgs, (*capture.Console).Messages, tab.WorkerWait)
	view, err := e.files.NewConsoleView(msgs, q, e.files.TabFile(e.alias(), ".console.json"))
	if err != nil {
		return output{}, err
	}
	if p.Clear {
		if err := e.console().Discard(ctx); err != nil {
			return output{value: view}, err
		}
		if fc := e.tab.FrameConsole(ctx); fc != nil {
			if err := fc.Discard(ctx); err != nil {
				return output{value: view}, err
			}
		}
		e.discardWorkerConsoles(ctx)
	}
	return output{value: view}, nil
}

// msTime reads a timestamp in milliseconds since the epoch.
func msTime(ms float64) time.Time { return time.UnixMicro(int64(math.Round(ms * 1000))) }

// --- network

type networkParams struct {
	// Body names a kept body to read back: a request's id or a part of
	// its URL.
	Body     string          `json:"body"`
	Limit    int             `json:"limit"`
	Filter   string          `json:"filter"`
	Status   json.RawMessage `json:"status"`
	Failed   bool            `json:"failed"`
	Type     string          `json:"type"`
	Clear    bool            `json:"clear"`
	Offline  *bool           `json:"offline"`
	Throttle json.RawMessage `json:"throttle"`
	Sort     string          `json:"sort"`
	// Har asks for the tab's requests as a HAR file: its path, or true
	// for one beside the tab's files.
	Har json.RawMessage `json:"har"`

	query capture.NetworkQuery
	// harPath is Har's path resolved; empty with har: true.
	harPath string
	// conditions, when set, make the step change the emulated network
	// instead of listing requests.
	conditions *conditionsChange
}

// conditionsChange is what a network step changes of the tab's emulated
// network; nil fields stay as they are.
type conditionsChange struct {
	offline  *bool
	throttle *page.NetworkConditions // zero: throttling off
}

func decodeNetwork(raw json.RawMessage, files capture.Files) (networkParams, error) {
	p, err := decodeInto(raw, trueOnly[networkParams])
	if err != nil {
		return p, err
	}
	listing := p.Limit != 0 || p.Filter != "" || len(p.Status) > 0 || p.Failed || p.Type != "" || p.Sort != ""
	if len(p.Har) > 0 {
		if p.Body != "" || p.Clear || p.Offline != nil || len(p.Throttle) > 0 || p.Sort != "" {
			return p, paramErrorf(`"har" writes the tab's requests in the order they began, those "filter", "status", "failed", "type" and "limit" select; sort, read a body, clear or change the network in a separate network step`)
		}
		if err := p.decodeHAR(files); err != nil {
			return p, err
		}
		return p, p.decodeQuery()
	}
	if p.Body != "" {
		if listing || p.Clear || p.Offline != nil || len(p.Throttle) > 0 {
			return p, paramErrorf(`"body" reads one request's bodies back; list or change the network in a separate network step`)
		}
		return p, nil
	}
	if p.Offline != nil || len(p.Throttle) > 0 {
		if listing || p.Clear {
			return p, paramErrorf(`"offline" and "throttle" change the network; list requests in a separate network step`)
		}
		p.conditions = &conditionsChange{offline: p.Offline}
		if len(p.Throttle) > 0 {
			t, err := decodeThrottle(p.Throttle)
			if err != nil {
				return p, err
			}
			p.conditions.throttle = &t
		}
		return p, nil
	}
	if p.Clear && listing {
		return p, paramErrorf(`"clear" empties the log and answers how many it held; list requests in a separate network step before it`)
	}
	return p, p.decodeQuery()
}

func (p *networkParams) decodeQuery() error {
	if p.Limit < 0 {
		return paramErrorf(`"limit" must be positive`)
	}
	q := capture.NetworkQuery{Limit: p.Limit, Failed: p.Failed}
	var err error
	if p.Filter != "" {
		if q.URL, err = capture.ParseURLFilter(p.Filter); err != nil {
			return paramErrorf("%v", err)
		}
	}
	if len(p.Status) > 0 {
		s, ok := asString(p.Status)
		if !ok {
			s = string(p.Status) // a number
		}
		if q.Status, err = capture.ParseStatus(s); err != nil {
			return paramErrorf("%v", err)
		}
	}
	if p.Type != "" {
		if q.Types, err = capture.ParseTypes(p.Type); err != nil {
			return paramErrorf("%v", err)
		}
	}
	if p.Sort != "" {
		if q.Sort, err = capture.ParseSort(p.Sort); err != nil {
			return paramErrorf("%v", err)
		}
	}
	p.query = q
	return nil
}

// decodeHAR reads "har": a path, made absolute as a screenshot's is and
// given .har when it has no extension, or true.
func (p *networkParams) decodeHAR(files capture.Files) error {
	if b, ok := asBool(p.Har); ok && b {
		return nil
	}
	s, ok := asString(p.Har)
	if !ok || strings.TrimSpace(s) == "" {
		return paramErrorf(`"har" is the path of the file to write ("traffic.har"), or true for one beside the tab's files`)
	}
	p.harPath = s
	return resolveOutputPath(files, &p.harPath, ".har")
}

// decodeThrottle reads a preset name, "off" or false, or custom numbers.
func decodeThrottle(raw json.RawMessage) (page.NetworkConditions, error) {
	if b, ok := asBool(raw); ok && !b {
		return page.NetworkConditions{}, nil
	}
	if s, ok := asString(raw); ok {
		if strings.EqualFold(s, "off") || strings.EqualFold(s, "none") {
			return page.NetworkConditions{}, nil
		}
		if n, ok := page.ThrottlePreset(s); ok {
			return n, nil
		}
		msg := fmt.Sprintf(`unknown throttle preset %q (presets: %s, or "off")`, s, strings.Join(page.ThrottlePresetNames, ", "))
		if sug := suggest.Nearest(s, page.ThrottlePresetNames); sug != "" {
			msg += fmt.Sprintf("; did you mean %q?", sug)
		}
		return page.NetworkConditions{}, paramErrorf("%s", msg)
	}
	var custom struct {
		Latency  float64 `json:"latency"`
		Download float64 `json:"download"`
		Upload   float64 `json:"upload"`
	}
	if err := decodeStrict(raw, &custom); err != nil {
		return page.NetworkConditions{}, paramErrorf(`"throttle": %v`, err)
	}
	if custom.Latency < 0 || custom.Download < 0 || custom.Upload < 0 {
		return page.NetworkConditions{}, paramErrorf(`"throttle": latency (ms), download and upload (bytes/s) must be at least 0`)
	}
	return page.NetworkConditions{Latency: custom.Latency, Download: custom.Download, Upload: custom.Upload}, nil
}

func runNetwork(ctx context.Context, e *env, p networkParams) (output, error) {
	if p.conditions != nil {
		return value(e.changeNetworkConditions(ctx, *p.conditions))
	}
	if p.Body != "" {
		return e.keptBody(p.Body)
	}
	nc, logged, err := e.savedNetwork(ctx)
	if err != nil {
		return output{}, err
	}
	if len(p.Har) > 0 {
		nc.Log.ReadExchanges(logged) // only a HAR shows them
		return e.writeHAR(ctx, nc, p, nc.WithUnsaved(logged))
	}
	all := nc.WithUnsaved(logged)
	if p.Clear {
		nc.Clear()
		if err := nc.Log.Clear(); err != nil {
			return output{}, err
		}
		return output{value: map[string]int{"cleared": len(all)}}, nil
	}
	q := p.query
	q.Now = time.Now().UnixMilli()
	// When the page began to load, for each request's "at": read now, as
	// the call may have navigated since it attached.
	_ = e.page().Top().CallJS(ctx, "() => performance.timeOrigin", &q.NavStart) // none: no "at"
	return value(e.files.NewNetworkView(all, q, e.files.TabFile(e.alias(), ".network.json")))
}

// savedNetwork brings the tab's log up to date with what the call saw so
// far and reads it back, with the call's capture.
func (e *env) savedNetwork(ctx context.Context) (*tab.Network, []capture.Request, error) {
	nc, err := e.tab.EnsureNetwork(ctx)
	if err != nil {
		return nil, nil, err
	}
	if err := nc.Flush(ctx); err != nil {
		return nil, nil, err
	}
	_, routed := routesInForce(e.tab)
	nc.Routed(routed)
	if err := nc.Save(ctx, nc.Log, false, e.page().Top()); err != nil {
		return nil, nil, err
	}
	logged, err := nc.Log.Read()
	if err != nil {
		return nil, nil, err
	}
	return nc, logged, nil
}

// writeHAR writes the requests p selects of all, the tab's, as a HAR.
// This call's bodies are kept first (as its end would keep them): the HAR
// takes the bodies from those kept.
func (e *env) writeHAR(ctx context.Context, nc *tab.Network, p networkParams, all []capture.Request) (output, error) {
	warning := ""
	if err := nc.KeepBodies(ctx, e.files, e.alias(), 0); err != nil {
		warning = fmt.Sprintf("the bodies of this call's requests are not in the HAR: %v", err)
	}
	path := p.harPath
	if path == "" {
		path = e.files.NextPath(e.alias(), "network", "har")
	}
	f, err := e.files.WriteHAR(e.alias(), path, p.query.Select(all))
	if err != nil {
		return output{}, err
	}
	return output{value: f, warning: warning}, nil
}

// keptBodyOutput is a request read back from the tab's kept bodies: what
// the page sent (request) and what it got, shown as waitForResponse shows
// a response, and the headers both ways, their secrets masked.
type keptBodyOutput struct {
	ID      string `json:"id"`
	Request any    `json:"request,omitempty"`
	stepResponse
	RequestHeaders  capture.Headers `json:"requestHeaders,omitempty"`
	ResponseHeaders capture.Headers `json:"responseHeaders,omitempty"`
}

// keptBody reads back the newest kept request whose id is key or whose
// URL contains it.
func (e *env) keptBody(key string) (output, error) {
	k, body, err := e.files.FindBody(e.alias(), key)
	if err != nil {
		return output{}, err
	}
	out := keptBodyOutput{ID: k.ID, stepResponse: stepResponse{URL: k.URL, Method: k.Method, Status: k.Status, MimeType: k.MimeType, Warning: k.Gone},
		RequestHeaders: k.RequestHeaders, ResponseHeaders: k.ResponseHeaders}
	if k.Request != "" {
		out.Request = k.Request
		if json.Valid([]byte(k.Request)) {
			out.Request = json.RawMessage(k.Request)
		}
	}
	if body != nil {
		e.showBody(&out.stepResponse, body)
	}
	return output{value: out}, nil
}

// finishNetwork collects the call's last requests, saves them to the
// tab's log and returns the failed ones for the call's result (nil when
// none failed) and any error saving the log. finish runs it once the
// session's events have been flushed.
func (c *Call) finishNetwork(ctx context.Context, held bool) (*capture.NetworkReport, []routeLine, error) {
	nc := c.network()
	if nc == nil {
		return nil, nil, nil
	}
	routes, routed := routesInForce(c.tab)
	nc.Routed(routed)
	top := c.page().Top()
	if held {
		top = nil // a page a navigation holds back answers nothing
	}
	err := nc.Save(ctx, nc.Log, true, top)
	if !held {
		// A later call reads them back (network's body): Chrome drops them
		// with the call's session.
		err = errors.Join(err, nc.KeepBodies(ctx, c.files, c.alias(), c.start.UnixMilli()))
	}
	return nc.Report(c.start.UnixMilli(), c.startURL), routes, err
}
