// Package query reads the page: CSS queries, overviews, table and list
// extraction, raw HTML, boxes of refs, elements at points, form state and
// assertions. Nothing here changes the page except submit, and the refs
// elementsAt mints.
//
// The JavaScript lives in js/. Each operation is a function (h, args)
// whose first argument is the helper object built by js/helpers.js; bind
// pairs the two so that one evaluation does the whole operation, in the
// page's current frame.
package query

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpskill/cdpskill/inpage"
	"github.com/cdpskill/cdpskill/page"
)

var (
	//go:embed js/helpers.js
	helpersJS string
	//go:embed js/query.js
	queryJS string
	//go:embed js/inspect.js
	inspectJS string
	//go:embed js/extract.js
	extractJS string
	//go:embed js/getdom.js
	getDOMJS string
	//go:embed js/getbox.js
	getBoxJS string
	//go:embed js/elements_at.js
	elementsAtJS string
	//go:embed js/form_state.js
	formStateJS string
	//go:embed js/validate.js
	validateJS string
	//go:embed js/submit.js
	submitJS string
	//go:embed js/assert.js
	assertJS string
)

var (
	queryFn      = bind(queryJS)
	inspectFn    = bind(inspectJS)
	extractFn    = bind(extractJS)
	getDOMFn     = bind(getDOMJS)
	getBoxFn     = bind(getBoxJS)
	elementsAtFn = bind(elementsAtJS)
	formStateFn  = bind(formStateJS)
	validateFn   = bind(validateJS)
	submitFn     = bind(submitJS)
	assertFn     = bind(assertJS)
)

// bind composes an operation with the helpers (js.Bind).
func bind(op string) func() string {
	return inpage.Lazy(func() string { return inpage.Bind(helpersJS, op) })
}

// call runs fn with arg in the page and decodes its result into out, or
// returns the typed error for the failure the page reported. target is
// what the step named, for the error messages.
func call(ctx context.Context, p *page.Page, fn, target string, arg, out any) error {
	var raw json.RawMessage
	if err := p.CallJS(ctx, fn, &raw, arg); err != nil {
		return err
	}
	var f struct {
		Error *jsFailure `json:"error"`
	}
	if err := json.Unmarshal(raw, &f); err == nil && f.Error != nil {
		return f.Error.err(target)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("decode %s: %w", raw, err)
	}
	return nil
}

// Output says what query reports for each element (SPEC 11.3). Exactly
// one of Mode, Attribute and Fields is set; the zero Output is text.
type Output struct {
	// Mode is text, html, href, value or tag: the value is a string.
	Mode string `json:"mode,omitempty"`
	// Attribute names one attribute: the value is its text, or null.
	Attribute string `json:"attribute,omitempty"`
	// Fields ask for several: the value is an object keyed by them.
	Fields []Field `json:"fields,omitempty"`
}

// Field is one entry of a multi-part output: a mode or an attribute.
type Field struct {
	Mode string `json:"mode,omitempty"`
	Attr string `json:"attr,omitempty"`
}

// Modes are the output modes, in the order the help lists them.
var Modes = []string{"text", "html", "href", "value", "tag"}

func isMode(s string) bool {
	for _, m := range Modes {
		if s == m {
			return true
		}
	}
	return false
}

const outputForms = `"output" takes text, html, href, value or tag; a list of those and attribute names; or {"attribute": name or [names]}`

// UnmarshalJSON reads the forms an agent writes: "href", ["text",
// "data-id"], {"attribute": "data-id"} or {"attribute": ["a", "b"]}. In a
// list, mode names are modes and anything else is an attribute.
func (o *Output) UnmarshalJSON(b []byte) error {
	*o = Output{}
	var s string
	if json.Unmarshal(b, &s) == nil {
		if !isMode(s) {
			return fmt.Errorf("%s, got %q", outputForms, s)
		}
		o.Mode = s
		return nil
	}
	var list []string
	if json.Unmarshal(b, &list) == nil {
		return o.setFields(list, true)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(b, &obj) != nil {
		return fmt.Errorf("%s, got %s", outputForms, strings.TrimSpace(string(b)))
	}
	return o.setAttributes(obj)
}

func (o *Output) setAttributes(obj map[string]json.RawMessage) error {
	raw, ok := obj["attribute"]
	if len(obj) != 1 || !ok {
		return fmt.Errorf(`%s; an object takes only "attribute"`, outputForms)
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if !attrName(one) {
			return fmt.Errorf("output attribute %q is not an attribute name", one)
		}
		o.Attribute = one
		return nil
	}
	var names []string
	if json.Unmarshal(raw, &names) != nil {
		return fmt.Errorf(`"attribute" must be a name or a list of names`)
	}
	return o.setFields(names, false)
}

// setFields fills Fields from names; modes counts mode names as modes.
func (o *Output) setFields(names []string, modes bool) error {
	if len(names) == 0 {
		return fmt.Errorf("%s; the list is empty", outputForms)
	}
	for _, n := range names {
		switch {
		case modes && isMode(n):
			o.Fields = append(o.Fields, Field{Mode: n})
		case attrName(n):
			o.Fields = append(o.Fields, Field{Attr: n})
		default:
			return fmt.Errorf("output entry %q is neither a mode (text, html, href, value, tag) nor an attribute name", n)
		}
	}
	return nil
}

// attrName accepts what HTML allows in an attribute name, loosely.
func attrName(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\n\"'>/=")
}

// CSSQuery is query in CSS mode (SPEC 11.3).
type CSSQuery struct {
	Selector string `json:"selector"`
	// Limit caps the results (default 10); Total still counts them all.
	Limit  int    `json:"limit,omitempty"`
	Output Output `json:"output,omitzero"`
	// Clean collapses whitespace in the values.
	Clean bool `json:"clean,omitempty"`
	// Metadata adds each element's tag, attributes and box.
	Metadata bool `json:"metadata,omitempty"`
}

// Validate checks q before anything runs and trims its selector.
func (q *CSSQuery) Validate() error {
	q.Selector = strings.TrimSpace(q.Selector)
	if err := CheckSelector(q.Selector); err != nil {
		return err
	}
	if q.Limit < 0 {
		return fmt.Errorf(`"limit" must be positive, got %d`, q.Limit)
	}
	return nil
}

// QueryResult is what query reports: Total matches, the first Showing of
// them described.
type QueryResult struct {
	Selector string  `json:"selector"`
	Total    int     `json:"total"`
	Showing  int     `json:"showing"`
	Results  []Match `json:"results"`
}

// Match is one element: Index counts from 1 in document order.
type Match struct {
	Index    int             `json:"index"`
	Value    json.RawMessage `json:"value"`
	Metadata *Metadata       `json:"metadata,omitempty"`
}

// Metadata describes an element: its tag, first 20 attributes (values cut
// at 200 characters) and viewport box.
type Metadata struct {
	Tag        string            `json:"tag"`
	Attributes map[string]string `json:"attributes"`
	Box        page.Box          `json:"box"`
}

// Query runs q.Selector with querySelectorAll and describes the matches.
// Text values are cut at 500 characters and html at 1000, with "…"; a
// password's value reads "********".
func Query(ctx context.Context, p *page.Page, q CSSQuery) (*QueryResult, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	if q.Limit == 0 {
		q.Limit = 10
	}
	res := &QueryResult{Selector: q.Selector}
	if err := call(ctx, p, queryFn(), q.Selector, q, res); err != nil {
		return nil, err
	}
	if res.Results == nil {
		res.Results = []Match{}
	}
	res.Showing = len(res.Results)
	return res, nil
}
