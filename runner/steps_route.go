package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/route"
	"github.com/cdpskill/cdpskill/tab"
)

// routeSteps put the tab's requests under the agent's control: a route
// holds, across calls, until unroute.
var routeSteps = []step{
	define("route", `{url: "*/api/items*"|"/regex/", method, type, status, body: "text"|{json}, headers, abort: "failed"|"timedout"|…, delay (ms), modify: {status, headers, body}, times}`,
		"newest wins; holds across calls",
		needsTab, decodeRoute, runRoute).out(`{id, replaced?}`).
		also(`{"route":{"url":"*/api/items*","status":500}}`, "mock", "mockRequest", "mockResponse", "intercept", "fulfill", "abortRequest", "blockRequest"),
	define("unroute", `"url" | true`,
		"true: all",
		needsTab, decodeUnroute, runUnroute).out(`{removed: [{url, hits}]}`),
}

type routeParams struct {
	URL     string            `json:"url"`
	Method  string            `json:"method"`
	Type    string            `json:"type"`
	Status  int               `json:"status"`
	Body    json.RawMessage   `json:"body"`
	Headers map[string]string `json:"headers"`
	Abort   string            `json:"abort"`
	Delay   int               `json:"delay"`
	Modify  *struct {
		Status  int               `json:"status"`
		Headers map[string]string `json:"headers"`
		Body    json.RawMessage   `json:"body"`
	} `json:"modify"`
	Times int `json:"times"`

	rule route.Rule
}

func decodeRoute(raw json.RawMessage) (routeParams, error) {
	p, err := decodeInto[routeParams](raw, nil)
	if err != nil {
		return p, err
	}
	r := route.Rule{URL: p.URL, Method: p.Method, Type: p.Type, Status: p.Status, Headers: p.Headers,
		Abort: p.Abort, Delay: p.Delay, Times: p.Times}
	if r.Body, err = bodyText("body", p.Body); err != nil {
		return p, err
	}
	if m := p.Modify; m != nil {
		r.Modify = &route.Modify{Status: m.Status, Headers: m.Headers}
		if r.Modify.Body, err = bodyText("modify.body", m.Body); err != nil {
			return p, err
		}
	}
	if err := r.Check(); err != nil {
		return p, err
	}
	p.rule = r
	return p, nil
}

// bodyText is a body as given: a string as it is, any other JSON value
// as its JSON (which the response then says it is).
func bodyText(field string, raw json.RawMessage) (*string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if s, ok := asString(raw); ok {
		return &s, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, &invalid.Option{Field: field, Reason: "a string, or JSON to answer with"}
	}
	data, _ := json.Marshal(v)
	s := string(data)
	return &s, nil
}

// routeOutput is what the route step says: the route's id, and that it
// took the place of one for the same requests.
type routeOutput struct {
	ID       int  `json:"id"`
	Replaced bool `json:"replaced,omitempty"`
}

func runRoute(ctx context.Context, e *env, p routeParams) (output, error) {
	f := e.tab.Routes()
	replaced := f.Add(p.rule)
	if err := e.tab.ChangeRoutes(ctx, f); err != nil {
		return output{}, fmt.Errorf("route: %w", err)
	}
	return output{value: routeOutput{ID: f.Next, Replaced: replaced != nil}}, nil
}

type unrouteParams struct {
	URL string // "" for every route
}

func decodeUnroute(raw json.RawMessage) (unrouteParams, error) {
	if s, ok := asString(raw); ok && strings.TrimSpace(s) != "" {
		return unrouteParams{URL: s}, nil
	}
	if b, ok := asBool(raw); ok && b {
		return unrouteParams{}, nil
	}
	return unrouteParams{}, paramErrorf(`give the url of the route to remove, as the route step gave it, or true for every route`)
}

type unrouteOutput struct {
	Removed []routeLine `json:"removed"`
}

func runUnroute(ctx context.Context, e *env, p unrouteParams) (output, error) {
	f := e.tab.Routes()
	hits := e.tab.RouteHits()
	gone := f.Remove(p.URL)
	out := unrouteOutput{Removed: []routeLine{}}
	for _, r := range gone {
		out.Removed = append(out.Removed, newRouteLine(r, hits))
	}
	if len(gone) == 0 {
		o := output{value: out}
		if p.URL != "" {
			o.warning = fmt.Sprintf("no route has the url %q%s", p.URL, inForce(f))
		}
		return o, nil
	}
	if err := e.tab.ChangeRoutes(ctx, f); err != nil {
		return output{}, fmt.Errorf("unroute: %w", err)
	}
	return output{value: out}, nil
}

// inForce names the routes f holds, for a message.
func inForce(f route.File) string {
	if len(f.Rules) == 0 {
		return "; the tab has no routes"
	}
	var urls []string
	for _, r := range f.Rules {
		urls = append(urls, fmt.Sprintf("%q", r.URL))
	}
	return "; the tab's routes: " + strings.Join(urls, ", ")
}

// routeLine is a route as a result lists it: what it routes and how many
// requests it answered (out of times, when bounded).
type routeLine struct {
	URL    string `json:"url"`
	Method string `json:"method,omitempty"`
	Type   string `json:"type,omitempty"`
	Hits   int    `json:"hits"`
	Times  int    `json:"times,omitempty"`
}

func newRouteLine(r route.Rule, hits route.Hits) routeLine {
	return routeLine{URL: r.URL, Method: r.Method, Type: r.Type, Hits: hits.Count[r.ID], Times: r.Times}
}

// routesInForce are the tab's routes with their hits, for the result,
// and the Network ids of the requests they answered, for its network
// report: a response the agent's own route made is never taken for the
// server's.
func routesInForce(t *tab.Tab) ([]routeLine, map[string]bool) {
	f := t.Routes()
	if len(f.Rules) == 0 {
		return nil, nil
	}
	hits := t.RouteHits()
	lines := make([]routeLine, 0, len(f.Rules))
	for _, r := range f.Rules {
		lines = append(lines, newRouteLine(r, hits))
	}
	routed := make(map[string]bool, len(hits.Routed))
	for _, r := range hits.Routed {
		routed[r.Request] = true
	}
	return lines, routed
}
