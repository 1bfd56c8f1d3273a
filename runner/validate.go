package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/internal/suggest"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/tabs"
)

const (
	defaultTimeout = 30 * time.Second
	maxTimeout     = 300 * time.Second
)

// request is a parsed and fully validated input document.
type request struct {
	tab string
	// session is the call's session ("session", else CDPSKILL_SESSION);
	// empty is the default one.
	session string
	timeout time.Duration
	// dialog answers the call's JavaScript dialogs; nil means the default.
	dialog *page.DialogPolicy
	// annotate boxes the refs on the report's screenshot.
	annotate bool
	steps    []plannedStep
}

// any reports whether a step of the batch has f.
func (r *request) any(f flags) bool {
	for _, ps := range r.steps {
		if ps.def.has(f) {
			return true
		}
	}
	return false
}

// plannedStep is one validated step, ready to run.
type plannedStep struct {
	n        int // 1-based, as reported to the agent
	def      *step
	raw      json.RawMessage
	params   any
	optional bool
	timeout  time.Duration
	hooks    stepHooks
	// dialog answers the dialogs this step opens; nil means the call's.
	dialog *page.DialogPolicy
	// waitFor is the response the step waits for after its action.
	waitFor *capture.ResponseMatch
	// last: the batch's last action on the tab (a step that settles);
	// the report looks at the page after it.
	last bool
}

// loads says whether the step loads another document, which no diff
// spans: a step flagged navigates always does, one whose params say so
// (vitals with a url) this time.
func (ps plannedStep) loads() bool {
	if ps.def.has(navigates) {
		return true
	}
	n, ok := ps.params.(interface{ navigates() bool })
	return ok && n.navigates()
}

// parseRequest parses input and validates all of it before anything runs,
// reporting every problem at once. files.Session is the environment's
// session (CDPSKILL_SESSION), which the input's "session" replaces; the
// steps' files are the call's session's.
func parseRequest(input []byte, files capture.Files) (*request, *Error) {
	doc, perr := parseDocument(input)
	if perr != nil {
		return nil, perr
	}
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	req := &request{timeout: defaultTimeout}
	if _, ok := doc["config"]; ok {
		add(`"config" is no longer supported: put host, port and headless in an openTab step ({"steps":[{"openTab":{"url":"https://example.com","port":9333,"headless":true}}]}) and timeout at the top level`)
	}
	top := fieldNames(topLevel)
	for k, raw := range doc {
		f := fieldAt(k, topLevel)
		switch {
		case k == "config":
		case f == nil && misplaced[k] != "":
			add("%q is not a top-level field: %s", k, misplaced[k])
		case f == nil:
			msg := fmt.Sprintf("unknown top-level field %q", k)
			if s := suggest.Nearest(k, top); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else if stepByName(k) != nil {
				msg += fmt.Sprintf(`; steps go inside "steps": {"steps":[{%q: ...}]}`, k)
			}
			add("%s (the top level takes %s)", msg, strings.Join(top, ", "))
		case f.set != nil:
			if err := f.set(raw, topLevel, req, nil); err != nil {
				add("%q %v", k, err)
			}
		}
	}
	if _, given := doc["session"]; !given && files.Session != "" {
		if err := tabs.CheckSession(files.Session); err != nil {
			add("CDPSKILL_SESSION in the environment: %v", err)
		}
		req.session = files.Session
	}
	files.Session = req.session
	raw, ok := doc["steps"]
	switch {
	case !ok:
		add(`missing "steps": send {"steps":[{"goto":"https://example.com"}]}`)
	case !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")):
		add(`"steps" must be an array of step objects, got %s`, jsonKind(raw))
	default:
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			add(`"steps": %v`, err)
		} else if len(list) == 0 {
			add(`"steps" is empty: add at least one step, e.g. {"snapshot":true}`)
		}
		for i, s := range list {
			ps, msgs := planStep(i+1, s, files)
			problems = append(problems, msgs...)
			if ps != nil {
				req.steps = append(req.steps, *ps)
			}
		}
	}
	if len(problems) > 0 {
		return nil, &Error{Type: Validation, Message: strings.Join(problems, "; ")}
	}
	return req, nil
}

// startFromState is how a session starts from a state file: its browser
// context is made by its first tab, so the tab starts from the file, and
// one way to say it serves a new session and an old one alike.
const startFromState = `a session starts from a state file with its first tab: {"session":"pr-42","steps":[{"openTab":{"url":"https://example.com","state":"login.json"}}]}; an open tab takes {"loadState":"login.json"}`

// misplaced are top-level fields agents write for what is said
// elsewhere, and where.
var misplaced = map[string]string{
	"state":        startFromState,
	"storageState": startFromState, // Playwright's newContext option
}

// parseDocument is the PARSE stage: the input must be one JSON object.
func parseDocument(input []byte) (map[string]json.RawMessage, *Error) {
	trimmed := bytes.TrimSpace(input)
	if len(trimmed) == 0 {
		return nil, newError(Parse, `empty input: pass one JSON object as the first argument or on stdin, e.g. '{"steps":[{"openTab":"https://example.com"}]}'`)
	}
	var v any
	if err := json.Unmarshal(trimmed, &v); err != nil {
		return nil, &Error{Type: Parse, Message: "invalid JSON: " + describeJSONError(trimmed, err)}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, newError(Parse, "the input must be a JSON object with a \"steps\" array, got %s", jsonKind(trimmed))
	}
	doc := make(map[string]json.RawMessage, len(obj))
	if err := json.Unmarshal(trimmed, &doc); err != nil {
		return nil, &Error{Type: Parse, Message: "invalid JSON: " + err.Error()}
	}
	return doc, nil
}

// describeJSONError says where the syntax error is, with a caret under it.
func describeJSONError(input []byte, err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err.Error()
	}
	off := int(se.Offset)
	if off > len(input) {
		off = len(input)
	}
	line := 1 + bytes.Count(input[:off], []byte("\n"))
	start := bytes.LastIndexByte(input[:off], '\n') + 1
	col := off - start
	from := max(start, off-40)
	end := off + 20
	if nl := bytes.IndexByte(input[off:], '\n'); nl >= 0 && off+nl < end {
		end = off + nl
	}
	end = min(end, len(input))
	snippet := string(input[from:end])
	caret := strings.Repeat(" ", max(0, off-from-1)) + "^"
	return fmt.Sprintf("%s at line %d, column %d:\n  %s\n  %s", se.Error(), line, col, snippet, caret)
}

func parseTimeout(raw json.RawMessage) (time.Duration, error) {
	var ms float64
	if err := json.Unmarshal(raw, &ms); err != nil {
		return 0, fmt.Errorf("must be a number of milliseconds, got %s", jsonKind(raw))
	}
	if ms <= 0 {
		return 0, fmt.Errorf("must be a positive number of milliseconds, got %v", ms)
	}
	d := time.Duration(ms * float64(time.Millisecond))
	return min(d, maxTimeout), nil
}

// planStep validates one step object; it returns the problems it found.
func planStep(n int, raw json.RawMessage, files capture.Files) (*plannedStep, []string) {
	at := func(format string, args ...any) []string {
		return []string{fmt.Sprintf("step %d: ", n) + fmt.Sprintf(format, args...)}
	}
	if !isObject(raw) {
		return nil, at(`must be an object with one action key, e.g. {"click":"#submit"}, got %s`, jsonKind(raw))
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, at("%v", err)
	}
	ps := &plannedStep{n: n, raw: raw}
	var actions, unknown []string
	var problems []string
	for k, v := range keys {
		if f := fieldAt(k, onStep); f != nil {
			if err := f.set(v, onStep, nil, ps); err != nil {
				problems = append(problems, at("%q %v", k, err)...)
			}
		} else if stepByName(k) != nil {
			actions = append(actions, k)
		} else {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(actions)
	sort.Strings(unknown)
	for _, k := range unknown {
		if fieldAt(k, inParams) != nil {
			problems = append(problems, at(`%q goes inside the action's params, e.g. {"click":{"selector":"#save",%q:"() => …"}}`, k, k)...)
			continue
		}
		if fieldAt(k, topLevel) != nil && k != "steps" {
			problems = append(problems, at(`%q goes at the top level, beside "steps", for the whole call`, k)...)
			continue
		}
		problems = append(problems, at("unknown step %q%s", k, unknownStepHint(k, keys[k]))...)
	}
	switch {
	case len(actions) == 0 && len(unknown) == 0:
		problems = append(problems, at("has no action: add exactly one action key such as goto, click, fill or snapshot")...)
	case len(actions) > 1:
		problems = append(problems, at("has %d actions (%s): put each in its own step", len(actions), strings.Join(actions, ", "))...)
	case len(actions) == 1:
		problems = append(problems, planAction(ps, actions[0], keys[actions[0]], files, at)...)
		if ps.waitFor != nil && !ps.def.has(needsTab) {
			problems = append(problems, at(`"waitForResponse" goes beside a step that acts on a tab (click, fill, press, goto, pageFunction…), not %s`, actions[0])...)
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return ps, nil
}

// planAction decodes the action's params once the hooks and the dialog
// policy are taken out of them, so that step decoders never see either.
func planAction(ps *plannedStep, name string, raw json.RawMessage, files capture.Files, at func(string, ...any) []string) []string {
	ps.def = stepByName(name)
	rest, err := splitParams(ps, raw)
	if err != nil {
		return at("%s: %v", name, err)
	}
	params, err := ps.def.decode(rest, files)
	if err != nil {
		return at("%s: %v", name, err)
	}
	ps.params = params
	return nil
}
