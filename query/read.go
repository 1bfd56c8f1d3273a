package query

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpskill/cdpskill/page"
)

// InspectRequest is the inspect step (SPEC 11.5).
type InspectRequest struct {
	// Selectors are counted besides the common elements.
	Selectors []string `json:"selectors,omitempty"`
	// Limit, when set, also lists the text (first 100 characters) of that
	// many matches per selector.
	Limit int `json:"limit,omitempty"`
}

// Validate checks r before anything runs.
func (r *InspectRequest) Validate() error {
	for i, s := range r.Selectors {
		r.Selectors[i] = strings.TrimSpace(s)
		if err := CheckSelector(s); err != nil {
			return fmt.Errorf("selectors[%d]: %w", i, err)
		}
	}
	if r.Limit < 0 {
		return fmt.Errorf(`"limit" must be positive, got %d`, r.Limit)
	}
	return nil
}

// Overview is what inspect reports. Elements counts a, button, input,
// textarea, select, h1, h2, h3, img and form; Custom maps each requested
// selector to its count, or with a limit to {count, values}.
type Overview struct {
	Title    string                     `json:"title"`
	URL      string                     `json:"url"`
	Elements map[string]int             `json:"elements"`
	Custom   map[string]json.RawMessage `json:"custom,omitempty"`
}

// Inspect gives a cheap overview of the page.
func Inspect(ctx context.Context, p *page.Page, req InspectRequest) (*Overview, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out Overview
	if err := call(ctx, p, inspectFn(), "", req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ExtractRequest is the extract step (SPEC 11.6).
type ExtractRequest struct {
	// Selector is a CSS selector or a ref: the table or list, or an
	// element containing one.
	Selector string `json:"selector"`
	// Type is table or list; empty detects it.
	Type string `json:"type,omitempty"`
	// Limit caps the rows or items returned (default 100).
	Limit int `json:"limit,omitempty"`
}

// Validate checks r before anything runs.
func (r *ExtractRequest) Validate() error {
	r.Selector = strings.TrimSpace(r.Selector)
	if err := CheckSelector(r.Selector); err != nil {
		return err
	}
	switch r.Type {
	case "", "table", "list":
	default:
		return fmt.Errorf(`"type" must be "table" or "list", got %q`, r.Type)
	}
	if r.Limit < 0 {
		return fmt.Errorf(`"limit" must be positive, got %d`, r.Limit)
	}
	return nil
}

// Extracted is a table ({type, headers, rows, rowCount}) or a list
// ({type, items, itemCount}). Counts are of all rows or items, returned
// or not; a table without a header row has empty headers.
type Extracted struct {
	Type      string     `json:"type"`
	Headers   []string   `json:"headers,omitzero"`
	Rows      [][]string `json:"rows,omitzero"`
	RowCount  *int       `json:"rowCount,omitempty"`
	Items     []string   `json:"items,omitzero"`
	ItemCount *int       `json:"itemCount,omitempty"`
}

// Extract reads the table or list at or under the target.
func Extract(ctx context.Context, p *page.Page, req ExtractRequest) (*Extracted, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if req.Limit == 0 {
		req.Limit = 100
	}
	arg := map[string]any{"target": req.Selector, "type": req.Type, "limit": req.Limit}
	var out Extracted
	if err := call(ctx, p, extractFn(), req.Selector, arg, &out); err != nil {
		return nil, err
	}
	// Keep the shape: an empty table still says it has no rows.
	if out.Type == "table" {
		out.Headers = nonNil(out.Headers)
		if out.Rows == nil {
			out.Rows = [][]string{}
		}
	} else {
		out.Items = nonNil(out.Items)
	}
	return &out, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// DOMRequest is the getDom step (SPEC 11.7).
type DOMRequest struct {
	// Selector is a CSS selector or a ref; empty means the whole document.
	Selector string `json:"selector,omitempty"`
	// Outer false returns innerHTML instead of outerHTML.
	Outer *bool `json:"outer,omitempty"`
}

// Validate checks r before anything runs.
func (r *DOMRequest) Validate() error {
	r.Selector = strings.TrimSpace(r.Selector)
	if r.Selector == "" {
		return nil
	}
	return CheckSelector(r.Selector)
}

// HTML is what getDom reports; Length counts characters.
type HTML struct {
	HTML     string `json:"html"`
	TagName  string `json:"tagName"`
	Selector string `json:"selector,omitempty"`
	Length   int    `json:"length"`
}

// GetDOM returns the HTML of the first element matching the target, or
// of the whole document.
func GetDOM(ctx context.Context, p *page.Page, req DOMRequest) (*HTML, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	arg := map[string]any{"target": req.Selector, "outer": req.Outer == nil || *req.Outer}
	var out HTML
	if err := call(ctx, p, getDOMFn(), req.Selector, arg, &out); err != nil {
		return nil, err
	}
	out.Selector = req.Selector
	return &out, nil
}
