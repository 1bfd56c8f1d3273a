package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/suggest"
)

// interactSteps act on elements.
var interactSteps = []step{
	define("click", `"selector" | "s1e4" | {selector|ref|text (+exact, withinSelector)|selectors: […]|x,y, force, button, clickCount, doubleClick, jsClick, nativeOnly, timeout, waitAfter: true|{timeout, stable}, scrollUntilVisible: true|{direction, distance, maxAttempts}, searchFrames, stable: true|frames}`,
		"once actionable; reports navigation and new tabs", needsTab|visual|hooks|rendered|browserWide|holdsTabs, decodeClick, runClick).out(`{clicked, method, targetReceived?, newTabs?, scrolled?}`).did("Clicked").
		also(`{"click":{"selector":"…","doubleClick":true}}`, "dblclick", "doubleClick").
		also(`{"click":{"selector":"…","button":"right"}}`, "rightClick", "contextClick").
		also(`{"click":"…"}`, "tap", "clickElement", "clickOn", "mouseClick"),
	define("fill", `{selector|ref|label, value, clear, react, exact, force, timeout} | {"#a": "x", "s1e4": "y", "Plan": "Team", "Terms": true} | {fields: {…}, react, clear, force, timeout} | "text" (focused field)`,
		"text, a select's option (label or value), a checkbox (true/false); several at once", needsTab|visual|hooks|field|rendered, decodeFill, runFill).out(`{filled, method, appended?, value?} | {total, filled, failed, results: [{field, filled, value?, error?}]}`).did("Filled").
		also(`{"fill":{"selector":"…","value":"text"}}`, "setValue", "fillField", "enterText").
		also(`{"fill":{"Email":"a@b.c","Plan":"Team","I agree":true}}`, "fillForm").
		also(`{"fill":{"selector":"…","value":""}}`, "clear", "clearField", "clearInput").
		also(`{"fill":{"selector":"…","value":true}}`, "check").
		also(`{"fill":{"selector":"…","value":false}}`, "uncheck"),
}

// --- click

type clickParams struct {
	Selector           string          `json:"selector"`
	Ref                string          `json:"ref"`
	Text               string          `json:"text"`
	Exact              bool            `json:"exact"`
	WithinSelector     string          `json:"withinSelector"`
	Selectors          []string        `json:"selectors"`
	X                  *float64        `json:"x"`
	Y                  *float64        `json:"y"`
	Force              bool            `json:"force"`
	Button             string          `json:"button"`
	ClickCount         int             `json:"clickCount"`
	DoubleClick        bool            `json:"doubleClick"`
	JSClick            bool            `json:"jsClick"`
	NativeOnly         bool            `json:"nativeOnly"`
	Timeout            int             `json:"timeout"`
	WaitAfter          json.RawMessage `json:"waitAfter"`
	ScrollUntilVisible json.RawMessage `json:"scrollUntilVisible"`
	SearchFrames       bool            `json:"searchFrames"`
	Stable             json.RawMessage `json:"stable"`

	settle *dom.Settle
	stable int
	scroll *dom.ScrollSearch
}

func decodeClick(raw json.RawMessage) (clickParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *clickParams) error {
		if s, ok := asString(raw); ok && s != "" {
			p.Selector = s
			return nil
		}
		return paramErrorf(`expected a CSS selector, a ref such as "s1e4", or {selector|ref|text|selectors|x,y, ...}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	if err := p.checkTarget(); err != nil {
		return p, err
	}
	switch p.Button {
	case "", "left", "right", "middle":
	default:
		return p, paramErrorf(`"button" must be left, right or middle, got %q`, p.Button)
	}
	switch {
	case p.JSClick && p.NativeOnly:
		return p, paramErrorf(`"jsClick" and "nativeOnly" contradict each other`)
	case p.Timeout < 0 || p.ClickCount < 0:
		return p, paramErrorf(`"timeout" and "clickCount" must be positive`)
	}
	if p.settle, err = decodeWaitAfter(p.WaitAfter); err != nil {
		return p, err
	}
	if p.scroll, err = decodeScrollUntilVisible(p.ScrollUntilVisible); err != nil {
		return p, err
	}
	if p.stable, err = decodeStable(p.Stable); err != nil {
		return p, err
	}
	if p.scroll != nil && p.Selector == "" && p.Ref == "" && p.Text == "" && len(p.Selectors) == 0 {
		return p, paramErrorf(`"scrollUntilVisible" needs an element to look for (selector, ref, text or selectors), not coordinates`)
	}
	return p, nil
}

// method is the click method jsClick or nativeOnly asks for.
func (p clickParams) method() dom.ClickMethod {
	switch {
	case p.JSClick:
		return dom.ClickJS
	case p.NativeOnly:
		return dom.ClickNative
	}
	return dom.ClickAuto
}

// clickCount is clickCount, or 2 for doubleClick.
func (p clickParams) clickCount() int {
	if p.DoubleClick {
		return 2
	}
	return p.ClickCount
}

// defaultStableFrames is stable: true's frame count (SPEC 8.6).
const defaultStableFrames = 3

// decodeStable reads stable: true (3 frames), false, or a frame count.
func decodeStable(raw json.RawMessage) (int, error) {
	if len(raw) == 0 {
		return 0, nil
	}
	if b, ok := asBool(raw); ok {
		if b {
			return defaultStableFrames, nil
		}
		return 0, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil || n < 1 || n > 60 {
		return 0, paramErrorf(`"stable" must be true or a number of animation frames from 1 to 60, got %s`, raw)
	}
	return n, nil
}

// checkTarget requires exactly one way of naming the element (x and y
// alone are a point; beside a target they are an offset in it).
func (p *clickParams) checkTarget() error {
	var named []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"selector", p.Selector != ""}, {"ref", p.Ref != ""}, {"text", p.Text != ""}, {"selectors", p.Selectors != nil}} {
		if f.set {
			named = append(named, `"`+f.name+`"`)
		}
	}
	switch {
	case len(named) > 1:
		return paramErrorf("give one of selector, ref, text or selectors, not %s", strings.Join(named, " and "))
	case (p.X == nil) != (p.Y == nil):
		return paramErrorf(`give both "x" and "y"`)
	case len(named) == 0 && p.X == nil:
		return paramErrorf(`say what to click: a selector, a ref, text, selectors, or x and y`)
	case p.Ref != "" && !dom.IsRef(p.Ref):
		return paramErrorf(`"ref" must look like s1e4 (from a snapshot), got %q; use "selector" for CSS`, p.Ref)
	case (p.Exact || p.WithinSelector != "") && p.Text == "":
		return paramErrorf(`"exact" and "withinSelector" go with "text"`)
	case p.Selectors != nil && len(p.Selectors) == 0:
		return paramErrorf(`"selectors" is empty: list the CSS selectors to try in order`)
	}
	for i, s := range p.Selectors {
		if strings.TrimSpace(s) == "" {
			return paramErrorf(`"selectors"[%d] is empty`, i)
		}
	}
	return nil
}

type settleParams struct {
	Timeout int `json:"timeout"`
	Stable  int `json:"stable"`
}

// decodeWaitAfter reads waitAfter: true, false, or {timeout, stable} in ms.
func decodeWaitAfter(raw json.RawMessage) (*dom.Settle, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	if b, ok := asBool(raw); ok {
		if !b {
			return nil, nil
		}
		return &dom.Settle{}, nil
	}
	var sp settleParams
	if err := decodeStrict(raw, &sp); err != nil {
		return nil, paramErrorf(`"waitAfter" must be true or {timeout, stable}: %v`, err)
	}
	if sp.Timeout < 0 || sp.Stable < 0 {
		return nil, paramErrorf(`"waitAfter" timeout and stable must be positive`)
	}
	return &dom.Settle{Timeout: ms(sp.Timeout), Stable: ms(sp.Stable)}, nil
}

type scrollSearchParams struct {
	Direction   string  `json:"direction"`
	Distance    float64 `json:"distance"`
	MaxAttempts int     `json:"maxAttempts"`
}

// decodeScrollUntilVisible reads true, false or {direction, distance,
// maxAttempts}.
func decodeScrollUntilVisible(raw json.RawMessage) (*dom.ScrollSearch, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	if b, ok := asBool(raw); ok {
		if !b {
			return nil, nil
		}
		return &dom.ScrollSearch{}, nil
	}
	var sp scrollSearchParams
	if err := decodeStrict(raw, &sp); err != nil {
		return nil, paramErrorf(`"scrollUntilVisible" must be true or {direction, distance, maxAttempts}: %v`, err)
	}
	s := dom.ScrollSearch(sp)
	if err := dom.CheckScrollSearch(s); err != nil {
		return nil, paramErrorf(`"scrollUntilVisible": %v`, err)
	}
	return &s, nil
}

// clickOutput is dom's result with the new tabs as the aliases they were
// registered under.
type clickOutput struct {
	*dom.ClickResult
	NewTabs []tabOutput `json:"newTabs,omitempty"`
}

func runClick(ctx context.Context, e *env, p clickParams) (output, error) {
	res, err := dom.Click(ctx, e.page(), dom.ClickRequest{
		Target: orStr(p.Ref, p.Selector), Text: p.Text, Exact: p.Exact, Within: p.WithinSelector,
		Selectors: p.Selectors, X: p.X, Y: p.Y, Force: p.Force,
		Button: p.Button, ClickCount: p.clickCount(), Method: p.method(), Timeout: ms(p.Timeout),
		ScrollUntilVisible: p.scroll, WaitAfter: p.settle, SearchFrames: p.SearchFrames, Stable: p.stable,
		NoGrace: true, // the settle after the step watches for what follows
		Acted:   e.acted,
	})
	if err != nil {
		return output{}, err
	}
	out := &clickOutput{ClickResult: res}
	for _, t := range res.NewTabs {
		alias, err := e.tabs.registry().Register(t.TargetID, e.tabs.connection().Endpoint)
		if err != nil {
			e.warn("tab registry: the click opened tab %s but it could not be given an alias: %v", t.TargetID, err)
			continue
		}
		out.NewTabs = append(out.NewTabs, tabOutput{Tab: alias, URL: t.URL, Title: t.Title})
	}
	return output{value: out, warning: res.Warning}, nil
}

// --- fill

type fillParams struct {
	Selector string            `json:"selector"`
	Ref      string            `json:"ref"`
	Label    string            `json:"label"`
	Exact    bool              `json:"exact"`
	Value    *fillValue        `json:"value"`
	Fields   *orderedStringMap `json:"fields"`
	Clear    *bool             `json:"clear"`
	React    bool              `json:"react"`
	Force    bool              `json:"force"`
	Timeout  int               `json:"timeout"`
}

// fillKeys are fillParams' keys: an object with none of them is a batch
// map of selectors or refs to values.
var fillKeys = jsonFields(reflect.TypeOf(fillParams{}))

func decodeFill(raw json.RawMessage) (fillParams, error) {
	var p fillParams
	if s, ok := asString(raw); ok {
		v := fillValue(s) // fill the focused element
		p.Value = &v
		return p, nil
	}
	if !isObject(raw) {
		return p, paramErrorf(`expected {selector|ref|label, value}, a map of selectors to values, or a string for the focused field, got %s`, jsonKind(raw))
	}
	batch, err := isBatchMap(raw)
	if err != nil {
		return p, err
	}
	if batch {
		p.Fields = &orderedStringMap{}
		if err := json.Unmarshal(raw, p.Fields); err != nil {
			return p, paramErrorf("a batch fill maps selectors, refs or labels to values: %v", err)
		}
		return p, p.Fields.check()
	}
	if err := decodeStrict(raw, &p); err != nil {
		return p, err
	}
	return p, p.check()
}

func (p *fillParams) check() error {
	n := 0
	for _, s := range []string{p.Selector, p.Ref, p.Label} {
		if s != "" {
			n++
		}
	}
	switch {
	case p.Fields != nil && (n > 0 || p.Value != nil || p.Exact):
		return paramErrorf(`"fields" fills several fields: give it alone, with react, clear, force or timeout`)
	case p.Fields != nil:
		return p.Fields.check()
	case n > 1:
		return paramErrorf(`give one of "selector", "ref" or "label"`)
	case p.Value == nil:
		return paramErrorf(`"value" is required ("" clears the field)`)
	case p.Ref != "" && !dom.IsRef(p.Ref):
		return paramErrorf(`"ref" must look like s1e4 (from a snapshot), got %q; use "selector" for CSS`, p.Ref)
	case p.Exact && p.Label == "":
		return paramErrorf(`"exact" goes with "label"`)
	case p.Timeout < 0:
		return paramErrorf(`"timeout" must be positive`)
	}
	return nil
}

// isBatchMap tells the batch form {"#a": "x"} from the object form. A key
// that is no fill parameter but looks like a misspelt one ("vaule") is
// reported as such rather than filled as a selector that matches nothing.
func isBatchMap(raw json.RawMessage) (bool, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return false, paramErrorf("%v", err)
	}
	if len(keys) == 0 {
		return false, paramErrorf(`empty fill: give {selector|ref|label, value} or {"#field": "value", ...}`)
	}
	var options, targets []string
	for k := range keys {
		if slices.Contains(fillKeys, k) {
			options = append(options, k)
		} else if looksLikeTarget(k) {
			targets = append(targets, k)
		}
	}
	if len(options) > 0 && len(targets) > 0 && !slices.Contains(options, "fields") {
		sort.Strings(targets)
		sort.Strings(options)
		return false, paramErrorf(`%q looks like a field to fill: with options, put the fields in "fields", e.g. {"fields": {%q: "…"}, %q: …}`, targets[0], targets[0], options[0])
	}
	if len(options) > 0 {
		return false, nil
	}
	for k := range keys {
		if s := suggest.Nearest(k, fillKeys); s != "" && !looksLikeTarget(k) {
			return false, paramErrorf(`unknown parameter %q; did you mean %q? (a batch fill maps CSS selectors or refs to values)`, k, s)
		}
	}
	return true, nil
}

// looksLikeTarget: a ref, or a selector with CSS punctuation or a field's
// tag name.
func looksLikeTarget(k string) bool {
	return dom.IsRef(k) || strings.ContainsAny(k, "#.[]:> ") || k == "input" || k == "textarea"
}

// fillValue is what a field is filled with: text, a number, or true or
// false for a checkbox.
type fillValue string

func (v *fillValue) UnmarshalJSON(data []byte) error {
	var s string
	if json.Unmarshal(data, &s) == nil {
		*v = fillValue(s)
		return nil
	}
	var b bool
	var n json.Number
	switch {
	case json.Unmarshal(data, &b) == nil:
		*v = fillValue(strconv.FormatBool(b))
	case json.Unmarshal(data, &n) == nil:
		*v = fillValue(n.String())
	default:
		return errors.New("the value must be text, a number, or true or false (a checkbox)")
	}
	return nil
}

// orderedStringMap is a JSON object of values that keeps its key order,
// so a batch fills its fields in the order the agent wrote them.
type orderedStringMap struct {
	keys   []string
	values map[string]string
}

func (m *orderedStringMap) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return errors.New("expected an object")
	}
	m.values = map[string]string{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		var v fillValue
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("%q: %v", key, err)
		}
		if _, dup := m.values[key]; !dup {
			m.keys = append(m.keys, key)
		}
		m.values[key] = string(v)
	}
	_, err := dec.Token()
	return err
}

func (m *orderedStringMap) check() error {
	if len(m.keys) == 0 {
		return paramErrorf(`"fields" is empty: map CSS selectors or refs to values`)
	}
	for _, k := range m.keys {
		if strings.TrimSpace(k) == "" {
			return paramErrorf("a batch fill has an empty selector")
		}
	}
	return nil
}

func (m *orderedStringMap) fields() []dom.Field {
	out := make([]dom.Field, len(m.keys))
	for i, k := range m.keys {
		out[i] = dom.Field{Target: k, Value: m.values[k]}
	}
	return out
}

func runFill(ctx context.Context, e *env, p fillParams) (output, error) {
	if p.Fields != nil {
		res, err := dom.FillBatch(ctx, e.page(), dom.FillBatchRequest{
			Fields: p.Fields.fields(), Clear: p.Clear, React: p.React, Force: p.Force, Timeout: ms(p.Timeout),
		})
		for i, f := range p.Fields.fields() {
			if res == nil || i >= len(res.Results) || res.Results[i].Secret || !res.Results[i].Filled {
				e.secret(f.Value)
			}
		}
		return value(res, err) // a partial batch says which fields took
	}
	res, err := dom.Fill(ctx, e.page(), dom.FillRequest{
		Target: orStr(p.Ref, p.Selector), Label: p.Label, Exact: p.Exact, Value: string(*p.Value),
		Clear: p.Clear, React: p.React, Force: p.Force, Timeout: ms(p.Timeout),
	})
	if err != nil || res.Secret {
		e.secret(string(*p.Value))
	}
	return value(res, err)
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }
