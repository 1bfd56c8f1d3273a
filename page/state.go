package page

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

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

// OriginState is an origin's storage: its localStorage, and what was
// asked for beside it.
type OriginState struct {
	Origin       string        `json:"origin"`
	LocalStorage []StorageItem `json:"localStorage"`
	// SessionStorage is the tab's sessionStorage of the origin, saved
	// when asked: cdpskill's own field, beside Playwright's.
	SessionStorage []StorageItem `json:"sessionStorage,omitempty"`
	// IndexedDB is the origin's databases, saved when asked, as
	// Playwright saves them.
	IndexedDB []IndexedDB `json:"indexedDB,omitempty"`
	// OPFS is the origin's private file system, which Playwright saves
	// when asked and cdpskill does not load: a file with some is refused
	// whole.
	OPFS []json.RawMessage `json:"opfs,omitempty"`
}

// empty reports whether o has nothing to set.
func (o OriginState) empty() bool {
	return len(o.LocalStorage) == 0 && len(o.SessionStorage) == 0 && len(o.IndexedDB) == 0
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
		if len(o.OPFS) > 0 {
			return nil, &StateError{fmt.Sprintf("origin %q has OPFS files, which cdpskill does not load: save the state without them", o.Origin)}
		}
		for i := range o.IndexedDB {
			if err := o.IndexedDB[i].check(); err != nil {
				return nil, &StateError{fmt.Sprintf("origin %q: %v", o.Origin, err)}
			}
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
