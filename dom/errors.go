package dom

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// NotFoundError means no element matched the target, on every attempt
// until the actionability timeout, or at once for a ref no snapshot issued.
type NotFoundError struct {
	Target Target
	Detail string        // why, when there is more to say than "no match"
	Waited time.Duration // 0 when the failure was immediate
	// Still is how long the page had stood still when the wait ended
	// before its timeout (StillFor); 0 when it did not.
	Still time.Duration
	// ScrollNote says which scrolling containers were searched for it.
	ScrollNote string
}

func (e *NotFoundError) Error() string {
	var b strings.Builder
	b.WriteString("element not found: ")
	switch {
	case e.Target.Ref != "":
		fmt.Fprintf(&b, "ref %s: %s; take a snapshot to get current refs", e.Target.Ref, e.Detail)
	case e.Detail != "":
		fmt.Fprintf(&b, "%s: %s", e.Target, e.Detail)
	case e.Target.Label != "":
		fmt.Fprintf(&b, "no visible form field labelled %q", e.Target.Label)
	default:
		fmt.Fprintf(&b, "nothing matches %s", e.Target)
	}
	if e.ScrollNote != "" {
		b.WriteString("; " + e.ScrollNote)
	}
	switch {
	case e.Still > 0:
		fmt.Fprintf(&b, " (waited %s: the page had not changed for %s and had no request under way; "+
			`give the step's parameters a "timeout" to wait longer for it)`,
			e.Waited.Round(time.Millisecond), e.Still.Round(100*time.Millisecond))
	case e.Waited > 0:
		fmt.Fprintf(&b, " (waited %s)", e.Waited.Round(time.Millisecond))
	}
	return b.String()
}

func (e *NotFoundError) ErrorName() string { return "ElementNotFoundError" }

// SearchTerm is what was looked for, for the failure context's near
// matches (SPEC 16.3).
func (e *NotFoundError) SearchTerm() string { return e.Target.SearchTerm() }

// Searched is implemented by the errors of an element search that failed
// or could not act: SearchTerm is the text, label or selector that was
// looked for ("" for a bare ref), to pass to FailureContext.
type Searched interface {
	error
	SearchTerm() string
}

// StaleElementError means a ref's element left the page (or its place:
// another row's content now fills it) and no element that is the same in
// the agent's eyes replaced it, or, with Navigated, that the ref is from a
// document the tab has since navigated away from.
type StaleElementError struct {
	Ref  string
	Role string
	Name string
	// Gone describes the element as the agent knew it (`checkbox in
	// "Call mom"`); Now, what stands where it was, with refs, and Where
	// the role of the container they are in ("list"), when known.
	Gone  string
	Now   []ElementHint
	Where string
	// Navigated: this document never issued the ref, which an earlier
	// document did (Snapshot, "sN", is the snapshot it came from).
	Navigated bool
	Snapshot  string
}

func (e *StaleElementError) Error() string {
	if e.Navigated {
		from := "the snapshot that issued it"
		if e.Snapshot != "" {
			from = "snapshot " + e.Snapshot
		}
		return fmt.Sprintf("%s is stale: the page has navigated since %s, so its refs are gone; take a new snapshot to get current refs", e.Ref, from)
	}
	if e.Gone != "" {
		return e.Ref + " is stale: the " + e.Gone + " is gone; " + e.standing()
	}
	what := e.Ref
	if e.Role != "" {
		what += fmt.Sprintf(" (%s %q)", e.Role, e.Name)
	}
	return what + " is stale: its element left the page and no element with the same role and name replaced it; take a fresh snapshot to get current refs"
}

// standing says what stands where the element was, and what to do.
func (e *StaleElementError) standing() string {
	if len(e.Now) == 0 {
		return "nothing like it is on the page now; take a fresh snapshot to get current refs"
	}
	where := "the page"
	if e.Where != "" {
		where = "the " + e.Where
	}
	names := make([]string, 0, 3)
	for _, h := range e.Now[:min(len(e.Now), 3)] {
		names = append(names, h.Text)
	}
	more := ""
	if len(e.Now) > 3 {
		more = ", …"
	}
	return fmt.Sprintf("%s now holds %s%s; act on one of nearMatches by its ref if it is what you meant, or take a fresh snapshot", where, strings.Join(names, ", "), more)
}

func (e *StaleElementError) ErrorName() string { return "StaleElementError" }

// SearchTerm is the accessible name the ref's element had.
func (e *StaleElementError) SearchTerm() string { return e.Name }

// ActionabilityError means the element exists but could not be acted on.
// Reason is one of *NotVisibleError, *CoveredError, *PointerEventsNoneError,
// *UnstableError, *NotEditableError or *DetachedError; errors.As reaches it.
type ActionabilityError struct {
	Target Target
	Action Action
	Reason error
}

func (e *ActionabilityError) Error() string {
	return fmt.Sprintf("cannot %s %s: %v", e.Action, e.Target, e.Reason)
}

func (e *ActionabilityError) Unwrap() error { return e.Reason }

// SearchTerm is what the target was looked for by.
func (e *ActionabilityError) SearchTerm() string { return e.Target.SearchTerm() }

// ErrorName is the reason's subtype; reasons without one can only outlast
// the actionability timeout, hence TimeoutError.
func (e *ActionabilityError) ErrorName() string {
	var named interface{ ErrorName() string }
	if errors.As(e.Reason, &named) {
		return named.ErrorName()
	}
	return "TimeoutError"
}

// NotVisibleError: display, visibility, opacity, size, hidden or aria-hidden
// keep the element from being seen (SPEC 8.3).
type NotVisibleError struct{ Detail string }

func (e *NotVisibleError) Error() string { return "not visible: " + e.Detail }

// CoveredError: another element receives events at the action point
// (SPEC 8.4).
type CoveredError struct{ By Interceptor }

func (e *CoveredError) Error() string { return "covered by " + e.By.String() }

// PointerEventsNoneError: pointer-events:none on the element or inherited
// from On, the outermost ancestor that sets it (SPEC 8.5).
type PointerEventsNoneError struct{ On string }

func (e *PointerEventsNoneError) Error() string {
	return "pointer-events: none (from " + e.On + ")"
}

// UnstableError: the element's box moved between two animation frames.
type UnstableError struct{}

func (e *UnstableError) Error() string {
	return "still moving (box not stable across two animation frames)"
}

// NotEditableError: fill cannot type into the element (SPEC 8.2). Permanent
// reasons (wrong element or input type) fail at once; disabled and
// readonly are waited on.
type NotEditableError struct {
	Reason    string
	Permanent bool
	// Kind is what a fill chooses in instead of typing: "select" (an
	// option) or "check" (a checkbox, radio or switch); "" for none.
	Kind string
}

func (e *NotEditableError) Error() string { return "not editable: " + e.Reason }

func (e *NotEditableError) ErrorName() string { return "ElementNotEditableError" }

// DetachedError: the element left the document between the check and the
// action.
type DetachedError struct{}

func (e *DetachedError) Error() string { return "detached from the document during the action" }

func (e *DetachedError) ErrorName() string { return "StaleElementError" }

// TimeoutError means ctx ended while waiting for the target; Last is the
// last reason it was not actionable, if any attempt got that far.
// errors.Is(err, context.DeadlineExceeded) holds when the step timed out.
// With Last, the message is that reason alone: the step that failed names
// the action.
type TimeoutError struct {
	Target Target
	Action Action
	Last   error
	Err    error
}

func (e *TimeoutError) Error() string {
	if e.Last != nil {
		return fmt.Sprintf("%v (still so when the step timed out)", e.Last)
	}
	return fmt.Sprintf("%s %s: timed out: %v", e.Action, e.Target, e.Err)
}

func (e *TimeoutError) Unwrap() []error {
	if e.Last == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Last}
}

// SearchTerm is what the target was looked for by.
func (e *TimeoutError) SearchTerm() string { return e.Target.SearchTerm() }

// ErrorName names what kept the action from happening when that was a
// missing or stale element: the agent's fix is a different target, not a
// longer timeout.
func (e *TimeoutError) ErrorName() string {
	var nf *NotFoundError
	var st *StaleElementError
	switch {
	case errors.As(e.Last, &nf):
		return nf.ErrorName()
	case errors.As(e.Last, &st):
		return st.ErrorName()
	}
	return "TimeoutError"
}

// Interceptor describes the element that would receive an action meant
// for another one.
type Interceptor struct {
	Tag   string `json:"tag"`
	ID    string `json:"id,omitempty"`
	Class string `json:"class,omitempty"`
	Text  string `json:"text,omitempty"`
	// Kind is a guess at the layer: cookie-banner, consent-dialog, modal,
	// popup, notification or overlay; "" when nothing suggests one.
	Kind string `json:"kind,omitempty"`
}

// String reads like div#overlay.modal-backdrop "Loading…" (overlay).
func (i Interceptor) String() string {
	s := i.Tag
	if i.ID != "" {
		s += "#" + i.ID
	}
	if i.Class != "" {
		cls := strings.Fields(i.Class)
		s += "." + strings.Join(cls[:min(len(cls), 3)], ".")
	}
	if i.Text != "" {
		s += fmt.Sprintf(" %q", i.Text)
	}
	if i.Kind != "" {
		s += " (" + i.Kind + ")"
	}
	return s
}
