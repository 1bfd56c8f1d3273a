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

// A Grid behind basic auth: the credentials in the endpoint are taken
// out as the token (its URL kept without them), else SELENIUM_GRID_AUTH
// gives them; each call dials with them in the handshake's Authorization
// and sends them with each request; the Grid's 401 names the variable;
// no error, encoding or name shows the password.
func TestSeleniumAuth(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw       string
		env       map[string]string
		url, auth string
	}{
		{"http://grid-user:p%40ss@grid:4444/wd/hub/", nil, "http://grid:4444/wd/hub", "grid-user:p@ss"},
		{" https://u:pw@grid?sessionTimeout=90 ", map[string]string{"SELENIUM_GRID_AUTH": "e:nv"}, "https://grid?sessionTimeout=90", "u:pw"},
		{"http://u@grid:4444", nil, "http://grid:4444", "u:"},
		{"http://grid:4444", map[string]string{"SELENIUM_GRID_AUTH": "e:nv"}, "http://grid:4444", "e:nv"},
		{"http://grid:4444", nil, "http://grid:4444", ""},
	} {
		srv, err := Parse("selenium", tc.raw, env(tc.env))
		if err != nil || srv.URL != tc.url || srv.Token != tc.auth || strings.Contains(srv.String(), "pw") {
			t.Errorf("%s: %+v, %v; want %s with %q", tc.raw, srv, err, tc.url, tc.auth)
		}
	}
	for _, raw := range []string{"ftp://u:sekrit@grid", "http://u:sek%zzrit@grid", "ws://u:sekrit@grid:4444"} {
		if _, err := Parse("selenium", raw, nil); err == nil || strings.Contains(err.Error(), "sek") {
			t.Errorf("%s: %v", raw, err)
		}
	}

	// A browser of the Grid: dialled as it is, with the environment's
	// credentials in the handshake's header, none when there are none.
	ep := chrome.Endpoint{URL: "ws://grid:4444/session/s3/se/cdp", Provider: Selenium, Session: "s3", API: "http://grid:4444"}.WithDefaults()
	got, err := Resolve(ep, env(map[string]string{"SELENIUM_GRID_AUTH": "u:pw"}), true)
	if err != nil || got.Dial != ep.URL || got.Auth != "Basic dTpwdw==" || got.DialHeader().Get("Authorization") != "Basic dTpwdw==" {
		t.Errorf("with credentials: %+v, %v", got, err)
	}
	if data, _ := json.Marshal(got); strings.Contains(string(data), "dTpwdw") || strings.Contains(string(data), "pw") {
		t.Errorf("the credentials encoded: %s", data)
	}
	got, _ = Resolve(ep, env(map[string]string{"CDP_URL": "http://u:c1@grid:4444"}), false)
	if got.Token != "u:c1" {
		t.Errorf("CDP_URL's credentials: %q", got.Token)
	}
	if got, _ = Resolve(ep, nil, false); got.Auth != "" || got.DialHeader() != nil {
		t.Errorf("without credentials: %+v", got)
	}

	// Its API: each request with the header; a wrong one refused, the
	// variable named.
	var seen atomic.Value
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Method + " " + r.URL.Path + " " + r.Header.Get("Authorization"))
		if user, pass, ok := r.BasicAuth(); !ok || user != "u" || pass != "pw" {
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"value":null}`))
	}))
	defer api.Close()
	ep.API, ep.Token = api.URL, "u:pw"
	if err := (selenium{}).KeepAlive(context.Background(), ep); err != nil || seen.Load() != "GET /session/s3/url Basic dTpwdw==" {
		t.Errorf("keep-alive: %v, %v", seen.Load(), err)
	}
	if err := (selenium{}).Release(context.Background(), ep); err != nil || seen.Load() != "DELETE /session/s3 Basic dTpwdw==" {
		t.Errorf("release: %v, %v", seen.Load(), err)
	}
	for _, token := range []string{"u:wrong", ""} {
		ep.Token = token
		err := Explain(context.Background(), ep, selenium{}.Release(context.Background(), ep))
		var r *Refusal
		if !errors.As(err, &r) || r.Kind != BadToken || !strings.Contains(err.Error(), "set SELENIUM_GRID_AUTH=user:password") || strings.Contains(err.Error(), "wrong") {
			t.Errorf("%q: %v", token, err)
		}
	}
	if seen.Load() != "DELETE /session/s3 " {
		t.Errorf("no credentials sent a header: %v", seen.Load())
	}
}

// An API that cannot be reached is named as a server, not as Chrome.
func TestRESTUnreachable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	err := restCall(t.Context(), base, http.MethodPost, "/session?token=secret", nil, map[string]any{}, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot reach the server at "+base) || strings.Contains(err.Error(), "secret") {
		t.Errorf("unreachable: %v", err)
	}
}
