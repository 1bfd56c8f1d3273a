package fleet

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
)

// browserbase is Browserbase's API (https://api.browserbase.com): POST
// /v1/sessions, with the X-BB-API-Key header and {projectId, keepAlive,
// timeout} (the endpoint's ?timeout=, in seconds, else the project's
// default), makes a browser and answers {id, connectUrl, expiresAt, …}. Asked to keep it alive,
// the service keeps the browser between connections, until it is released
// (POST /v1/sessions/{id} with {status: "REQUEST_RELEASE"}) or its own
// timeout ends it. The connectUrl carries a signing key, which is never
// kept: each call dials the connect host with the session's id and the
// API key instead (?apiKey=…&sessionId=…).
type browserbase struct{}

func (browserbase) Name() string          { return Browserbase }
func (browserbase) TokenEnv() string      { return "BROWSERBASE_API_KEY" }
func (browserbase) ProjectEnv() string    { return "BROWSERBASE_PROJECT_ID" }
func (browserbase) DefaultServer() string { return "https://api.browserbase.com" }

func (b browserbase) Server(raw string) (Server, error) {
	return restServer(Browserbase, raw, b.DefaultServer())
}

// Create makes a session kept alive between connections, and connects.
// The project, when the environment names one, goes along in the API's
// address the registry keeps, for the release.
func (b browserbase) Create(ctx context.Context, srv Server) (*chrome.Browser, error) {
	var s struct {
		ID, ConnectURL string
		ExpiresAt      time.Time
	}
	body := map[string]any{"keepAlive": true}
	if srv.Project != "" {
		body["projectId"] = srv.Project
	}
	if u, err := url.Parse(srv.URL); err == nil {
		if n, err := strconv.Atoi(u.Query().Get("timeout")); err == nil && n > 0 {
			body["timeout"] = n // seconds; else the project's default
		}
	}
	rctx, cancel := context.WithTimeout(ctx, restWait)
	err := restCall(rctx, srv.URL, http.MethodPost, "/v1/sessions", b.header(srv.Token), body, &s)
	cancel()
	if err != nil {
		return nil, err
	}
	ws, err := bareWS(s.ConnectURL, "signingKey", "apiKey")
	if err != nil {
		return nil, err
	}
	if ws, err = withQuery(ws, map[string]string{"sessionId": s.ID}); err != nil {
		return nil, err
	}
	api, err := withQuery(srv.URL, map[string]string{"projectId": srv.Project})
	if err != nil {
		return nil, err
	}
	return connectREST(ctx, b, chrome.Endpoint{URL: ws, Provider: Browserbase, Token: srv.Token, Session: s.ID, API: api, Expires: s.ExpiresAt})
}

func (browserbase) LifeParam() string { return "?timeout=, in s," }

func (browserbase) Dial(ep chrome.Endpoint, token string, _ bool) (string, error) {
	return withQuery(ep.URL, map[string]string{"apiKey": token, "sessionId": ep.Session})
}

// Release asks the service to release the session.
func (b browserbase) Release(ctx context.Context, ep chrome.Endpoint) error {
	body := map[string]string{"status": "REQUEST_RELEASE"}
	if u, err := url.Parse(ep.API); err == nil && u.Query().Get("projectId") != "" {
		body["projectId"] = u.Query().Get("projectId")
	}
	return restCall(ctx, ep.API, http.MethodPost, "/v1/sessions/"+url.PathEscape(ep.Session), b.header(ep.Token), body, nil)
}

func (browserbase) header(token string) http.Header {
	return http.Header{"X-Bb-Api-Key": {token}}
}
