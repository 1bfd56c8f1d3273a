package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
)

// The REST providers (Browserbase, Steel, a Selenium Grid) make a browser
// with a request to their API, which answers with the session's id and
// the CDP websocket that reaches it; the browser lives until it is
// released there (or the service's own timeout ends it), whoever is
// connected. So the registry keeps, beside the websocket's address
// without a token, the session's id and the API's base URL
// (chrome.Endpoint.Session, API), and Release asks that API.

// restServer reads an API's base URL: http or https, its path kept (a
// Grid under /wd/hub), def when raw is empty.
func restServer(name, raw, def string) (Server, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		raw = def
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return Server{}, fmt.Errorf("%s is not a %s API's URL: give its http:// or https:// base (%s)", cdp.RedactURL(raw), name, def)
	}
	u.Path, u.Fragment, u.User = strings.TrimSuffix(u.Path, "/"), "", nil
	return Server{Provider: name, URL: u.String()}, nil
}

// restCall is one request to a REST provider's API at base (its query
// left out): method on path (whose own query, a token's, no message
// repeats), with body as JSON and header (the token's), the answer
// decoded into out. A refusal is a *Refusal naming what refused; no
// error repeats the token.
func restCall(ctx context.Context, base, method, path string, header http.Header, body, out any) error {
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("%s is not a URL", cdp.RedactURL(base))
	}
	path, u.RawQuery, _ = strings.Cut(path, "?")
	u.Path = strings.TrimSuffix(u.Path, "/") + path
	server := cdp.RedactURL(base)
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return errors.New(cdp.RedactText(err.Error()))
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json") // a server reads an empty body as bad JSON
	}
	resp, err := chrome.RemoteHTTPClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return &cdp.ConnectError{Endpoint: server, What: "the server", Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return &cdp.ConnectError{Endpoint: server, What: "the server", Err: err}
	}
	if resp.StatusCode/100 != 2 {
		return refusal(server, fmt.Sprintf("its %s %s", method, path), resp.StatusCode, cdp.Said(string(data)), resp.Header.Get("Retry-After"))
	}
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s answered %s %s with what is not its JSON: %v", server, method, path, err)
	}
	return nil
}

// restWait bounds each request to a REST provider's API, within the
// call's own time.
const restWait = 30 * time.Second

// connectREST dials the browser a REST provider made, as ep, and
// releases its session when it cannot be reached: an unreached session
// would be charged for until the service's timeout.
func connectREST(ctx context.Context, p Provider, ep chrome.Endpoint) (*chrome.Browser, error) {
	ep = ep.WithDefaults()
	dial, err := Resolve(ep, nil, false)
	if err == nil {
		var conn *cdp.Conn
		if conn, err = cdp.DialHeader(ctx, dial.Dial, ep.String(), dial.DialHeader()); err == nil {
			return &chrome.Browser{Conn: conn, Endpoint: ep, Version: &chrome.Version{WebSocketDebuggerURL: ep.URL}}, nil
		}
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseWait)
	defer cancel()
	if rerr := p.Release(rctx, ep); rerr != nil {
		return nil, fmt.Errorf("%w (and its session %s may not be released: %v)", err, ep.Session, rerr)
	}
	return nil, err
}

// releaseWait bounds releasing a session that could not be reached.
const releaseWait = 5 * time.Second

// bareWS is a websocket URL the API handed out, with the parameters
// named taken out (a token, a signing key): what the registry keeps.
func bareWS(raw string, drop ...string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "ws" && u.Scheme != "wss") {
		return "", fmt.Errorf("the API answered with %s, not a websocket URL", cdp.RedactURL(raw))
	}
	q := u.Query()
	for _, k := range drop {
		q.Del(k)
	}
	u.RawQuery, u.User = q.Encode(), nil
	return u.String(), nil
}

// KeepAliver is a provider whose server ends a session no command came
// for within its timeout (a Selenium Grid's): the browser's keeper pings
// it, on its clock, every KeepAliveEvery.
type KeepAliver interface {
	KeepAliveEvery(ep chrome.Endpoint) time.Duration
	KeepAlive(ctx context.Context, ep chrome.Endpoint) error
}

// KeepAliveEvery is how often the browser at ep must be pinged to stay
// alive; 0 when it need not be.
func KeepAliveEvery(ep chrome.Endpoint) time.Duration {
	p, err := Lookup(ep.Provider)
	if k, ok := p.(KeepAliver); err == nil && ok {
		return k.KeepAliveEvery(ep)
	}
	return 0
}

// KeepAlive pings the browser at ep (with its token) so that its server
// does not end it as idle.
func KeepAlive(ctx context.Context, ep chrome.Endpoint) error {
	p, err := Lookup(ep.Provider)
	if k, ok := p.(KeepAliver); err == nil && ok {
		return k.KeepAlive(ctx, ep)
	}
	return nil
}

// lifer is a provider whose sessions live as long as they were created
// to: LifeParam names the endpoint's parameter that asks for longer.
type lifer interface {
	LifeParam() string
}

// expirySlack is how early before its end a session gone counts as
// expired: the service's clock and this one's differ a little.
const expirySlack = 5 * time.Second

// Expired says, of a session at ep found gone at now, that it ran out
// of the life it was created with, and how to ask for a longer one; ""
// when it had life left, or its life is not known.
func Expired(ep chrome.Endpoint, now time.Time) string {
	if ep.Expires.IsZero() || now.Before(ep.Expires.Add(-expirySlack)) {
		return ""
	}
	why := fmt.Sprintf("it expired (the life it was made with ended at %s", ep.Expires.Local().Format("15:04:05"))
	if p, err := Lookup(ep.Provider); err == nil {
		if l, ok := p.(lifer); ok {
			why += "; " + l.LifeParam() + " on openTab's endpoint asks for a longer one"
		}
	}
	return why + ")"
}

// projectEnv is a provider that takes a project from the environment
// besides its token (Browserbase's).
type projectEnv interface {
	ProjectEnv() string
}

// defaultServer is a provider whose API has a public address, used when
// openTab names none.
type defaultServer interface {
	DefaultServer() string
}

// DefaultServer is the API address of the provider named name, when it
// has one the agent need not give.
func DefaultServer(name string) string {
	p, err := Lookup(name)
	if d, ok := p.(defaultServer); err == nil && ok {
		return d.DefaultServer()
	}
	return ""
}
