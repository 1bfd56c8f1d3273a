package dom

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// Field is one entry of a batch fill: a CSS selector, a ref or a label,
// and the value for it.
type Field struct {
	Target string
	Value  string
}

// FillBatchRequest fills several fields in one step (SPEC 9.2). The
// options apply to every field.
type FillBatchRequest struct {
	Fields  []Field
	Clear   *bool
	React   bool
	Force   bool
	Timeout time.Duration
}

// FillBatchResult counts the fields and says how each went, in the order
// given.
type FillBatchResult struct {
	Total     int           `json:"total"`
	Filled    int           `json:"filled"`
	Failed    int           `json:"failed"`
	Navigated bool          `json:"navigated,omitempty"`
	NewURL    string        `json:"newUrl,omitempty"`
	Results   []FieldResult `json:"results"`
	Note
}

// FieldResult is one field of a batch fill.
type FieldResult struct {
	Field    string `json:"field"`
	Filled   bool   `json:"filled"`
	Appended bool   `json:"appended,omitempty"` // as for a single fill
	// Value is what the field holds now, when the page changed what went
	// in, as for a single fill.
	Value *string `json:"value,omitempty"`
	Found
	AutoForced bool   `json:"autoForced,omitempty"`
	Warning    string `json:"warning,omitempty"`
	Error      string `json:"error,omitempty"`
	// Secret: the field is a password (see FillResult).
	Secret bool `json:"-"`
}

// BatchFillError means some fields of a batch could not be filled; the
// others were. It unwraps to each field's error, so errors.As finds the
// first failure's subtype (and its SearchTerm) and errors.Is sees a
// deadline.
type BatchFillError struct {
	Total  int
	Fields []string // the failed fields, in order
	Errs   []error  // their errors
}

func (e *BatchFillError) Error() string {
	parts := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		parts[i] = e.Fields[i] + ": " + err.Error()
	}
	if len(e.Errs) == e.Total {
		return fmt.Sprintf("no field could be filled: %s", strings.Join(parts, "; "))
	}
	return fmt.Sprintf("%d of %d fields could not be filled (the others were): %s", len(e.Errs), e.Total, strings.Join(parts, "; "))
}

func (e *BatchFillError) Unwrap() []error { return e.Errs }

// FillBatch fills each field in turn. A field that fails does not stop
// the others, but the batch then fails with *BatchFillError, returned
// together with the result so the agent sees which fields took. A
// navigation during the batch is reported once, for the whole batch.
func FillBatch(ctx context.Context, p *page.Page, req FillBatchRequest) (*FillBatchResult, error) {
	if len(req.Fields) == 0 {
		return nil, &invalid.Option{Field: "fields", Reason: "give at least one field"}
	}
	fx, err := page.WatchEffects(ctx, p, false)
	if err != nil {
		return nil, err
	}
	defer fx.Close()
	res := &FillBatchResult{Total: len(req.Fields)}
	batchErr := &BatchFillError{Total: len(req.Fields)}
	for _, f := range req.Fields {
		one := FillRequest{Target: f.Target, Value: f.Value, Clear: req.Clear, React: req.React, Force: req.Force, Timeout: req.Timeout}
		if isLabel(f.Target) {
			one.Target, one.Label = "", f.Target
		}
		r, err := fillOne(ctx, p, one)
		fr := FieldResult{Field: f.Target}
		if err != nil {
			fr.Error = err.Error()
			batchErr.Fields = append(batchErr.Fields, f.Target)
			batchErr.Errs = append(batchErr.Errs, err)
		} else {
			fr.Filled, fr.Appended, fr.Value, fr.Found, fr.AutoForced, fr.Warning, fr.Secret = true, r.Appended, r.Value, r.Found, r.AutoForced, r.Warning, r.Secret
			res.Filled++
		}
		res.Results = append(res.Results, fr)
	}
	res.Failed = len(batchErr.Errs)
	out := fx.Collect(ctx, FillGrace)
	res.Navigated, res.NewURL, res.Warning = out.Navigated, out.NewURL, out.Warning
	if res.Failed > 0 {
		return res, batchErr
	}
	return res, nil
}

// isLabel tells a field's label ("Work email", "Email") from a selector
// or a ref: no CSS punctuation, and not a form element's tag name. No
// page would mean "Full name" as a selector of <name> inside <Full>. A
// label as forms print it ("Email *", "Alert volume:", "Name (required)")
// is a label too: its marks are no CSS an agent would write, unless what
// they follow is a tag name ("form *").
func isLabel(key string) bool {
	k := strings.TrimSpace(key)
	if IsRef(k) {
		return false
	}
	core := labelCore(k)
	if core == "" || strings.ContainsAny(core, "#.[]:>+~*=()\"'|^$") {
		return false
	}
	switch strings.ToLower(core) {
	case "input", "textarea", "select", "form", "button", "body", "main", "div", "span", "p":
		return false
	}
	return core == k || !htmlTags[core]
}

// labelMarks are what forms print after a label's words: a colon, a
// required star, "(required)" or "(optional)"; a star may come first.
var labelMarks = regexp.MustCompile(`^\*+\s*|(?:\s*(?:[*:：]|\((?i:required|optional)\)))+$`)

// labelCore is a label's words without its marks.
func labelCore(k string) string {
	for {
		c := strings.TrimSpace(labelMarks.ReplaceAllString(k, ""))
		if c == k {
			return c
		}
		k = c
	}
}

// htmlTags are element names a selector such as "li *" starts with.
var htmlTags = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`a abbr address area article aside audio b blockquote body br button canvas
		caption code col dd details dialog div dl dt em fieldset figure footer form h1 h2 h3 h4 h5 h6 header
		hr html i iframe img input label legend li main menu nav ol optgroup option output p pre section
		select small span strong summary table tbody td template textarea tfoot th thead tr u ul video`) {
		htmlTags[t] = true
	}
}
