package query

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cdpskill/cdpskill/page"
)

// URLAssert holds the URL conditions of an assert step; each one set is
// its own assertion. Matches is a JavaScript regular expression, "source"
// or "/source/flags".
type URLAssert struct {
	Contains   *string `json:"contains,omitempty"`
	Equals     *string `json:"equals,omitempty"`
	StartsWith *string `json:"startsWith,omitempty"`
	EndsWith   *string `json:"endsWith,omitempty"`
	Matches    *string `json:"matches,omitempty"`
}

// urlModes lists the conditions in the order they are checked.
func (u *URLAssert) urlModes() []urlCheck {
	var out []urlCheck
	for _, c := range []struct {
		mode string
		v    *string
	}{{"contains", u.Contains}, {"equals", u.Equals}, {"startsWith", u.StartsWith}, {"endsWith", u.EndsWith}, {"matches", u.Matches}} {
		if c.v != nil {
			out = append(out, urlCheck{Mode: c.mode, Expected: *c.v})
		}
	}
	return out
}

type urlCheck struct {
	Mode     string `json:"mode"`
	Expected string `json:"expected"`
}

// UnmarshalJSON rejects unknown conditions, so a typo is not an assertion
// that silently checks nothing.
func (u *URLAssert) UnmarshalJSON(b []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return fmt.Errorf(`"url" must be an object such as {"contains": "/done"}`)
	}
	known := []string{"contains", "equals", "startsWith", "endsWith", "matches"}
	var unknown []string
	for k := range keys {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("unknown url condition %q (known: %s)", unknown[0], strings.Join(known, ", "))
	}
	type plain URLAssert // without this method
	if err := json.Unmarshal(b, (*plain)(u)); err != nil {
		return fmt.Errorf(`url conditions must be strings`)
	}
	return nil
}

// AssertRequest is the assert step (SPEC 11.13): URL conditions, a text
// condition, or both.
type AssertRequest struct {
	URL *URLAssert `json:"url,omitempty"`
	// Text must occur in the rendered text of Selector's first match (a
	// CSS selector or ref; default body), whitespace collapsed.
	Text     *string `json:"text,omitempty"`
	Selector string  `json:"selector,omitempty"`
	// CaseSensitive defaults to true.
	CaseSensitive *bool `json:"caseSensitive,omitempty"`
}

// Validate checks r before anything runs.
func (r *AssertRequest) Validate() error {
	if r.URL == nil && r.Text == nil {
		return fmt.Errorf(`say what to assert: {"url": {"contains": "..."}} or {"text": "...", "selector": "..."}`)
	}
	if r.URL != nil && len(r.URL.urlModes()) == 0 {
		return fmt.Errorf(`"url" needs a condition: contains, equals, startsWith, endsWith or matches`)
	}
	if r.Text != nil && strings.TrimSpace(*r.Text) == "" {
		return fmt.Errorf(`"text" is empty; it would always pass`)
	}
	r.Selector = strings.TrimSpace(r.Selector)
	if r.Selector != "" {
		if r.Text == nil {
			return fmt.Errorf(`"selector" scopes a "text" assertion; give "text" too`)
		}
		return CheckSelector(r.Selector)
	}
	return nil
}

// AssertResult is what a passing assert reports.
type AssertResult struct {
	Passed     bool        `json:"passed"`
	Assertions []Assertion `json:"assertions"`
}

// Assertion is one checked condition. Actual is the URL, or for text the
// start of the element's text when the text was not found; Error says why
// a text assertion could not be checked (no element matches).
type Assertion struct {
	Type     string  `json:"type"`
	Mode     string  `json:"mode,omitempty"`
	Selector string  `json:"selector,omitempty"`
	Expected string  `json:"expected"`
	Actual   *string `json:"actual,omitempty"`
	Passed   bool    `json:"passed"`
	Error    string  `json:"error,omitempty"`
}

func (a Assertion) describe() string {
	actual := ""
	if a.Actual != nil {
		actual = fmt.Sprintf(" (actual %q)", *a.Actual)
	}
	if a.Type == "url" {
		return fmt.Sprintf("url %s %q%s", a.Mode, a.Expected, actual)
	}
	where := "the page"
	if a.Selector != "" {
		where = a.Selector
	}
	if a.Error != "" {
		return fmt.Sprintf("text %q in %s: %s", a.Expected, where, a.Error)
	}
	return fmt.Sprintf("text %q not in %s%s", a.Expected, where, actual)
}

// Assert checks every condition of req at once, without waiting. When
// any fails it returns the result together with an *AssertionError
// describing the failures with the actual values.
func Assert(ctx context.Context, p *page.Page, req AssertRequest) (*AssertResult, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	arg := map[string]any{}
	if req.URL != nil {
		arg["url"] = req.URL.urlModes()
	}
	if req.Text != nil {
		arg["text"] = map[string]any{
			"expected":      *req.Text,
			"target":        req.Selector,
			"caseSensitive": req.CaseSensitive == nil || *req.CaseSensitive,
		}
	}
	var out AssertResult
	if err := call(ctx, p, assertFn(), req.Selector, arg, &out); err != nil {
		return nil, err
	}
	var failed []Assertion
	for _, a := range out.Assertions {
		if !a.Passed {
			failed = append(failed, a)
		}
	}
	out.Passed = len(failed) == 0
	if !out.Passed {
		return &out, &AssertionError{Failed: failed}
	}
	return &out, nil
}
