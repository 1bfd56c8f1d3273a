package dom

import (
	"context"
	_ "embed"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/cdpskill/cdpskill/page"
)

// Actions of the keyboard and mouse steps beyond click and fill, as named
// in their errors.
const (
	ActionType   Action = "type"
	ActionPress  Action = "press"
	ActionHover  Action = "hover"
	ActionDrag   Action = "drag"
	ActionScroll Action = "scroll"
	ActionSelect Action = "select"
)

var (
	//go:embed js/input-focus.js
	inputFocusJS string
	inputFocusFn = bind(inputFocusJS)
)

// TypeRequest is one type step (SPEC 9.3).
type TypeRequest struct {
	// Target is a CSS selector or a ref to focus first; "" types into
	// whatever has focus.
	Target string
	Text   string
	// Delay is the pause between two characters.
	Delay time.Duration
	// Force skips the visibility checks; editability is always checked.
	Force bool
	// Timeout is the actionability timeout; DefaultTimeout when zero.
	Timeout time.Duration
}

// TypeResult is what the type step did.
type TypeResult struct {
	Typed  string `json:"typed"`
	Length int    `json:"length"`
	Found
	AutoForced bool `json:"autoForced,omitempty"`
	Note
	// Secret: the keys went into a password field (see FillResult).
	Secret bool `json:"-"`
}

// Type focuses the target, which must be editable (SPEC 8.2), and types
// req.Text one character at a time: rawKeyDown, char and keyUp per
// character with the US-keyboard key, code and key code of each, so that
// pages reacting to every keystroke see each one. Characters no US key
// types are sent as a key with that value and no code. "\n" is Enter and
// "\t" is Tab.
func Type(ctx context.Context, p *page.Page, req TypeRequest) (*TypeResult, error) {
	res := &TypeResult{Typed: req.Text, Length: utf8.RuneCountInString(req.Text)}
	if req.Target == "" {
		var r struct {
			Focused bool `json:"focused"`
		}
		if err := p.CallJS(ctx, inputFocusFn(), &r, map[string]any{}); err != nil {
			return nil, err
		}
		if !r.Focused {
			res.Warning = "no element had focus: the keys went to the page body; give a selector or ref to type into a field"
		}
	} else {
		target := ParseTarget(req.Target)
		// fill's checks are type's: visible and editable.
		f, err := focusTarget(ctx, p, focusRequest{target: target, check: ActionFill, action: ActionType, force: req.Force, timeout: req.Timeout, click: true})
		if err != nil {
			return nil, relabel(err, ActionType)
		}
		res.Found, res.AutoForced, res.Secret = f.Found, f.AutoForced, f.Password
		if f.AutoForced {
			res.Warning = f.forced.forcedNote("typed anyway")
		}
		if !f.Focused {
			return nil, &ActionabilityError{Target: target, Action: ActionType, Reason: &NotEditableError{Reason: "it cannot take focus"}}
		}
	}
	if err := typeText(ctx, p.S, req.Text, req.Delay); err != nil {
		return nil, err
	}
	return res, nil
}

// keyTarget is a target readied for keys.
type keyTarget struct {
	Found
	AutoForced, Focused bool
	Password            bool     // it is a password field
	forced              *Element // the element, when auto-forced
}

// focusRequest is a target to give keyboard focus: check is the action
// whose checks it must pass, action the one its errors name; with click,
// a click focuses it when nothing is in the way (see focus).
type focusRequest struct {
	target        Target
	check, action Action
	force         bool
	timeout       time.Duration
	click         bool
}

// focusTarget readies the target with its checks and gives it keyboard
// focus (see focus), resolving it again when a re-render replaces it
// before it has focus.
func focusTarget(ctx context.Context, p *page.Page, req focusRequest) (*keyTarget, error) {
	k, replaced, err := reResolving(req.timeout, req.target, req.action, func(t time.Duration, again bool) (*keyTarget, error) {
		el, err := WaitActionable(ctx, p, ActionRequest{Target: req.target, Action: req.check, Force: req.force, Timeout: t, Describe: again, AgentTimeout: req.timeout > 0})
		if err != nil {
			return nil, err
		}
		defer release(ctx, p, el)
		k := &keyTarget{Found: el.Found, AutoForced: el.AutoForced, Password: el.InputType == "password"}
		if el.AutoForced {
			k.forced = el
		}
		k.Focused, err = focus(ctx, p, el, req.click)
		return k, err
	})
	if k != nil {
		k.or(replaced)
	}
	return k, err
}

// focus gives el keyboard focus: with click, a click when nothing is in
// the way, as a user would focus a field; then focus() to make sure, with
// the caret at the end of a field that did not have focus before. It
// reports whether el has focus now; an element that left the page is
// errReplaced.
func focus(ctx context.Context, p *page.Page, el *Element, click bool) (bool, error) {
	if click && !el.Focused && el.Clickable && !el.AutoForced && el.Point != nil {
		if err := mouseClick(ctx, p.S, *el.Point, "left", 1); err != nil {
			return false, err
		}
	}
	var r struct {
		Detached bool `json:"detached"`
		Focused  bool `json:"focused"`
	}
	if err := p.CallJS(ctx, inputFocusFn(), &r, map[string]any{"token": el.token, "caretEnd": !el.Focused}); err != nil {
		return false, err
	}
	if r.Detached {
		return false, errReplaced
	}
	return r.Focused, nil
}

// relabel names action in an actionability error that WaitActionable
// raised for the action whose checks this one borrows.
func relabel(err error, action Action) error {
	var ae *ActionabilityError
	var te *TimeoutError
	switch {
	case errors.As(err, &ae):
		ae.Action = action
	case errors.As(err, &te):
		te.Action = action
	}
	return err
}
