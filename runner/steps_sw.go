package runner

import (
	"context"
	"encoding/json"

	"github.com/cdpskill/cdpskill/page"
)

// swSteps inspect the service workers of the tab's origin. What they log
// reaches the console step and the call's report, and offline and
// throttling reach what they fetch (tab/workers.go).
var swSteps = []step{
	define("serviceWorker", `true | {unregister: true|"scope"} | {update: true|"scope"}`,
		"the origin's workers",
		needsTab, decodeServiceWorker, runServiceWorker).out(`{registrations: [{scope, scriptURL, status, running, controlling, newVersion?}], unregistered?, updated?}`),
}

type serviceWorkerParams struct {
	Unregister json.RawMessage `json:"unregister"`
	Update     json.RawMessage `json:"update"`

	action string // "list", "unregister" or "update"
	scope  string // "" for every registration
}

func decodeServiceWorker(raw json.RawMessage) (serviceWorkerParams, error) {
	p, err := decodeInto(raw, trueOnly[serviceWorkerParams])
	if err != nil {
		return p, err
	}
	p.action = "list"
	switch {
	case len(p.Unregister) > 0 && len(p.Update) > 0:
		return p, paramErrorf(`one of "unregister" or "update" per step`)
	case len(p.Unregister) > 0:
		p.action = "unregister"
		p.scope, err = decodeScope("unregister", p.Unregister)
	case len(p.Update) > 0:
		p.action = "update"
		p.scope, err = decodeScope("update", p.Update)
	case isObject(raw):
		return p, paramErrorf(`say what to do: {"unregister": true|"scope"} or {"update": true|"scope"}; true lists them`)
	}
	return p, err
}

// decodeScope reads true (every registration) or a scope: its URL, or a
// path on the page's origin.
func decodeScope(key string, raw json.RawMessage) (string, error) {
	if b, ok := asBool(raw); ok && b {
		return "", nil
	}
	if s, ok := asString(raw); ok && s != "" {
		return s, nil
	}
	return "", paramErrorf(`%q takes true (all of the origin's service workers) or a scope such as "/app/", got %s`, key, jsonKind(raw))
}

func runServiceWorker(ctx context.Context, e *env, p serviceWorkerParams) (output, error) {
	switch p.action {
	case "unregister":
		removed, controlled, err := page.UnregisterServiceWorkers(ctx, e.page(), p.scope)
		out := output{value: map[string]any{"unregistered": removed}}
		if controlled {
			out.warning = "the page stays under the removed worker until it is reloaded or left"
		}
		return out, err
	case "update":
		updated, err := page.UpdateServiceWorkers(ctx, e.page(), p.scope)
		if err != nil {
			return output{}, err
		}
		regs, err := page.ServiceWorkers(ctx, e.page())
		out := output{value: map[string]any{"updated": updated, "registrations": orEmpty(regs)}}
		if em := e.tab.LoadEmulation(); em.Network != nil && em.Network.Offline && len(updated) > 0 {
			out.warning = "the tab is offline, yet the update check reached the network: Chrome fetches a service worker's script itself, outside the emulated network of any tab or worker"
		}
		return out, err
	}
	regs, err := page.ServiceWorkers(ctx, e.page())
	if err != nil {
		return output{}, err
	}
	return output{value: map[string]any{"registrations": orEmpty(regs)}}, nil
}

// orEmpty makes a nil list print as [], not null.
func orEmpty[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
