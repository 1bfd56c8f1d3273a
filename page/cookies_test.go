package page_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

func cookieNames(cs []page.Cookie) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name+"@"+c.Domain)
	}
	slices.Sort(out)
	return out
}

// By default the cookies step touches the current page's cookies only:
// other sites' survive a clear unless a domain or all is named.
func TestCookiesScopedToThePage(t *testing.T) {
	p, base := envPage(t, "env-plain.html")
	ctx := navCtx(t, 10*time.Second)
	expires := time.Now().Add(time.Hour).Unix()
	n, err := page.SetCookies(ctx, p, []page.CookieParam{
		{Name: "mine", Value: "1", Expires: expires, HTTPOnly: true, SameSite: "Lax"},
		{Name: "mine2", Value: "2"},
		{Name: "theirs", Value: "3", Domain: "other.test"},
		{Name: "theirs2", Value: "4", Domain: ".sub.other.test", Secure: true},
		{Name: "elsewhere", Value: "5", URL: strings.Replace(base, "127.0.0.1", "localhost", 1) + "/"},
	})
	if err != nil || n != 5 {
		t.Fatalf("set %d: %v", n, err)
	}

	got, err := page.GetCookies(ctx, p, page.CookieScope{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if names := cookieNames(got); !slices.Equal(names, []string{"mine2@127.0.0.1", "mine@127.0.0.1"}) {
		t.Errorf("page cookies: %q", names)
	}
	mine, _ := page.GetCookies(ctx, p, page.CookieScope{}, "mine")
	if len(mine) != 1 || mine[0].Value != "1" || mine[0].Expires != expires || !mine[0].HTTPOnly || mine[0].SameSite != "Lax" || mine[0].Path != "/" {
		t.Errorf("cookie mine: %+v", mine)
	}
	if c, _ := page.GetCookies(ctx, p, page.CookieScope{}, "mine2"); len(c) != 1 || c[0].Expires != 0 {
		t.Errorf("session cookie: %+v", c)
	}

	other, _ := page.GetCookies(ctx, p, page.CookieScope{Domain: "other.test"}, "")
	if names := cookieNames(other); !slices.Equal(names, []string{"theirs2@.sub.other.test", "theirs@other.test"}) {
		t.Errorf("other.test cookies: %q", names)
	}
	all, _ := page.GetCookies(ctx, p, page.CookieScope{All: true}, "")
	if len(all) < 5 {
		t.Errorf("all cookies: %q", cookieNames(all))
	}

	// Clearing the page's cookies leaves the other sites' alone.
	if n, err := page.DeleteCookies(ctx, p, page.CookieScope{}, ""); err != nil || n != 2 {
		t.Fatalf("clear page: %d %v", n, err)
	}
	if got, _ := page.GetCookies(ctx, p, page.CookieScope{}, ""); len(got) != 0 {
		t.Errorf("page cookies after clear: %q", cookieNames(got))
	}
	if got, _ := page.GetCookies(ctx, p, page.CookieScope{Domain: "other.test"}, ""); len(got) != 2 {
		t.Errorf("another site's cookies were cleared: %q", cookieNames(got))
	}

	// Deleting by name within a domain.
	if n, err := page.DeleteCookies(ctx, p, page.CookieScope{Domain: "other.test"}, "theirs"); err != nil || n != 1 {
		t.Fatalf("delete theirs: %d %v", n, err)
	}
	if got, _ := page.GetCookies(ctx, p, page.CookieScope{Domain: "other.test"}, ""); len(got) != 1 || got[0].Name != "theirs2" {
		t.Errorf("after delete: %q", cookieNames(got))
	}

	// all: true wipes everything.
	if n, err := page.DeleteCookies(ctx, p, page.CookieScope{All: true}, ""); err != nil || n < 2 {
		t.Fatalf("clear all: %d %v", n, err)
	}
	if got, _ := page.GetCookies(ctx, p, page.CookieScope{All: true}, ""); len(got) != 0 {
		t.Errorf("after clearing all: %q", cookieNames(got))
	}
}

func TestCookiesGetByURL(t *testing.T) {
	p, base := envPage(t, "env-plain.html")
	ctx := navCtx(t, 10*time.Second)
	other := strings.Replace(base, "127.0.0.1", "localhost", 1) + "/"
	if _, err := page.SetCookies(ctx, p, []page.CookieParam{{Name: "by-url", Value: "v", URL: other}}); err != nil {
		t.Fatal(err)
	}
	got, err := page.GetCookies(ctx, p, page.CookieScope{URLs: []string{other}}, "by-url")
	if err != nil || len(got) != 1 || got[0].Domain != "localhost" {
		t.Errorf("by url: %+v %v", got, err)
	}
	page.DeleteCookies(ctx, p, page.CookieScope{URLs: []string{other}}, "by-url")
}

// A page with no web URL cannot scope cookies, and says how to.
func TestCookiesNeedAWebPage(t *testing.T) {
	p := page.New(browser.NewTab(t))
	ctx := navCtx(t, 10*time.Second)
	var se *page.CookieScopeError
	if _, err := page.GetCookies(ctx, p, page.CookieScope{}, ""); !errors.As(err, &se) || !strings.Contains(err.Error(), "about:blank") {
		t.Errorf("get on about:blank: %v", err)
	}
	if _, err := page.SetCookies(ctx, p, []page.CookieParam{{Name: "x", Value: "y"}}); !errors.As(err, &se) {
		t.Errorf("set on about:blank: %v", err)
	}
}

func TestParseExpiry(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	for in, want := range map[string]time.Duration{
		"30m": 30 * time.Minute, "1h": time.Hour, "7d": 7 * 24 * time.Hour, "1w": 7 * 24 * time.Hour,
		"1y": 365 * 24 * time.Hour, "90s": 90 * time.Second,
	} {
		got, err := page.ParseExpiry(in, now)
		if err != nil || got != now.Add(want).Unix() {
			t.Errorf("%s: %d %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "h", "1x", "-1d", "0d", "soon"} {
		if _, err := page.ParseExpiry(bad, now); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestDomainMatch(t *testing.T) {
	for _, tc := range []struct {
		cookie, domain string
		want           bool
	}{
		{"example.com", "example.com", true},
		{".example.com", "example.com", true},
		{"a.example.com", ".example.com", true},
		{"badexample.com", "example.com", false},
		{"example.com", "a.example.com", false},
		{"example.com", "", false},
	} {
		if got := page.DomainMatch(tc.cookie, tc.domain); got != tc.want {
			t.Errorf("DomainMatch(%q, %q) = %v", tc.cookie, tc.domain, got)
		}
	}
}
