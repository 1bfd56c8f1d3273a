package dom

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// Fill methods, as reported in FillResult.Method.
const (
	MethodInsertText = "insertText" // focus, select, Input.insertText
	MethodReact      = "react"      // the prototype's native value setter, as asked
	MethodSetValue   = "setValue"   // the same, for date and time inputs
)

// segmented are the input types whose value is edited field by field
// (day, month, year), so inserted text does not land: they take the
// native setter path.
var segmented = map[string]bool{"date": true, "datetime-local": true, "month": true, "time": true, "week": true}

// FillRequest is one fill (SPEC 9.2).
type FillRequest struct {
	// Target is a CSS selector or a ref; Label finds the field by its label
	// (SPEC 6.4), matched as a case-insensitive substring unless Exact.
	// With neither, the focused element is filled.
	Target string
	Label  string
	Exact  bool
	Value  string
	// Clear replaces the content (default); false appends to it.
	Clear *bool
	// React sets the value through the native setter, for fields whose
	// framework ignores ordinary input (SPEC 19.5).
	React bool
	// Force skips the visibility checks; editability is always checked.
	Force bool
	// Timeout is the actionability timeout; DefaultTimeout when zero.
	Timeout time.Duration
}

// FillResult is what the fill did. Field order is output order.
type FillResult struct {
	Filled bool `json:"filled"`
	// Navigated: the fill changed the tab's URL (a change handler that
	// submits, a router); NewURL is the URL now.
	Navigated bool   `json:"navigated,omitempty"`
	NewURL    string `json:"newUrl,omitempty"`
	Method    string `json:"method"`
	// Appended: the value went after what the field held (clear: false);
	// otherwise it replaced it.
	Appended bool `json:"appended,omitempty"`
	// Value is what the field holds now, when the page changed what went
	// in (added the item and emptied the box, reformatted it).
	Value *string `json:"value,omitempty"`
	Found
	AutoForced bool `json:"autoForced,omitempty"`
	Note
	// Secret: the field is a password. Messages and Value never show what
	// it holds, and the caller keeps the value out of logs.
	Secret bool `json:"-"`
}

// masked is how a password's value reads, as formState shows it.
const masked = "********"

// Fill waits for the target to be visible and editable, focuses it (a CDP
// click, as a user would), selects its content unless appending, and
// inserts the value with Input.insertText, which fires beforeinput and
// input as typing does; change follows when the field loses focus or
// takes Enter, as it would for a person. The fill is judged by what the
// field held when the text went in, before the page's listeners reacted:
// a page that then consumes or reformats the value is reported (Value),
// not an error; only a field that took nothing refused. A target
// replaced under the fill (a re-render) is found again and filled. A
// navigation the fill caused is reported.
func Fill(ctx context.Context, p *page.Page, req FillRequest) (*FillResult, error) {
	if req.Target != "" && req.Label != "" {
		return nil, &invalid.Option{Field: "label", Reason: "give a selector, a ref or a label, not two"}
	}
	fx, err := page.WatchEffects(ctx, p, false)
	if err != nil {
		return nil, err
	}
	defer fx.Close()
	res, err := fillOne(ctx, p, req)
	if err != nil {
		return nil, err
	}
	out := fx.Collect(ctx, FillGrace)
	res.Navigated, res.NewURL = out.Navigated, out.NewURL
	res.Warning = page.JoinNotes(res.Warning, out.Warning)
	return res, nil
}

// fillOne is one field's fill, without watching for navigation. A target
// replaced before the text went in is resolved again and filled, for as
// long as the actionability timeout allows.
func fillOne(ctx context.Context, p *page.Page, req FillRequest) (*FillResult, error) {
	target := Target{Label: req.Label, Exact: req.Exact}
	if req.Target != "" {
		target = ParseTarget(req.Target)
	}
	res, replaced, err := reResolving(req.Timeout, target, ActionFill, func(timeout time.Duration, again bool) (*FillResult, error) {
		return fillAttempt(ctx, p, req, target, timeout, again)
	})
	if kind := choiceKind(err); kind != "" && !req.React {
		res, err = fillChoice(ctx, p, req, target, kind)
	}
	if res != nil {
		res.or(replaced)
	}
	return res, err
}

func fillAttempt(ctx context.Context, p *page.Page, req FillRequest, target Target, timeout time.Duration, again bool) (*FillResult, error) {
	el, err := WaitActionable(ctx, p, ActionRequest{Target: target, Action: ActionFill, Force: req.Force, Timeout: timeout, Describe: again, AgentTimeout: req.Timeout > 0})
	if err != nil {
		return nil, err
	}
	defer release(ctx, p, el)

	f := filler{p: p, el: el, target: target, value: req.Value, clear: req.Clear == nil || *req.Clear, secret: el.InputType == "password"}
	res := &FillResult{Found: el.Found, AutoForced: el.AutoForced, Secret: f.secret}
	if el.AutoForced {
		res.Warning = el.forcedNote("filled anyway")
	}
	switch {
	case req.React:
		return f.react(ctx, res, MethodReact)
	case segmented[el.InputType]:
		return f.react(ctx, res, MethodSetValue)
	}
	return f.insert(ctx, res)
}

// filler holds one fill's element and intent between its page calls.
type filler struct {
	p      *page.Page
	el     *Element
	target Target
	value  string
	clear  bool
	secret bool // a password field
}

// shown is a value as a message quotes it: a password only by its length.
func (f filler) shown(s string) string {
	if f.secret {
		return fmt.Sprintf("a password of %d characters", utf8.RuneCountInString(s))
	}
	return strconv.Quote(s)
}

func (f filler) fail(reason error) error {
	return &ActionabilityError{Target: f.target, Action: ActionFill, Reason: reason}
}

func (f filler) insert(ctx context.Context, res *FillResult) (*FillResult, error) {
	if f.el.Editor == editorEditContext || f.el.Editor == editorProxy {
		return f.editor(ctx, res)
	}
	// A covered or forced field is focused from script instead: a click
	// would land on whatever is on top of it.
	if !f.el.Focused && f.el.Clickable && !f.el.AutoForced && f.el.Point != nil {
		if err := mouseClick(ctx, f.p.S, *f.el.Point, "left", 1); err != nil {
			return nil, err
		}
	}
	var prep struct {
		Detached   bool   `json:"detached"`
		Focused    bool   `json:"focused"`
		Before     string `json:"before"`
		ReplaceAll bool   `json:"replaceAll"`
	}
	if err := f.p.CallJS(ctx, fillPrepareFn(), &prep, map[string]any{"token": f.el.token, "clear": f.clear}); err != nil {
		return nil, err
	}
	switch {
	case prep.Detached:
		return nil, errReplaced
	case !prep.Focused:
		return nil, f.fail(&NotEditableError{Reason: "it cannot take focus"})
	}
	text := f.value
	if prep.ReplaceAll {
		text = prep.Before + f.value
	}
	var err error
	switch {
	case text != "":
		err = insertText(ctx, f.p.S, text)
	case prep.Before != "":
		err = pressBackspace(ctx, f.p.S) // insertText("") leaves the selection in place
	}
	if err != nil {
		return nil, err
	}
	var fin struct {
		Navigated bool    `json:"navigated"`
		Detached  bool    `json:"detached"`
		Landed    *string `json:"landed"`
		Value     *string `json:"value"`
		Rendered  bool    `json:"rendered"`
	}
	err = f.p.CallJS(ctx, fillFinishFn(), &fin, f.el.token)
	if cdp.IsContextDestroyed(err) {
		fin.Navigated, err = true, nil
	}
	if err != nil {
		return nil, err
	}
	res.Method = MethodInsertText
	if fin.Navigated {
		// The page the text went into is gone; Fill reports where it went.
		res.Filled = true
		return res, nil
	}
	if fin.Detached && fin.Landed == nil {
		// The field was replaced before the text reached it. Replacing the
		// new one's content is safe; appending twice would not be.
		if f.clear {
			return nil, errReplaced
		}
		return nil, f.fail(&DetachedError{})
	}
	return f.verify(res, prep.Before, fin.Landed, fin.Value, fin.Rendered)
}

// react sets the value through the prototype's native setter.
func (f filler) react(ctx context.Context, res *FillResult, method string) (*FillResult, error) {
	var r struct {
		Detached    bool    `json:"detached"`
		Unsupported bool    `json:"unsupported"`
		Before      string  `json:"before"`
		Landed      *string `json:"landed"`
		Value       *string `json:"value"`
	}
	err := f.p.CallJS(ctx, fillReactFn(), &r, map[string]any{"token": f.el.token, "value": f.value, "clear": f.clear})
	switch {
	case err != nil:
		return nil, err
	case r.Detached:
		return nil, errReplaced
	case r.Unsupported: // contenteditable has no value setter
		return f.insert(ctx, res)
	}
	res.Method = method
	return f.verify(res, r.Before, r.Landed, r.Value, false)
}

// verify judges the fill by what went in (landed, read when the text
// reached the field, before the page reacted; nil when nothing did) and
// reports what the field holds now (nil when it left the page). rendered
// means the texts are a contenteditable's innerText, which shows a run of
// spaces as one.
func (f filler) verify(res *FillResult, before string, landed, now *string, rendered bool) (*FillResult, error) {
	sameText := func(a, b string) bool { return sameText(a, b, rendered) }
	want := f.value
	if !f.clear {
		want = before + f.value
	}
	took := landed
	if took == nil {
		took = now // no input event: the value may be there all the same
	}
	switch {
	case took == nil || !sameText(*took, want) && (sameText(*took, before) || *took == "" || landed == nil):
		got := before
		if now != nil {
			got = *now
		}
		return nil, f.fail(&NotEditableError{Reason: fmt.Sprintf("it took no text: its value is %s after the fill (the page or the input type rejected %s; for a framework-controlled field, retry with react: true)", f.shown(got), f.shown(f.value))})
	case !sameText(*took, want):
		res.Warning = page.JoinNotes(res.Warning, fmt.Sprintf("the field took %s, not %s (a length limit or the input type cut it)", f.shown(*took), f.shown(want)))
	}
	res.Appended = !f.clear && before != ""
	if now != nil && !sameText(*now, *took) {
		res.Value = now
		if f.secret {
			m := masked
			res.Value = &m
		}
	}
	res.Filled = true
	return res, nil
}

// sameText compares what a field holds with what was typed, reading a
// no-break space as a space: a contenteditable keeps a trailing or
// doubled space as U+00A0 so that it shows, which is no change the page
// made. When rendered, runs of spaces count as one, as innerText shows
// them, and so do runs of line breaks: innerText puts a blank line
// between two paragraphs, where the value had one line break.
func sameText(a, b string, rendered bool) bool {
	if a == b {
		return true
	}
	a, b = strings.ReplaceAll(a, "\u00a0", " "), strings.ReplaceAll(b, "\u00a0", " ")
	if rendered {
		a, b = spaceRuns.ReplaceAllString(a, " "), spaceRuns.ReplaceAllString(b, " ")
		a, b = breakRuns.ReplaceAllString(a, "\n"), breakRuns.ReplaceAllString(b, "\n")
	}
	return a == b
}

var (
	spaceRuns = regexp.MustCompile(` {2,}`)
	breakRuns = regexp.MustCompile(`\n[ \n]*\n`)
)

// errReplaced: the target left the page before the action reached it, so
// the action can be tried again on whatever stands for it now.
var errReplaced = errors.New("the element was replaced before the action reached it")

// minAttempt is the least time a retry after a replacement gets to find
// the new element.
const minAttempt = 100 * time.Millisecond

// reResolving runs attempt with what is left of the actionability
// timeout, again for as long as the target it readied is replaced before
// the action reaches it (errReplaced), as a re-rendering framework does;
// replaced says whether that happened. Each attempt resolves the target
// afresh: a selector, text or label matches the new element, a ref is
// re-resolved from what its snapshot recorded; again tells an attempt
// after a replacement, whose element the output describes (Describe).
func reResolving[T any](timeout time.Duration, target Target, action Action, attempt func(t time.Duration, again bool) (T, error)) (res T, replaced bool, err error) {
	deadline := time.Now().Add(orDefault(timeout))
	for {
		res, err = attempt(max(time.Until(deadline), minAttempt), replaced)
		if !errors.Is(err, errReplaced) {
			return res, replaced, err
		}
		replaced = true
		if !time.Now().Before(deadline) {
			return res, true, &ActionabilityError{Target: target, Action: action, Reason: &DetachedError{}}
		}
	}
}

func orDefault(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultTimeout
	}
	return d
}
