package dom

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

var (
	//go:embed js/input-select-option.js
	inputSelectOptionJS string
	//go:embed js/input-select-text.js
	inputSelectTextJS string

	inputSelectOptionFn = bind(inputSelectOptionJS)
	inputSelectTextFn   = bind(inputSelectTextJS)
)

// SelectOptionRequest is one selectOption step (SPEC 9.8): a target and
// exactly one of Value, Label, Index or Values.
type SelectOptionRequest struct {
	// Target is a CSS selector or a ref of a <select>.
	Target string
	Value  *string
	Label  *string
	Index  *int
	// Values, each matched by value and then by label, replace the whole
	// selection of a multiple select.
	Values []string
	// Timeout bounds the wait for the select, and for a missing or
	// disabled option to appear or be enabled; DefaultTimeout when zero.
	Timeout time.Duration
}

// SelectOptionResult is the selection after the step.
type SelectOptionResult struct {
	Selected []string `json:"selected"` // the values of the selected options
	Multiple bool     `json:"multiple"`
	Found
}

// Option is one <option>, as listed when the wanted one is missing.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// OptionNotFoundError means no option matched, until the timeout. It
// lists the first options so the agent can pick a real one.
type OptionNotFoundError struct {
	Target  Target
	By      string // value, label, index or values
	Missing []string
	Options []Option // the first 10
	Total   int
}

func (e *OptionNotFoundError) Error() string {
	var b strings.Builder
	what := e.By
	if what == "values" {
		what = "value or label"
	}
	q := make([]string, len(e.Missing))
	for i, m := range e.Missing {
		q[i] = strconv.Quote(m)
	}
	fmt.Fprintf(&b, "no option with %s %s in %s", what, strings.Join(q, ", "), e.Target)
	if len(e.Options) == 0 {
		b.WriteString("; it has no options")
		return b.String()
	}
	b.WriteString("; options (value: label): ")
	for i, o := range e.Options {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: %q", o.Value, o.Label)
	}
	if e.Total > len(e.Options) {
		fmt.Fprintf(&b, " … (%d in all)", e.Total)
	}
	return b.String()
}

func (e *OptionNotFoundError) ErrorName() string { return "ElementNotFoundError" }

// SelectOption selects options of a <select> and fires input and change.
// The select need only be attached (SPEC 8.1): custom dropdowns often hide
// the native one. An option that is missing or disabled, or a disabled
// select, is waited for until the timeout, since options are often loaded
// after another choice; then the error lists the options there are.
func SelectOption(ctx context.Context, p *page.Page, req SelectOptionRequest) (*SelectOptionResult, error) {
	if req.Target == "" {
		return nil, &invalid.Option{Field: "selector", Reason: "give the <select> by selector or ref"}
	}
	return selectIn(ctx, p, ParseTarget(req.Target), req)
}

// selectIn is SelectOption on a target of any kind (a fill's label).
func selectIn(ctx context.Context, p *page.Page, target Target, req SelectOptionRequest) (*SelectOptionResult, error) {
	arg, err := selectArg(req)
	if err != nil {
		return nil, err
	}
	res, replaced, err := reResolving(req.Timeout, target, ActionSelect, func(timeout time.Duration, again bool) (*SelectOptionResult, error) {
		ar := ActionRequest{Target: target, Action: ActionSelect, Force: true, Timeout: timeout, Describe: again, AgentTimeout: req.Timeout > 0}
		return selectAttempt(ctx, p, ar, req, arg)
	})
	if res != nil {
		res.or(replaced)
	}
	return res, err
}

// selectAttempt readies the select ar names and retries the choice while
// the option is missing or disabled, until ar's timeout.
func selectAttempt(ctx context.Context, p *page.Page, ar ActionRequest, req SelectOptionRequest, arg map[string]any) (*SelectOptionResult, error) {
	target := ar.Target
	deadline := time.Now().Add(ar.Timeout)
	el, err := WaitActionable(ctx, p, ar)
	if err != nil {
		return nil, err
	}
	defer release(ctx, p, el)
	arg["token"] = el.token
	var last error
	for attempt := 0; ; attempt++ {
		wait := retryDelay(attempt)
		if attempt > 0 && time.Until(deadline) < wait {
			return nil, last
		}
		if err := xcontext.Sleep(ctx, wait); err != nil {
			return nil, &TimeoutError{Target: target, Action: ActionSelect, Last: last, Err: err}
		}
		res, retry, err := selectOnce(ctx, p, arg, target, req)
		switch {
		case err == nil:
			res.Found = el.Found
			return res, nil
		case !retry:
			return nil, err
		}
		last = err
	}
}

// selectArg validates the request and builds the page script's argument.
func selectArg(req SelectOptionRequest) (map[string]any, error) {
	n := 0
	arg := map[string]any{}
	if req.Value != nil {
		n++
		arg["by"], arg["value"] = "value", *req.Value
	}
	if req.Label != nil {
		n++
		arg["by"], arg["value"] = "label", *req.Label
	}
	if req.Index != nil {
		n++
		arg["by"], arg["index"] = "index", *req.Index
	}
	if req.Values != nil {
		n++
		arg["by"], arg["values"] = "values", req.Values
	}
	switch {
	case n != 1:
		return nil, &invalid.Option{Field: "value", Reason: "give exactly one of value, label, index or values"}
	case req.Index != nil && *req.Index < 0:
		return nil, &invalid.Option{Field: "index", Reason: "must be 0 or more"}
	}
	return arg, nil
}

// selectReply is js/input-select-option.js's reply.
type selectReply struct {
	Selected  []string `json:"selected"`
	Multiple  bool     `json:"multiple"`
	Detached  bool     `json:"detached"`
	NotSelect *struct {
		Tag  string `json:"tag"`
		Role string `json:"role"`
	} `json:"notSelect"`
	Disabled       bool     `json:"disabled"`
	TooMany        int      `json:"tooMany"`
	Missing        []string `json:"missing"`
	Options        []Option `json:"options"`
	Total          int      `json:"total"`
	OptionDisabled string   `json:"optionDisabled"`
}

// selectOnce makes one attempt; retry says whether waiting may help.
func selectOnce(ctx context.Context, p *page.Page, arg map[string]any, target Target, req SelectOptionRequest) (*SelectOptionResult, bool, error) {
	var r selectReply
	if err := p.CallJS(ctx, inputSelectOptionFn(), &r, arg); err != nil {
		return nil, false, err
	}
	fail := func(reason error) error {
		return &ActionabilityError{Target: target, Action: ActionSelect, Reason: reason}
	}
	switch {
	case r.Detached:
		return nil, false, errReplaced
	case r.NotSelect != nil:
		return nil, false, fail(&NotEditableError{Reason: notSelectReason(r.NotSelect.Tag, r.NotSelect.Role), Permanent: true})
	case r.TooMany > 0:
		return nil, false, &invalid.Option{Field: "values", Reason: fmt.Sprintf("%s is a single select: give one value, not %d", target, r.TooMany)}
	case r.Disabled:
		return nil, true, fail(&NotEditableError{Reason: "the select is disabled"})
	case r.Missing != nil:
		return nil, true, &OptionNotFoundError{Target: target, By: arg["by"].(string), Missing: r.Missing, Options: r.Options, Total: r.Total}
	case r.OptionDisabled != "":
		return nil, true, fail(&NotEditableError{Reason: fmt.Sprintf("option %q is disabled", r.OptionDisabled)})
	}
	if r.Selected == nil {
		r.Selected = []string{}
	}
	return &SelectOptionResult{Selected: r.Selected, Multiple: r.Multiple}, false, nil
}

// notSelectReason says what the element is and how to choose in it.
func notSelectReason(tag, role string) string {
	msg := fmt.Sprintf("<%s> is not a <select>", tag)
	switch role {
	case "listbox", "combobox", "menu":
		msg += fmt.Sprintf(" but a custom %s (role=%s): click it and then the option, or focus it and press ArrowDown and Enter", role, role)
	}
	return msg
}

// SelectTextRequest is one selectText step: all of the target's text, or
// the characters from Start to End (nil: the end).
type SelectTextRequest struct {
	Target     string
	Start, End *int
	Timeout    time.Duration
}

// SelectTextResult is the text now selected.
type SelectTextResult struct {
	Selected bool   `json:"selected"`
	Text     string `json:"text"`
	Found
}

// SelectText selects text in an input or textarea (focus and
// setSelectionRange) or in any element (a document Range), for a
// following press such as Control+c or Delete, or to check a value.
func SelectText(ctx context.Context, p *page.Page, req SelectTextRequest) (*SelectTextResult, error) {
	if req.Start == nil && req.End != nil {
		return nil, &invalid.Option{Field: "end", Reason: "give start with end"}
	}
	if req.Start != nil && (*req.Start < 0 || req.End != nil && *req.End < *req.Start) {
		return nil, &invalid.Option{Field: "start", Reason: "need 0 <= start <= end"}
	}
	target := ParseTarget(req.Target)
	res, replaced, err := reResolving(req.Timeout, target, ActionSelect, func(timeout time.Duration, again bool) (*SelectTextResult, error) {
		return selectTextOnce(ctx, p, req, target, timeout, again)
	})
	if res != nil {
		res.or(replaced)
	}
	return res, err
}

func selectTextOnce(ctx context.Context, p *page.Page, req SelectTextRequest, target Target, timeout time.Duration, again bool) (*SelectTextResult, error) {
	el, err := WaitActionable(ctx, p, ActionRequest{Target: target, Action: ActionSelect, Force: true, Timeout: timeout, Describe: again, AgentTimeout: req.Timeout > 0})
	if err != nil {
		return nil, err
	}
	defer release(ctx, p, el)
	var r struct {
		Text     *string `json:"text"`
		Detached bool    `json:"detached"`
		NoRange  string  `json:"noRange"`
	}
	if err := p.CallJS(ctx, inputSelectTextFn(), &r, map[string]any{"token": el.token, "start": req.Start, "end": req.End}); err != nil {
		return nil, err
	}
	switch {
	case r.Detached:
		return nil, errReplaced
	case r.NoRange != "":
		return nil, &invalid.Option{Field: "start", Reason: fmt.Sprintf("an input of type %q has no selection range; leave out start and end to select all of it", r.NoRange)}
	case r.Text == nil:
		return nil, fmt.Errorf("dom: selectText: unexpected reply from the page")
	}
	return &SelectTextResult{Selected: true, Text: *r.Text, Found: el.Found}, nil
}
