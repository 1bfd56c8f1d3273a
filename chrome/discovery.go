// Package chrome finds, launches and reaches a Chrome: where its
// debugging server listens (Endpoint, local or remote), what it says over
// HTTP discovery, finding and starting the executable, the chromeStatus
// step's check, and the browser connection a call gets (Connect, DialTab).
// The wire itself is package cdp's.
package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
)

// DefaultPort is Chrome's conventional remote-debugging port.
const DefaultPort = 9222

// Endpoint is where a Chrome's debugging server listens: a host and port,
// or a remote endpoint URL (see ParseEndpoint), whose host and port are
// then filled in from the URL.
type Endpoint struct {
	Host string `json:"host"`
	Port int    `json:"port"`
	// URL is a remote endpoint as handed out, query string and all: a
	// browser websocket (ws://, wss://) or an HTTP debugging endpoint
	// (http://, https://). It is what gets dialled; String redacts it.
	// A fleet provider's is the browser's own address there, without
	// its token.
	URL string `json:"url,omitempty"`
	// Provider is the fleet whose browser this is (package fleet:
	// "browserless", ...); empty is a plain CDP endpoint.
	Provider string `json:"provider,omitempty"`
	// Token is the provider's token for this call, from the environment,
	// Dial the URL a connection dials, token and all, and Auth the
	// Authorization header its handshake sends, when the provider takes
	// the token so (a Grid's basic auth) (package fleet fills them). None
	// is ever written anywhere: a registry, a keeper's configuration
	// file, a message.
	Token string `json:"-"`
	Dial  string `json:"-"`
	Auth  string `json:"-"`
	// Session and API are a REST provider's (Browserbase, Steel, a
	// Selenium Grid): the id of the browser's session there and the base
	// URL of the API that keeps it alive and releases it. Neither can be
	// read from URL, and neither is a secret.
	Session string `json:"session,omitempty"`
	API     string `json:"api,omitempty"`
	// Expires is when a REST provider's session ends by the life it was
	// created with (its timeout, ttl), when the service's answer or
	// cdpskill's request says: what a session found gone after it ran out of.
	Expires time.Time `json:"expires,omitzero"`
}

// WithDefaults fills in localhost:9222 where host or port is unset, or the
// URL's host and port for a remote endpoint.
func (e Endpoint) WithDefaults() Endpoint {
	if e.URL != "" {
		if e.Host == "" || e.Port == 0 {
			if p, err := ParseEndpoint(e.URL); err == nil {
				p.Provider, p.Token, p.Dial, p.Auth, p.Session, p.API, p.Expires = e.Provider, e.Token, e.Dial, e.Auth, e.Session, e.API, e.Expires
				return p
			}
		}
		return e
	}
	if e.Host == "" {
		e.Host = "localhost"
	}
	if e.Port == 0 {
		e.Port = DefaultPort
	}
	return e
}

// DialHeader is the header a connection's handshake sends: Auth's, when
// there is one.
func (e Endpoint) DialHeader() http.Header {
	if e.Auth == "" {
		return nil
	}
	return http.Header{"Authorization": {e.Auth}}
}

// String names the endpoint for messages: host:port, or the URL with its
// query values and password redacted.
func (e Endpoint) String() string {
	if e.URL != "" {
		return cdp.RedactURL(e.URL)
	}
	return net.JoinHostPort(e.Host, strconv.Itoa(e.Port))
}

// SameEndpoint reports whether a and b are the same browser endpoint: the
// same URL, or for host and port endpoints the same host and port.
func SameEndpoint(a, b Endpoint) bool {
	a, b = a.WithDefaults(), b.WithDefaults()
	return a.URL == b.URL && strings.EqualFold(a.Host, b.Host) && a.Port == b.Port
}

// Version is /json/version.
type Version struct {
	Browser              string `json:"Browser"`
	ProtocolVersion      string `json:"Protocol-Version"`
	UserAgent            string `json:"User-Agent"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
}

// TargetInfo is one entry of /json/list.
type TargetInfo struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	URL   string `json:"url"`
	// BrowserContextID is the browser context the tab is in; only a
	// listing over the websocket (ListPagesWS) says.
	BrowserContextID string `json:"-"`
}

// httpClient has no overall timeout: every request carries the caller's ctx.
var httpClient = &http.Client{Transport: &http.Transport{
	Proxy:               nil, // the debugging port is local; never send it through a proxy
	DialContext:         (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
	MaxIdleConnsPerHost: 2,
}}

// RemoteHTTPClient reaches remote endpoints and the fleet servers that
// hand them out, which may be far and behind TLS; the caller's ctx still
// bounds every request.
var RemoteHTTPClient = &http.Client{Transport: &http.Transport{
	Proxy:               nil,
	DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
	TLSHandshakeTimeout: 10 * time.Second,
	MaxIdleConnsPerHost: 2,
}}

func getJSON(ctx context.Context, ep Endpoint, method, path string, out any) error {
	u, err := ep.httpURL(path)
	if err != nil {
		return &cdp.ConnectError{Endpoint: ep.String(), Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return &cdp.ConnectError{Endpoint: ep.String(), Err: errors.New(cdp.RedactText(err.Error()))}
	}
	client := httpClient
	if ep.Remote() {
		client = RemoteHTTPClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its text repeats the URL, token and all
		}
		return &cdp.ConnectError{Endpoint: ep.String(), Err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return &cdp.ConnectError{Endpoint: ep.String(), Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		return &HTTPError{Path: path, Status: resp.StatusCode, Body: string(body)}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("cdp: %s: %w", path, err)
	}
	return nil
}

// HTTPError is a non-200 answer from the discovery server.
type HTTPError struct {
	Path   string
	Status int
	Body   string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("%s: HTTP %d: %s", e.Path, e.Status, e.Body)
}

// GetVersion asks the endpoint for its version and browser websocket URL.
func GetVersion(ctx context.Context, ep Endpoint) (*Version, error) {
	var v Version
	if err := getJSON(ctx, ep, http.MethodGet, "/json/version", &v); err != nil {
		return nil, err
	}
	if v.WebSocketDebuggerURL == "" {
		return nil, &cdp.ConnectError{Endpoint: ep.String(), Err: errors.New("/json/version names no webSocketDebuggerUrl; give the browser websocket URL (ws:// or wss://) instead")}
	}
	v.WebSocketDebuggerURL = reachableWS(ep, v.WebSocketDebuggerURL)
	return &v, nil
}

// ListTargets returns every target; pages have Type "page".
func ListTargets(ctx context.Context, ep Endpoint) ([]TargetInfo, error) {
	var ts []TargetInfo
	if err := getJSON(ctx, ep, http.MethodGet, "/json/list", &ts); err != nil {
		return nil, err
	}
	return ts, nil
}

// ListPages returns the page targets only.
func ListPages(ctx context.Context, ep Endpoint) ([]TargetInfo, error) {
	ts, err := ListTargets(ctx, ep)
	if err != nil {
		return nil, err
	}
	pages := ts[:0]
	for _, t := range ts {
		if t.Type == "page" {
			pages = append(pages, t)
		}
	}
	return pages, nil
}

// NewTarget opens a tab at rawURL (about:blank when empty).
func NewTarget(ctx context.Context, ep Endpoint, rawURL string) (*TargetInfo, error) {
	path := "/json/new"
	if rawURL != "" {
		path += "?" + url.QueryEscape(rawURL)
	}
	var t TargetInfo
	if err := getJSON(ctx, ep, http.MethodPut, path, &t); err != nil {
		return nil, err
	}
	return &t, nil
}
