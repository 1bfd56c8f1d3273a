package aria

import "fmt"

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
