package aria

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"regexp/syntax"
	"slices"
)

// RootNotFoundError means the snapshot root matched no element.
type RootNotFoundError struct{ Root string }

func (e *RootNotFoundError) Error() string {
	return fmt.Sprintf("snapshot root %q matches no element", e.Root)
}

// ErrorName is the SPEC 16.2 subtype the runner reports.
func (e *RootNotFoundError) ErrorName() string { return "ElementNotFoundError" }

// InvalidSelectorError means the root is not a valid CSS selector; it is
// reported at once instead of waiting for an element that cannot match
// (SPEC 19.14).
type InvalidSelectorError struct {
	Selector string
	Reason   string // the browser's parse error
}

func (e *InvalidSelectorError) Error() string {
	return fmt.Sprintf("snapshot root %q is not a valid CSS selector: %s", e.Selector, e.Reason)
}

// ErrorName is the SPEC 16.2 subtype the runner reports.
func (e *InvalidSelectorError) ErrorName() string { return "StepValidationError" }

// OptionError is a snapshot option with a value outside its range.
type OptionError struct {
	Field  string
	Value  string
	Reason string
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("snapshot option %s=%q %s", e.Field, e.Value, e.Reason)
}

// ErrorName is the SPEC 16.2 subtype the runner reports.
func (e *OptionError) ErrorName() string { return "StepValidationError" }

// PatternError is a regular expression (snapshotSearch's pattern, a role
// query's nameRegex) that does not compile.
type PatternError struct {
	Field   string
	Pattern string
	Reason  string
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("%s %q is not a valid regular expression: %s", e.Field, e.Pattern, e.Reason)
}

// ErrorName is the SPEC 16.2 subtype the runner reports.
func (e *PatternError) ErrorName() string { return "StepValidationError" }

// jsOnlyRE finds the JavaScript regular expression features Go's RE2
// lacks (lookaround, backreferences): patterns using them are left for
// the page to judge.
var jsOnlyRE = regexp.MustCompile(`\(\?<?[=!]|\\[1-9]|\\k<`)

// checkPattern rejects a pattern that cannot compile, before Chrome is
// touched. Matching is case-insensitive, so a leading (?i) is allowed.
func checkPattern(field, pattern string) error {
	if _, err := regexp.Compile(pattern); err != nil && !jsOnlyRE.MatchString(pattern) {
		reason := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			reason = se.Code.String() + ": " + se.Expr
		}
		return &PatternError{Field: field, Pattern: pattern, Reason: reason}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
