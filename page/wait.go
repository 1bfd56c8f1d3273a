package page

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/xcontext"
)

//go:embed js/wait.js
var waitJS string

// WaitCondition is what the wait step waits for; exactly one of Selector,
// Text, TextRegex and URLContains is set.
type WaitCondition struct {
	// Selector waits for MinCount (at least 1) visible matches, or with
	// Hidden for no visible match at all.
	Selector string `json:"selector,omitempty"`
	Hidden   bool   `json:"hidden,omitempty"`
	MinCount int    `json:"minCount,omitempty"`
	// Text waits for the page's rendered text to contain Text, with runs
	// of whitespace treated as one space; CaseSensitive defaults to true.
	Text          string `json:"text,omitempty"`
	CaseSensitive *bool  `json:"caseSensitive,omitempty"`
	// TextRegex is a JavaScript regex, "source" or "/source/flags".
	TextRegex   string `json:"textRegex,omitempty"`
	URLContains string `json:"urlContains,omitempty"`
}

// WaitResult is what the wait found.
type WaitResult struct {
	Count int    `json:"count,omitempty"` // visible matches of Selector
	URL   string `json:"url,omitempty"`   // the URL that contained URLContains
}

// WaitTimeoutError is a wait that ran out of time. It wraps the context
// error, so errors.Is(err, context.DeadlineExceeded) holds.
type WaitTimeoutError struct {
	Condition string // what was waited for
	Seen      string // how close the page came, when known
	Err       error
}

func (e *WaitTimeoutError) Error() string {
	s := "timed out waiting for " + e.Condition
	if e.Seen != "" {
		s += " (" + e.Seen + ")"
	}
	return s + ": " + e.Err.Error()
}

func (e *WaitTimeoutError) Unwrap() error     { return e.Err }
func (e *WaitTimeoutError) ErrorName() string { return "TimeoutError" }

// Validate checks the condition's shape without a browser.
func (c WaitCondition) Validate() error {
	n := 0
	for _, s := range []string{c.Selector, c.Text, c.TextRegex, c.URLContains} {
		if s != "" {
			n++
		}
	}
	switch {
	case n != 1:
		return &invalid.Option{Field: "wait", Value: c.String(), Reason: "give exactly one of selector, text, textRegex, urlContains"}
	case c.MinCount < 0:
		return &invalid.Option{Field: "minCount", Value: fmt.Sprint(c.MinCount), Reason: "must not be negative"}
	case (c.Hidden || c.MinCount > 0) && c.Selector == "":
		return &invalid.Option{Field: "wait", Value: c.String(), Reason: "hidden and minCount go with selector"}
	case c.Hidden && c.MinCount > 0:
		return &invalid.Option{Field: "wait", Value: c.String(), Reason: "hidden and minCount exclude each other"}
	case c.CaseSensitive != nil && c.Text == "":
		return &invalid.Option{Field: "wait", Value: c.String(), Reason: "caseSensitive goes with text"}
	}
	return nil
}

// String describes the condition for messages.
func (c WaitCondition) String() string {
	switch {
	case c.Selector != "" && c.Hidden:
		return fmt.Sprintf("selector %q to be hidden", c.Selector)
	case c.Selector != "" && c.MinCount > 1:
		return fmt.Sprintf("%d visible matches of selector %q", c.MinCount, c.Selector)
	case c.Selector != "":
		return fmt.Sprintf("selector %q to be visible", c.Selector)
	case c.Text != "" && c.CaseSensitive != nil && !*c.CaseSensitive:
		return fmt.Sprintf("text %q (any case)", c.Text)
	case c.Text != "":
		return fmt.Sprintf("text %q", c.Text)
	case c.TextRegex != "":
		return fmt.Sprintf("text matching %s", c.TextRegex)
	case c.URLContains != "":
		return fmt.Sprintf("URL containing %q", c.URLContains)
	}
	return "nothing"
}

// waitOutcome is wait.js's answer.
type waitOutcome struct {
	OK      bool   `json:"ok"`
	Count   int    `json:"count"`
	URL     string `json:"url"`
	Invalid string `json:"invalid"`
	Seen    *struct {
		Matched   *int   `json:"matched"`
		Visible   *int   `json:"visible"`
		OtherCase bool   `json:"otherCase"`
		URL       string `json:"url"`
	} `json:"seen"`
}

// Timing of the in-page waits. A slice never outlives the caller's
// deadline, so no observer lingers in the page after Wait returns; it is
// capped so a context without deadline still gets a bounded call; and it
// ends a little before the deadline so its report of what the page showed
// arrives before ctx does.
const (
	waitSlice   = 10 * time.Second
	waitMargin  = 100 * time.Millisecond
	waitRetryIn = 25 * time.Millisecond // after a navigation destroyed the context
)

// Wait blocks until cond holds in the page or ctx ends. The check runs in
// the page (wait.js); when a navigation destroys the context it is
// started again in the new document, so a URL or element that arrives
// with a full page load is found. A selector or regex the browser cannot
// parse fails at once.
func Wait(ctx context.Context, p *Page, cond WaitCondition) (*WaitResult, error) {
	if err := cond.Validate(); err != nil {
		return nil, err
	}
	var seen string
	for tries := 0; ; tries++ {
		budget := waitSlice
		if dl, ok := ctx.Deadline(); ok {
			budget = min(budget, time.Until(dl)-waitMargin)
		}
		if budget <= 0 && tries > 0 {
			return nil, waitEnded(cond, seen, context.DeadlineExceeded)
		}
		budget = max(budget, 0) // a first look, however late, is still owed
		var out waitOutcome
		err := p.CallJS(ctx, waitJS, &out, cond, budget.Milliseconds())
		switch {
		case err == nil && out.Invalid != "":
			return nil, invalidCondition(cond, out.Invalid)
		case err == nil && out.OK:
			return &WaitResult{Count: out.Count, URL: out.URL}, nil
		case err == nil:
			seen = describeSeen(cond, &out)
		case ctx.Err() != nil:
			return nil, waitEnded(cond, seen, ctx.Err())
		case cdp.IsContextDestroyed(err) && p.Frame == nil:
			// The main frame is between documents; try the next one.
			if xcontext.Sleep(ctx, waitRetryIn) != nil {
				return nil, waitEnded(cond, seen, ctx.Err())
			}
		default:
			return nil, fmt.Errorf("waiting for %s: %w", cond, err)
		}
	}
}

func invalidCondition(cond WaitCondition, reason string) error {
	if cond.Selector != "" {
		return &invalid.Selector{Selector: cond.Selector, Reason: reason}
	}
	return &invalid.Pattern{Field: "textRegex", Pattern: cond.TextRegex, Reason: reason}
}

// describeSeen turns wait.js's last observation into words.
func describeSeen(cond WaitCondition, out *waitOutcome) string {
	s := out.Seen
	if s == nil {
		return ""
	}
	switch {
	case s.Matched != nil && s.Visible != nil && cond.Hidden:
		return fmt.Sprintf("%d still visible", *s.Visible)
	case s.Matched != nil && s.Visible != nil:
		return fmt.Sprintf("found %d visible of %d matching, want %d", *s.Visible, *s.Matched, max(1, cond.MinCount))
	case cond.Text != "" && s.OtherCase:
		return "the text is there in a different case; set caseSensitive: false"
	case cond.Text != "" || cond.TextRegex != "":
		return "not in the page text"
	case s.URL != "":
		return "the URL is " + s.URL
	}
	return ""
}

// waitEnded is the error for a wait cut short by ctx: a timeout names
// what was waited for and what the page showed last.
func waitEnded(cond WaitCondition, seen string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &WaitTimeoutError{Condition: cond.String(), Seen: seen, Err: err}
	}
	return fmt.Errorf("waiting for %s: %w", cond, err)
}
