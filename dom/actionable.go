package dom

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

// Action is what an element is being readied for; it picks the checks.
type Action string

const (
	ActionClick Action = "click"
	ActionFill  Action = "fill"
)

// DefaultTimeout is how long an element may take to become actionable
// (SPEC 8.9): short, because auto-force follows.
const DefaultTimeout = 5 * time.Second

// ActionRequest asks WaitActionable to ready Target for Action.
type ActionRequest struct {
	Target Target
	Action Action
	// Force skips every check but editability (SPEC 8.8).
	Force bool
	// Offset, when set, is the action point relative to the top-left of
	// the element's box instead of its centre.
	Offset *Point
	// Timeout bounds the waiting; DefaultTimeout when zero. ctx bounds it
	// too.
	Timeout time.Duration
	// AgentTimeout says the agent set the wait itself (the step's
	// timeout parameter): a target that is nowhere is waited for until
	// Timeout. Without it, such a target fails once the page has been
	// still for StillFor (endEarly).
	AgentTimeout bool
	// StableFrames, for a click, requires the element's box to stay the
	// same across that many animation frames (SPEC 8.6). Zero checks two
	// frames only while an animation or transition moves the element.
	StableFrames int
	// Describe asks for the element's description (Found.Target) even
	// when it was not re-resolved: the attempt after a replacement.
	Describe bool
	// ScrollSearch: a target that is nowhere is looked for through the
	// page's scrolling containers (a virtualized grid renders only the
	// rows in view) before the wait goes on; a target by text always is.
	ScrollSearch bool

	probe bool // install the click-verification listener
}

// Found says whether the target's element had been replaced and was
// found again (a ref re-resolved, or a selector, text or label matched
// anew after a re-render), and then what was acted on, as the agent reads
// it: `checkbox in "Pay rent"`. Results embed it, so the output names the
// element whenever it is not the one the agent last saw.
type Found struct {
	ReResolved bool   `json:"reResolved,omitempty"`
	Target     string `json:"target,omitempty"`
}

// or marks a result whose action was tried again on a replacement.
func (f *Found) or(replaced bool) {
	f.ReResolved = f.ReResolved || replaced
}

// Element is a target that passed the checks, or was forced past them. It
// stays pinned in the page until Release, so every call of one action
// works on the same node even if the selector would now match another.
type Element struct {
	token string
	// Point is where to act, in top-level viewport CSS pixels; nil when the
	// element has no box (display:none and the like, when forced).
	Point *Point
	// Clickable means nothing else was at Point when it was checked.
	Clickable bool
	// Focused means the element had focus when it was checked.
	Focused bool
	// InputType is the type of an <input> ("text", "date"…), else "".
	InputType string
	// Editor, for a fill, is the kind of editor whose input the element
	// is (inpage/editors.js): "editcontext", "proxy" (a textarea hidden
	// behind the rendered lines), "rich" (a contenteditable), else "".
	// Point and Clickable are then about the editor's view.
	Editor string
	Found
	// MatchedIndex is which of Target.Selectors matched, else -1.
	MatchedIndex int
	// Scrolled: the target was found by scrolling a container to it.
	Scrolled *Scrolled
	// ViaLabel means the target was a visually hidden checkbox or radio
	// and the element to click is its visible label (SPEC 19.16).
	ViaLabel bool
	// AutoForced means the timeout passed with the element still not
	// actionable and the action goes ahead anyway (SPEC 8.7); Forced is
	// the last reason it was not, one of the ActionabilityError reasons.
	AutoForced bool
	Forced     error
	// leaving: the action set its document navigating away. Chrome holds
	// the page's calls back until the new one commits, and the pin goes
	// with the old document: Release would only wait.
	leaving bool
}

// Release unpins the element. Callers defer it; it is best-effort.
func (e *Element) Release(ctx context.Context, p *page.Page) error {
	return p.CallJS(ctx, releaseFn(), nil, e.token)
}

// forcedNote is the warning for an auto-forced action: why, then what was
// done about it.
func (e *Element) forcedNote(done string) string {
	reason := e.Forced
	var ae *ActionabilityError
	if errors.As(reason, &ae) {
		reason = ae.Reason
	}
	return fmt.Sprintf("still %v when the actionability timeout passed; %s", reason, done)
}

// release runs Release even when ctx has already ended, under its own
// short deadline, so a timed-out step does not leave a probe behind. After
// a timeout the deadline is shorter: the page may be the reason (its
// script stuck in a loop), and a probe left behind costs less than the
// agent's wait.
func release(ctx context.Context, p *page.Page, el *Element) {
	if el.leaving {
		return
	}
	limit := 2 * time.Second
	if ctx.Err() != nil {
		limit = 250 * time.Millisecond
	}
	ctx, cancel := xcontext.Detached(ctx, limit)
	defer cancel()
	_ = el.Release(ctx, p)
}

// WaitActionable resolves req.Target and retries the actionability checks
// (SPEC 8) at 0, 50, 100, 200, 200… ms until they pass or req.Timeout
// passes. Permanent failures (invalid selector, unknown ref, wrong element
// type for fill) return at once, and a target that is nowhere on a page
// that has been still for StillFor fails then (endEarly). At the timeout
// an element that exists but is not visible, covered, moving or without
// pointer events is auto-forced; otherwise the last failure is returned:
// *NotFoundError, *StaleElementError or *ActionabilityError. If ctx ends
// first the error is a *TimeoutError wrapping ctx's error.
func WaitActionable(ctx context.Context, p *page.Page, req ActionRequest) (*Element, error) {
	start := time.Now()
	deadline := start.Add(orDefault(req.Timeout))
	token := page.Token()
	var last error
	lastVerdict := waitable
	reResolved := false
	var stillIn time.Duration // until the page may have been still for StillFor
	hunt := scrollHunt{done: !req.searchesScrollers()}
	now := false // the page moved under the target: try again at once
	for attempt := 0; ; attempt++ {
		wait := retryDelay(attempt)
		if stillIn > 0 {
			wait = min(wait, stillIn)
		}
		if now {
			wait, now = 0, false
		} else if attempt > 0 && time.Until(deadline) < wait {
			break
		}
		if err := xcontext.Sleep(ctx, wait); err != nil {
			return nil, &TimeoutError{Target: req.Target, Action: req.Action, Last: last, Err: err}
		}
		// An attempt is not cut short at the deadline: its page work is
		// bounded (two frames at most), and a hung page is ctx's to end.
		// After an attempt re-pointed a ref, the next finds it directly
		// and must still name it.
		req.Describe = req.Describe || reResolved
		res, err := check(ctx, p, req, token, req.Force)
		if err != nil {
			if ctx.Err() != nil {
				return nil, &TimeoutError{Target: req.Target, Action: req.Action, Last: last, Err: ctx.Err()}
			}
			if cdp.IsContextDestroyed(err) {
				continue // the page is navigating: the next document may have it
			}
			return nil, err
		}
		// An attempt that re-resolved a ref re-points it, so a retry finds it
		// directly: the news must outlive the attempt.
		reResolved = reResolved || res.ReResolved
		if res.Status == "ok" && hunt.partial(ctx, p, req, res, deadline) {
			now = true
			continue // the page moved under the element found
		}
		if res.Status == "ok" {
			el := res.element(token)
			el.ReResolved, el.Scrolled = reResolved, hunt.scrolled
			return el, inTab(ctx, p, el.Point)
		}
		verdict, problem := res.problem(req)
		if verdict == permanent {
			return nil, problem
		}
		last, lastVerdict = problem, verdict
		stillIn = 0
		if res.Status == "notFound" && hunt.missed(ctx, p, req, deadline) {
			now = true
			continue
		}
		// A ref whose element is gone is a miss too: on a still page its
		// row will not come back by waiting.
		if res.Status == "notFound" || res.Status == "stale" {
			var still bool
			if still, stillIn = endEarly(ctx, p, req, last); still {
				break
			}
		}
	}
	req.Describe = req.Describe || reResolved
	if nf := (*NotFoundError)(nil); errors.As(last, &nf) {
		nf.ScrollNote, nf.Waited = hunt.note, time.Since(start)
	}
	el, err := expire(ctx, p, req, token, last, lastVerdict)
	if el != nil {
		el.ReResolved = el.ReResolved || reResolved
		el.Scrolled = hunt.scrolled
	}
	return el, err
}

// searchesScrollers: a target that is nowhere may be in a scrolling
// container's rows not rendered yet.
func (req ActionRequest) searchesScrollers() bool {
	return req.ScrollSearch || req.Target.Text != ""
}

// expire decides what the timeout means: auto-force an element that is
// there but not ready, or report why there was nothing to act on.
func expire(ctx context.Context, p *page.Page, req ActionRequest, token string, last error, v verdict) (*Element, error) {
	if last == nil { // every attempt met a navigating page
		return nil, &TimeoutError{Target: req.Target, Action: req.Action, Err: context.DeadlineExceeded}
	}
	if v != forceable {
		return nil, last
	}
	res, err := check(ctx, p, req, token, true)
	if err != nil {
		if ctx.Err() != nil {
			return nil, &TimeoutError{Target: req.Target, Action: req.Action, Last: last, Err: ctx.Err()}
		}
		return nil, err
	}
	if res.Status != "ok" {
		_, problem := res.problem(req)
		return nil, problem
	}
	el := res.element(token)
	el.AutoForced, el.Forced = true, last
	return el, inTab(ctx, p, el.Point)
}

// inTab moves pt, reported by the page in the viewport of the frame p
// evaluates in, to the tab's viewport, where input events aim.
func inTab(ctx context.Context, p *page.Page, pt *Point) error {
	if p.Frame == nil || pt == nil {
		return nil
	}
	x, y, err := p.FrameOffset(ctx, true)
	if err != nil {
		return err
	}
	pt.X += x
	pt.Y += y
	return nil
}

// retryDelay is the pause before attempt n (SPEC 8.9).
func retryDelay(n int) time.Duration {
	delays := [...]time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond}
	if n < len(delays) {
		return delays[n]
	}
	return 200 * time.Millisecond
}

// checkArg is one attempt's request to js/actionable.js.
type checkArg struct {
	Target   targetArg `json:"target"`
	Action   Action    `json:"action"`
	Force    bool      `json:"force,omitempty"`
	Offset   *Point    `json:"offset,omitempty"`
	Token    string    `json:"token"`
	Describe bool      `json:"describe,omitempty"`
	Probe    bool      `json:"probe,omitempty"`
	Stable   int       `json:"stableFrames,omitempty"`
}

// checkResult is js/actionable.js's reply: a status and its details.
type checkResult struct {
	Status     string        `json:"status"`
	Message    string        `json:"message"`
	Detail     string        `json:"detail"`
	Reason     string        `json:"reason"`
	Permanent  bool          `json:"permanent"`
	Kind       string        `json:"kind"`
	By         Interceptor   `json:"by"`
	On         string        `json:"on"`
	Role       string        `json:"role"`
	Name       string        `json:"name"`
	ReResolved bool          `json:"reResolved"`
	Target     string        `json:"target"` // the element acted on, when described
	Gone       string        `json:"gone"`   // a stale ref's element, described
	Now        []ElementHint `json:"now"`    // what stands where it was
	Where      string        `json:"where"`  // the role of the container it left
	Point      *Point        `json:"point"`
	Clickable  bool          `json:"clickable"`
	Focused    bool          `json:"focused"`
	InputType  string        `json:"inputType"`
	Editor     string        `json:"editor"`
	PartOfRow  bool          `json:"partOfRow"` // text only part of a scrolling container's row's
	Index      *int          `json:"index"`
	ViaLabel   bool          `json:"viaLabel"`
	Selector   string        `json:"selector"` // the invalid one, of several
	Snapshot   string        `json:"snapshot"` // "sN" of a ref from before a navigation
}

func check(ctx context.Context, p *page.Page, req ActionRequest, token string, force bool) (*checkResult, error) {
	arg := checkArg{Target: req.Target.arg(), Action: req.Action, Force: force, Offset: req.Offset, Token: token,
		Describe: req.Describe, Probe: req.probe, Stable: req.StableFrames}
	var res checkResult
	if err := p.CallJS(ctx, actionableFn(), &res, arg); err != nil {
		return nil, err
	}
	return &res, nil
}

func (r *checkResult) element(token string) *Element {
	idx := -1
	if r.Index != nil {
		idx = *r.Index
	}
	return &Element{token: token, Point: r.Point, Clickable: r.Clickable, Focused: r.Focused, InputType: r.InputType, Editor: r.Editor,
		Found: Found{ReResolved: r.ReResolved, Target: r.Target}, MatchedIndex: idx, ViaLabel: r.ViaLabel}
}

// verdict is what a failed attempt means for the loop.
type verdict int

const (
	permanent verdict = iota // fail now: waiting cannot help
	waitable                 // retry; at the timeout, fail with it
	forceable                // retry; at the timeout, auto-force
)

// problem turns a failed attempt into its typed error and verdict.
func (r *checkResult) problem(req ActionRequest) (verdict, error) {
	t := req.Target
	blocked := func(reason error) error { return &ActionabilityError{Target: t, Action: req.Action, Reason: reason} }
	switch r.Status {
	case "notFound":
		return waitable, &NotFoundError{Target: t, Detail: r.Message}
	case "unknownRef":
		return permanent, &NotFoundError{Target: t, Detail: r.Message}
	case "invalidSelector":
		return permanent, &invalid.Selector{Selector: orStr(r.Selector, t.Selector), Reason: r.Message}
	case "stale":
		return waitable, &StaleElementError{Ref: t.Ref, Role: r.Role, Name: r.Name, Gone: r.Gone, Now: r.Now, Where: r.Where}
	case "navigated":
		return permanent, &StaleElementError{Ref: t.Ref, Navigated: true, Snapshot: orStr(r.Snapshot, refSnapshot(t.Ref))}
	case "notEditable":
		v := waitable
		if r.Permanent || req.Force {
			v = permanent
		}
		return v, blocked(&NotEditableError{Reason: r.Reason, Permanent: r.Permanent, Kind: r.Kind})
	case "notVisible":
		return forceable, blocked(&NotVisibleError{Detail: r.Detail})
	case "covered":
		return forceable, blocked(&CoveredError{By: r.By})
	case "pointerEventsNone":
		return forceable, blocked(&PointerEventsNoneError{On: r.On})
	case "unstable":
		return forceable, blocked(&UnstableError{})
	}
	return permanent, fmt.Errorf("dom: unexpected actionability status %q: %s", r.Status, r.Message)
}

func orStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
