package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

// envSteps set up what the tab keeps: its cookies and storage.
var envSteps = []step{
	define("cookies", `true | {get: true|"url"|["url"], name} | {set: [{name, value, url|domain, path, expires: unix s|"30m"|"1h"|"7d"|"1w"|"1y", httpOnly, secure, sameSite}]} | {delete: "name"} | {clear: true} (+ domain, url or all: true)`,
		"the page's, unless domain, url or all",
		needsTab, decodeCookies, runCookies).out(`{cookies} | {set} | {deleted} | {cleared}`).
		also(`{"cookies":true}`, "getCookies", "cookie").
		also(`{"cookies":{"set":[{"name":"…","value":"v","url":"https://example.com"}]}}`, "setCookie", "setCookies", "addCookie", "addCookies").
		also(`{"cookies":{"delete":"…"}}`, "deleteCookie").
		also(`{"cookies":{"clear":true}}`, "clearCookies", "deleteCookies"),
	define("storage", `"local"|"session" | {local|session: {get: "key"|["key"]|true, set: {key: value}, remove: "key"|["key"], clear: true}}`,
		"clear, remove, set, then get",
		needsTab, decodeStorage, runStorage).out(`{local?: {items, count, set, removed, cleared}, session?: …}`).
		also(`{"storage":"local"}`, "localStorage", "getLocalStorage").
		also(`{"storage":"session"}`, "sessionStorage"),
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
