// Package invalid holds the errors for a step the agent wrote wrong in a
// way no waiting can mend: a CSS selector or a regular expression that
// does not parse, an option with a value it cannot take. Every package
// that reads a step's values reports them with these, so the runner
// tells them apart by one interface (ErrorName, the spec's
// StepValidationError) and the agent reads each kind in one wording.
package invalid

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
)

// Selector is a CSS selector the browser (or a check before it) cannot
// parse. It is reported at once: waiting cannot make it valid.
type Selector struct {
	// Field names the option that holds the selector ("snapshot root")
	// when it is not the step's own target; "" for the target.
	Field    string
	Selector string
	Reason   string // the parser's message
}

func (e *Selector) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s %q is not a valid CSS selector: %s", e.Field, e.Selector, e.Reason)
	}
	return fmt.Sprintf("invalid CSS selector %q: %s", e.Selector, e.Reason)
}

// ErrorName is the spec's subtype the runner reports.
func (e *Selector) ErrorName() string { return "StepValidationError" }

// Pattern is a regular expression that does not compile.
type Pattern struct {
	// Field names the option that holds the pattern ("nameRegex"), when
	// known.
	Field   string
	Pattern string
	Reason  string // the compiler's message
}

func (e *Pattern) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s %q is not a valid regular expression: %s", e.Field, e.Pattern, e.Reason)
	}
	return fmt.Sprintf("invalid regular expression %q: %s", e.Pattern, e.Reason)
}

// ErrorName is the spec's subtype the runner reports.
func (e *Pattern) ErrorName() string { return "StepValidationError" }

// Option is a step's option with a value it cannot take, or one missing
// or out of place beside the others.
type Option struct {
	Field string
	// Value is the value as given; "" when it is missing or says nothing
	// the reason does not (a flag set where it does not belong).
	Value  string
	Reason string
}

func (e *Option) Error() string {
	if e.Value == "" {
		return e.Field + ": " + e.Reason
	}
	return fmt.Sprintf("invalid %s %q: %s", e.Field, e.Value, e.Reason)
}

// ErrorName is the spec's subtype the runner reports.
func (e *Option) ErrorName() string { return "StepValidationError" }

// Compile compiles pattern, the value of field, as a Go regular
// expression; one that does not compile is a *Pattern whose reason is
// the syntax error without Go's preamble.
func Compile(field, pattern string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		reason := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			reason = se.Code.String() + ": " + se.Expr
		}
		return nil, &Pattern{Field: field, Pattern: pattern, Reason: reason}
	}
	return re, nil
}
