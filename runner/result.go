package runner

import (
	"bytes"
	"encoding/json"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/diff"
	"github.com/cdpskill/cdpskill/page"
)

// Result is the one JSON document a call prints. Field order is the
// output order (SPEC 3); empty fields are left out; the viewport
// snapshot, the largest field, comes last.
type Result struct {
	Status         string          `json:"status"`
	Tab            string          `json:"tab,omitempty"`
	Error          *errorJSON      `json:"error,omitempty"`
	SiteProfile    string          `json:"siteProfile,omitempty"`
	ActionRequired *ActionRequired `json:"actionRequired,omitempty"`
	Navigated      bool            `json:"navigated,omitempty"`
	Changes        *diff.Changes   `json:"changes,omitempty"`
	FullSnapshot   string          `json:"fullSnapshot,omitempty"`
	Screenshot     string          `json:"screenshot,omitempty"`
	// ScreenshotScale is the screenshot's pixels per CSS pixel, when not
	// 1: a high pixel ratio scaled to fit a vision model.
	ScreenshotScale float64 `json:"screenshotScale,omitempty"`
	// ScreenshotLegend says, for an annotated screenshot ("annotate"),
	// what the elements are whose ref label found no room.
	ScreenshotLegend capture.Legend         `json:"screenshotLegend,omitempty"`
	Context          *page.Context          `json:"context,omitempty"`
	Console          *capture.Report        `json:"console,omitempty"`
	Network          *capture.NetworkReport `json:"network,omitempty"`
	// Routes are the tab's routes in force, with their hits.
	Routes           []routeLine  `json:"routes,omitempty"`
	Steps            []StepResult `json:"steps,omitempty"`
	Errors           []StepError  `json:"errors,omitempty"`
	Warnings         []string     `json:"warnings,omitempty"`
	Truncated        bool         `json:"truncated,omitempty"`
	ViewportSnapshot string       `json:"viewportSnapshot,omitempty"`

	// secrets are the values the call filled or typed into password
	// fields (and those of fills that failed before their field was
	// seen): the debug log masks them.
	secrets []string
	// trace is the call's CDP calls, for the debug log (Options.Trace).
	trace *cdp.Trace
}

// StepResult is one step's outcome (SPEC 10.5).
type StepResult struct {
	Action string          `json:"action"`
	Status string          `json:"status"`
	Params json.RawMessage `json:"params,omitempty"`
	Output any             `json:"output,omitempty"`
	// Response is what the server answered the step's waitForResponse.
	Response *stepResponse `json:"response,omitempty"`
	// Observation is the value of the step's observe hook.
	Observation any `json:"observation,omitempty"`
	// Dialogs are the JavaScript dialogs answered while the step ran.
	Dialogs []page.DialogReport `json:"dialogs,omitempty"`
	// Downloads are the files the step downloaded, saved under
	// $TMPDIR/cdp-skill/downloads.
	Downloads []capture.Download `json:"downloads,omitempty"`
	Warning   string             `json:"warning,omitempty"`
	Error     string             `json:"error,omitempty"`
	// Stack is the page's stack trace when page JavaScript threw.
	Stack string `json:"stack,omitempty"`
	// Context is what the page looked like when the step failed (SPEC 16.3).
	Context any `json:"context,omitempty"`
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

// Encode is the one JSON encoding of cdpskill output: compact, one line,
// and without HTML escaping, so "=>" stays "=>" and not "=\u003e".
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
