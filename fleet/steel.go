package fleet

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
)

// steel is Steel's sessions API (https://api.steel.dev): POST
// /v1/sessions, with the steel-api-key header and {timeout} in
// milliseconds, makes a browser and answers {id, websocketUrl, …}; the
// browser lives until POST /v1/sessions/{id}/release or its timeout. Each
// call dials the websocketUrl with ?apiKey=….
type steel struct{}

// steelTimeout is the session's life at Steel when the endpoint asks for
// none (?timeout=, in ms): 15 minutes, the longest every plan allows; the
// keeper releases it sooner when its tabs close or no call comes.
const steelTimeout = 15 * 60 * 1000

func (steel) Name() string          { return Steel }
func (steel) TokenEnv() string      { return "STEEL_API_KEY" }
func (steel) DefaultServer() string { return "https://api.steel.dev" }

func (s steel) Server(raw string) (Server, error) {
	return restServer(Steel, raw, s.DefaultServer())
}

// Create makes a session and connects.
func (s steel) Create(ctx context.Context, srv Server) (*chrome.Browser, error) {
	timeout := steelTimeout
	if u, err := url.Parse(srv.URL); err == nil {
		if n, err := strconv.Atoi(u.Query().Get("timeout")); err == nil && n > 0 {
			timeout = n
		}
	}
	var sess struct {
		ID           string `json:"id"`
		WebsocketURL string `json:"websocketUrl"`
	}
	rctx, cancel := context.WithTimeout(ctx, restWait)
	err := restCall(rctx, srv.URL, http.MethodPost, "/v1/sessions", s.header(srv.Token), map[string]any{"timeout": timeout}, &sess)
	cancel()
	if err != nil {
		return nil, err
	}
	ws, err := bareWS(sess.WebsocketURL, "apiKey")
	if err != nil {
		return nil, err
	}
	if u, _ := url.Parse(ws); u.Query().Get("sessionId") == "" { // the registry tells sessions apart by it
		ws, _ = withQuery(ws, map[string]string{"sessionId": sess.ID})
	}
	return connectREST(ctx, s, chrome.Endpoint{URL: ws, Provider: Steel, Token: srv.Token, Session: sess.ID, API: srv.URL,
		Expires: time.Now().Add(time.Duration(timeout) * time.Millisecond)})
}

func (steel) LifeParam() string { return "?timeout=, in ms," }

func (steel) Dial(ep chrome.Endpoint, token string, _ bool) (string, error) {
	return withQuery(ep.URL, map[string]string{"apiKey": token})
}

// Release asks the service to release the session.
func (s steel) Release(ctx context.Context, ep chrome.Endpoint) error {
	return restCall(ctx, ep.API, http.MethodPost, "/v1/sessions/"+url.PathEscape(ep.Session)+"/release", s.header(ep.Token), nil, nil)
}

func (steel) header(token string) http.Header {
	return http.Header{"Steel-Api-Key": {token}}
}
