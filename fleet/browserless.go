package fleet

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
)

// browserless is the open-source browserless platform (2.x, the npm
// package @browserless.io/browserless or its Docker image). A websocket to
// its launch route (/, /chromium, /chrome) starts a browser, which it
// closes when the last websocket to it closes; /devtools/browser/<id>
// reaches a running one again. Every websocket counts against its
// CONCURRENT limit (QUEUED more wait, the rest get 429) and is cut after
// its job timeout (TIMEOUT, else a connection's "timeout" parameter). So
// the browser's keeper holds one connection, asking for no job timeout,
// and each call dials the browser's address with the token; the browser
// is released when that connection ends.
//
// Its websocket carries no word of the browser's id (the browser target's
// id is another), so a browser is made with a trackingId of cdpskill's
// and found by it in the server's /sessions.
//
// Browserless's cloud (and its Enterprise image) has a Session API
// besides: POST /session?token=… with {ttl} makes a browser that lives,
// connected or not, until DELETE /session/{id} or its ttl, and answers
// {id, browserWSEndpoint, …}. Create asks for one first, as a REST
// provider's session (chrome.Endpoint.Session, API), and launches as
// above where the server has no such API (the open-source one answers
// 404).
type browserless struct{}

// cloudTTL is a Session API browser's life when the endpoint asks for
// none (?ttl=, in ms, the API's own word): the keeper releases it sooner
// when its tabs close or no call comes.
const cloudTTL = 30 * time.Minute

func (browserless) Name() string     { return Browserless }
func (browserless) TokenEnv() string { return "BROWSERLESS_TOKEN" }

// Server takes ws://, wss://, http:// or https:// (the same server's
// websocket), with a launch route as path or none, and other query
// parameters the server reads (timeout, blockAds, launch, …), which go
// along; token is taken out.
func (browserless) Server(raw string) (Server, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return Server{}, fmt.Errorf("%s is not a browserless server's URL: give ws://host:3000 (or wss://, http://, https://)", cdp.RedactURL(raw))
	}
	switch strings.ToLower(u.Scheme) {
	case "ws", "http":
		u.Scheme = "ws"
	case "wss", "https":
		u.Scheme = "wss"
	default:
		return Server{}, fmt.Errorf("%s is not a browserless server's URL: use ws://, wss://, http:// or https://", cdp.RedactURL(raw))
	}
	if strings.Contains(u.Path, "/devtools/") {
		return Server{}, fmt.Errorf("%s is a browser's address, not its server's: give the server (ws://host:3000), and openTab makes the browser", cdp.RedactURL(raw))
	}
	q := u.Query()
	token := q.Get("token")
	q.Del("token")
	q.Del("trackingId") // cdpskill's own finds the browser it makes
	u.RawQuery, u.Fragment, u.User = q.Encode(), "", nil
	return Server{Provider: Browserless, URL: u.String(), Token: token}, nil
}

// Create makes a browser by the Session API where the server has one,
// else launches one.
func (b browserless) Create(ctx context.Context, srv Server) (*chrome.Browser, error) {
	br, err := b.createSession(ctx, srv)
	if r := (*Refusal)(nil); errors.As(err, &r) && (r.Status == http.StatusNotFound || r.Status == http.StatusMethodNotAllowed) {
		return b.launch(ctx, srv)
	}
	return br, err
}

// createSession makes a browser by the Session API, and connects.
func (b browserless) createSession(ctx context.Context, srv Server) (*chrome.Browser, error) {
	api, query := b.api(srv.URL)
	ttl := cloudTTL.Milliseconds()
	if n, err := strconv.ParseInt(query.Get("ttl"), 10, 64); err == nil && n > 0 {
		ttl = n
	}
	var sess struct {
		ID                string `json:"id"`
		BrowserWSEndpoint string `json:"browserWSEndpoint"`
	}
	rctx, cancel := context.WithTimeout(ctx, restWait)
	err := restCall(rctx, api, http.MethodPost, "/session?"+url.Values{"token": {srv.Token}}.Encode(), nil, map[string]any{"ttl": ttl}, &sess)
	cancel()
	if err != nil {
		return nil, err
	}
	ep := chrome.Endpoint{Provider: Browserless, Token: srv.Token, Session: sess.ID, API: api, Expires: time.Now().Add(time.Duration(ttl) * time.Millisecond)}
	if ep.URL, err = bareWS(sess.BrowserWSEndpoint, "token"); err != nil || sess.ID == "" {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseWait)
		_ = b.Release(rctx, ep)
		cancel()
		return nil, fmt.Errorf("browserless at %s made a session without its id or websocket: %v", srv, err)
	}
	return connectREST(ctx, b, ep)
}

// LifeParam is the endpoint's parameter for a Session API browser's life.
func (browserless) LifeParam() string { return "?ttl=, in ms," }

// api is the HTTP base of the server at raw, and raw's query.
func (browserless) api(raw string) (string, url.Values) {
	u, _ := url.Parse(raw)
	q := u.Query()
	u.Scheme = map[string]string{"ws": "http", "wss": "https"}[u.Scheme]
	u.Path, u.RawQuery = "", ""
	return u.String(), q
}

// launch starts a browser: a websocket to the launch route, which the
// call goes on with, and the browser's id from /sessions.
func (b browserless) launch(ctx context.Context, srv Server) (*chrome.Browser, error) {
	tracking, err := trackingID()
	if err != nil {
		return nil, err
	}
	launch, err := withQuery(srv.URL, map[string]string{"token": srv.Token, "trackingId": tracking})
	if err != nil {
		return nil, err
	}
	conn, err := cdp.DialAs(ctx, launch, srv.String())
	if err != nil {
		return nil, err
	}
	id, err := b.sessionID(ctx, srv, tracking)
	if err != nil {
		conn.Close() // the browser goes with it
		return nil, err
	}
	u, _ := url.Parse(srv.URL)
	u.Path = "/devtools/browser/" + id
	ep := chrome.Endpoint{URL: u.String(), Provider: Browserless, Token: srv.Token, Dial: launch}.WithDefaults()
	return &chrome.Browser{Conn: conn, Endpoint: ep, Version: &chrome.Version{WebSocketDebuggerURL: ep.URL}}, nil
}

// Dial is the browser's address with the token; the keeper's asks for
// no job timeout (timeout=0), as its connection is a launched browser's
// life.
func (browserless) Dial(ep chrome.Endpoint, token string, hold bool) (string, error) {
	set := map[string]string{"token": token}
	if hold && ep.Session == "" {
		set["timeout"] = "0"
	}
	return withQuery(ep.URL, set)
}

// Release deletes a Session API browser; a launched one goes when the
// keeper lets go of its connection.
func (browserless) Release(ctx context.Context, ep chrome.Endpoint) error {
	if ep.Session == "" {
		return nil
	}
	q := url.Values{"token": {ep.Token}, "force": {"true"}}
	return restCall(ctx, ep.API, http.MethodDelete, "/session/"+url.PathEscape(ep.Session)+"?"+q.Encode(), nil, nil, nil)
}

// session is an entry of the server's /sessions.
type session struct {
	ID         string `json:"id"`
	TrackingID string `json:"trackingId"`
	Type       string `json:"type"`
}

// sessionID finds the browser made with trackingID in the server's
// /sessions.
func (b browserless) sessionID(ctx context.Context, srv Server, trackingID string) (string, error) {
	var list []session
	if err := b.get(ctx, srv.URL, srv.Token, "/sessions", url.Values{"trackingId": {trackingID}}, &list); err != nil {
		return "", err
	}
	for _, s := range list {
		if s.TrackingID == trackingID && s.Type == "browser" && s.ID != "" {
			return s.ID, nil
		}
	}
	return "", fmt.Errorf("browserless at %s made a browser but its /sessions does not list it (trackingId %s)", srv, trackingID)
}

// limits is what the server says of its limits (/pressure): how many
// connections it runs and queues, of how many.
func (b browserless) limits(ctx context.Context, ep chrome.Endpoint) string {
	var p struct {
		Pressure struct {
			Running, Queued, MaxConcurrent, MaxQueued int
			Reason                                    string
		}
	}
	if b.get(ctx, ep.URL, ep.Token, "/pressure", nil, &p) != nil {
		return ""
	}
	q := p.Pressure
	return fmt.Sprintf("it runs %d of %d concurrent connections and queues %d of %d", q.Running, q.MaxConcurrent, q.Queued, q.MaxQueued)
}

// get asks the HTTP API of the server at serverURL (ws or http) for
// path with the token, and query, into out. A refusal is a *Refusal; no
// error repeats the token.
func (b browserless) get(ctx context.Context, serverURL, token, path string, query url.Values, out any) error {
	api, _ := b.api(serverURL)
	if query == nil {
		query = url.Values{}
	}
	if token != "" {
		query.Set("token", token)
	}
	return restCall(ctx, api, http.MethodGet, path+"?"+query.Encode(), nil, nil, out)
}

// withQuery is raw with the query parameters set (an empty value is
// left out).
func withQuery(raw string, set map[string]string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%s is not a URL", cdp.RedactURL(raw))
	}
	q := u.Query()
	for k, v := range set {
		if v != "" {
			q.Set(k, v)
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

func trackingID() (string, error) {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "cdpskill-" + hex.EncodeToString(b), nil
}
