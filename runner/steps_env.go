package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/internal/suggest"
	"github.com/cdpskill/cdpskill/page"
)

// envSteps set up the tab's environment: its screen, cookies and storage.
var envSteps = []step{
	define("viewport", `"iphone-15" | "reset" | {device} | {width, height, deviceScaleFactor, mobile, hasTouch, isLandscape, userAgent}`,
		"emulate a screen or a device (iphone-15, pixel-7, ipad…; its user agent, touch) until \"reset\"",
		needsTab|visual, decodeViewport, runViewport).out(`{width, height, deviceScaleFactor, mobile} | {reset}`).did("Resized").
		also(`{"viewport":"…"}`, "emulate", "emulateDevice", "device", "setDevice").
		also(`{"viewport":{"width":390,"height":844}}`, "setViewport", "setViewportSize", "resize", "resizeWindow", "windowSize"),
	define("cookies", `true | {get: true|"url"|["url"], name} | {set: [{name, value, url|domain, path, expires: unix s|"30m"|"1h"|"7d"|"1w"|"1y", httpOnly, secure, sameSite}]} | {delete: "name"} | {clear: true} (+ domain, url or all: true)`,
		"the page's, unless a domain, url or all: true says otherwise",
		needsTab, decodeCookies, runCookies).out(`{cookies} | {set} | {deleted} | {cleared}`).
		also(`{"cookies":true}`, "getCookies", "cookie").
		also(`{"cookies":{"set":[{"name":"…","value":"v","url":"https://example.com"}]}}`, "setCookie", "setCookies", "addCookie", "addCookies").
		also(`{"cookies":{"delete":"…"}}`, "deleteCookie").
		also(`{"cookies":{"clear":true}}`, "clearCookies", "deleteCookies"),
	define("storage", `"local"|"session" | {local|session: {get: "key"|["key"]|true, set: {key: value}, remove: "key"|["key"], clear: true}}`,
		"localStorage, sessionStorage; runs clear, remove, set, then get",
		needsTab, decodeStorage, runStorage).out(`{local?: {items, count, set, removed, cleared}, session?: …}`).
		also(`{"storage":"local"}`, "localStorage", "getLocalStorage").
		also(`{"storage":"session"}`, "sessionStorage"),
}

// --- viewport

type viewportParams struct {
	Device string `json:"device"`
	page.DeviceMetrics

	reset bool
}

func decodeViewport(raw json.RawMessage) (viewportParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *viewportParams) error {
		if b, ok := asBool(raw); ok && !b {
			p.reset = true
			return nil
		}
		if s, ok := asString(raw); ok {
			p.Device = s
			return nil
		}
		return paramErrorf(`expected a device name such as "iphone-15", "reset", or {width, height, …}, got %s`, jsonKind(raw))
	})
	if err != nil || p.reset {
		return p, err
	}
	if p.Device != "" {
		if p.DeviceMetrics != (page.DeviceMetrics{}) {
			return p, paramErrorf(`give "device" or the custom fields (width, height, …), not both`)
		}
		return p, p.lookupDevice()
	}
	if p.Width == 0 || p.Height == 0 {
		return p, paramErrorf(`a custom viewport needs "width" and "height"`)
	}
	if err := p.DeviceMetrics.Validate(); err != nil {
		return p, paramErrorf("%v", err)
	}
	return p, nil
}

func (p *viewportParams) lookupDevice() error {
	name := page.NormalizeDeviceName(p.Device)
	if name == "reset" || name == "default" {
		p.reset = true
		return nil
	}
	d, ok := page.Device(name)
	if !ok {
		names := page.DeviceNames()
		msg := fmt.Sprintf("unknown device %q", p.Device)
		if s := suggest.Nearest(name, names); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return paramErrorf("%s (presets: %s)", msg, strings.Join(names, ", "))
	}
	p.DeviceMetrics = d
	return nil
}

// viewportOutput is what the viewport step reports.
type viewportOutput struct {
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor"`
	Mobile            bool    `json:"mobile"`
}

// reloadNote is said when the step changed the user agent or touch
// support of a tab whose page loaded with the old ones: its server and
// its scripts' feature detection saw those, until it loads again.
const reloadNote = "the page loaded as another device (user agent, touch): reload it to load it as this one"

func runViewport(ctx context.Context, e *env, p viewportParams) (output, error) {
	em := e.tab.LoadEmulation()
	var was page.DeviceMetrics
	if em.Viewport != nil {
		was = *em.Viewport
	}
	var shown viewportOutput
	if p.reset {
		if err := page.ClearViewport(ctx, e.page()); err != nil {
			return output{}, err
		}
		em.Viewport = nil
	} else {
		m, err := page.SetViewport(ctx, e.page(), p.DeviceMetrics)
		if err != nil {
			return output{}, err
		}
		em.Viewport = &m
		shown = viewportOutput{Width: m.Width, Height: m.Height, DeviceScaleFactor: m.DeviceScaleFactor, Mobile: m.Mobile}
	}
	var now page.DeviceMetrics
	if em.Viewport != nil {
		now = *em.Viewport
	}
	out := output{value: shown}
	if p.reset {
		out.value = resetOutput{true}
	}
	if now.UserAgent != was.UserAgent || now.HasTouch != was.HasTouch {
		var blank bool
		if e.page().Top().CallJS(ctx, "() => location.href === 'about:blank'", &blank) == nil && !blank {
			out.warning = reloadNote
		}
	}
	return out, e.tab.SaveEmulation(em)
}

// explainViewport notes why the page's viewport is wider than the phone
// the tab emulates: without a meta viewport, a mobile browser lays the
// page out 980 px wide and shows it zoomed out.
func (c *Call) explainViewport(pc *page.Context) {
	if v := c.tab.Emulation.Viewport; v != nil && v.Mobile && !pc.MetaViewport && pc.LayoutWidth > v.Width {
		pc.Viewport.Note = fmt.Sprintf("layout width %d px: the page has no meta viewport", pc.LayoutWidth)
	}
}

// resetOutput is the viewport step's report of a reset.
type resetOutput struct {
	Reset bool `json:"reset"`
}

// changeNetworkConditions applies a network step's offline or throttle
// change on top of what the tab already emulates, and stores the result.
func (e *env) changeNetworkConditions(ctx context.Context, ch conditionsChange) (any, error) {
	em := e.tab.LoadEmulation()
	var cur page.NetworkConditions
	if em.Network != nil {
		cur = *em.Network
	}
	if ch.throttle != nil {
		cur = page.NetworkConditions{Offline: cur.Offline, Throttle: ch.throttle.Throttle,
			Latency: ch.throttle.Latency, Download: ch.throttle.Download, Upload: ch.throttle.Upload}
	}
	if ch.offline != nil {
		cur.Offline = *ch.offline
	}
	if err := page.SetNetworkConditions(ctx, e.page(), cur); err != nil {
		return nil, err
	}
	e.tab.EmulateWorkers(ctx, cur) // what the tab's service workers fetch goes offline too
	em.Network = nil
	if !cur.IsZero() {
		em.Network = &cur
	}
	return conditionsOutput(cur), e.tab.SaveEmulation(em)
}

// conditionsOutput reports the emulated network: offline, and the
// throttle's preset name or numbers.
func conditionsOutput(n page.NetworkConditions) map[string]any {
	out := map[string]any{"offline": n.Offline}
	switch {
	case n.Throttle != "":
		out["throttle"] = n.Throttle
	case n.Throttled():
		out["throttle"] = map[string]float64{"latency": n.Latency, "download": n.Download, "upload": n.Upload}
	}
	return out
}

// --- cookies

type cookiesParams struct {
	Get    json.RawMessage `json:"get"`
	Set    json.RawMessage `json:"set"`
	Delete string          `json:"delete"`
	Clear  bool            `json:"clear"`
	Name   string          `json:"name"`
	Domain string          `json:"domain"`
	URL    string          `json:"url"`
	All    bool            `json:"all"`

	action  string // get, set, delete or clear
	scope   page.CookieScope
	cookies []page.CookieParam
}

func decodeCookies(raw json.RawMessage) (cookiesParams, error) {
	p, err := decodeInto(raw, trueOnly[cookiesParams])
	if err != nil {
		return p, err
	}
	if !isObject(raw) {
		p.action = "get"
		return p, nil
	}
	if err := p.pickAction(); err != nil {
		return p, err
	}
	if err := p.decodeScope(); err != nil {
		return p, err
	}
	switch p.action {
	case "get":
		return p, p.decodeGet()
	case "set":
		p.cookies, err = decodeCookieList(p.Set)
		return p, err
	}
	if p.Name != "" {
		return p, paramErrorf(`"name" filters a get; to delete a cookie write {"delete": "name"}`)
	}
	return p, nil
}

func (p *cookiesParams) pickAction() error {
	var actions []string
	if len(p.Get) > 0 {
		actions = append(actions, "get")
	}
	if len(p.Set) > 0 {
		actions = append(actions, "set")
	}
	if p.Delete != "" {
		actions = append(actions, "delete")
	}
	if p.Clear {
		actions = append(actions, "clear")
	}
	switch len(actions) {
	case 0:
		return paramErrorf(`say what to do: get, set, delete or clear`)
	case 1:
		p.action = actions[0]
		return nil
	}
	return paramErrorf("one of get, set, delete or clear per step, got %s", strings.Join(actions, " and "))
}

func (p *cookiesParams) decodeScope() error {
	n := 0
	for _, set := range []bool{p.Domain != "", p.URL != "", p.All} {
		if set {
			n++
		}
	}
	switch {
	case n > 1:
		return paramErrorf(`give one of "domain", "url" or "all"`)
	case n == 1 && p.action == "set":
		return paramErrorf(`each cookie to set names its own url or domain; "domain", "url" and "all" scope get, delete and clear`)
	}
	p.scope = page.CookieScope{Domain: p.Domain, All: p.All}
	if p.URL != "" {
		p.scope.URLs = []string{p.URL}
	}
	return nil
}

// decodeGet reads get: true, a URL or a list of URLs.
func (p *cookiesParams) decodeGet() error {
	if b, ok := asBool(p.Get); ok && b {
		return nil
	}
	var urls []string
	if s, ok := asString(p.Get); ok && s != "" {
		urls = []string{s}
	} else if json.Unmarshal(p.Get, &urls) != nil || len(urls) == 0 {
		return paramErrorf(`"get" takes true, a URL or a list of URLs`)
	}
	if len(p.scope.URLs) > 0 || p.scope.Domain != "" || p.scope.All {
		return paramErrorf(`give the URLs in "get" or a scope (domain, url, all), not both`)
	}
	p.scope.URLs = urls
	return nil
}

type cookieInput struct {
	Name     string          `json:"name"`
	Value    string          `json:"value"`
	URL      string          `json:"url"`
	Domain   string          `json:"domain"`
	Path     string          `json:"path"`
	Expires  json.RawMessage `json:"expires"`
	HTTPOnly bool            `json:"httpOnly"`
	Secure   bool            `json:"secure"`
	SameSite string          `json:"sameSite"`
}

// decodeCookieList reads set: one cookie or a list of them.
func decodeCookieList(raw json.RawMessage) ([]page.CookieParam, error) {
	var items []json.RawMessage
	if isObject(raw) {
		items = []json.RawMessage{raw}
	} else if json.Unmarshal(raw, &items) != nil || len(items) == 0 {
		return nil, paramErrorf(`"set" takes a cookie {name, value, …} or a list of them`)
	}
	out := make([]page.CookieParam, len(items))
	for i, item := range items {
		c, err := decodeCookie(item)
		if err != nil {
			return nil, paramErrorf("cookie %d: %v", i+1, err)
		}
		out[i] = c
	}
	return out, nil
}

func decodeCookie(raw json.RawMessage) (page.CookieParam, error) {
	var in cookieInput
	if err := decodeStrict(raw, &in); err != nil {
		return page.CookieParam{}, err
	}
	if in.Name == "" {
		return page.CookieParam{}, paramErrorf(`"name" is required`)
	}
	if in.URL != "" && in.Domain != "" {
		return page.CookieParam{}, paramErrorf(`give "url" or "domain", not both`)
	}
	sameSite, ok := page.SameSite(in.SameSite)
	if !ok {
		return page.CookieParam{}, paramErrorf(`"sameSite" must be Strict, Lax or None, got %q`, in.SameSite)
	}
	expires, err := decodeExpires(in.Expires)
	if err != nil {
		return page.CookieParam{}, err
	}
	return page.CookieParam{Name: in.Name, Value: in.Value, URL: in.URL, Domain: in.Domain, Path: in.Path,
		Expires: expires, HTTPOnly: in.HTTPOnly, Secure: in.Secure, SameSite: sameSite}, nil
}

// decodeExpires reads Unix seconds or a duration from now such as "7d".
func decodeExpires(raw json.RawMessage) (int64, error) {
	if len(raw) == 0 {
		return 0, nil
	}
	if s, ok := asString(raw); ok {
		t, err := page.ParseExpiry(s, time.Now())
		if err != nil {
			return 0, paramErrorf("%v", err)
		}
		return t, nil
	}
	var secs float64
	if json.Unmarshal(raw, &secs) != nil || secs <= 0 {
		return 0, paramErrorf(`"expires" takes Unix seconds or a duration such as "7d"`)
	}
	if secs > 1e11 {
		return 0, paramErrorf(`"expires" is in seconds, not milliseconds`)
	}
	return int64(secs), nil
}

func runCookies(ctx context.Context, e *env, p cookiesParams) (output, error) {
	switch p.action {
	case "set":
		n, err := page.SetCookies(ctx, e.page(), p.cookies)
		return output{value: map[string]int{"set": n}}, err
	case "delete":
		n, err := page.DeleteCookies(ctx, e.page(), p.scope, p.Delete)
		return output{value: map[string]int{"deleted": n}}, err
	case "clear":
		n, err := page.DeleteCookies(ctx, e.page(), p.scope, "")
		return output{value: map[string]int{"cleared": n}}, err
	}
	cookies, err := page.GetCookies(ctx, e.page(), p.scope, p.Name)
	if err != nil {
		return output{}, err
	}
	return output{value: map[string]any{"cookies": cookies}}, nil
}

// --- storage

type storageParams struct {
	Local   json.RawMessage `json:"local"`
	Session json.RawMessage `json:"session"`

	areas []storageArea
}

type storageArea struct {
	name string
	ops  page.StorageOps
}

type storageAreaParams struct {
	Get    json.RawMessage            `json:"get"`
	Set    map[string]json.RawMessage `json:"set"`
	Remove json.RawMessage            `json:"remove"`
	Clear  bool                       `json:"clear"`
}

func decodeStorage(raw json.RawMessage) (storageParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *storageParams) error {
		if s, ok := asString(raw); ok && (s == "local" || s == "session") {
			p.areas = []storageArea{{name: s, ops: page.StorageOps{GetAll: true}}}
			return nil
		}
		return paramErrorf(`expected "local", "session" or {local|session: {get, set, remove, clear}}, got %s`, jsonKind(raw))
	})
	if err != nil || len(p.areas) > 0 {
		return p, err
	}
	for _, a := range []struct {
		name string
		raw  json.RawMessage
	}{{"local", p.Local}, {"session", p.Session}} {
		if len(a.raw) == 0 {
			continue
		}
		ops, err := decodeStorageOps(a.raw)
		if err != nil {
			return p, paramErrorf("%s: %v", a.name, err)
		}
		p.areas = append(p.areas, storageArea{name: a.name, ops: ops})
	}
	if len(p.areas) == 0 {
		return p, paramErrorf(`say which storage: {"local": {…}} or {"session": {…}}`)
	}
	return p, nil
}

func decodeStorageOps(raw json.RawMessage) (page.StorageOps, error) {
	var in storageAreaParams
	var ops page.StorageOps
	if err := decodeStrict(raw, &in); err != nil {
		return ops, err
	}
	ops.Clear = in.Clear
	if len(in.Get) > 0 {
		if b, ok := asBool(in.Get); ok && b {
			ops.GetAll = true
		} else if ops.Get = stringOrList(in.Get); ops.Get == nil {
			return ops, paramErrorf(`"get" takes a key, a list of keys or true`)
		}
	}
	if len(in.Remove) > 0 {
		if ops.Remove = stringOrList(in.Remove); ops.Remove == nil {
			return ops, paramErrorf(`"remove" takes a key or a list of keys`)
		}
	}
	if len(in.Set) > 0 {
		ops.Set = make(map[string]string, len(in.Set))
		for k, v := range in.Set {
			// Storage holds strings: a string is stored as it is, anything
			// else as its JSON text.
			s, ok := asString(v)
			if !ok {
				var b bytes.Buffer
				if err := json.Compact(&b, v); err != nil {
					return ops, paramErrorf(`"set" %q: %v`, k, err)
				}
				s = b.String()
			}
			ops.Set[k] = s
		}
	}
	if !ops.Clear && !ops.GetAll && ops.Get == nil && ops.Remove == nil && ops.Set == nil {
		return ops, paramErrorf(`say what to do: get, set, remove or clear`)
	}
	return ops, nil
}

// stringOrList reads "key" or ["key", …]; nil when it is neither.
func stringOrList(raw json.RawMessage) []string {
	if s, ok := asString(raw); ok {
		return []string{s}
	}
	var list []string
	if json.Unmarshal(raw, &list) != nil || len(list) == 0 {
		return nil
	}
	return list
}

func runStorage(ctx context.Context, e *env, p storageParams) (output, error) {
	out := map[string]*page.StorageResult{}
	for _, a := range p.areas {
		res, err := page.Storage(ctx, e.page(), a.name, a.ops)
		if err != nil {
			return output{value: out}, err
		}
		out[a.name] = res
	}
	return output{value: out}, nil
}
