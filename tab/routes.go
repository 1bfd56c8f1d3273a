package tab

import (
	"context"

	"github.com/cdpskill/cdpskill/route"
)

// A tab's routes are kept between calls in its <alias>.routes.json
// (route.File), which the browser's keeper serves while no call runs,
// and the call too: the keeper's session pauses the tab's requests for
// every session. Without a keeper the call serves them itself, for as
// long as it runs.

func (t *Tab) routesPath() string { return t.opts.Files.TabFile(t.Alias, ".routes.json") }

// Routes returns the tab's rules.
func (t *Tab) Routes() route.File {
	return route.Load(t.opts.Files.Temp, t.routesPath(), t.Session.TargetID)
}

// RouteHits returns what the tab's rules have answered.
func (t *Tab) RouteHits() route.Hits {
	if t.routes != nil {
		return t.routes.Hits()
	}
	return route.LoadHits(t.opts.Files.Temp, t.routesPath(), t.Session.TargetID)
}

// ChangeRoutes stores f as the tab's rules and has them served from now
// on. Nothing of a change that could not be served is kept.
func (t *Tab) ChangeRoutes(ctx context.Context, f route.File) error {
	was := t.Routes()
	f.Target = t.Session.TargetID
	if err := f.Save(t.opts.Files.Temp, t.routesPath()); err != nil {
		return err
	}
	if err := t.serveRoutes(ctx, f.Rules); err != nil {
		_ = was.Save(t.opts.Files.Temp, t.routesPath())
		_ = t.serveRoutes(ctx, was.Rules)
		return err
	}
	return nil
}

// restoreRoutes has the tab's stored rules served for the call: by the
// keeper (one started again if it had died), else by the call.
func (t *Tab) restoreRoutes(ctx context.Context) {
	if f := t.Routes(); len(f.Rules) > 0 {
		if err := t.serveRoutes(ctx, f.Rules); err != nil {
			t.warn("the tab's routes are not in force: %v", err)
		}
	}
}

// serveRoutes asks the keeper to serve rules, and serves them itself when
// none can be had.
func (t *Tab) serveRoutes(ctx context.Context, rules []route.Rule) error {
	if t.opts.Keeper != nil && t.routes == nil {
		_, note, err := t.opts.Keeper.Hold(ctx, t.Browser.Endpoint, t.Session.TargetID)
		if note != "" {
			t.warn("%s", note)
		}
		if err == nil {
			return nil
		}
		t.warn("cdpskill's keeper could not serve the tab's routes (%v): this call serves them while it runs, and between calls the page's requests go to the network", err)
	} else if t.routes == nil && len(rules) > 0 {
		t.warn("no keeper runs in this process: the tab's routes hold while a call runs, and between calls the page's requests go to the network")
	}
	if t.routes == nil {
		if len(rules) == 0 {
			return nil
		}
		path, temp := t.routesPath(), t.opts.Files.Temp
		t.routes = route.Serve(t.Session, route.LoadHits(temp, path, t.Session.TargetID), func(h route.Hits) {
			_ = route.SaveHits(temp, path, h) // the cost of a failure is a count a later call misses
		})
	}
	return t.routes.Set(ctx, rules)
}

// stopRoutes stops the call's own serving: its session ends with it.
func (t *Tab) stopRoutes() {
	if t.routes != nil {
		t.routes.Close()
		t.routes = nil
	}
}
