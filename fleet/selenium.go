package fleet

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
)

// selenium is a Selenium Grid 4: POST {grid}/session with W3C
// capabilities asking for Chrome makes a WebDriver session, whose
// capabilities' "se:cdp" is a websocket the Grid relays to the browser's
// CDP; DELETE {grid}/session/{id} ends it. The Grid ends a session no
// WebDriver command came for within its session timeout (--session-timeout,
// 300 s by default), CDP traffic aside: so the browser's keeper sends one
// (GET /session/{id}/url) every third of it.
//
// A Grid started with --username and --password asks every request, its
// se:cdp websocket's too, for HTTP basic auth: the credentials come as
// the token, "user:password", from the endpoint's userinfo
// (http://user:password@grid:4444) or SELENIUM_GRID_AUTH, and go in an
// Authorization header. Without them, no header goes.
type selenium struct{}

// gridTimeout is a Grid's default session timeout; the endpoint's
// ?sessionTimeout= (seconds, or a Go duration) names another.
const gridTimeout = 300 * time.Second

func (selenium) Name() string      { return Selenium }
func (selenium) TokenEnv() string  { return "SELENIUM_GRID_AUTH" }
func (selenium) tokenForm() string { return "user:password" }

// Server takes the Grid's http:// or https:// address; credentials in
// it (http://user:password@grid:4444) are taken out as the token.
func (selenium) Server(raw string) (Server, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return Server{}, fmt.Errorf(`a Selenium Grid has no address by default: give its http://host:4444`)
	}
	srv, err := restServer(Selenium, raw, "http://localhost:4444")
	if err != nil {
		return Server{}, err
	}
	if u, err := url.Parse(raw); err == nil && u.User != nil { // restServer read it
		pass, _ := u.User.Password()
		srv.Token = u.User.Username() + ":" + pass
	}
	return srv, nil
}

// Create starts a WebDriver session on Chrome and connects to its se:cdp.
func (s selenium) Create(ctx context.Context, srv Server) (*chrome.Browser, error) {
	var resp struct {
		Value struct {
			SessionID    string         `json:"sessionId"`
			Capabilities map[string]any `json:"capabilities"`
		} `json:"value"`
	}
	body := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{"browserName": "chrome"}}}
	rctx, cancel := context.WithTimeout(ctx, restWait) // a Grid may queue the request for a free node
	err := restCall(rctx, srv.URL, http.MethodPost, "/session", s.header(srv.Token), body, &resp)
	cancel()
	if err != nil {
		return nil, err
	}
	ep := chrome.Endpoint{Provider: Selenium, Token: srv.Token, Session: resp.Value.SessionID, API: srv.URL}
	cdpURL, _ := resp.Value.Capabilities["se:cdp"].(string)
	if ep.URL, err = bareWS(cdpURL); err != nil {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseWait)
		_ = s.Release(rctx, ep) // by its id: no browser of it can be reached
		cancel()
		return nil, fmt.Errorf("the Grid at %s made a session without a CDP websocket (se:cdp): is it Chrome, on Grid 4? %v", srv, err)
	}
	return connectREST(ctx, s, ep)
}

func (selenium) Dial(ep chrome.Endpoint, _ string, _ bool) (string, error) { return ep.URL, nil }

// auth is the basic auth the Grid's websocket takes, as its API does.
func (selenium) auth(token string) string {
	if token == "" {
		return ""
	}
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(token))
}

// header is what each request to the Grid's API carries: its basic auth,
// when there is a token.
func (s selenium) header(token string) http.Header {
	if token == "" {
		return nil
	}
	return http.Header{"Authorization": {s.auth(token)}}
}

// Release deletes the WebDriver session, which quits its browser.
func (s selenium) Release(ctx context.Context, ep chrome.Endpoint) error {
	return restCall(ctx, ep.API, http.MethodDelete, "/session/"+url.PathEscape(ep.Session), s.header(ep.Token), nil, nil)
}

// KeepAliveEvery is a third of the Grid's session timeout.
func (selenium) KeepAliveEvery(ep chrome.Endpoint) time.Duration {
	return sessionTimeout(ep.API) / 3
}

// KeepAlive sends the session a WebDriver command, which the Grid counts
// as use.
func (s selenium) KeepAlive(ctx context.Context, ep chrome.Endpoint) error {
	return restCall(ctx, ep.API, http.MethodGet, "/session/"+url.PathEscape(ep.Session)+"/url", s.header(ep.Token), nil, nil)
}

// sessionTimeout is the Grid's session timeout its address names, else
// the default.
func sessionTimeout(api string) time.Duration {
	u, err := url.Parse(api)
	if err != nil {
		return gridTimeout
	}
	v := u.Query().Get("sessionTimeout")
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if d, err := time.ParseDuration(v); err == nil && d > 0 {
		return d
	}
	return gridTimeout
}
