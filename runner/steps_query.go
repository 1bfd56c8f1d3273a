package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/query"
)

// querySteps read the page: CSS queries, extraction, boxes, forms and
// assertions; submit and pipeline, which act, sit here because they work
// the same way (one evaluation of an embedded function).
var querySteps = []step{
	define("queryAll", `{label: "selector" | {selector, limit, output, clean, metadata} | {role, name, ...}, ...}`,
		"several queries at once", needsTab, decodeQueryAll, runQueryAll).out(`{label: query output, …}`),
	define("inspect", `true | {selectors: [...], limit}`,
		"counts of common elements and of your selectors", needsTab, decodeInspect, runInspect).out(`{title, url, elements: {tag: n}, custom?}`),
	define("extract", `"selector" | {selector, type: table|list, limit}`,
		"table or list data", needsTab, decodeExtract, runExtract).out(`{type, headers, rows, rowCount} | {type, items, itemCount}`).
		also(`{"extract":"…"}`, "extractTable", "getTable", "scrape"),
	define("getDom", `true | "selector" | {selector, outer}`,
		"HTML of the page or an element", needsTab, decodeGetDom, runGetDom).out(`{html, tagName, selector?, length}`).
		also(`{"getDom":"…"}`, "getHtml", "html", "content", "getContent", "pageSource", "outerHtml", "innerHtml"),
	define("getBox", `"s1e4" | ["s1e4", …] | {ref} | {refs}`,
		"viewport boxes of refs", needsTab, decodeGetBox, runGetBox).out(`{x, y, width, height, center} | {error, message?} | {s1e4: box or error, …}`).
		also(`{"getBox":"…"}`, "boundingBox", "getBoundingBox", "getBoundingClientRect"),
	define("elementsAt", `{x, y} | [{x, y}, …] | {x, y, radius, limit}`,
		"what is at or near a point", needsTab, decodeElementsAt, runElementsAt).out(`{ref, existing, tag, selector, clickable, role, name, box} | {count, elements} | {center, radius, count, elements}`).
		also(`{"elementsAt":{"x":100,"y":200}}`, "elementAt", "elementFromPoint", "hitTest"),
	define("formState", `"form selector" | {selector|ref}`,
		"a form's fields (passwords masked)", needsTab, decodeTargetStep("formState", "a form"), runFormState).out(`{valid, fieldCount, fields: [{name, type, label, value, valid, message?}]}`).
		also(`{"formState":"…"}`, "getFormState", "formValues", "getFormValues"),
	define("validate", `"selector" | {selector|ref}`,
		"HTML5 validity of a field or form", needsTab, decodeTargetStep("validate", "a field or form"), runValidate).out(`{valid, message?, validity?}`),
	define("submit", `"form or button selector" | {selector|ref}`,
		"submit like its button; invalid fields stop it", needsTab|visual, decodeTargetStep("submit", "a form or its submit button"), runSubmit).out(`{submitted, valid, errors?}`).did("Submitted").
		also(`{"submit":"…"}`, "submitForm"),
	define("assert", `{url: {contains|equals|startsWith|endsWith|matches}} | {text, selector, caseSensitive}`,
		"check URL or text; a failure stops the batch", needsTab, decodeAssert, runAssert).out(`{passed, assertions: [{type, expected, actual?, passed}]}`).
		also(`{"assert":{"text":"…"}}`, "expect", "verify", "assertText", "expectText", "checkText"),
	define("pipeline", `[{find, fill|click|type|check|select} | {waitFor, timeout} | {sleep} | {return}, …] | {steps, timeout}`,
		"many small DOM operations in one evaluation", needsTab|script, decodePipeline, runPipeline).out(`{completed, steps, results, failedAt?, error?}`).did("Ran pipeline"),
}

// --- query, CSS mode
//
// The query step (steps_aria.go) has two modes: CSS, decoded and run
// here, and role. isQueryCSS tells them apart.

// isQueryCSS reports whether query params are CSS mode: a string, or an
// object with a selector.
func isQueryCSS(raw json.RawMessage) bool {
	if _, ok := asString(raw); ok {
		return true
	}
	if !isObject(raw) {
		return false
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(raw, &keys) != nil {
		return false
	}
	_, ok := keys["selector"]
	return ok
}

func decodeQueryCSS(raw json.RawMessage) (query.CSSQuery, error) {
	q, err := decodeInto(raw, func(raw json.RawMessage, q *query.CSSQuery) error {
		if s, ok := asString(raw); ok {
			q.Selector = s
			return nil
		}
		return paramErrorf(`expected a CSS selector or {selector, limit, output, clean, metadata}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return q, err
	}
	if err := q.Validate(); err != nil {
		return q, paramErrorf("%v", err)
	}
	return q, nil
}

func runQueryCSS(ctx context.Context, e *env, q query.CSSQuery) (output, error) {
	return value(query.Query(ctx, e.page(), q))
}

// --- queryAll

// queryAllEntry is one labelled query, in either mode of the query step.
type queryAllEntry struct {
	label string
	query queryParams
}

func decodeQueryAll(raw json.RawMessage) ([]queryAllEntry, error) {
	labels, values, err := orderedObject(raw)
	if err != nil {
		return nil, paramErrorf(`expected {label: "selector" or {selector, ...} or {role, ...}, ...}: %v`, err)
	}
	if len(labels) == 0 {
		return nil, paramErrorf(`give at least one labelled query, e.g. {"links": "a[href]"}`)
	}
	out := make([]queryAllEntry, len(labels))
	for i, label := range labels {
		q, err := decodeQuery(values[i])
		if err != nil {
			return nil, paramErrorf("%q: %v", label, err)
		}
		out[i] = queryAllEntry{label: label, query: q}
	}
	return out, nil
}

// orderedObject splits a JSON object into its keys, in the order
// written, and their values. A repeated key is an error.
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	if !isObject(raw) {
		return nil, nil, fmt.Errorf("got %s", jsonKind(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return nil, nil, err
	}
	var keys []string
	var values []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, nil, fmt.Errorf("malformed object")
		}
		if slices.Contains(keys, key) {
			return nil, nil, fmt.Errorf("label %q appears twice", key)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, values = append(keys, key), append(values, v)
	}
	return keys, values, nil
}

// labeled is an object whose keys keep the order the agent wrote them in.
type labeled struct {
	keys   []string
	values []any
}

func (l labeled) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range l.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := Encode(k)
		if err != nil {
			return nil, err
		}
		val, err := Encode(l.values[i])
		if err != nil {
			return nil, err
		}
		b.Write(bytes.TrimSuffix(key, []byte("\n")))
		b.WriteByte(':')
		b.Write(bytes.TrimSuffix(val, []byte("\n")))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func runQueryAll(ctx context.Context, e *env, entries []queryAllEntry) (output, error) {
	out := labeled{}
	for _, entry := range entries {
		v, err := runQuery(ctx, e, entry.query)
		if err != nil {
			return output{}, fmt.Errorf("%s: %w", entry.label, err)
		}
		out.keys, out.values = append(out.keys, entry.label), append(out.values, v.value)
	}
	return output{value: out}, nil
}

// --- inspect

func decodeInspect(raw json.RawMessage) (query.InspectRequest, error) {
	r, err := decodeInto(raw, trueOnly[query.InspectRequest])
	if err == nil {
		if verr := r.Validate(); verr != nil {
			err = paramErrorf("%v", verr)
		}
	}
	return r, err
}

func runInspect(ctx context.Context, e *env, r query.InspectRequest) (output, error) {
	return value(query.Inspect(ctx, e.page(), r))
}

// --- extract

func decodeExtract(raw json.RawMessage) (query.ExtractRequest, error) {
	r, err := decodeInto(raw, func(raw json.RawMessage, r *query.ExtractRequest) error {
		if s, ok := asString(raw); ok {
			r.Selector = s
			return nil
		}
		return paramErrorf(`expected the selector of a table or list, or {selector, type, limit}, got %s`, jsonKind(raw))
	})
	if err == nil {
		if verr := r.Validate(); verr != nil {
			err = paramErrorf("%v", verr)
		}
	}
	return r, err
}

func runExtract(ctx context.Context, e *env, r query.ExtractRequest) (output, error) {
	return value(query.Extract(ctx, e.page(), r))
}

// --- getDom

func decodeGetDom(raw json.RawMessage) (query.DOMRequest, error) {
	r, err := decodeInto(raw, func(raw json.RawMessage, r *query.DOMRequest) error {
		if b, ok := asBool(raw); ok && b {
			return nil
		}
		if s, ok := asString(raw); ok && s != "" {
			r.Selector = s
			return nil
		}
		return paramErrorf(`expected true (the whole page), a selector, or {selector, outer}, got %s`, jsonKind(raw))
	})
	if err == nil {
		if verr := r.Validate(); verr != nil {
			err = paramErrorf("%v", verr)
		}
	}
	return r, err
}

func runGetDom(ctx context.Context, e *env, r query.DOMRequest) (output, error) {
	return value(query.GetDOM(ctx, e.page(), r))
}

// --- getBox

// getBoxParams are the refs to measure; one ref (a string or {ref})
// answers with its box, several (an array or {refs}) with boxes keyed by
// ref, whatever their number.
type getBoxParams struct {
	Ref    string   `json:"ref"`
	Refs   []string `json:"refs"`
	single bool
}

func decodeGetBox(raw json.RawMessage) (getBoxParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *getBoxParams) error {
		if s, ok := asString(raw); ok {
			p.Ref = s
			return nil
		}
		if json.Unmarshal(raw, &p.Refs) == nil && p.Refs != nil {
			return nil
		}
		return paramErrorf(`expected a ref such as "s1e4", an array of refs, {ref} or {refs}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	if p.Ref != "" && p.Refs != nil {
		return p, paramErrorf(`give "ref" or "refs", not both`)
	}
	if p.Ref != "" {
		p.single, p.Refs = true, []string{p.Ref}
	}
	if err := query.CheckRefs(p.Refs); err != nil {
		return p, paramErrorf("%v", err)
	}
	return p, nil
}

func runGetBox(ctx context.Context, e *env, p getBoxParams) (output, error) {
	boxes, err := query.GetBox(ctx, e.page(), p.Refs)
	if err != nil {
		return output{}, err
	}
	if p.single {
		return output{value: boxes[p.Ref]}, nil
	}
	return output{value: boxes}, nil
}

// --- elementsAt

// elementsAtParams is one point ({x, y}), a batch ([{x, y}, …]) or a
// nearby search ({x, y, radius, limit}).
type elementsAtParams struct {
	X      *float64 `json:"x"`
	Y      *float64 `json:"y"`
	Radius *float64 `json:"radius"`
	Limit  *int     `json:"limit"`
	batch  []query.FloatPoint
}

// maxPoints bounds a batch: one evaluation should stay quick.
const maxPoints = 100

func decodeElementsAt(raw json.RawMessage) (elementsAtParams, error) {
	p, err := decodeInto(raw, decodePointBatch)
	if err != nil || p.batch != nil {
		return p, err
	}
	if p.X == nil || p.Y == nil {
		return p, paramErrorf(`give "x" and "y" (viewport pixels)`)
	}
	if err := query.CheckPoint(query.FloatPoint{X: *p.X, Y: *p.Y}); err != nil {
		return p, paramErrorf("%v", err)
	}
	if p.Radius != nil && *p.Radius <= 0 || p.Limit != nil && *p.Limit <= 0 {
		return p, paramErrorf(`"radius" and "limit" must be positive`)
	}
	return p, nil
}

func decodePointBatch(raw json.RawMessage, p *elementsAtParams) error {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil || items == nil {
		return paramErrorf(`expected {x, y}, [{x, y}, …] or {x, y, radius, limit}, got %s`, jsonKind(raw))
	}
	if len(items) == 0 || len(items) > maxPoints {
		return paramErrorf("give 1 to %d points, got %d", maxPoints, len(items))
	}
	for i, it := range items {
		var pt struct {
			X *float64 `json:"x"`
			Y *float64 `json:"y"`
		}
		if err := decodeStrict(it, &pt); err != nil {
			return paramErrorf("point %d: %v", i, err)
		}
		if pt.X == nil || pt.Y == nil {
			return paramErrorf(`point %d: give "x" and "y"`, i)
		}
		fp := query.FloatPoint{X: *pt.X, Y: *pt.Y}
		if err := query.CheckPoint(fp); err != nil {
			return paramErrorf("point %d: %v", i, err)
		}
		p.batch = append(p.batch, fp)
	}
	return nil
}

func runElementsAt(ctx context.Context, e *env, p elementsAtParams) (output, error) {
	snap, elem := e.tab.RefFloors()
	floors := query.Counters{Snapshot: snap, Element: elem}
	var out any
	var counters query.Counters
	switch {
	case p.batch != nil:
		b, err := query.ElementsAt(ctx, e.page(), query.PointRequest{Points: p.batch, Floors: floors})
		if err != nil {
			return output{}, err
		}
		out, counters = b, b.Counters
	case p.Radius != nil || p.Limit != nil:
		req := query.NearRequest{X: *p.X, Y: *p.Y, Floors: floors}
		if p.Radius != nil {
			req.Radius = *p.Radius
		}
		if p.Limit != nil {
			req.Limit = *p.Limit
		}
		n, err := query.ElementsNear(ctx, e.page(), req)
		if err != nil {
			return output{}, err
		}
		out, counters = n, n.Counters
	default:
		el, cs, err := query.ElementAt(ctx, e.page(), query.FloatPoint{X: *p.X, Y: *p.Y}, floors)
		if err != nil {
			return output{}, err
		}
		out, counters = el, cs
	}
	if counters.Minted {
		e.tab.SaveRefCounters(counters.Snapshot, counters.Element)
	}
	return output{value: out}, nil
}

// --- formState, validate, submit

// formTarget names one element: a CSS selector or a ref.
type formTarget struct {
	Selector string `json:"selector"`
	Ref      string `json:"ref"`
}

// decodeTargetStep decodes "selector", {selector} or {ref} for a step
// whose target is what.
func decodeTargetStep(name, what string) func(json.RawMessage) (formTarget, error) {
	return func(raw json.RawMessage) (formTarget, error) {
		p, err := decodeInto(raw, func(raw json.RawMessage, p *formTarget) error {
			if s, ok := asString(raw); ok {
				p.Selector = s
				return nil
			}
			return paramErrorf(`expected the selector of %s, or {selector}, got %s`, what, jsonKind(raw))
		})
		if err != nil {
			return p, err
		}
		if p.Selector != "" && p.Ref != "" {
			return p, paramErrorf(`give "selector" or "ref", not both`)
		}
		p.Selector = orStr(p.Ref, p.Selector)
		if verr := query.CheckSelector(p.Selector); verr != nil {
			return p, paramErrorf("%s needs %s: %v", name, what, verr)
		}
		return p, nil
	}
}

func runFormState(ctx context.Context, e *env, p formTarget) (output, error) {
	return value(query.ReadForm(ctx, e.page(), p.Selector))
}

func runValidate(ctx context.Context, e *env, p formTarget) (output, error) {
	return value(query.Validate(ctx, e.page(), p.Selector))
}

func runSubmit(ctx context.Context, e *env, p formTarget) (output, error) {
	return value(query.Submit(ctx, e.page(), p.Selector))
}

// --- assert

func decodeAssert(raw json.RawMessage) (query.AssertRequest, error) {
	r, err := decodeInto[query.AssertRequest](raw, nil)
	if err == nil {
		if verr := r.Validate(); verr != nil {
			err = paramErrorf("%v", verr)
		}
	}
	return r, err
}

func runAssert(ctx context.Context, e *env, r query.AssertRequest) (output, error) {
	return value(query.Assert(ctx, e.page(), r))
}

// --- pipeline

type pipelineParams struct {
	Steps   []json.RawMessage `json:"steps"`
	Timeout int               `json:"timeout"`
}

func decodePipeline(raw json.RawMessage) (page.PipelineRequest, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *pipelineParams) error {
		if json.Unmarshal(raw, &p.Steps) == nil && p.Steps != nil {
			return nil
		}
		return paramErrorf(`expected [{find, fill}, {find, click}, …] or {steps, timeout}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return page.PipelineRequest{}, err
	}
	if p.Timeout < 0 {
		return page.PipelineRequest{}, paramErrorf(`"timeout" must be a positive number of milliseconds`)
	}
	req := page.PipelineRequest{Steps: make([]page.PipelineOp, len(p.Steps)), Timeout: time.Duration(p.Timeout) * time.Millisecond}
	for i, s := range p.Steps {
		if err := decodeStrict(s, &req.Steps[i]); err != nil {
			return req, paramErrorf("pipeline[%d]: %v", i, err)
		}
	}
	if err := req.Validate(); err != nil {
		return req, paramErrorf("%v", err)
	}
	return req, nil
}

func runPipeline(ctx context.Context, e *env, req page.PipelineRequest) (output, error) {
	return value(page.Pipeline(ctx, e.page(), req))
}
