package fleet

import (
	"net/url"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/chrome"
)

func env(m map[string]string) chrome.Env { return func(k string) string { return m[k] } }

// A browserless server is named as agents have it (ws, wss, http,
// https, with a route, a token and other parameters); the token is taken
// out of the URL the registry would keep, and a browser's address is
// refused as a server.
func TestBrowserlessServer(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]Server{
		"ws://h:3000?token=s3":                      {Provider: Browserless, URL: "ws://h:3000", Token: "s3"},
		"http://h:3000/chromium?token=s3&timeout=9": {Provider: Browserless, URL: "ws://h:3000/chromium?timeout=9", Token: "s3"},
		"https://h/chrome":                          {Provider: Browserless, URL: "wss://h/chrome"},
		"wss://h?trackingId=mine&blockAds=true":     {Provider: Browserless, URL: "wss://h?blockAds=true"},
	} {
		got, err := browserless{}.Server(raw)
		if err != nil || got != want {
			t.Errorf("%s: %+v, %v; want %+v", raw, got, err, want)
		}
	}
	for _, raw := range []string{"ftp://h?token=s3", "h:3000", "ws://h:3000/devtools/browser/x?token=s3"} {
		_, err := browserless{}.Server(raw)
		if err == nil || strings.Contains(err.Error(), "s3") {
			t.Errorf("%s: %v", raw, err)
		}
	}
	srv, err := Parse("Browserless", "ws://h:3000", env(map[string]string{"BROWSERLESS_TOKEN": "e1"}))
	if err != nil || srv.Token != "e1" {
		t.Errorf("the environment's token: %+v, %v", srv, err)
	}
	if _, err := Parse("browserbase2", "ws://h", nil); err == nil || !strings.Contains(err.Error(), "browserless, cdp") {
		t.Errorf("an unknown provider: %v", err)
	}
}

// Each call dials the browser's address with its token, taken from the
// environment (the provider's variable, else a CDP_URL naming the same
// server); the keeper's connection asks for no job timeout; what the
// registry keeps has no token.
func TestResolve(t *testing.T) {
	t.Parallel()
	ep := chrome.Endpoint{URL: "ws://h:3000/devtools/browser/b1?timeout=5000", Provider: Browserless}.WithDefaults()
	for _, tc := range []struct {
		env   map[string]string
		hold  bool
		token string
		query url.Values
	}{
		{map[string]string{"BROWSERLESS_TOKEN": "e1"}, false, "e1", url.Values{"token": {"e1"}, "timeout": {"5000"}}},
		{map[string]string{"CDP_URL": "http://h:3000?token=c1"}, false, "c1", url.Values{"token": {"c1"}, "timeout": {"5000"}}},
		{map[string]string{"CDP_URL": "ws://other:3000?token=c1"}, false, "", url.Values{"timeout": {"5000"}}},
		{map[string]string{"BROWSERLESS_TOKEN": "e1"}, true, "e1", url.Values{"token": {"e1"}, "timeout": {"0"}}},
	} {
		got, err := Resolve(ep, env(tc.env), tc.hold)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(got.Dial)
		if got.Token != tc.token || u.Path != "/devtools/browser/b1" || u.Query().Encode() != tc.query.Encode() {
			t.Errorf("%v hold %v: token %q, dial %s", tc.env, tc.hold, got.Token, got.Dial)
		}
		if strings.Contains(got.String(), tc.token+"&") || (tc.token != "" && strings.Contains(got.String(), tc.token)) {
			t.Errorf("String shows the token: %s", got)
		}
	}
	ep.Token = "mine"
	if got, _ := Resolve(ep, env(map[string]string{"BROWSERLESS_TOKEN": "e1"}), false); got.Token != "mine" {
		t.Errorf("a token the call has is kept: %q", got.Token)
	}
	plainEP, _ := chrome.ParseEndpoint("ws://h:9222/devtools/browser/x?token=t")
	if got, _ := Resolve(plainEP, env(map[string]string{"BROWSERLESS_TOKEN": "e1"}), false); got != plainEP {
		t.Errorf("a plain endpoint changed: %+v", got)
	}
}
