package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cdpskill/cdpskill/page"
)

// stepHooks are an action step's hooks (SPEC 10.2): JavaScript predicates
// and a function, in the same forms pageFunction and poll take.
type stepHooks struct {
	// readyWhen is polled until truthy before the action; running out of
	// time fails the step.
	readyWhen string
	// settledWhen is polled until truthy after the action; running out of
	// time is a warning, never a failure.
	settledWhen string
	// observe runs once after settling; its value is the step's observation.
	observe string
}

func (h stepHooks) empty() bool { return h.readyWhen == "" && h.settledWhen == "" && h.observe == "" }

// takesHooks says whether a step accepts hooks and a dialog policy inside
// its params. Action steps do: those flagged hooks and, without needing
// the flag, every step that needs a tab and changes what is on screen
// (click, fill, type, press, hover, drag, selectOption, scroll, upload,
// goto…), so a family adding an action step gets hooks by marking it
// visual.
func takesHooks(s *step) bool {
	return s.has(hooks) || s.has(needsTab) && s.has(visual)
}

// hookSteps lists the steps that take hooks, for messages.
func hookSteps() []string {
	var names []string
	for i := range steps {
		if takesHooks(&steps[i]) {
			names = append(names, steps[i].name)
		}
	}
	sort.Strings(names)
	return names
}

// splitParams takes the hooks and the dialog policy out of an action's
// object params, recording them on ps, and returns the rest for the
// step's own decoder. Steps that take no hooks get a message that says
// where those belong.
func splitParams(ps *plannedStep, raw json.RawMessage) (json.RawMessage, error) {
	if !isObject(raw) {
		return raw, nil
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return raw, paramErrorf("%v", err)
	}
	var problems []string
	found := false
	for k, v := range keys {
		f := fieldAt(k, inParams)
		if f == nil {
			continue
		}
		if !takesHooks(ps.def) {
			return raw, extrasRejected(ps.def, keys)
		}
		found = true
		if err := f.set(v, inParams, nil, ps); err != nil {
			problems = append(problems, fmt.Sprintf("%q %v", k, err))
		}
		delete(keys, k)
	}
	if !found {
		return raw, nil
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return raw, paramErrorf("%s", strings.Join(problems, "; "))
	}
	rest, err := json.Marshal(keys)
	if err != nil {
		return raw, paramErrorf("%v", err)
	}
	return rest, nil
}

func (h *stepHooks) set(name, src string) {
	switch name {
	case "readyWhen":
		h.readyWhen = src
	case "settledWhen":
		h.settledWhen = src
	case "observe":
		h.observe = src
	}
}

func describeHookValue(v json.RawMessage, isString bool) string {
	if isString {
		return "an empty string"
	}
	return jsonKind(v)
}

// extrasRejected explains why a step that takes no hooks got some.
func extrasRejected(def *step, fields map[string]json.RawMessage) error {
	if _, ok := fields["dialog"]; ok {
		return paramErrorf(`"dialog" inside params is for action steps; put it beside the action instead: {%q: …, "dialog": {"accept": false}}`, def.name)
	}
	var given []string
	for _, name := range fieldNames(inParams) {
		if _, ok := fields[name]; ok && name != "dialog" {
			given = append(given, name)
		}
	}
	return paramErrorf("%s: %s takes no hooks; they go on action steps (%s). To wait before or after it, add a poll step",
		strings.Join(given, ", "), def.name, strings.Join(hookSteps(), ", "))
}

// hookPollInterval is how often readyWhen and settledWhen are evaluated.
const hookPollInterval = 100 * time.Millisecond

// runHooked runs one step's action between its hooks (SPEC 10.1), all
// under ctx, the step's deadline; an action on a tab settles before its
// settledWhen and observe, and before any later look at the page. The
// observation and any settle or settledWhen warning go into sr.
func (c *Call) runHooked(ctx context.Context, ps plannedStep, sr *StepResult) (output, error) {
	h := ps.hooks
	if h.readyWhen != "" {
		if err := c.awaitReady(ctx, h.readyWhen); err != nil {
			return output{}, err
		}
	}
	var mark settleMark
	if settles(ps.def) {
		mark = c.armSettle(ctx, ps.def)
	}
	var acted func()
	if settles(ps.def) && ps.last && h.empty() && ps.waitFor == nil {
		acted = c.shootOnce(ctx, mark)
	}
	out, err := ps.def.run(ctx, c.stepEnv(ps.def, acted), ps.params)
	if err == nil && settles(ps.def) {
		if acted != nil {
			acted() // unless the step did, once it had acted
		}
		w, still := c.settle(ctx, mark, c.early.since())
		if w != "" {
			sr.addWarning(w)
		}
		c.early.keepIf(still)
	}
	if err != nil || h.empty() {
		return out, err
	}
	if h.settledWhen != "" {
		if w := c.awaitSettled(ctx, h.settledWhen); w != "" {
			sr.addWarning(w)
		}
	}
	if h.observe != "" {
		v, err := page.PageFunction(ctx, c.page(), page.FuncRequest{Source: h.observe})
		if err != nil {
			// The action happened: a broken observer must not make the
			// agent think it did not.
			sr.addWarning("observe failed: " + err.Error())
		} else {
			sr.Observation = v
		}
	}
	return out, nil
}

// awaitReady polls readyWhen for as long as the step may take.
func (c *Call) awaitReady(ctx context.Context, src string) error {
	res, err := page.Poll(ctx, c.page(), page.PollRequest{Source: src, Interval: hookPollInterval, Timeout: remaining(ctx)})
	if err != nil {
		return fmt.Errorf("readyWhen: %w", err)
	}
	if !res.Resolved {
		return &HookTimeoutError{Hook: "readyWhen", Elapsed: time.Duration(res.Elapsed) * time.Millisecond, Last: res.LastValue, LastError: res.LastError}
	}
	return nil
}

// settleMargin is what settledWhen leaves of the step's time for observe
// and the step's own bookkeeping.
const settleMargin = time.Second

// awaitSettled polls settledWhen within what is left of the step's time,
// less a margin, and returns a warning when it never became truthy.
func (c *Call) awaitSettled(ctx context.Context, src string) string {
	left := remaining(ctx)
	budget := left - min(settleMargin, left/4)
	pctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	res, err := page.Poll(pctx, c.page(), page.PollRequest{Source: src, Interval: hookPollInterval, Timeout: budget})
	if err != nil {
		return "settledWhen failed: " + err.Error()
	}
	if res.Resolved {
		return ""
	}
	return (&HookTimeoutError{Hook: "settledWhen", Elapsed: time.Duration(res.Elapsed) * time.Millisecond, Last: res.LastValue, LastError: res.LastError}).Error()
}

// remaining is the time left before ctx's deadline; a ctx without one
// gets the default step timeout.
func remaining(ctx context.Context) time.Duration {
	dl, ok := ctx.Deadline()
	if !ok {
		return defaultTimeout
	}
	return max(time.Until(dl), time.Millisecond)
}

// HookTimeoutError is a readyWhen or settledWhen predicate that was still
// falsy when its time ran out. For readyWhen it fails the step; for
// settledWhen its message is the step's warning.
type HookTimeoutError struct {
	Hook      string
	Elapsed   time.Duration
	Last      *page.Value // the last value, nil when every evaluation threw
	LastError string      // the exception of the last evaluation, if it threw
}

func (e *HookTimeoutError) Error() string {
	s := fmt.Sprintf("%s still falsy after %dms (last value: %s)", e.Hook, e.Elapsed.Milliseconds(), describeValue(e.Last))
	if e.LastError != "" {
		s += "; it threw: " + e.LastError
	}
	return s
}

func (e *HookTimeoutError) ErrorName() string { return "TimeoutError" }

// Unwrap keeps the timeout recognisable as one.
func (e *HookTimeoutError) Unwrap() error { return context.DeadlineExceeded }

// describeValue renders a typed value in a few dozen characters.
func describeValue(v *page.Value) string {
	if v == nil {
		return "none"
	}
	if len(v.Value) == 0 {
		return v.Type
	}
	s := string(v.Value)
	if utf8.RuneCountInString(s) > 80 {
		s = string([]rune(s)[:80]) + "…"
	}
	return s
}

// addWarning appends a non-fatal note to the step's warning.
func (sr *StepResult) addWarning(w string) {
	if sr.Warning != "" {
		sr.Warning += "; "
	}
	sr.Warning += w
}
