package runner

import (
	"context"
	"errors"
	"fmt"

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

// classify maps any error from a step to an *Error.
func classify(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
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
