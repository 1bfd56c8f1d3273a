package runner

import (
	"encoding/json"
	"reflect"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/page"
)

// Result is the one JSON document a call prints. Field order is the
// output order (SPEC 3); empty fields are left out; the viewport
// snapshot, the largest field, comes last.
type Result struct {
	Status           string          `json:"status"`
	Tab              string          `json:"tab,omitempty"`
	Error            *errorJSON      `json:"error,omitempty"`
	Navigated        bool            `json:"navigated,omitempty"`
	FullSnapshot     string          `json:"fullSnapshot,omitempty"`
	Screenshot       string          `json:"screenshot,omitempty"`
	Context          *page.Context   `json:"context,omitempty"`
	Console          *capture.Report `json:"console,omitempty"`
	Steps            []StepResult    `json:"steps,omitempty"`
	Errors           []StepError     `json:"errors,omitempty"`
	Warnings         []string        `json:"warnings,omitempty"`
	Truncated        bool            `json:"truncated,omitempty"`
	ViewportSnapshot string          `json:"viewportSnapshot,omitempty"`
}

// StepResult is one step's outcome (SPEC 10.5).
type StepResult struct {
	Action  string          `json:"action"`
	Status  string          `json:"status"`
	Params  json.RawMessage `json:"params,omitempty"`
	Output  any             `json:"output,omitempty"`
	Warning string          `json:"warning,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// StepError is one entry of errors[] (SPEC 16.4).
type StepError struct {
	Step   int     `json:"step"`
	Action string  `json:"action"`
	Type   ErrType `json:"type"`
	Name   string  `json:"name,omitempty"`
	Error  string  `json:"error"`
}

// ExitCode is 0 when every step succeeded, else 1.
func (r *Result) ExitCode() int {
	if r.Status == "ok" {
		return 0
	}
	return 1
}

func errorResult(e *Error) *Result {
	return &Result{Status: "error", Error: e.json()}
}

// nilIfEmpty turns typed nil pointers, maps and slices into a true nil so
// omitempty drops them.
func nilIfEmpty(v any) any {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
	case reflect.Map, reflect.Slice:
		if rv.Len() == 0 {
			return nil
		}
	}
	return v
}
