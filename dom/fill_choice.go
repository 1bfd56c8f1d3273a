package dom

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

// Fill methods of the fields that take no text.
const (
	MethodSelect    = "selectOption" // a select's option, by value or label
	MethodClick     = "click"        // a checkbox, radio or switch clicked into the state asked
	MethodUnchanged = "unchanged"    // it was in that state already
)

// fillChoice fills a field that takes no text the way a person would, so
// one fill step does a whole form: a select gets the option whose value
// or label is the value; a checkbox, radio or switch is clicked when it is
// not already in the state asked (true or false).
func fillChoice(ctx context.Context, p *page.Page, req FillRequest, target Target, kind string) (*FillResult, error) {
	if kind == "select" {
		r, err := selectIn(ctx, p, target, SelectOptionRequest{Values: []string{req.Value}, Timeout: req.Timeout})
		if err != nil {
			return nil, err
		}
		return &FillResult{Filled: true, Method: MethodSelect, Found: r.Found}, nil
	}
	want, ok := parseChecked(req.Value)
	if !ok {
		return nil, &invalid.Option{Field: "value", Reason: fmt.Sprintf("%s is a checkbox, radio or switch: give true or false, not %q", target, req.Value)}
	}
	return setChecked(ctx, p, req, target, want)
}

// parseChecked reads the state a value asks a checkbox for.
func parseChecked(v string) (checked, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "yes", "checked", "1":
		return true, true
	case "false", "off", "no", "unchecked", "0":
		return false, true
	}
	return false, false
}

type checkedState struct {
	Checked  bool `json:"checked"`
	Radio    bool `json:"radio"`
	Detached bool `json:"detached"`
}

// setChecked clicks the box when its state is not want, and checks that
// the click took.
func setChecked(ctx context.Context, p *page.Page, req FillRequest, target Target, want bool) (*FillResult, error) {
	// Only attached: a styled checkbox hides the input behind its label,
	// which the click then goes to.
	el, err := WaitActionable(ctx, p, ActionRequest{Target: target, Action: ActionSelect, Force: true, Timeout: req.Timeout, AgentTimeout: req.Timeout > 0})
	if err != nil {
		return nil, err
	}
	defer release(ctx, p, el)
	var before checkedState
	if err := p.CallJS(ctx, checkedFn(), &before, el.token); err != nil {
		return nil, err
	}
	res := &FillResult{Filled: true, Method: MethodUnchanged, Found: el.Found}
	switch {
	case before.Checked == want:
		return res, nil
	case before.Radio && !want:
		return nil, &invalid.Option{Field: "value", Reason: fmt.Sprintf("%s is a checked radio: it is unchecked by choosing another of its group", target)}
	}
	click, err := clickOnce(ctx, p, ClickRequest{Force: req.Force, Timeout: req.Timeout}, &target, "left", 1)
	if err != nil {
		return nil, err
	}
	res.Method, res.AutoForced, res.Warning = MethodClick, click.AutoForced, click.Warning
	after, err := awaitChecked(ctx, p, el, want)
	if err != nil {
		return nil, err
	}
	if !after.Detached && after.Checked != want {
		return nil, &ActionabilityError{Target: target, Action: ActionFill, Reason: &NotEditableError{
			Reason: fmt.Sprintf("clicking it left it %s (the page may refuse the change)", checkedWord(after.Checked))}}
	}
	return res, nil
}

// checkedWait bounds how long a box's state may take to follow a click: a
// framework's switch renders its state a moment after.
const checkedWait = time.Second

// awaitChecked reads the box's state until it is want, the box left the
// page, or checkedWait passed.
func awaitChecked(ctx context.Context, p *page.Page, el *Element, want bool) (checkedState, error) {
	deadline := time.Now().Add(checkedWait)
	for attempt := 0; ; attempt++ {
		var st checkedState
		if err := p.CallJS(ctx, checkedFn(), &st, el.token); err != nil {
			return st, err
		}
		wait := retryDelay(attempt + 1)
		if st.Detached || st.Checked == want || time.Until(deadline) < wait {
			return st, nil
		}
		if err := xcontext.Sleep(ctx, wait); err != nil {
			return st, err
		}
	}
}

func checkedWord(checked bool) string {
	if checked {
		return "checked"
	}
	return "unchecked"
}

// choiceKind is the kind of field a fill failed on because it takes no
// text but a choice, or "".
func choiceKind(err error) string {
	var ne *NotEditableError
	if errors.As(err, &ne) {
		return ne.Kind
	}
	return ""
}
