package runner

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/cdpskill/cdpskill/dom"
)

// inputSteps drive the keyboard and the mouse beyond click and fill.
var inputSteps = []step{
	define("type", `"text" (focused element) | {selector|ref, text, delay, force, timeout}`,
		"key by key, for fields that react to each key", needsTab|visual|hooks|field, decodeType, runType).out(`{typed, length}`).did("Typed").
		also(`{"type":"…"}`, "typeText", "insertText", "sendKeys"),
	define("press", `"Enter" | "Control+a" | "Meta+Shift+Enter" | {key, selector|ref, force, timeout}`,
		"a key or combination", needsTab|visual|hooks, decodePress, runPress).out(`{pressed}`).did("Pressed").
		also(`{"press":"…"}`, "pressKey", "keyPress", "key", "hotkey"),
	define("hover", `"selector" | "s1e4" | {selector|ref, duration, captureResult, force, timeout}`,
		"captureResult lists menus and tooltips that appeared", needsTab|visual|hooks, decodeHover, runHover).out(`{hovered, capturedResult?: {visibleElements}}`).did("Hovered").
		also(`{"hover":"…"}`, "mouseOver", "mouseEnter", "hoverOver"),
	define("drag", `{source, target, method: auto|mouse|html5, steps, delay, timeout}; source/target: "selector" | "s1e4" | {selector|ref|x,y, offsetX, offsetY}`,
		"between elements or points; sets range inputs", needsTab|visual|hooks, decodeDrag, runDrag).out(`{dragged, method, source, target, value?}`).did("Dragged").
		also(`{"drag":{"source":"…","target":"#drop"}}`, "dragAndDrop", "dragDrop", "dragTo"),
	define("scroll", `"top" | "bottom" | "up" | "down" | "selector" | "s1e4" | {selector|ref | to | deltaX,deltaY | x,y}`,
		"the page (or its scroller), or an element into view", needsTab|visual|hooks, decodeScroll, runScroll).out(`{scrollX, scrollY, element?}`).did("Scrolled").
		also(`{"scroll":"…"}`, "scrollTo", "scrollIntoView", "scrollIntoViewIfNeeded", "scrollToElement").
		also(`{"scroll":"down"}`, "scrollDown", "pageDown").
		also(`{"scroll":"up"}`, "scrollUp", "pageUp").
		also(`{"scroll":"bottom"}`, "scrollToBottom").
		also(`{"scroll":"top"}`, "scrollToTop").
		also(`{"scroll":{"deltaY":500}}`, "scrollBy", "mouseWheel", "wheel"),
	define("selectOption", `{selector|ref, value|label|index|values, timeout}`,
		"values replaces a multi-select's selection", needsTab|visual|hooks|field, decodeSelectOption, runSelectOption).out(`{selected: [values], multiple}`).did("Selected").
		also(`{"selectOption":{"selector":"…","label":"Option"}}`, "select", "selectOptions", "chooseOption", "choose", "selectDropdown"),
	define("selectText", `"selector" | "s1e4" | {selector|ref, start, end, timeout}`,
		"all or part of a field's or element's text", needsTab|visual|hooks, decodeSelectText, runSelectText).out(`{selected, text}`).did("Selected text"),
}

// inputTarget is the selector-or-ref pair most input steps take.
type inputTarget struct {
	Selector string `json:"selector"`
	Ref      string `json:"ref"`
}

func (t inputTarget) target() string { return orStr(t.Ref, t.Selector) }

// check rejects both fields at once and, when required, neither.
func (t inputTarget) check(required bool) error {
	switch {
	case t.Selector != "" && t.Ref != "":
		return paramErrorf(`give "selector" or "ref", not both`)
	case required && t.Selector == "" && t.Ref == "":
		return paramErrorf(`give the element as "selector" or "ref"`)
	}
	return nil
}

// setInputTarget reads the string shorthand of a step that takes an element.
func setInputTarget(raw json.RawMessage, t *inputTarget, want string) error {
	if s, ok := asString(raw); ok && s != "" {
		t.Selector = s // a ref is told apart by the dom package
		return nil
	}
	return paramErrorf(`expected %s, got %s`, want, jsonKind(raw))
}

// checkNotNegative rejects negative durations and counts.
func checkNotNegative(fields map[string]int) error {
	for name, v := range fields {
		if v < 0 {
			return paramErrorf(`%q must be 0 or more, got %d`, name, v)
		}
	}
	return nil
}

// --- type

type typeParams struct {
	inputTarget
	Text    *string `json:"text"`
	Delay   int     `json:"delay"`
	Force   bool    `json:"force"`
	Timeout int     `json:"timeout"`
}

func decodeType(raw json.RawMessage) (typeParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *typeParams) error {
		if s, ok := asString(raw); ok {
			p.Text = &s // typed into the focused element
			return nil
		}
		return paramErrorf(`expected {selector|ref, text, delay} or a string to type into the focused element, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	if err := p.check(false); err != nil {
		return p, err
	}
	if p.Text == nil || *p.Text == "" {
		return p, paramErrorf(`"text" is required and must not be empty`)
	}
	return p, checkNotNegative(map[string]int{"delay": p.Delay, "timeout": p.Timeout})
}

func runType(ctx context.Context, e *env, p typeParams) (output, error) {
	res, err := dom.Type(ctx, e.page(), dom.TypeRequest{
		Target: p.target(), Text: *p.Text, Delay: ms(p.Delay), Force: p.Force, Timeout: ms(p.Timeout),
	})
	if err != nil || res.Secret || p.target() == "" { // the focused element is never seen
		e.secret(*p.Text)
	}
	return value(res, err)
}

// --- press

type pressParams struct {
	inputTarget
	Key     string `json:"key"`
	Force   bool   `json:"force"`
	Timeout int    `json:"timeout"`
}

func decodePress(raw json.RawMessage) (pressParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *pressParams) error {
		if s, ok := asString(raw); ok {
			p.Key = s
			return nil
		}
		return paramErrorf(`expected a key such as "Enter" or "Control+a", or {key, selector|ref}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	if err := p.check(false); err != nil {
		return p, err
	}
	// An unknown name is the executor's warning; a malformed one is
	// refused here.
	var uk *dom.UnknownKeyError
	if _, err := dom.ParseKeystroke(p.Key); err != nil && !errors.As(err, &uk) {
		return p, paramErrorf("%v", err)
	}
	return p, checkNotNegative(map[string]int{"timeout": p.Timeout})
}

func runPress(ctx context.Context, e *env, p pressParams) (output, error) {
	res, err := dom.Press(ctx, e.page(), dom.PressRequest{Key: p.Key, Target: p.target(), Force: p.Force, Timeout: ms(p.Timeout)})
	if res == nil {
		return output{}, err
	}
	out := output{warning: res.Warning}
	if res.Pressed != "" { // an unknown key: nothing was pressed, the warning says why
		out.value = res
	}
	return out, err
}

// --- hover

type hoverParams struct {
	inputTarget
	Duration      int  `json:"duration"`
	CaptureResult bool `json:"captureResult"`
	Force         bool `json:"force"`
	Timeout       int  `json:"timeout"`
}

func decodeHover(raw json.RawMessage) (hoverParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *hoverParams) error {
		return setInputTarget(raw, &p.inputTarget, `a CSS selector, a ref such as "s1e4", or {selector|ref, duration, captureResult}`)
	})
	if err != nil {
		return p, err
	}
	if err := p.check(true); err != nil {
		return p, err
	}
	return p, checkNotNegative(map[string]int{"duration": p.Duration, "timeout": p.Timeout})
}

func runHover(ctx context.Context, e *env, p hoverParams) (output, error) {
	return value(dom.Hover(ctx, e.page(), dom.HoverRequest{
		Target: p.target(), Duration: ms(p.Duration), CaptureResult: p.CaptureResult, Force: p.Force, Timeout: ms(p.Timeout),
	}))
}

// --- drag

type dragParams struct {
	Source  json.RawMessage `json:"source"`
	Target  json.RawMessage `json:"target"`
	Method  string          `json:"method"`
	Steps   int             `json:"steps"`
	Delay   int             `json:"delay"`
	Timeout int             `json:"timeout"`

	from, to dom.DragEndpoint
}

type dragEndpointParams struct {
	inputTarget
	X       *float64 `json:"x"`
	Y       *float64 `json:"y"`
	OffsetX float64  `json:"offsetX"`
	OffsetY float64  `json:"offsetY"`
}

func decodeDrag(raw json.RawMessage) (dragParams, error) {
	p, err := decodeInto[dragParams](raw, nil)
	if err != nil {
		return p, err
	}
	if p.from, err = decodeEndpoint("source", p.Source); err != nil {
		return p, err
	}
	if p.to, err = decodeEndpoint("target", p.Target); err != nil {
		return p, err
	}
	switch p.Method {
	case "", dom.DragAuto, dom.DragMouse, dom.DragHTML5:
	default:
		return p, paramErrorf(`"method" must be auto, mouse or html5, got %q`, p.Method)
	}
	if p.Steps > 1000 {
		return p, paramErrorf(`"steps" must be at most 1000, got %d`, p.Steps)
	}
	return p, checkNotNegative(map[string]int{"steps": p.Steps, "delay": p.Delay, "timeout": p.Timeout})
}

// decodeEndpoint reads a drag endpoint: a selector or ref string, or
// {selector|ref|x,y, offsetX, offsetY}.
func decodeEndpoint(name string, raw json.RawMessage) (dom.DragEndpoint, error) {
	if len(raw) == 0 {
		return dom.DragEndpoint{}, paramErrorf(`%q is required: a selector, a ref, or {x, y}`, name)
	}
	e, err := decodeInto(raw, func(raw json.RawMessage, e *dragEndpointParams) error {
		return setInputTarget(raw, &e.inputTarget, `a CSS selector, a ref, {selector|ref, offsetX, offsetY} or {x, y}`)
	})
	if err != nil {
		return dom.DragEndpoint{}, paramErrorf("%q: %v", name, err)
	}
	if err := e.check(false); err != nil {
		return dom.DragEndpoint{}, paramErrorf("%q: %v", name, err)
	}
	hasXY := e.X != nil || e.Y != nil
	switch {
	case hasXY && (e.X == nil || e.Y == nil):
		return dom.DragEndpoint{}, paramErrorf(`%q: give both "x" and "y"`, name)
	case hasXY && e.target() != "":
		return dom.DragEndpoint{}, paramErrorf(`%q: give an element or x and y, not both`, name)
	case !hasXY && e.target() == "":
		return dom.DragEndpoint{}, paramErrorf(`%q: give a selector, a ref, or x and y`, name)
	}
	return dom.DragEndpoint{Target: e.target(), X: e.X, Y: e.Y, OffsetX: e.OffsetX, OffsetY: e.OffsetY}, nil
}

func runDrag(ctx context.Context, e *env, p dragParams) (output, error) {
	return value(dom.Drag(ctx, e.page(), dom.DragRequest{
		Source: p.from, Target: p.to, Method: p.Method, Steps: p.Steps, Delay: ms(p.Delay), Timeout: ms(p.Timeout),
	}))
}

// --- scroll

type scrollParams struct {
	inputTarget
	To      string   `json:"to"`
	DeltaX  *float64 `json:"deltaX"`
	DeltaY  *float64 `json:"deltaY"`
	X       *float64 `json:"x"`
	Y       *float64 `json:"y"`
	Timeout int      `json:"timeout"`
}

var scrollDirections = []string{"top", "bottom", "up", "down"}

func decodeScroll(raw json.RawMessage) (scrollParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *scrollParams) error {
		s, ok := asString(raw)
		switch {
		case !ok || s == "":
			return paramErrorf(`expected "top", "bottom", "up", "down", a selector, a ref, or {deltaY} / {x, y}, got %s`, jsonKind(raw))
		case slices.Contains(scrollDirections, s):
			p.To = s
		default:
			p.Selector = s
		}
		return nil
	})
	if err != nil {
		return p, err
	}
	if err := p.check(false); err != nil {
		return p, err
	}
	if p.To != "" && !slices.Contains(scrollDirections, p.To) {
		return p, paramErrorf(`"to" must be top, bottom, up or down, got %q`, p.To)
	}
	forms := 0
	for _, given := range []bool{p.target() != "", p.To != "", p.DeltaX != nil || p.DeltaY != nil, p.X != nil || p.Y != nil} {
		if given {
			forms++
		}
	}
	if forms != 1 {
		return p, paramErrorf(`give one of: a selector or ref, "to", "deltaX"/"deltaY", or "x"/"y"`)
	}
	return p, checkNotNegative(map[string]int{"timeout": p.Timeout})
}

func runScroll(ctx context.Context, e *env, p scrollParams) (output, error) {
	req := dom.ScrollRequest{To: p.To, Target: p.target(), X: p.X, Y: p.Y, Timeout: ms(p.Timeout)}
	if p.DeltaX != nil {
		req.DeltaX = *p.DeltaX
	}
	if p.DeltaY != nil {
		req.DeltaY = *p.DeltaY
	}
	return value(dom.Scroll(ctx, e.page(), req))
}

// --- selectOption

type selectOptionParams struct {
	inputTarget
	Value   *string  `json:"value"`
	Label   *string  `json:"label"`
	Index   *int     `json:"index"`
	Values  []string `json:"values"`
	Timeout int      `json:"timeout"`
}

func decodeSelectOption(raw json.RawMessage) (selectOptionParams, error) {
	p, err := decodeInto[selectOptionParams](raw, nil)
	if err != nil {
		return p, err
	}
	if err := p.check(true); err != nil {
		return p, err
	}
	n := 0
	for _, given := range []bool{p.Value != nil, p.Label != nil, p.Index != nil, p.Values != nil} {
		if given {
			n++
		}
	}
	switch {
	case n != 1:
		return p, paramErrorf(`give exactly one of "value", "label", "index" or "values"`)
	case p.Index != nil && *p.Index < 0:
		return p, paramErrorf(`"index" must be 0 or more, got %d`, *p.Index)
	case p.Values != nil && len(p.Values) == 0:
		return p, paramErrorf(`"values" is empty: list the options to select`)
	}
	return p, checkNotNegative(map[string]int{"timeout": p.Timeout})
}

func runSelectOption(ctx context.Context, e *env, p selectOptionParams) (output, error) {
	return value(dom.SelectOption(ctx, e.page(), dom.SelectOptionRequest{
		Target: p.target(), Value: p.Value, Label: p.Label, Index: p.Index, Values: p.Values, Timeout: ms(p.Timeout),
	}))
}

// --- selectText

type selectTextParams struct {
	inputTarget
	Start   *int `json:"start"`
	End     *int `json:"end"`
	Timeout int  `json:"timeout"`
}

func decodeSelectText(raw json.RawMessage) (selectTextParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *selectTextParams) error {
		return setInputTarget(raw, &p.inputTarget, `a CSS selector, a ref, or {selector|ref, start, end}`)
	})
	if err != nil {
		return p, err
	}
	if err := p.check(true); err != nil {
		return p, err
	}
	switch {
	case p.End != nil && p.Start == nil:
		return p, paramErrorf(`give "start" with "end"`)
	case p.Start != nil && *p.Start < 0:
		return p, paramErrorf(`"start" must be 0 or more, got %d`, *p.Start)
	case p.Start != nil && p.End != nil && *p.End < *p.Start:
		return p, paramErrorf(`"end" (%d) is before "start" (%d)`, *p.End, *p.Start)
	}
	return p, checkNotNegative(map[string]int{"timeout": p.Timeout})
}

func runSelectText(ctx context.Context, e *env, p selectTextParams) (output, error) {
	return value(dom.SelectText(ctx, e.page(), dom.SelectTextRequest{Target: p.target(), Start: p.Start, End: p.End, Timeout: ms(p.Timeout)}))
}
