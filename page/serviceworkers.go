package page

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

//go:embed js/sw_update.js
var swUpdateJS string

// ServiceWorker is one service worker registration of the tab's origin.
// Its fields describe the version that serves the scope: the active one,
// or, before there is one, the newest.
type ServiceWorker struct {
	Scope     string `json:"scope"`
	ScriptURL string `json:"scriptURL,omitempty"`
	// Status is the version's state: installing, installed, activating,
	// activated or redundant.
	Status string `json:"status,omitempty"`
	// Running: its thread runs (Chrome stops an idle worker, and starts it
	// again for the next event).
	Running bool `json:"running"`
	// Controlling: it controls this tab's page.
	Controlling bool `json:"controlling"`
	// NewVersion is the state of a newer version beside the active one:
	// installing, or installed (waiting for the pages the active one
	// controls to go).
	NewVersion string `json:"newVersion,omitempty"`
}

// swListWait bounds the wait for Chrome's account of the registrations,
// which comes a few milliseconds after ServiceWorker.enable.
const swListWait = 5 * time.Second

// swDomain is the ServiceWorker domain enabled on a tab's session for one
// step; close disables it.
type swDomain struct {
	s      *cdp.Session
	origin string // the tab's, e.g. http://127.0.0.1:8080
	regs   map[string]proto.ServiceWorkerRegistration
	vers   map[string]proto.ServiceWorkerVersion
}

// openSW enables the ServiceWorker domain on p's tab and reads Chrome's
// account of the registrations of the top document's origin.
func openSW(ctx context.Context, p *Page) (*swDomain, error) {
	d := &swDomain{s: p.S, regs: map[string]proto.ServiceWorkerRegistration{}, vers: map[string]proto.ServiceWorkerVersion{}}
	info, err := proto.TargetGetTargetInfo{TargetID: p.S.TargetID}.Do(ctx, p.S.Conn().Browser())
	if err != nil {
		return nil, fmt.Errorf("page: service workers: %w", err)
	}
	d.origin = webOrigin(info.TargetInfo.URL)
	if d.origin == "" {
		return d, nil // about:blank, data:, file: — no service workers
	}
	if err := d.read(ctx); err != nil {
		d.close(ctx)
		return nil, err
	}
	return d, nil
}

// read enables the domain and takes Chrome's first two events, which list
// every registration and every live version, then whatever came with
// them.
func (d *swDomain) read(ctx context.Context) error {
	l := d.s.Listen(proto.EventServiceWorkerWorkerRegistrationUpdated, proto.EventServiceWorkerWorkerVersionUpdated)
	defer l.Close()
	if err := (proto.ServiceWorkerEnable{}).Do(ctx, d.s); err != nil {
		return fmt.Errorf("page: service workers: %w", err)
	}
	wctx, cancel := context.WithTimeout(ctx, swListWait)
	defer cancel()
	seen := map[string]bool{}
	for !seen[proto.EventServiceWorkerWorkerRegistrationUpdated] || !seen[proto.EventServiceWorkerWorkerVersionUpdated] {
		ev, err := l.Next(wctx)
		if err != nil {
			if ctx.Err() == nil && wctx.Err() != nil {
				return fmt.Errorf("page: Chrome did not list the service workers within %v", swListWait)
			}
			return fmt.Errorf("page: service workers: %w", err)
		}
		seen[ev.Method] = true
		d.fold(ev)
	}
	for _, ev := range l.Drain() {
		d.fold(ev)
	}
	return nil
}

func (d *swDomain) fold(ev cdp.Event) {
	switch ev.Method {
	case proto.EventServiceWorkerWorkerRegistrationUpdated:
		var e proto.ServiceWorkerWorkerRegistrationUpdated
		if json.Unmarshal(ev.Params, &e) != nil {
			return
		}
		for _, r := range e.Registrations {
			d.regs[r.RegistrationID] = r
		}
	case proto.EventServiceWorkerWorkerVersionUpdated:
		var e proto.ServiceWorkerWorkerVersionUpdated
		if json.Unmarshal(ev.Params, &e) != nil {
			return
		}
		for _, v := range e.Versions {
			d.vers[v.VersionID] = v
		}
	}
}

func (d *swDomain) close(ctx context.Context) {
	if d.origin != "" {
		_ = proto.ServiceWorkerDisable{}.Do(ctx, d.s) // the session ends with the call anyway
	}
}

// list describes the registrations of the tab's origin, by scope.
func (d *swDomain) list() []ServiceWorker {
	var out []ServiceWorker
	for _, r := range d.regs {
		if r.IsDeleted || webOrigin(r.ScopeURL) != d.origin {
			continue
		}
		var vs []proto.ServiceWorkerVersion
		for _, v := range d.vers {
			if v.RegistrationID == r.RegistrationID {
				vs = append(vs, v)
			}
		}
		out = append(out, describe(r.ScopeURL, vs, d.s.TargetID))
	}
	slices.SortFunc(out, func(a, b ServiceWorker) int { return cmp.Compare(a.Scope, b.Scope) })
	return out
}

// describe picks the version that serves a registration (the active one,
// else the newest not yet redundant, else the newest) and a newer one
// waiting or installing beside an active one. Chrome's "new" (a version
// whose script is being fetched) is reported as installing.
func describe(scope string, vs []proto.ServiceWorkerVersion, tab string) ServiceWorker {
	slices.SortFunc(vs, func(a, b proto.ServiceWorkerVersion) int { return cmp.Compare(versionNum(b), versionNum(a)) }) // newest first
	var active, newer *proto.ServiceWorkerVersion
	for i := range vs {
		switch v := &vs[i]; v.Status {
		case "activating", "activated":
			if active == nil {
				active = v
			}
		case "new", "installing", "installed":
			if newer == nil && active == nil {
				newer = v
			}
		}
	}
	sw := ServiceWorker{Scope: scope}
	main := active
	switch {
	case main == nil && newer != nil:
		main, newer = newer, nil
	case main == nil && len(vs) > 0:
		main = &vs[0]
	}
	if main != nil {
		sw.ScriptURL, sw.Status = main.ScriptURL, versionStatus(main.Status)
		sw.Running = main.RunningStatus == "running"
		sw.Controlling = slices.Contains(main.ControlledClients, tab)
	}
	if newer != nil {
		sw.NewVersion = versionStatus(newer.Status)
	}
	return sw
}

func versionStatus(s string) string {
	if s == "new" {
		return "installing"
	}
	return s
}

func versionNum(v proto.ServiceWorkerVersion) int64 {
	n, _ := strconv.ParseInt(v.VersionID, 10, 64)
	return n
}

// webOrigin is scheme://host[:port] of an http(s) URL, "" for others.
func webOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// ServiceWorkers lists the service worker registrations of the origin of
// the tab's top document, by scope.
func ServiceWorkers(ctx context.Context, p *Page) ([]ServiceWorker, error) {
	d, err := openSW(ctx, p)
	if err != nil {
		return nil, err
	}
	defer d.close(ctx)
	return d.list(), nil
}

// pick returns the registrations scope names: all when it is "", else
// the one whose scope URL it is or, as a path, resolves to.
func (d *swDomain) pick(scope string) ([]ServiceWorker, error) {
	all := d.list()
	if scope == "" {
		return all, nil
	}
	want := scope
	if strings.HasPrefix(scope, "/") && d.origin != "" {
		want = d.origin + scope
	}
	var scopes []string
	for _, sw := range all {
		if sw.Scope == want {
			return []ServiceWorker{sw}, nil
		}
		scopes = append(scopes, sw.Scope)
	}
	reason := "this page's origin has no service worker registration"
	if len(scopes) > 0 {
		reason = "no service worker of this page's origin has that scope; scopes: " + strings.Join(scopes, ", ")
	}
	return nil, &invalid.Option{Field: "scope", Value: scope, Reason: reason}
}

// UnregisterServiceWorkers removes the registration with the given scope
// (a URL, or a path on the tab's origin), or every one of the tab's origin
// when scope is "". It returns the scopes removed and whether one of them
// controls the tab's page, which it goes on doing until the page is left
// or reloaded.
func UnregisterServiceWorkers(ctx context.Context, p *Page, scope string) (removed []string, controlled bool, err error) {
	d, err := openSW(ctx, p)
	if err != nil {
		return nil, false, err
	}
	defer d.close(ctx)
	sws, err := d.pick(scope)
	if err != nil {
		return nil, false, err
	}
	removed = []string{}
	for _, sw := range sws {
		if err := (proto.ServiceWorkerUnregister{ScopeURL: sw.Scope}).Do(ctx, p.S); err != nil {
			return removed, controlled, fmt.Errorf("page: unregister %s: %w", sw.Scope, err)
		}
		removed = append(removed, sw.Scope)
		controlled = controlled || sw.Controlling
	}
	return removed, controlled, nil
}

// ServiceWorkerError is a registration that could not be updated: its
// script could not be fetched (offline, a 404), or it threw.
type ServiceWorkerError struct {
	Scope, Reason string
}

func (e *ServiceWorkerError) Error() string {
	return fmt.Sprintf("service worker %s could not update: %s", e.Scope, e.Reason)
}

// UpdateServiceWorkers has the registration with the given scope (or every
// one of the tab's origin, when scope is "") check its script for a new
// version, as a page's registration.update() does, and returns the scopes
// checked once every check is done. A new version found is installing
// then: the next listing shows it as NewVersion, or, with none active, as
// the registration's status.
func UpdateServiceWorkers(ctx context.Context, p *Page, scope string) ([]string, error) {
	d, err := openSW(ctx, p)
	if err != nil {
		return nil, err
	}
	defer d.close(ctx)
	sws, err := d.pick(scope)
	if err != nil {
		return nil, err
	}
	scopes := []string{}
	for _, sw := range sws {
		scopes = append(scopes, sw.Scope)
	}
	if len(scopes) == 0 {
		return scopes, nil
	}
	var res []struct {
		Scope string `json:"scope"`
		Error string `json:"error"`
	}
	if err := p.Top().CallJS(ctx, swUpdateJS, &res, scopes); err != nil {
		return nil, err
	}
	for _, r := range res {
		if r.Error != "" {
			return scopes, &ServiceWorkerError{Scope: r.Scope, Reason: r.Error}
		}
	}
	return scopes, nil
}
