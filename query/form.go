package query

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/cdpskill/cdpskill/page"
)

// FormField is one field of a form. A radio group is one field whose
// value is the checked button's value, or null. Value is a string, a
// boolean for a checkbox, a list for <select multiple> and file inputs;
// a password reads "********", or "" when empty. Required and Disabled
// appear only when true; Message is the browser's validation message of
// an invalid field.
type FormField struct {
	Name     string          `json:"name"`
	Type     string          `json:"type"`
	Label    string          `json:"label,omitempty"`
	Value    json.RawMessage `json:"value"`
	Required bool            `json:"required,omitempty"`
	Valid    bool            `json:"valid"`
	Message  string          `json:"message,omitempty"`
	Disabled bool            `json:"disabled,omitempty"`
}

// FieldError is a field failing constraint validation: its name (or a
// selector when it has none), label and the browser's message.
type FieldError struct {
	Field   string `json:"field"`
	Label   string `json:"label,omitempty"`
	Message string `json:"message"`
}

// checkTarget trims and checks a selector or ref before anything runs.
func checkTarget(target string) (string, error) {
	t := strings.TrimSpace(target)
	return t, CheckSelector(t)
}

// FormState is what formState reports (SPEC 11.10). Valid is true when
// every field passes constraint validation.
type FormState struct {
	Valid      bool        `json:"valid"`
	FieldCount int         `json:"fieldCount"`
	Fields     []FormField `json:"fields"`
}

// ReadForm reads every field of the form (or other container) target
// names, without changing anything.
func ReadForm(ctx context.Context, p *page.Page, target string) (*FormState, error) {
	t, err := checkTarget(target)
	if err != nil {
		return nil, err
	}
	var out FormState
	if err := call(ctx, p, formStateFn(), t, map[string]any{"target": t}, &out); err != nil {
		return nil, err
	}
	if out.Fields == nil {
		out.Fields = []FormField{}
	}
	return &out, nil
}

// Validity is what validate reports for a field (SPEC 11.11): Validity
// lists only the flags that are set. For a form, Errors lists its
// failing fields instead.
type Validity struct {
	Valid    bool            `json:"valid"`
	Message  string          `json:"message,omitempty"`
	Validity map[string]bool `json:"validity,omitempty"`
	Errors   []FieldError    `json:"errors,omitempty"`
}

// Validate reads the constraint-validation state of the target field, or
// of every field of the target form, without firing invalid events.
func Validate(ctx context.Context, p *page.Page, target string) (*Validity, error) {
	t, err := checkTarget(target)
	if err != nil {
		return nil, err
	}
	var out Validity
	if err := call(ctx, p, validateFn(), t, map[string]any{"target": t}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Submission is what submit reports (SPEC 11.12).
type Submission struct {
	Submitted bool         `json:"submitted"`
	Valid     bool         `json:"valid"`
	Errors    []FieldError `json:"errors,omitempty"`
}

// Submit submits the target form (or the form of the target button or
// field) with requestSubmit, so its submit handlers run. When fields fail
// validation it submits nothing, shows the browser's messages and returns
// the Submission together with a *FormInvalidError. A navigation the
// submission starts is not waited for.
func Submit(ctx context.Context, p *page.Page, target string) (*Submission, error) {
	t, err := checkTarget(target)
	if err != nil {
		return nil, err
	}
	var out Submission
	if err := call(ctx, p, submitFn(), t, map[string]any{"target": t}, &out); err != nil {
		return nil, err
	}
	if !out.Valid {
		return &out, &FormInvalidError{Errors: out.Errors}
	}
	return &out, nil
}
