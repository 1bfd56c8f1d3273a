package dom

import (
	"context"
	"errors"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

// PressRequest is one press step (SPEC 9.4).
type PressRequest struct {
	// Key is a key or combination: "Enter", "Control+a", "Meta+Shift+Enter".
	Key string
	// Target is a CSS selector or a ref to focus first (with focus(), not
	// a click, which could activate it); "" presses into whatever has
	// focus.
	Target string
	Force  bool
	// Timeout is the actionability timeout; DefaultTimeout when zero.
	Timeout time.Duration
}

// PressResult is what the press step did.
type PressResult struct {
	// Pressed is the combination sent, in canonical names; "" when
	// nothing was.
	Pressed string `json:"pressed,omitempty"`
	Found
	AutoForced bool `json:"autoForced,omitempty"`
	Note
}

// Press sends a key combination (see Keystroke.Press). An unknown key
// name is not a failure: nothing is pressed and the result's warning
// names the key with a suggestion. An empty or malformed combination is
// an *invalid.Option.
func Press(ctx context.Context, p *page.Page, req PressRequest) (*PressResult, error) {
	k, err := ParseKeystroke(req.Key)
	var uk *UnknownKeyError
	switch {
	case errors.As(err, &uk):
		return &PressResult{Note: Note{uk.Error() + "; nothing was pressed"}}, nil
	case err != nil:
		return nil, err
	}
	res := &PressResult{}
	if req.Target != "" {
		target := ParseTarget(req.Target)
		f, err := focusTarget(ctx, p, focusRequest{target: target, check: ActionPress, action: ActionPress, force: req.Force, timeout: req.Timeout})
		if err != nil {
			return nil, err
		}
		res.Found, res.AutoForced = f.Found, f.AutoForced
		if !f.Focused {
			res.Warning = target.String() + " cannot take focus; the keys went to the element that has it"
		}
	}
	if err := k.Press(ctx, p.S); err != nil {
		return nil, err
	}
	res.Pressed = k.String()
	return res, nil
}
