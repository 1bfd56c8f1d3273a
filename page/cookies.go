package page

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// Cookie is a browser cookie as the cookies step shows it.
type Cookie struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Domain   string `json:"domain"`
	Path     string `json:"path"`
	Expires  int64  `json:"expires,omitempty"` // Unix seconds; 0 is a session cookie
	HTTPOnly bool   `json:"httpOnly,omitempty"`
	Secure   bool   `json:"secure,omitempty"`
	SameSite string `json:"sameSite,omitempty"`
}

// cookieOf is the cookies step's view of a browser cookie.
func cookieOf(c proto.Cookie) Cookie {
	out := Cookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path,
		HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: c.SameSite}
	if !c.Session && c.Expires > 0 {
		out.Expires = int64(math.Round(c.Expires))
	}
	return out
}

// CookieScope is which cookies an operation touches. The zero value is
// the cookies the current page's URL would send, so that by default no
// other site's cookies are read or wiped.
type CookieScope struct {
	URLs   []string // the cookies these URLs would send
	Domain string   // the cookies of this domain and its subdomains
	All    bool     // every cookie of the browser profile
}

// CookieScopeError is a cookie operation whose scope cannot be known.
type CookieScopeError struct{ URL string }

func (e *CookieScopeError) Error() string {
	return fmt.Sprintf("the page (%s) has no http(s) URL to scope cookies to: give a url or a domain", e.URL)
}

func (e *CookieScopeError) ErrorName() string { return "StepValidationError" }

// TopURL is the URL of the tab's top document, asked of the browser, so
// it works whatever the page is doing.
func TopURL(ctx context.Context, p *Page) (string, error) {
	res, err := proto.TargetGetTargetInfo{}.Do(ctx, p.S)
	if err != nil {
		return "", fmt.Errorf("page: url: %w", err)
	}
	return res.TargetInfo.URL, nil
}

// webURL is the page's URL when cookies can belong to it.
func webURL(ctx context.Context, p *Page) (string, error) {
	u, err := TopURL(ctx, p)
	if err != nil {
		return "", err
	}
	if pu, perr := url.Parse(u); perr != nil || (pu.Scheme != "http" && pu.Scheme != "https") {
		return "", &CookieScopeError{URL: u}
	}
	return u, nil
}

// GetCookies returns the cookies in scope, only those called name when
// name is set.
func GetCookies(ctx context.Context, p *Page, scope CookieScope, name string) ([]Cookie, error) {
	raw, err := cookiesIn(ctx, p, scope)
	if err != nil {
		return nil, err
	}
	out := []Cookie{}
	for _, c := range raw {
		if name == "" || c.Name == name {
			out = append(out, cookieOf(c))
		}
	}
	return out, nil
}

func cookiesIn(ctx context.Context, p *Page, scope CookieScope) ([]proto.Cookie, error) {
	if scope.All || scope.Domain != "" {
		// Read on the page, they are the page's browser context's (a
		// session's, or the default one).
		res, err := proto.NetworkGetAllCookies{}.Do(ctx, p.S)
		if err != nil {
			return nil, fmt.Errorf("page: cookies: %w", err)
		}
		if scope.All {
			return res.Cookies, nil
		}
		var in []proto.Cookie
		for _, c := range res.Cookies {
			if DomainMatch(c.Domain, scope.Domain) {
				in = append(in, c)
			}
		}
		return in, nil
	}
	urls := scope.URLs
	if len(urls) == 0 {
		u, err := webURL(ctx, p)
		if err != nil {
			return nil, err
		}
		urls = []string{u}
	}
	res, err := proto.NetworkGetCookies{URLs: urls}.Do(ctx, p.S)
	if err != nil {
		return nil, fmt.Errorf("page: cookies: %w", err)
	}
	return res.Cookies, nil
}

// DomainMatch reports whether a cookie's domain (".example.com" or
// "example.com") is domain or one of its subdomains.
func DomainMatch(cookieDomain, domain string) bool {
	c := strings.ToLower(strings.TrimPrefix(cookieDomain, "."))
	d := strings.ToLower(strings.TrimPrefix(domain, "."))
	return d != "" && (c == d || strings.HasSuffix(c, "."+d))
}

// DeleteCookies deletes the cookies in scope (only those called name when
// it is set) and reports how many there were.
func DeleteCookies(ctx context.Context, p *Page, scope CookieScope, name string) (int, error) {
	if scope.All && name == "" {
		return clearAllCookies(ctx, p)
	}
	raw, err := cookiesIn(ctx, p, scope)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, c := range raw {
		if name != "" && c.Name != name {
			continue
		}
		err := proto.NetworkDeleteCookies{Name: c.Name, Domain: c.Domain, Path: c.Path}.Do(ctx, p.S)
		if err != nil {
			return n, fmt.Errorf("page: delete cookie %s: %w", c.Name, err)
		}
		n++
	}
	return n, nil
}

func clearAllCookies(ctx context.Context, p *Page) (int, error) {
	all, err := cookiesIn(ctx, p, CookieScope{All: true})
	if err != nil {
		return 0, err
	}
	if err := (proto.NetworkClearBrowserCookies{}).Do(ctx, p.S); err != nil {
		return 0, fmt.Errorf("page: clear cookies: %w", err)
	}
	return len(all), nil
}

// CookieParam is a cookie to set. Without URL or Domain it belongs to the
// current page's URL.
type CookieParam struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	URL      string `json:"url,omitempty"`
	Domain   string `json:"domain,omitempty"`
	Path     string `json:"path,omitempty"`
	Expires  int64  `json:"expires,omitempty"` // Unix seconds; 0 is a session cookie
	HTTPOnly bool   `json:"httpOnly,omitempty"`
	Secure   bool   `json:"secure,omitempty"`
	SameSite string `json:"sameSite,omitempty"` // Strict, Lax or None
}

// SetCookies sets each cookie in turn; an error names the cookie Chrome
// refused, and the ones before it stay set.
func SetCookies(ctx context.Context, p *Page, cookies []CookieParam) (int, error) {
	page := ""
	for i, c := range cookies {
		if c.URL == "" && c.Domain == "" {
			if page == "" {
				u, err := webURL(ctx, p)
				if err != nil {
					return i, err
				}
				page = u
			}
			c.URL = page
		}
		if c.Domain != "" && c.Path == "" {
			c.Path = "/" // Chrome would otherwise refuse a cookie with no URL to take a path from
		}
		set := proto.NetworkSetCookie{Name: c.Name, Value: c.Value, URL: c.URL, Domain: c.Domain, Path: c.Path,
			Expires: float64(c.Expires), HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: c.SameSite}
		if err := set.Do(ctx, p.S); err != nil {
			return i, fmt.Errorf("page: set cookie %s: %w", c.Name, err)
		}
	}
	return len(cookies), nil
}

// SameSite normalises a sameSite value; ok is false for unknown ones.
func SameSite(s string) (string, bool) {
	switch strings.ToLower(s) {
	case "":
		return "", true
	case "strict":
		return "Strict", true
	case "lax":
		return "Lax", true
	case "none":
		return "None", true
	}
	return s, false
}

// expiryUnits are the units of a relative expiry such as "7d".
var expiryUnits = map[byte]time.Duration{
	's': time.Second, 'm': time.Minute, 'h': time.Hour,
	'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour, 'y': 365 * 24 * time.Hour,
}

// ParseExpiry reads a relative expiry ("30m", "1h", "7d", "1w", "1y") as
// Unix seconds from now.
func ParseExpiry(s string, now time.Time) (int64, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 {
		return 0, fmt.Errorf("expires %q: give Unix seconds or a duration such as \"30m\", \"1h\", \"7d\", \"1w\", \"1y\"", s)
	}
	unit, ok := expiryUnits[s[len(s)-1]]
	n, err := strconv.Atoi(s[:len(s)-1])
	if !ok || err != nil || n <= 0 {
		return 0, fmt.Errorf("expires %q: give Unix seconds or a duration such as \"30m\", \"1h\", \"7d\", \"1w\", \"1y\"", s)
	}
	return now.Add(time.Duration(n) * unit).Unix(), nil
}
