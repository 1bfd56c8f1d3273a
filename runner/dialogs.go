package runner

import (
	"encoding/json"
	"errors"

	"github.com/cdpskill/cdpskill/page"
)

// decodeDialog reads a dialog policy (page.DialogPolicy): {accept,
// promptText}, or true (accept) or false (dismiss).
func decodeDialog(raw json.RawMessage) (*page.DialogPolicy, error) {
	if b, ok := asBool(raw); ok {
		return &page.DialogPolicy{Accept: &b}, nil
	}
	if !isObject(raw) {
		return nil, paramErrorf(`must be {"accept": true|false, "promptText": "…"}, true or false, got %s`, jsonKind(raw))
	}
	var d page.DialogPolicy
	if err := decodeStrict(raw, &d); err != nil {
		return nil, err
	}
	if d.PromptText != nil && d.Accept != nil && !*d.Accept {
		return nil, paramErrorf(`"promptText" answers a prompt that is accepted; drop it or set "accept": true`)
	}
	return &d, nil
}

// dismissedUnload reports a beforeunload dialog that was dismissed.
func dismissedUnload(reports []page.DialogReport) bool {
	for _, r := range reports {
		if r.Type == "beforeunload" && !r.Accepted {
			return true
		}
	}
	return false
}

// StayedError is a step that failed because the page asked, with a
// beforeunload dialog, to stay, and the dialog policy said stay: Chrome
// then reports the navigation as aborted, which alone would mislead.
type StayedError struct{ Err error }

func (e *StayedError) Error() string {
	return "the page's beforeunload dialog was dismissed, so the tab stayed where it was (" + e.Err.Error() + `); to leave, accept it: "dialog": {"accept": true}`
}

func (e *StayedError) Unwrap() error { return e.Err }

// ErrorName keeps the subtype of what Chrome reported.
func (e *StayedError) ErrorName() string {
	var n named
	if errors.As(e.Err, &n) {
		return n.ErrorName()
	}
	return "NavigationAbortedError"
}
