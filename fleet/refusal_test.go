package fleet

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
)

// The classification table: each refusal a server can answer a
// websocket with, read by its status, said with the server's own words,
// who refused and what to do.
func TestExplain(t *testing.T) {
	t.Parallel()
	bl := chrome.Endpoint{URL: "ws://127.0.0.1:9/devtools/browser/b1", Provider: Browserless, Token: "wrong"}.WithDefaults()
	blNone := bl
	blNone.Token = ""
	plainEP, _ := chrome.ParseEndpoint("wss://gw.example/chrome?token=secret")
	long := strings.Repeat("x", 400) + " wss://h/x?token=secret"
	for _, tc := range []struct {
		name string
		ep   chrome.Endpoint
		err  error
		kind Kind
		has  []string
	}{
		{"401 browserless", bl, &cdp.HandshakeError{Status: 401, Said: "Bad or missing authentication."}, BadToken,
			[]string{"refused the token", "HTTP 401 Unauthorized: Bad or missing authentication.", "set BROWSERLESS_TOKEN", "127.0.0.1:9"}},
		{"401 browserless, no token", blNone, &cdp.HandshakeError{Status: 401}, BadToken,
			[]string{"wants a token, and the call had none (HTTP 401 Unauthorized)", "set BROWSERLESS_TOKEN"}},
		{"403 plain", plainEP, &cdp.HandshakeError{Status: 403}, BadToken,
			[]string{"refused the token (HTTP 403 Forbidden)", "check the token in its URL", "token=***"}},
		{"404", bl, &cdp.HandshakeError{Status: 404, Said: `Couldn't locate browser "b1"`}, Gone,
			[]string{"the browser at ws://127.0.0.1:9/devtools/browser/b1 is gone", `HTTP 404 Not Found: Couldn't locate browser "b1"`, "released, expired when idle, killed by the server", "openTab makes a new one"}},
		{"410", bl, &cdp.HandshakeError{Status: 410}, Gone, []string{"is gone (HTTP 410 Gone)"}},
		{"408", bl, &cdp.HandshakeError{Status: 408, Said: "Request has timed out"}, Full,
			[]string{"full or queueing", "HTTP 408 Request Timeout: Request has timed out", "retry later"}},
		{"429 retry-after", bl, &cdp.HandshakeError{Status: 429, Said: "Too many requests", RetryAfter: "30"}, Full,
			[]string{"HTTP 429 Too Many Requests: Too many requests", "retry later (it says after 30)"}},
		{"503", plainEP, &cdp.HandshakeError{Status: 503}, Full, []string{"HTTP 503 Service Unavailable", "retry later"}},
		{"500", bl, &cdp.HandshakeError{Status: 500, Said: "boom"}, Refused, []string{"refused the websocket (HTTP 500 Internal Server Error: boom)"}},
		{"queued", bl, &cdp.UnansweredError{Accepted: true, Waited: 2 * time.Second, Err: context.DeadlineExceeded}, Queued,
			[]string{"took the connection but did not open it within 2s", "concurrency limit", "retry later, or give the call a longer timeout"}},
		{"wrapped", bl, &cdp.ConnectError{Endpoint: "x", Err: &cdp.HandshakeError{Status: 429}}, Full, []string{"HTTP 429"}},
		{"said redacted, cut", plainEP, &cdp.HandshakeError{Status: 400, Said: cdp.Said(long)}, Refused, []string{"HTTP 400 Bad Request", "…"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Explain(t.Context(), tc.ep, tc.err)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("not a refusal: %v", err)
			}
			if r.Kind != tc.kind {
				t.Errorf("kind %d, want %d: %v", r.Kind, tc.kind, r)
			}
			for _, h := range tc.has {
				if !strings.Contains(r.Error(), h) {
					t.Errorf("%q lacks %q", r.Error(), h)
				}
			}
			if strings.Contains(r.Error(), "secret") || len(r.Error()) > 600 {
				t.Errorf("shows the token or runs on: %s", r.Error())
			}
			if !errors.Is(err, tc.err) {
				t.Errorf("the cause is lost: %v", err)
			}
		})
	}
	// Not refusals: as they are; a local Chrome is never a fleet's.
	refused := errors.New("connect: connection refused")
	if err := Explain(t.Context(), bl, refused); err != refused {
		t.Errorf("a refused TCP connection became %v", err)
	}
	if err := Explain(t.Context(), chrome.Endpoint{}.WithDefaults(), &cdp.HandshakeError{Status: 404}); IsGone(err) {
		t.Errorf("a local Chrome's 404 read as a fleet's: %v", err)
	}
	if err := Explain(t.Context(), bl, &cdp.UnansweredError{Err: context.DeadlineExceeded}); IsGone(err) || errors.As(err, new(*Refusal)) {
		t.Errorf("a server that never took the connection read as queueing: %v", err)
	}
}

// The wire keeps the server's answer: its status, its words (redacted,
// one line, cut short) and Retry-After; a server that takes the
// connection and keeps the upgrade waiting is told from one that never
// answered, and the wait is the caller's.
func TestHandshakeAnswers(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/full":
			w.Header().Set("Retry-After", "12")
			http.Error(w, "Too many\nrequests at https://x/?token=secret", http.StatusTooManyRequests)
		case "/queue":
			<-r.Context().Done()
		}
	}))
	t.Cleanup(srv.Close)
	ws := "ws" + strings.TrimPrefix(srv.URL, "http")
	_, err := cdp.Dial(t.Context(), ws+"/full")
	var he *cdp.HandshakeError
	if !errors.As(err, &he) || he.Status != 429 || he.RetryAfter != "12" || he.Said != "Too many requests at https://x/?token=***" {
		t.Fatalf("429: %#v (%v)", he, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second) // time to be accepted, on a loaded machine
	defer cancel()
	start := time.Now()
	_, err = cdp.Dial(ctx, ws+"/queue")
	var ue *cdp.UnansweredError
	if !errors.As(err, &ue) || !ue.Accepted || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("queued: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second { // short of the dial's own 15 s
		t.Errorf("the wait was not the caller's: %v", d)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = cdp.Dial(t.Context(), fmt.Sprintf("ws://%s/x", addr))
	if errors.As(err, &ue) {
		t.Errorf("a closed port read as a server that took the connection: %v", err)
	}
}
