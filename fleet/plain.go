package fleet

import (
	"context"

	"github.com/cdpskill/cdpskill/chrome"
)

// plain is a browser's own CDP endpoint, or a gateway's that keeps the
// browser by itself: openTab's "wsUrl", CDP_URL without a provider. Its
// URL, query and all, is what the registry keeps and every call dials,
// as before providers; whatever token it carries is the URL's own.
type plain struct{}

func (plain) Name() string     { return Plain }
func (plain) TokenEnv() string { return "" }

func (plain) Server(raw string) (Server, error) {
	ep, err := chrome.ParseEndpoint(raw)
	if err != nil {
		return Server{}, err
	}
	return Server{Provider: Plain, URL: ep.URL}, nil
}

func (plain) Create(ctx context.Context, srv Server) (*chrome.Browser, error) {
	ep, err := chrome.ParseEndpoint(srv.URL)
	if err != nil {
		return nil, err
	}
	return chrome.Connect(ctx, nil, chrome.LaunchOptions{Endpoint: ep}, false)
}

func (plain) Dial(ep chrome.Endpoint, _ string, _ bool) (string, error) { return ep.URL, nil }

func (plain) Release(context.Context, chrome.Endpoint) error { return nil }
