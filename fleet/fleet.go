// Package fleet reaches browsers that run on a fleet (browserless;
// Browserbase, Steel and a Selenium Grid by their REST APIs; and the plain
// CDP endpoint of before) rather than on this machine. Each
// kind is a Provider: how a browser is made there, the URL each call
// dials to reach it again, the URL of the connection its keeper holds
// between calls (Kept), and how it is released. A browser on a fleet is a chrome.Endpoint with its
// Provider set and, in URL, its own address there without a token: that
// is what the registry keeps, so every later call reaches the same
// browser by its alias. Tokens come from the environment at each call
// (Resolve) and are never written anywhere. When a server refuses,
// Explain says who refused and why, in the agent's words (Refusal).
package fleet

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
)

// Provider is one kind of browser fleet.
type Provider interface {
	// Name is what openTab's "provider" and CDPSKILL_PROVIDER say.
	Name() string
	// TokenEnv is the environment variable each call reads the token
	// from; "" for a provider that takes none of its own.
	TokenEnv() string
	// Server reads the server an agent named (openTab's "endpoint",
	// CDP_URL). Its errors never repeat a token.
	Server(raw string) (Server, error)
	// Create makes a browser on srv and connects to it. The connection's
	// Endpoint is the browser's: what the registry keeps, and what later
	// calls reach (Resolve).
	Create(ctx context.Context, srv Server) (*chrome.Browser, error)
	// Dial is the URL that reaches the browser at ep with token: a
	// call's, or with hold its keeper's, which lasts from call to call
	// (browserless closes a browser with its last connection, and cuts
	// one at its job timeout unless asked not to).
	Dial(ep chrome.Endpoint, token string, hold bool) (string, error)
	// Release frees what the provider keeps of the browser at ep (and
	// may charge for): its keeper calls it as it lets go, at the last
	// closeTab or when idle. A browser that goes with its last
	// connection (browserless) needs nothing more.
	Release(ctx context.Context, ep chrome.Endpoint) error
}

// Server is a fleet server an agent named, and the token a call has for
// it.
type Server struct {
	Provider string
	// URL is the server's address as given, without its token: the
	// scheme says ws or wss, its path and other query go along.
	URL string
	// Token is the one the endpoint carried, else the environment's.
	Token string
	// Project is the provider's project from the environment (Browserbase's
	// BROWSERBASE_PROJECT_ID), when it takes one: not a secret.
	Project string
}

// String names the server for messages: its URL, redacted.
func (s Server) String() string { return cdp.RedactURL(s.URL) }

// providers are the known providers, by name.
var providers = map[string]Provider{
	Plain:       plain{},
	Browserless: browserless{},
	Browserbase: browserbase{},
	Steel:       steel{},
	Selenium:    selenium{},
}

// The providers' names.
const (
	Plain       = "cdp"
	Browserless = "browserless"
	Browserbase = "browserbase"
	Steel       = "steel"
	Selenium    = "selenium"
)

// Lookup is the provider named name; "" is the plain CDP endpoint.
func Lookup(name string) (Provider, error) {
	if name == "" {
		name = Plain
	}
	if p, ok := providers[strings.ToLower(name)]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("unknown provider %q: use one of %s", name, strings.Join(Names(), ", "))
}

// Names are the known providers' names, sorted.
func Names() []string {
	var names []string
	for n := range providers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ServerExample is what the address of a server of the provider named
// name looks like, for messages that ask for one.
func ServerExample(name string) string {
	switch strings.ToLower(name) {
	case Selenium:
		return "http://grid:4444"
	case Browserless:
		return "ws://host:3000"
	}
	if d := DefaultServer(name); d != "" {
		return d
	}
	return "ws://host:9222/devtools/browser/<id>"
}

// Parse reads the server raw names for the provider named name, and
// takes the token for it: the one raw carries, else the environment's.
func Parse(name, raw string, getenv chrome.Env) (Server, error) {
	p, err := Lookup(name)
	if err != nil {
		return Server{}, err
	}
	srv, err := p.Server(raw)
	if err != nil {
		return Server{}, err
	}
	if srv.Token == "" && p.TokenEnv() != "" && getenv != nil {
		srv.Token = getenv(p.TokenEnv())
	}
	if pe, ok := p.(projectEnv); ok && getenv != nil {
		srv.Project = getenv(pe.ProjectEnv())
	}
	return srv, nil
}

// Kept reports whether ep is a fleet's browser, which its keeper keeps
// between calls and releases: every provider's but the plain endpoint's,
// which keeps its browser by itself.
func Kept(ep chrome.Endpoint) bool {
	p, err := Lookup(ep.Provider)
	return err == nil && p.Name() != Plain
}

// Resolve makes ep, a browser on a fleet, ready to dial for a call (or,
// with hold, for its keeper's connection): its token from ep itself, else
// the provider's environment variable, else a CDP_URL that names the same
// server with one; and the URL to dial, with the Authorization its
// handshake sends when the provider takes one. A plain endpoint is left
// as it is.
func Resolve(ep chrome.Endpoint, getenv chrome.Env, hold bool) (chrome.Endpoint, error) {
	if ep.Provider == "" {
		return ep, nil
	}
	p, err := Lookup(ep.Provider)
	if err != nil {
		return ep, err
	}
	if ep.Token == "" {
		ep.Token = envToken(p, ep, getenv)
	}
	if ep.Dial, err = p.Dial(ep, ep.Token, hold); err != nil {
		return ep, err
	}
	if a, ok := p.(authorizer); ok {
		ep.Auth = a.auth(ep.Token)
	}
	return ep, nil
}

// authorizer is a provider whose websocket takes the token in the
// handshake's Authorization header (a Grid's basic auth) rather than in
// its URL: auth is the header's value, "" for no token.
type authorizer interface {
	auth(token string) string
}

// envToken is the token the environment has for ep's server.
func envToken(p Provider, ep chrome.Endpoint, getenv chrome.Env) string {
	if getenv == nil {
		return ""
	}
	if v := p.TokenEnv(); v != "" && getenv(v) != "" {
		return getenv(v)
	}
	if raw := getenv("CDP_URL"); raw != "" {
		if srv, err := p.Server(raw); err == nil && srv.Token != "" && sameHost(srv.URL, serverOf(ep)) {
			return srv.Token
		}
	}
	return ""
}

// OnServer reports whether ep is a browser of the provider on the
// server srv names.
func OnServer(ep chrome.Endpoint, srv Server) bool {
	return ep.Provider == srv.Provider && sameHost(serverOf(ep), srv.URL)
}

// serverOf is the address of the server that made the browser at ep: a
// REST provider's API, else the browser's own.
func serverOf(ep chrome.Endpoint) string {
	if ep.API != "" {
		return ep.API
	}
	return ep.URL
}

// InCDPURL reports whether CDP_URL names srv's server with a token, which
// later calls then take (Resolve).
func InCDPURL(srv Server, getenv chrome.Env) bool {
	p, err := Lookup(srv.Provider)
	if err != nil || getenv == nil {
		return false
	}
	env, err := p.Server(getenv("CDP_URL"))
	return err == nil && env.Token != "" && sameHost(env.URL, srv.URL)
}

// sameHost: a and b are on one server (scheme aside: ws and http are
// one server's).
func sameHost(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && strings.EqualFold(ua.Host, ub.Host)
}
