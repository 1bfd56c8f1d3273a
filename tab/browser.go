package tab

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/fleet"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/keeper"
	"github.com/cdpskill/cdpskill/tabs"
)

// Browser is a call's connection to a browser. It outlives the tabs the
// call attaches over it (a tab step may switch to another), and so does
// its download watch, which Chrome keeps per connection.
type Browser struct {
	*chrome.Browser
	// Downloads saves and reports the downloads of the call's tabs; nil
	// until a tab is attached, or when the watch could not start.
	Downloads *capture.Downloads
	// Context is the browser context of the call's session here, once
	// known; empty for the default session (session.go).
	Context string
	// Relaunched says why the Chrome the call launched was not running:
	// its keeper had closed it when idle.
	Relaunched string
}

// Connect reaches the browser at ep, launching a local one when
// autoLaunch allows (headless as given, else as the environment says).
func Connect(ctx context.Context, getenv chrome.Env, ep chrome.Endpoint, temp private.Temp, headless *bool, autoLaunch bool) (*Browser, error) {
	ep, err := fleet.Resolve(ep.WithDefaults(), getenv, false)
	if err != nil {
		return nil, &ConnectError{Endpoint: ep, Err: err}
	}
	opts := chrome.LaunchOptions{Endpoint: ep, Headless: chrome.DefaultHeadless(getenv), Temp: temp}
	if headless != nil {
		opts.Headless = *headless
	}
	b, err := chrome.Connect(ctx, getenv, opts, autoLaunch && !ep.Remote())
	if err != nil {
		return nil, connectError(ctx, ep, temp, err)
	}
	br := &Browser{Browser: b}
	// A note of a Chrome the keeper closed is said by the call that
	// launches the next, and stale once any Chrome answers there.
	if why := keeper.TakeExitNote(temp, ep); b.Launched {
		br.Relaunched = why
	}
	return br, nil
}

// Create makes a browser on the fleet server srv (fleet.Provider.Create)
// and returns the call's connection to it, whose Endpoint is the
// browser's: what the registry keeps for its tabs.
func Create(ctx context.Context, srv fleet.Server, temp private.Temp) (*Browser, error) {
	p, err := fleet.Lookup(srv.Provider)
	if err != nil {
		return nil, err
	}
	b, err := p.Create(ctx, srv)
	if err != nil {
		ep := chrome.Endpoint{URL: srv.URL, Provider: srv.Provider, Token: srv.Token}.WithDefaults()
		return nil, connectError(ctx, ep, temp, err)
	}
	return &Browser{Browser: b}, nil
}

// connectError says why the browser at ep could not be reached: a fleet
// server's refusal in its own words (fleet.Explain), with what became of
// a browser it no longer has when its keeper knows; a local Chrome its
// keeper closed.
func connectError(ctx context.Context, ep chrome.Endpoint, temp private.Temp, err error) error {
	e := &ConnectError{Endpoint: ep, Err: fleet.Explain(ctx, ep, err)}
	var r *fleet.Refusal
	switch {
	case errors.As(e.Err, &r) && r.Kind == fleet.Gone:
		if why := keeper.ReleasedWhy(temp, ep); why != "" {
			r.Why = why
		}
	case errors.Is(err, syscall.ECONNREFUSED):
		e.Why = keeper.ExitedWhy(temp, ep)
	}
	return e
}

// DefaultEndpoint is CDP_URL when the environment sets it, else
// localhost:9222.
func DefaultEndpoint(getenv chrome.Env) (chrome.Endpoint, error) {
	if getenv != nil {
		if raw := getenv("CDP_URL"); raw != "" {
			ep, err := chrome.ParseEndpoint(raw)
			if err != nil {
				return ep, &CDPURLError{Err: err}
			}
			return ep, nil
		}
	}
	return chrome.Endpoint{}.WithDefaults(), nil
}

// reach connects to the browser of the tab entry names: over the tab's
// own websocket for a batch that stays on a tab of a local Chrome
// (chrome.DialTab), else over the browser's, dialled at the URL the
// registry cached while it answers.
func reach(ctx context.Context, ep chrome.Endpoint, entry tabs.Entry, opts Options) (*Browser, error) {
	if opts.TabSocket && !ep.Remote() {
		b, err := chrome.DialTab(ctx, ep, entry.TargetID)
		if err == nil {
			return &Browser{Browser: b}, nil
		}
		// The tab or Chrome is gone: the browser's websocket tells which.
	}
	if entry.BrowserWS != "" && ep.Provider == "" { // a fleet's browser's address is dialled with its token
		if conn, err := cdp.Dial(ctx, entry.BrowserWS); err == nil {
			b := &chrome.Browser{Conn: conn, Endpoint: ep}
			if ep == ep.WithDefaults() {
				return &Browser{Browser: b}, nil
			}
			b.Close()
		}
	}
	return Connect(ctx, opts.Getenv, ep, opts.Files.Temp, nil, false)
}

// Release ends the call's hold on the browser: the download watch stops,
// and the connection closes, unless the process is exiting and this is
// the browser's websocket. Closing one sets every renderer and the GPU
// process to work (a few hundred ms of CPU with dozens of tabs), and a
// process that closes it itself is starved by that before it can end.
func (b *Browser) Release(exiting bool) {
	if b.Downloads != nil {
		b.Downloads.Close()
		b.Downloads = nil
	}
	if b.Tab != "" || !exiting {
		b.Browser.Close()
	}
}

// Close closes the connection, as a call does with one it replaces.
func (b *Browser) Close() { b.Release(false) }

// followDownloads makes Chrome save the downloads of the call's browser
// context under capture.DownloadsDir and report them to the call, once
// per connection. For a batch that clicks over its tab's own websocket,
// which hears only its own tab's downloads, the browser's keeper holds the
// settings and brings the events (keeper.Relay), so a download in a tab
// its click opened is heard too; otherwise the call sets them on its own
// connection. Without them, downloads go where Chrome's
// defaults say (a session's are cancelled) and no step reports them, so
// a failure is a warning, never the call's end.
func (b *Browser) followDownloads(ctx context.Context, t *Tab) {
	if b.Downloads != nil {
		return
	}
	bctx, err := b.sessionContext(ctx, t.opts.Registry, false)
	if err != nil {
		t.warn("downloads will not be saved or reported: %v", err)
		return
	}
	var d *capture.Downloads
	if t.opts.Keeper != nil && t.opts.Relay {
		d, err = b.relayDownloads(ctx, t, bctx)
		if err != nil && b.Tab != "" {
			t.warn("a download in a tab your click opens is not reported: %v", err)
		}
	}
	if d == nil {
		d, err = t.opts.Files.WatchDownloads(ctx, b.Conn, bctx)
	}
	if _, ok := private.File(err); ok {
		t.unsaved("the downloads directory (downloads are neither saved nor reported)", err)
		return
	}
	if err != nil {
		t.warn("downloads will not be saved or reported: %v", err)
		return
	}
	b.Downloads = d
}

// relayDownloads has the browser's keeper hold the download settings of
// browser context bctx and bring its download events to the call.
func (b *Browser) relayDownloads(ctx context.Context, t *Tab, bctx string) (*capture.Downloads, error) {
	dir, err := t.opts.Files.Abs(t.opts.Files.DownloadsDir())
	if err != nil {
		return nil, err
	}
	r, note, err := t.opts.Keeper.Relay(ctx, b.Endpoint, b.Conn, t.opts.Registry.Session(), bctx, dir)
	if note != "" {
		t.warn("%s", note)
	}
	if err != nil {
		return nil, fmt.Errorf("cdpskill's keeper: %w", err)
	}
	d, err := t.opts.Files.WatchRelayed(b.Conn, r)
	if err != nil {
		r.Close()
	}
	return d, err
}
