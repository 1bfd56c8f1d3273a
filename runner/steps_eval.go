package runner

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

// evalSteps run the agent's JavaScript in the page.
var evalSteps = []step{
	define("pageFunction", `"() => expr" | "expression" | {fn|expression, refs, await, serialize, timeout}`,
		"run JavaScript in the page and return its typed value", needsTab, decodePageFunction, runPageFunction),
	define("poll", `"() => expr" | {fn, interval, timeout}`,
		"re-run a predicate until it is truthy", needsTab, decodePoll, runPoll),
}

// --- pageFunction

type pageFunctionParams struct {
	Fn         string `json:"fn"`
	Expression string `json:"expression"`
	Refs       bool   `json:"refs"`
	Await      *bool  `json:"await"`
	Serialize  *bool  `json:"serialize"`
	Timeout    int    `json:"timeout"`
}

func decodePageFunction(raw json.RawMessage) (pageFunctionParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *pageFunctionParams) error {
		if s, ok := asString(raw); ok {
			p.Fn = s
			return nil
		}
		return paramErrorf(`expected JavaScript source or {fn, refs, timeout}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	if p.Fn != "" && p.Expression != "" {
		return p, paramErrorf(`give "fn" or "expression", not both`)
	}
	if p.Fn == "" {
		p.Fn = p.Expression
	}
	if strings.TrimSpace(p.Fn) == "" {
		return p, paramErrorf(`the JavaScript source is empty`)
	}
	if p.Timeout < 0 {
		return p, paramErrorf(`"timeout" must be a positive number of milliseconds`)
	}
	return p, nil
}

func runPageFunction(ctx context.Context, c *Call, p pageFunctionParams) (any, error) {
	return page.PageFunction(ctx, c.page, page.FuncRequest{
		Source: p.Fn, Refs: p.Refs, Await: p.Await, Serialize: p.Serialize,
		Timeout: time.Duration(p.Timeout) * time.Millisecond,
	})
}

// --- poll

type pollParams struct {
	Fn       string `json:"fn"`
	Interval int    `json:"interval"`
	Timeout  int    `json:"timeout"`
}

func decodePoll(raw json.RawMessage) (pollParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *pollParams) error {
		if s, ok := asString(raw); ok {
			p.Fn = s
			return nil
		}
		return paramErrorf(`expected a predicate such as "() => document.querySelector('.done')" or {fn, interval, timeout}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	switch {
	case strings.TrimSpace(p.Fn) == "":
		return p, paramErrorf(`"fn" is required`)
	case p.Interval < 0:
		return p, paramErrorf(`"interval" must be a positive number of milliseconds`)
	case p.Timeout < 0:
		return p, paramErrorf(`"timeout" must be a positive number of milliseconds`)
	}
	return p, nil
}

func runPoll(ctx context.Context, c *Call, p pollParams) (any, error) {
	return page.Poll(ctx, c.page, page.PollRequest{
		Source:   p.Fn,
		Interval: time.Duration(p.Interval) * time.Millisecond,
		Timeout:  time.Duration(p.Timeout) * time.Millisecond,
	})
}
