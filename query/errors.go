package query

import (
	"fmt"
	"strings"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

// jsFailure is the {error} a js/ operation reports instead of a result.
type jsFailure struct {
	Status   string `json:"status"`
	Message  string `json:"message"`
	Role     string `json:"role"`
	Name     string `json:"name"`
	Selector string `json:"selector"` // for a failure about another selector than the target
	Pattern  string `json:"pattern"`
}

// err turns the failure into the typed error for target.
func (f *jsFailure) err(target string) error {
	switch f.Status {
	case "invalidSelector":
		return &invalid.Selector{Selector: orStr(f.Selector, target), Reason: f.Message}
	case "notFound":
		return &dom.NotFoundError{Target: dom.ParseTarget(target)}
	case "unknownRef":
		return &dom.NotFoundError{Target: dom.Target{Ref: target}, Detail: f.Message}
	case "stale":
		return &dom.StaleElementError{Ref: target, Role: f.Role, Name: f.Name}
	case "noStructure":
		return &NoStructureError{Target: target, Message: f.Message}
	case "notField", "notForm":
		return &WrongElementError{Target: target, Message: f.Message}
	case "invalidRegex":
		return &invalid.Pattern{Pattern: f.Pattern, Reason: f.Message}
	}
	return fmt.Errorf("%s: %s", f.Status, f.Message)
}

func orStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// NoStructureError means extract found no table or list where it looked.
type NoStructureError struct {
	Target  string
	Message string
}

func (e *NoStructureError) Error() string {
	return fmt.Sprintf("extract %s: %s; point the selector at the table or list, or give \"type\": \"table\" or \"list\"", e.Target, e.Message)
}

func (e *NoStructureError) ErrorName() string { return "ElementNotFoundError" }

// WrongElementError means the target exists but is not the kind of
// element the step works on (a form, a form field).
type WrongElementError struct {
	Target  string
	Message string
}

func (e *WrongElementError) Error() string { return e.Target + ": " + e.Message }

func (e *WrongElementError) ErrorName() string { return "StepValidationError" }

// AssertionError is an assert step with failed assertions; each is
// described with the actual value it met.
type AssertionError struct {
	Failed []Assertion
}

func (e *AssertionError) Error() string {
	parts := make([]string, len(e.Failed))
	for i, a := range e.Failed {
		parts[i] = a.describe()
	}
	return "assertion failed: " + strings.Join(parts, "; ")
}

func (e *AssertionError) ErrorName() string { return "AssertionError" }

// FormInvalidError is a submit that did not happen because fields fail
// constraint validation.
type FormInvalidError struct {
	Errors []FieldError
}

func (e *FormInvalidError) Error() string {
	parts := make([]string, len(e.Errors))
	for i, f := range e.Errors {
		parts[i] = fmt.Sprintf("%s: %s", f.Field, f.Message)
	}
	return "form not submitted: invalid fields: " + strings.Join(parts, "; ")
}

func (e *FormInvalidError) ErrorName() string { return "FormValidationError" }

// NoElementAtError means nothing is rendered at a point, usually because
// it is outside the viewport.
type NoElementAtError struct{ X, Y float64 }

func (e *NoElementAtError) Error() string {
	return fmt.Sprintf("element not found: nothing at (%v, %v); the point may be outside the viewport", e.X, e.Y)
}

func (e *NoElementAtError) ErrorName() string { return "ElementNotFoundError" }
