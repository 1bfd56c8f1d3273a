package chrome

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
)

func TestParseEndpoint(t *testing.T) {
	good := []struct {
		raw  string
		host string
		port int
	}{
		{"ws://127.0.0.1:9333/devtools/browser/abc", "127.0.0.1", 9333},
		{"WSS://browsers.example.com/chrome?token=s3cret&stealth=1", "browsers.example.com", 443},
		{"http://10.0.0.5:9222", "10.0.0.5", 9222},
		{"https://pool.example.com/cdp?key=k", "pool.example.com", 443},
		{"ws://[::1]:9222/devtools/browser/x", "::1", 9222},
	}
	for _, tc := range good {
		ep, err := ParseEndpoint(tc.raw)
		if err != nil || ep.Host != tc.host || ep.Port != tc.port || !ep.Remote() {
			t.Errorf("%s: got %+v, %v", tc.raw, ep, err)
		}
	}
	for _, raw := range []string{"", "localhost:9222", "ftp://x/?token=s3cret", "ws:///path?token=s3cret", "ws://h:99999/?token=s3cret"} {
		_, err := ParseEndpoint(raw)
		if err == nil {
			t.Errorf("%q: no error", raw)
		} else if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%q: error shows the token: %v", raw, err)
		}
	}
}

// An endpoint names itself without its token.
func TestEndpointStringRedacts(t *testing.T) {
	ep, _ := ParseEndpoint("wss://h/chrome?token=abc")
	if s := ep.String(); s != "wss://h/chrome?token=***" {
		t.Errorf("String: %s", s)
	}
}

func TestHTTPURLKeepsPrefixAndToken(t *testing.T) {
	ep, _ := ParseEndpoint("https://pool.example.com/cdp/?token=abc")
	got, err := ep.httpURL("/json/new?about:blank")
	if err != nil || got != "https://pool.example.com/cdp/json/new?token=abc&about:blank" {
		t.Errorf("got %q, %v", got, err)
	}
	local, _ := Endpoint{}.WithDefaults().httpURL("/json/version")
	if local != "http://localhost:9222/json/version" {
		t.Errorf("local: %q", local)
	}
	ws, _ := ParseEndpoint("ws://h/devtools/browser/x")
	if _, err := ws.httpURL("/json/version"); err == nil {
		t.Error("a websocket endpoint has no HTTP discovery")
	}
}

func TestReachableWS(t *testing.T) {
	remote, _ := ParseEndpoint("https://gw.example.com:8443/?token=abc")
	cases := []struct {
		ep       Endpoint
		reported string
		want     string
	}{
		// Chrome in a container or behind a gateway names itself.
		{remote, "ws://0.0.0.0:9222/devtools/browser/x", "wss://gw.example.com:8443/devtools/browser/x?token=abc"},
		{remote, "ws://localhost:9222/devtools/browser/x?own=1", "wss://gw.example.com:8443/devtools/browser/x?own=1"},
		// A reachable name is left alone.
		{remote, "wss://node7.example.com/devtools/browser/x", "wss://node7.example.com/devtools/browser/x?token=abc"},
		{Endpoint{Host: "10.0.0.5", Port: 9222}, "ws://127.0.0.1:9222/devtools/browser/x", "ws://10.0.0.5:9222/devtools/browser/x"},
		{Endpoint{}.WithDefaults(), "ws://localhost:9222/devtools/browser/x", "ws://localhost:9222/devtools/browser/x"},
		// Whatever answers on a local port cannot send the call elsewhere.
		{Endpoint{}.WithDefaults(), "ws://attacker.example:9222/devtools/browser/x", "ws://localhost:9222/devtools/browser/x"},
		{Endpoint{Host: "127.0.0.1", Port: 9333}, "ws://192.0.2.7:80/devtools/browser/x", "ws://127.0.0.1:9333/devtools/browser/x"},
	}
	for _, tc := range cases {
		if got := reachableWS(tc.ep, tc.reported); got != tc.want {
			t.Errorf("%s via %s: got %s, want %s", tc.reported, tc.ep, got, tc.want)
		}
	}
}

// A remote endpoint that refuses fails at once, names itself without its
// token, and launches nothing even when asked to.
func TestConnectRemoteRefusedNeverLaunches(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	for _, raw := range []string{"ws://" + addr + "/devtools/browser/x?token=s3cret", "http://" + addr + "/?token=s3cret"} {
		ep, _ := ParseEndpoint(raw)
		start := time.Now()
		noChrome := func(string) string { return "" }
		_, err := Connect(t.Context(), noChrome, LaunchOptions{Endpoint: ep}, true)
		var ce *cdp.ConnectError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "token=***") || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: got %v", ep, err)
		}
		if d := time.Since(start); d > 8*time.Second { // short of launchWait, a launch's wait
			t.Errorf("%s: took %v", ep, d)
		}
		st := CheckStatus(t.Context(), noChrome, StatusOptions{Endpoint: ep, AutoLaunch: true})
		if st.Running || st.Launched || !strings.Contains(st.Error, "never auto-launched") || strings.Contains(st.Error, "s3cret") || st.Endpoint != ep.String() {
			t.Errorf("%s: status %+v", ep, st)
		}
	}
}

// An endpoint that accepts and never answers is given up within the
// caller's deadline.
func TestConnectRemoteSilentTimesOut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	defer srv.CloseClientConnections()
	for _, raw := range []string{"ws" + strings.TrimPrefix(srv.URL, "http") + "/?token=s3cret", srv.URL + "/?token=s3cret"} {
		ep, _ := ParseEndpoint(raw)
		ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
		_, err := Connect(ctx, nil, LaunchOptions{Endpoint: ep}, true)
		cancel()
		if err == nil || !errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: got %v", ep, err)
		}
	}
}

func TestSameEndpoint(t *testing.T) {
	a, _ := ParseEndpoint("wss://gw.example.com/chrome?token=abc")
	b, _ := ParseEndpoint("ws://127.0.0.1:9333/devtools/browser/y")
	if !SameEndpoint(Endpoint{}, Endpoint{Host: "LOCALHOST", Port: 9222}) || SameEndpoint(a, b) || !SameEndpoint(a, a) {
		t.Error("SameEndpoint")
	}
}
