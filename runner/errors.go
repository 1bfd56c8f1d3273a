package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
)

// ErrType is the spec's top-level error classification (SPEC 16.1).
type ErrType string

// The four error types of SPEC 16.1.
const (
	Parse      ErrType = "PARSE"
	Validation ErrType = "VALIDATION"
	Connection ErrType = "CONNECTION"
	Execution  ErrType = "EXECUTION"
)

// Error is the one error type the runner reports. Lower packages return
// their own typed errors; classify turns them into this.
type Error struct {
	Type    ErrType
	Name    string // the spec's subtype, e.g. "ElementNotFoundError"
	Message string
	Hint    string
	Err     error
}

func (e *Error) Error() string {
	if e.Hint != "" {
		return e.Message + " (" + e.Hint + ")"
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

func newError(t ErrType, format string, args ...any) *Error {
	return &Error{Type: t, Message: fmt.Sprintf(format, args...)}
}

// named is implemented by lower packages' errors that carry a spec subtype.
type named interface{ ErrorName() string }

// typed is implemented by lower packages' errors that carry the spec's
// type too (the tab layer's: CONNECTION or EXECUTION); their message is
// the agent's as it stands.
type typed interface {
	error
	ErrorType() string
}

// classify maps any error from a step to an *Error.
func classify(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var t typed
	if errors.As(err, &t) {
		out := &Error{Type: ErrType(t.ErrorType()), Message: t.Error(), Err: err}
		if n, ok := t.(named); ok {
			out.Name = n.ErrorName()
		}
		return out
	}
	out := &Error{Type: Execution, Message: err.Error(), Err: err}
	var n named
	switch {
	case cdp.IsConnection(err) || cdp.IsTargetGone(err):
		out.Type = Connection
		out.Hint = "the tab or Chrome went away; open a new tab with openTab"
	case errors.As(err, &n):
		out.Name = n.ErrorName()
	case errors.Is(err, context.DeadlineExceeded):
		out.Name = "TimeoutError"
	case cdp.IsContextDestroyed(err):
		out.Name = "ContextDestroyedError"
		out.Message = "the document the step ran in went away under it (its frame was removed, or it navigated)"
	case cdp.IsStaleObject(err):
		out.Name = "StaleElementError"
	}
	if out.Name == "" && errors.Is(err, context.DeadlineExceeded) {
		out.Name = "TimeoutError"
	}
	return out
}

// errorJSON is the error object of a call that could not run its steps.
type errorJSON struct {
	Type    ErrType `json:"type"`
	Name    string  `json:"name,omitempty"`
	Message string  `json:"message"`
	Hint    string  `json:"hint,omitempty"`
}

func (e *Error) json() *errorJSON {
	return &errorJSON{Type: e.Type, Name: e.Name, Message: e.Message, Hint: e.Hint}
}

// classifyUnder is classify for what ran under timeout (a step, or the
// call's setup): an error its context's end caused says so in the agent's
// words, not Go's. Go's wrapping leaves the context error's words at the
// end of the message, where they become what happened: the timeout of so
// many ms ran out, or the call was interrupted.
func classifyUnder(err error, timeout time.Duration) *Error {
	e := classify(err)
	if msg, ok := cutWords(e, context.DeadlineExceeded); ok {
		ms := timeout.Milliseconds()
		switch {
		case msg == "":
			e.Message = fmt.Sprintf("timed out after %d ms (the step's timeout)", ms)
		case strings.Contains(msg, "timed out"):
			e.Message = msg // it says so already
		default:
			e.Message = fmt.Sprintf("%s (timed out after %d ms, the step's timeout)", msg, ms)
		}
	} else if msg, ok := cutWords(e, context.Canceled); ok {
		e.Message = "the call was interrupted"
		if msg != "" {
			e.Message = msg + ": " + e.Message
		}
	}
	return e
}

// cutWords cuts the words of ctxErr, which caused e, off the end of e's
// message: the message is them alone, or an error that wrapped ctxErr
// last.
func cutWords(e *Error, ctxErr error) (string, bool) {
	if !errors.Is(e.Err, ctxErr) {
		return "", false
	}
	if e.Message == ctxErr.Error() {
		return "", true
	}
	return strings.CutSuffix(e.Message, ": "+ctxErr.Error())
}
