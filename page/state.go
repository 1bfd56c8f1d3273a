package page

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// State is a browser context's cookies and its origins' localStorage, in
// Playwright's storageState format, so that one file serves both tools.
type State struct {
	Cookies []StateCookie `json:"cookies"`
	Origins []OriginState `json:"origins"`
}

// StateCookie is a cookie as Playwright's storageState writes it.
type StateCookie struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Domain string `json:"domain"`
	Path   string `json:"path"`
	// Expires is Unix seconds; -1 is a session cookie.
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite"` // Strict, Lax or None
	// PartitionKey is a partitioned (CHIPS) cookie's top-level site, and
	// CrHasCrossSiteAncestor the rest of its partition, as Playwright
	// writes them for Chromium.
	PartitionKey           string `json:"partitionKey,omitempty"`
	CrHasCrossSiteAncestor *bool  `json:"_crHasCrossSiteAncestor,omitempty"`
}

// partition is the cookie's partition key for Chrome, nil when it has
// none. Playwright takes a missing hasCrossSiteAncestor as true.
func (c StateCookie) partition() *proto.CookiePartitionKey {
	if c.PartitionKey == "" {
		return nil
	}
	cross := c.CrHasCrossSiteAncestor == nil || *c.CrHasCrossSiteAncestor
	return &proto.CookiePartitionKey{TopLevelSite: c.PartitionKey, HasCrossSiteAncestor: cross}
}

// OriginState is an origin's localStorage.
type OriginState struct {
	Origin       string        `json:"origin"`
	LocalStorage []StorageItem `json:"localStorage"`
	// SessionStorage is the tab's sessionStorage of the origin, saved
	// when asked: cdpskill's own field, beside Playwright's.
	SessionStorage []StorageItem `json:"sessionStorage,omitempty"`
	// IndexedDB is what Playwright saves when asked; cdpskill loads no
	// IndexedDB yet, so a file with some is refused whole.
	IndexedDB []json.RawMessage `json:"indexedDB,omitempty"`
}

// StorageItem is a key of localStorage and its value.
type StorageItem struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// StateError is a state file that is not a storageState.
type StateError struct{ Reason string }

func (e *StateError) Error() string { return e.Reason }

// ParseState reads and checks a storageState document as a whole, so
// that nothing of a bad one is ever loaded.
func ParseState(data []byte) (*State, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return nil, &StateError{fmt.Sprintf("is not JSON (%v)", strings.TrimPrefix(err.Error(), "json: "))}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var raw struct {
		Cookies *[]StateCookie `json:"cookies"`
		Origins *[]OriginState `json:"origins"`
	}
	if err := dec.Decode(&raw); err != nil {
		return nil, &StateError{fmt.Sprintf("is not a Playwright storageState {cookies, origins}: %v", strings.TrimPrefix(err.Error(), "json: "))}
	}
	if raw.Cookies == nil || raw.Origins == nil {
		return nil, &StateError{`is not a Playwright storageState: it needs "cookies" and "origins" arrays`}
	}
	st := &State{Cookies: *raw.Cookies, Origins: *raw.Origins}
	for i := range st.Cookies {
		c := &st.Cookies[i]
		if c.Name == "" || c.Domain == "" || c.Path == "" {
			return nil, &StateError{fmt.Sprintf("cookie %d lacks its name, domain or path", i)}
		}
		s, ok := SameSite(c.SameSite)
		if !ok || s == "" {
			return nil, &StateError{fmt.Sprintf(`cookie %q: sameSite %q is not "Strict", "Lax" or "None"`, c.Name, c.SameSite)}
		}
		if s == "None" && !c.Secure {
			return nil, &StateError{fmt.Sprintf(`cookie %q: sameSite "None" needs "secure": true, or Chrome drops it`, c.Name)}
		}
		c.SameSite = s
	}
	for _, o := range st.Origins {
		if _, err := stateOrigin(o.Origin); err != nil {
			return nil, &StateError{fmt.Sprintf("origin %q: %v", o.Origin, err)}
		}
		if len(o.IndexedDB) > 0 {
			return nil, &StateError{fmt.Sprintf("origin %q has IndexedDB databases, which cdpskill does not load: save the state without them", o.Origin)}
		}
	}
	return st, nil
}

// stateOrigin checks an http(s) origin: a scheme and host, nothing after.
func stateOrigin(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", errors.New("not an http(s) origin such as https://example.com")
	}
	return u.Scheme + "://" + u.Host, nil
}

// sameSite reports whether origin o is top's host or of its subdomains,
// or top of o's: the frames whose storage is not partitioned (a sibling
// subdomain is too, but telling one needs the public suffix list).
func sameSite(o, top string) bool {
	if top == "" {
		return false
	}
	h := func(s string) string { u, _ := url.Parse(s); return u.Hostname() }
	oh, th := h(o), h(top)
	return oh == th || strings.HasSuffix(oh, "."+th) || strings.HasSuffix(th, "."+oh)
}

// SaveState reads the state of the tab's browser context: every cookie
// of the context (a session's, or the default one) and the localStorage
// of the tab's page's origin and of its frames' of the same site, and
// with sessionStorage set the tab's sessionStorage of those origins too.
// An origin with nothing stored is left out, as Playwright does.
func SaveState(ctx context.Context, p *Page, sessionStorage bool) (*State, error) {
	res, err := proto.NetworkGetAllCookies{}.Do(ctx, p.S)
	if err != nil {
		return nil, fmt.Errorf("cookies: %w", err)
	}
	st := &State{Cookies: []StateCookie{}, Origins: []OriginState{}}
	for _, c := range res.Cookies {
		sc := StateCookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Expires: -1,
			HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: c.SameSite}
		if !c.Session && c.Expires > 0 {
			sc.Expires = math.Round(c.Expires)
		}
		if sc.SameSite == "" {
			sc.SameSite = "Lax" // Chrome's default, and what Playwright writes for it
		}
		if k := c.PartitionKey; k != nil {
			sc.PartitionKey, sc.CrHasCrossSiteAncestor = k.TopLevelSite, &k.HasCrossSiteAncestor
		}
		st.Cookies = append(st.Cookies, sc)
	}
	// The top frame's origin and its first-party frames', out-of-process
	// ones too: Chrome reaches an origin's storage only through the
	// session that renders a frame on it. A third-party frame's storage
	// is partitioned under the top site, which the format cannot say.
	frames, err := p.Frames(ctx)
	if err != nil {
		return nil, err
	}
	var origins []string
	renderer := map[string]*cdp.Session{}
	var top string
	for _, f := range frames.Frames {
		o, err := stateOrigin(f.origin)
		if f.ParentID == "" {
			top = o
		}
		if err == nil && renderer[o] == nil && sameSite(o, top) {
			origins = append(origins, o)
			renderer[o] = f.s
		}
	}
	for _, o := range origins {
		os := OriginState{Origin: o}
		if os.LocalStorage, err = storageItems(ctx, renderer[o], o, true); err != nil {
			return nil, err
		}
		if sessionStorage {
			if os.SessionStorage, err = storageItems(ctx, renderer[o], o, false); err != nil {
				return nil, err
			}
		}
		if len(os.LocalStorage) > 0 || len(os.SessionStorage) > 0 {
			st.Origins = append(st.Origins, os)
		}
	}
	return st, nil
}

// storageItems reads origin's localStorage (local) or sessionStorage
// through s, the session rendering a frame on it.
func storageItems(ctx context.Context, s *cdp.Session, origin string, local bool) ([]StorageItem, error) {
	res, err := proto.DOMStorageGetDOMStorageItems{StorageID: proto.StorageID{SecurityOrigin: origin, IsLocalStorage: local}}.Do(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("%s of %s: %w", areaName(local), origin, err)
	}
	items := []StorageItem{}
	for _, kv := range res.Entries {
		if len(kv) == 2 {
			items = append(items, StorageItem{Name: kv[0], Value: kv[1]})
		}
	}
	return items, nil
}

func areaName(local bool) string {
	if local {
		return "localStorage"
	}
	return "sessionStorage"
}

// LoadedState is what LoadState set.
type LoadedState struct {
	Cookies int `json:"cookies"`
	Origins int `json:"origins"`
}

// blankDocument answers every request while LoadState visits an origin,
// so that none of the site's own pages or scripts runs.
var blankDocument = base64.StdEncoding.EncodeToString([]byte("<!doctype html><title></title>"))

// LoadState sets st in the tab's browser context: its cookies all in one
// call, read back, as Chrome drops some unsaid; then each origin's
// localStorage (and sessionStorage, the tab's own, when the file has
// some), by opening the origin in the tab with every request
// answered by an empty page (Chrome reaches an origin's storage only
// through a frame on it), so that no page of the site runs before its
// storage is there. The tab is then left on about:blank. When any part
// fails, the cookies it set are taken away again; origins already set
// keep their keys.
func LoadState(ctx context.Context, p *Page, st *State) (LoadedState, error) {
	var done LoadedState
	if len(st.Cookies) > 0 {
		set := proto.NetworkSetCookies{Cookies: make([]proto.NetworkSetCookie, len(st.Cookies))}
		for i, c := range st.Cookies {
			sc := proto.NetworkSetCookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path,
				HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: c.SameSite, PartitionKey: c.partition()}
			if c.Expires > 0 {
				sc.Expires = c.Expires
			}
			set.Cookies[i] = sc
		}
		if err := set.Do(ctx, p.S); err != nil {
			return done, fmt.Errorf("cookies (none was set): %w", err)
		}
		if err := checkCookiesSet(ctx, p, st.Cookies); err != nil {
			return done, err
		}
		done.Cookies = len(st.Cookies)
	}
	var origins []OriginState
	for _, o := range st.Origins {
		if len(o.LocalStorage) > 0 || len(o.SessionStorage) > 0 {
			origins = append(origins, o)
		}
	}
	if len(origins) == 0 {
		return done, nil
	}
	if err := loadStorage(ctx, p, origins, &done); err != nil {
		// No half of a login: the cookies go too.
		if uerr := unsetCookies(ctx, p, st.Cookies); uerr != nil {
			return done, fmt.Errorf("%w; and its cookies stay set: %w", err, uerr)
		}
		done.Cookies = 0
		return done, fmt.Errorf("%w; its cookies were taken away again", err)
	}
	return done, nil
}

// CookiesRefusedError is a state whose cookies Chrome did not all take:
// Network.setCookies drops some (a sameSite None one not secure)
// without a word. Those it took are taken away
// again, so that no half of a login is left.
type CookiesRefusedError struct{ Names []string }

func (e *CookiesRefusedError) Error() string {
	return fmt.Sprintf("Chrome refused the cookies %s, so none of the file's was kept", strings.Join(e.Names, ", "))
}

// checkCookiesSet reads back the cookies just set; when Chrome dropped
// any, it deletes the others.
func checkCookiesSet(ctx context.Context, p *Page, want []StateCookie) error {
	res, err := proto.NetworkGetAllCookies{}.Do(ctx, p.S)
	if err != nil {
		return fmt.Errorf("cookies: %w", err)
	}
	type key struct{ name, domain, path string }
	have := map[key]bool{}
	for _, c := range res.Cookies {
		have[key{c.Name, strings.TrimPrefix(c.Domain, "."), c.Path}] = true
	}
	var refused []string
	for _, c := range want {
		if !have[key{c.Name, strings.TrimPrefix(c.Domain, "."), c.Path}] {
			refused = append(refused, c.Name)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	if err := unsetCookies(ctx, p, want); err != nil {
		return fmt.Errorf("%w (after %w)", err, &CookiesRefusedError{refused})
	}
	return &CookiesRefusedError{refused}
}

// unsetCookies deletes the cookies LoadState set, whether Chrome made
// each a host or a domain cookie.
func unsetCookies(ctx context.Context, p *Page, cookies []StateCookie) error {
	for _, c := range cookies {
		for _, d := range []string{strings.TrimPrefix(c.Domain, "."), "." + strings.TrimPrefix(c.Domain, ".")} {
			if err := (proto.NetworkDeleteCookies{Name: c.Name, Domain: d, Path: c.Path, PartitionKey: c.partition()}).Do(ctx, p.S); err != nil {
				return fmt.Errorf("cookies: %w", err)
			}
		}
	}
	return nil
}

func loadStorage(ctx context.Context, p *Page, origins []OriginState, done *LoadedState) (err error) {
	paused := p.S.Listen(proto.EventFetchRequestPaused)
	defer paused.Close()
	answer, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		for {
			ev, err := paused.Next(answer)
			if err != nil {
				return
			}
			var rp proto.FetchRequestPaused
			if json.Unmarshal(ev.Params, &rp) == nil {
				_ = proto.FetchFulfillRequest{RequestID: rp.RequestID, ResponseCode: 200, Body: blankDocument}.Do(answer, p.S)
			}
		}
	}()
	if err := (proto.FetchEnable{Patterns: []proto.RequestPattern{{URLPattern: "*"}}}).Do(ctx, p.S); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	defer func() {
		_, nerr := proto.PageNavigate{URL: "about:blank"}.Do(ctx, p.S)
		derr := proto.FetchDisable{}.Do(ctx, p.S)
		if err == nil && (nerr != nil || derr != nil) {
			err = fmt.Errorf("storage: %w", errors.Join(nerr, derr))
		}
	}()
	for _, o := range origins {
		origin, _ := stateOrigin(o.Origin)
		nav, err := proto.PageNavigate{URL: origin + "/"}.Do(ctx, p.S)
		if err == nil && nav.ErrorText != "" {
			err = errors.New(nav.ErrorText)
		}
		if err != nil {
			return fmt.Errorf("storage of %s (%d origins of %d were set): %w", origin, done.Origins, len(origins), err)
		}
		for _, area := range []struct {
			local bool
			items []StorageItem
		}{{true, o.LocalStorage}, {false, o.SessionStorage}} {
			for _, it := range area.items {
				set := proto.DOMStorageSetDOMStorageItem{StorageID: proto.StorageID{SecurityOrigin: origin, IsLocalStorage: area.local}, Key: it.Name, Value: it.Value}
				if err := set.Do(ctx, p.S); err != nil {
					return fmt.Errorf("%s of %s (%d origins of %d were set): %w", areaName(area.local), origin, done.Origins, len(origins), err)
				}
			}
		}
		done.Origins++
	}
	return nil
}
