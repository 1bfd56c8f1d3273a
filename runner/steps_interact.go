package runner

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cdpskill/cdpskill/dom"
)

// interactSteps act on elements.
var interactSteps = []step{
	define("click", `"selector" | "s1e4" | {selector|ref|x,y, force, button, clickCount, doubleClick, jsClick, nativeOnly, timeout}`,
		"click an element once it is actionable", needsTab|visual, decodeClick, runClick),
	define("fill", `{selector|ref|label, value, clear, react, exact, force, timeout} | "text" (focused field)`,
		"replace a field's value", needsTab|visual, decodeFill, runFill),
}

// --- click

type clickParams struct {
	Selector    string   `json:"selector"`
	Ref         string   `json:"ref"`
	X           *float64 `json:"x"`
	Y           *float64 `json:"y"`
	Force       bool     `json:"force"`
	Button      string   `json:"button"`
	ClickCount  int      `json:"clickCount"`
	DoubleClick bool     `json:"doubleClick"`
	JSClick     bool     `json:"jsClick"`
	NativeOnly  bool     `json:"nativeOnly"`
	Timeout     int      `json:"timeout"`
}

func decodeClick(raw json.RawMessage) (clickParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *clickParams) error {
		if s, ok := asString(raw); ok && s != "" {
			p.Selector = s
			return nil
		}
		return paramErrorf(`expected a CSS selector, a ref such as "s1e4", or {selector|ref|x,y, ...}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	if p.Selector != "" && p.Ref != "" {
		return p, paramErrorf(`give "selector" or "ref", not both`)
	}
	if (p.X == nil) != (p.Y == nil) {
		return p, paramErrorf(`give both "x" and "y"`)
	}
	if p.Selector == "" && p.Ref == "" && p.X == nil {
		return p, paramErrorf(`say what to click: a selector, a ref or x and y`)
	}
	switch p.Button {
	case "", "left", "right", "middle":
	default:
		return p, paramErrorf(`"button" must be left, right or middle, got %q`, p.Button)
	}
	if p.JSClick && p.NativeOnly {
		return p, paramErrorf(`"jsClick" and "nativeOnly" contradict each other`)
	}
	if p.Timeout < 0 || p.ClickCount < 0 {
		return p, paramErrorf(`"timeout" and "clickCount" must be positive`)
	}
	return p, nil
}

func runClick(ctx context.Context, c *Call, p clickParams) (any, error) {
	return dom.Click(ctx, c.page, dom.ClickRequest{
		Target: orStr(p.Ref, p.Selector), X: p.X, Y: p.Y, Force: p.Force,
		Button: p.Button, ClickCount: p.ClickCount, DoubleClick: p.DoubleClick,
		JSClick: p.JSClick, NativeOnly: p.NativeOnly, Timeout: ms(p.Timeout),
	})
}

// --- fill

type fillParams struct {
	Selector string  `json:"selector"`
	Ref      string  `json:"ref"`
	Label    string  `json:"label"`
	Exact    bool    `json:"exact"`
	Value    *string `json:"value"`
	Clear    *bool   `json:"clear"`
	React    bool    `json:"react"`
	Force    bool    `json:"force"`
	Timeout  int     `json:"timeout"`
}

func decodeFill(raw json.RawMessage) (fillParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *fillParams) error {
		if s, ok := asString(raw); ok {
			p.Value = &s // fill the focused element
			return nil
		}
		return paramErrorf(`expected {selector|ref|label, value} or a string for the focused field, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	n := 0
	for _, s := range []string{p.Selector, p.Ref, p.Label} {
		if s != "" {
			n++
		}
	}
	switch {
	case n > 1:
		return p, paramErrorf(`give one of "selector", "ref" or "label"`)
	case p.Value == nil:
		return p, paramErrorf(`"value" is required ("" clears the field)`)
	case p.Timeout < 0:
		return p, paramErrorf(`"timeout" must be positive`)
	}
	return p, nil
}

func runFill(ctx context.Context, c *Call, p fillParams) (any, error) {
	return dom.Fill(ctx, c.page, dom.FillRequest{
		Target: orStr(p.Ref, p.Selector), Label: p.Label, Exact: p.Exact, Value: *p.Value,
		Clear: p.Clear, React: p.React, Force: p.Force, Timeout: ms(p.Timeout),
	})
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }
