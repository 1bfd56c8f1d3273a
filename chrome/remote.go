package chrome

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// Remote browsers: an endpoint handed out by a hosted browser service or a
// self-hosted Chrome pool is a URL, either the browser websocket itself
// (ws://, wss://) or an HTTP debugging endpoint (http://, https://) whose
// /json/version names it. Its query string often carries a token: it is
// kept for dialling and never shown (cdp.RedactURL).

// RemoteConnectWait bounds reaching a remote endpoint (the HTTP discovery
// and the websocket handshake) when the caller set no deadline; with
// one, the caller's (a call's timeout) is the wait: a fleet server may
// queue a connection until one of its browsers is free.
const RemoteConnectWait = 20 * time.Second

// ParseEndpoint reads a remote endpoint URL. Errors never repeat the
// query string's values.
func ParseEndpoint(raw string) (Endpoint, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return Endpoint{}, fmt.Errorf("%s is not a URL", cdp.RedactURL(raw))
	}
	scheme := strings.ToLower(u.Scheme)
	var port int
	switch scheme {
	case "ws", "http":
		port = 80
	case "wss", "https":
		port = 443
	default:
		return Endpoint{}, fmt.Errorf("%s is not a browser endpoint: use a ws:// or wss:// browser websocket URL, or an http:// or https:// debugging endpoint", cdp.RedactURL(raw))
	}
	if u.Hostname() == "" {
		return Endpoint{}, fmt.Errorf("%s has no host", cdp.RedactURL(raw))
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Endpoint{}, fmt.Errorf("%s has an invalid port", cdp.RedactURL(raw))
		}
		port = n
	}
	u.Scheme = scheme
	return Endpoint{Host: u.Hostname(), Port: port, URL: u.String()}, nil
}

// Remote reports whether e is an endpoint URL rather than a host and port.
// No Chrome is ever launched for a remote endpoint.
func (e Endpoint) Remote() bool { return e.URL != "" }

// isWebSocket reports whether e is a browser websocket URL.
func (e Endpoint) isWebSocket() bool {
	return strings.HasPrefix(e.URL, "ws://") || strings.HasPrefix(e.URL, "wss://")
}

// httpURL is the address of path (which may carry its own query) on e's
// HTTP debugging server; an endpoint URL keeps its own path prefix and
// query string (a gateway's token).
func (e Endpoint) httpURL(path string) (string, error) {
	if !e.Remote() {
		return "http://" + e.String() + path, nil
	}
	if e.isWebSocket() {
		return "", fmt.Errorf("%s is a websocket endpoint; it has no HTTP discovery", e)
	}
	u, err := url.Parse(e.URL)
	if err != nil {
		return "", fmt.Errorf("%s is not a URL", e)
	}
	p, q, _ := strings.Cut(path, "?")
	u.Path = strings.TrimRight(u.Path, "/") + p
	u.RawPath = ""
	switch {
	case q == "":
	case u.RawQuery == "":
		u.RawQuery = q
	default:
		u.RawQuery += "&" + q
	}
	return u.String(), nil
}

// reachableWS makes the websocket URL a debugging endpoint reported
// reachable from here: Chrome behind a proxy or in a container names
// itself localhost or 0.0.0.0, which is the endpoint's host and port as
// seen from here; behind https the socket is wss; and a gateway's token
// in the endpoint's query goes along when the URL has none of its own.
// A host-and-port endpoint's websocket is always dialled there: the agent
// named that browser (or took the local default), and whatever answers on
// the port must not send the call to another host. Only a remote
// endpoint, which the agent named by URL, may hand over to another name.
func reachableWS(ep Endpoint, ws string) string {
	w, err := url.Parse(ws)
	if err != nil || w.Host == "" {
		return ws
	}
	hostPort := net.JoinHostPort(ep.Host, strconv.Itoa(ep.Port))
	var epu *url.URL
	if ep.Remote() {
		if epu, err = url.Parse(ep.URL); err == nil {
			hostPort = epu.Host
			if epu.Port() == "" {
				hostPort = net.JoinHostPort(epu.Hostname(), strconv.Itoa(ep.Port))
			}
		}
	}
	if (!ep.Remote() || isLoopbackOrAny(w.Hostname())) && w.Host != hostPort {
		w.Host = hostPort
	}
	if epu != nil {
		if epu.Scheme == "https" && w.Scheme == "ws" {
			w.Scheme = "wss"
		}
		if w.RawQuery == "" && epu.RawQuery != "" {
			w.RawQuery = epu.RawQuery
		}
	}
	return w.String()
}

func isLoopbackOrAny(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// connectRemote reaches a remote endpoint: a websocket URL is dialled as
// it is, an HTTP endpoint is asked for its websocket first. Nothing is
// ever launched.
func connectRemote(ctx context.Context, ep Endpoint) (*Browser, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, RemoteConnectWait)
		defer cancel()
	}
	v := &Version{WebSocketDebuggerURL: ep.URL}
	dial := v.WebSocketDebuggerURL
	switch {
	case ep.Dial != "":
		dial = ep.Dial // a fleet browser's, token and all; not what Version tells
	case !ep.isWebSocket():
		var err error
		if v, err = GetVersion(ctx, ep); err != nil {
			return nil, err
		}
		dial = v.WebSocketDebuggerURL
	}
	conn, err := cdp.DialHeader(ctx, dial, ep.String(), ep.DialHeader())
	if err != nil {
		return nil, err
	}
	return &Browser{Conn: conn, Endpoint: ep, Version: v}, nil
}

// ListPagesWS lists the browser's tabs over its websocket
// (Target.getTargets), which every endpoint supports, the remote ones
// without HTTP discovery included.
func ListPagesWS(ctx context.Context, c *cdp.Conn) ([]TargetInfo, error) {
	res, err := proto.TargetGetTargets{}.Do(ctx, c.Browser())
	if err != nil {
		return nil, err
	}
	var out []TargetInfo
	for _, t := range res.TargetInfos {
		if t.Type == "page" {
			out = append(out, TargetInfo{ID: t.TargetID, Type: t.Type, Title: t.Title, URL: t.URL, BrowserContextID: t.BrowserContextID})
		}
	}
	return out, nil
}

// CloseTargetWS closes a tab over the browser websocket, and returns once
// Chrome has let it go (its unload handlers run after Target.closeTarget
// answers), for closeWait at most: a tab said closed is no longer listed.
// A tab that is already gone reports cdp.IsTargetGone.
func CloseTargetWS(ctx context.Context, c *cdp.Conn, id string) error {
	if err := (proto.TargetCloseTarget{TargetID: id}).Do(ctx, c.Browser()); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, closeWait)
	defer cancel()
	for {
		_, err := proto.TargetGetTargetInfo{TargetID: id}.Do(wctx, c.Browser())
		if err != nil || wctx.Err() != nil {
			return nil // gone, or Chrome goes on closing it
		}
		select {
		case <-wctx.Done():
			return nil
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// closeWait bounds the wait for a closed tab to go.
const closeWait = 2 * time.Second

// remoteStatus is chromeStatus for a remote endpoint: all over the
// websocket, and never a launch.
func remoteStatus(ctx context.Context, ep Endpoint) *Status {
	st := &Status{Port: ep.Port, Endpoint: ep.String()}
	b, err := connectRemote(ctx, ep)
	if err != nil {
		st.Error = err.Error() + " (a remote endpoint is never auto-launched)"
		return st
	}
	defer b.Close()
	st.Running = true
	st.Version = b.Version.Browser
	if st.Version == "" {
		if v, err := (proto.BrowserGetVersion{}).Do(ctx, b.Conn.Browser()); err == nil {
			st.Version = v.Product
		}
	}
	pages, err := ListPagesWS(ctx, b.Conn)
	if err != nil {
		st.Error = err.Error()
		return st
	}
	if len(pages) == 0 {
		created, err := proto.TargetCreateTarget{URL: "about:blank", NewWindow: true}.Do(ctx, b.Browser())
		if err != nil {
			st.Error = fmt.Sprintf("the browser has no tabs and opening one failed: %v", err)
			return st
		}
		pages, st.CreatedTab = []TargetInfo{{ID: created.TargetID, Type: "page", URL: "about:blank"}}, true
		st.Note = "The browser had no tabs open. Created new tab."
	}
	for _, p := range pages {
		st.Tabs = append(st.Tabs, StatusTab{TargetID: p.ID, URL: p.URL, Title: p.Title})
	}
	return st
}
