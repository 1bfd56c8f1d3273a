package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
)

// The REST providers read their API's address (a default where the
// service has one), and each call dials the kept address with the token
// from the environment: Browserbase by session id and API key, Steel by
// API key, a Grid as it is. What the registry keeps has no token.
func TestRESTResolve(t *testing.T) {
	t.Parallel()
	srv, err := Parse("browserbase", "", env(map[string]string{"BROWSERBASE_API_KEY": "k1", "BROWSERBASE_PROJECT_ID": "p1"}))
	if err != nil || srv.URL != "https://api.browserbase.com" || srv.Token != "k1" || srv.Project != "p1" {
		t.Errorf("browserbase's default: %+v, %v", srv, err)
	}
	if _, err := Parse("selenium", "", nil); err == nil {
		t.Errorf("a Grid without an address")
	}
	if _, err := Parse("steel", "ws://h?apiKey=s3", nil); err == nil || strings.Contains(err.Error(), "s3") {
		t.Errorf("steel's ws address: %v", err)
	}
	for _, tc := range []struct {
		ep    chrome.Endpoint
		env   map[string]string
		query url.Values
	}{
		{chrome.Endpoint{URL: "wss://connect.example/?sessionId=s1", Provider: Browserbase, Session: "s1", API: "https://api.example"},
			map[string]string{"BROWSERBASE_API_KEY": "k1"}, url.Values{"apiKey": {"k1"}, "sessionId": {"s1"}}},
		{chrome.Endpoint{URL: "wss://connect.example/?sessionId=s2", Provider: Steel, Session: "s2", API: "https://api.example"},
			map[string]string{"STEEL_API_KEY": "k2"}, url.Values{"apiKey": {"k2"}, "sessionId": {"s2"}}},
		{chrome.Endpoint{URL: "ws://grid:4444/session/s3/se/cdp", Provider: Selenium, Session: "s3", API: "http://grid:4444"},
			nil, url.Values{}},
	} {
		ep, err := Resolve(tc.ep.WithDefaults(), env(tc.env), true)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(ep.Dial)
		if got := u.Query(); got.Encode() != tc.query.Encode() {
			t.Errorf("%s dials %s", tc.ep.Provider, ep.Dial)
		}
		data, _ := json.Marshal(ep)
		if strings.Contains(string(data), "k1") || strings.Contains(string(data), "k2") {
			t.Errorf("%s encodes its token: %s", tc.ep.Provider, data)
		}
		if !OnServer(ep, Server{Provider: ep.Provider, URL: tc.ep.API}) {
			t.Errorf("%s's browser is not on its API's server", tc.ep.Provider)
		}
	}
	if every := KeepAliveEvery(chrome.Endpoint{Provider: Selenium, API: "http://grid:4444?sessionTimeout=90"}); every != 30*time.Second {
		t.Errorf("a Grid with a 90 s timeout is pinged every %v", every)
	}
	if every := KeepAliveEvery(chrome.Endpoint{Provider: Selenium, API: "http://grid:4444"}); every != 100*time.Second {
		t.Errorf("a Grid with the default timeout is pinged every %v", every)
	}
	if every := KeepAliveEvery(chrome.Endpoint{Provider: Steel}); every != 0 {
		t.Errorf("steel is pinged every %v", every)
	}
}

// An API's refusals are read by the table (401/403 the token, 404 gone,
// 429/503 full), naming the request and the variable; Explain leaves a
// refusal that is the error itself without wrapping it in itself.
func TestRESTRefusals(t *testing.T) {
	t.Parallel()
	var status atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "7")
		http.Error(w, `{"message":"no"}`, int(status.Load()))
	}))
	defer api.Close()
	ep := chrome.Endpoint{URL: "wss://c.example/?sessionId=s1", Provider: Steel, Session: "s1", API: api.URL, Token: "secret-k"}.WithDefaults()
	for code, want := range map[int]Kind{401: BadToken, 403: BadToken, 404: Gone, 429: Full, 503: Full, 500: Refused} {
		status.Store(int32(code))
		err := Explain(context.Background(), ep, steel{}.Release(context.Background(), ep))
		var r *Refusal
		if !errors.As(err, &r) || r.Kind != want || r.Err == r || !strings.Contains(r.Error(), "its POST /v1/sessions/s1/release answered HTTP") || strings.Contains(err.Error(), "secret-k") {
			t.Errorf("%d: %v", code, err)
		}
		if code == 401 && !strings.Contains(err.Error(), "set STEEL_API_KEY") {
			t.Errorf("401 names no variable: %v", err)
		}
	}
}

// A session found gone at the end of the life it was made with says it
// expired, and how to ask for a longer one; one with life left, or whose
// life is not known, says nothing of it.
func TestExpired(t *testing.T) {
	t.Parallel()
	now := time.Now()
	ep := chrome.Endpoint{Provider: Steel, Session: "s1"}
	if got := Expired(ep, now); got != "" {
		t.Errorf("no known life: %q", got)
	}
	ep.Expires = now.Add(time.Minute)
	if got := Expired(ep, now); got != "" {
		t.Errorf("life left: %q", got)
	}
	ep.Expires = now.Add(2 * time.Second) // within the clocks' slack
	if got := Expired(ep, now); !strings.Contains(got, "it expired") || !strings.Contains(got, "?timeout=, in ms,") {
		t.Errorf("expired: %q", got)
	}
	ep = chrome.Endpoint{Provider: Browserless, Session: "b1", Expires: now.Add(-time.Hour)}
	if got := Expired(ep, now); !strings.Contains(got, "?ttl=, in ms,") {
		t.Errorf("browserless's: %q", got)
	}
}
