package runner

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpskill/cdpskill/tabs"
)

// place is where in the input document a field may stand.
type place uint8

const (
	// topLevel: beside "steps", for the whole call.
	topLevel place = 1 << iota
	// onStep: beside a step's action key, a step modifier.
	onStep
	// inParams: inside an action step's object params (a hook).
	inParams
)

// fieldDef is one entry of the field registry: everything an agent writes
// that is neither a step's name nor its own params. Validation, --help,
// the check of SKILL.md and "did you mean" all come from this table, as
// the steps' come from the step registry.
type fieldDef struct {
	name    string
	where   place
	usage   string // its form, for --help
	summary string
	// set decodes the value and records it where it stands: on the
	// request at the top level, on the planned step otherwise.
	set func(raw json.RawMessage, at place, req *request, ps *plannedStep) error
}

var fieldDefs = []fieldDef{
	{name: "tab", where: topLevel, usage: `"t1"`,
		summary: "the tab alias openTab gave; every step runs on it",
		set: func(raw json.RawMessage, _ place, req *request, _ *plannedStep) error {
			s, ok := asString(raw)
			if !ok || s == "" {
				return fmt.Errorf(`must be a tab alias such as "t1", got %s`, jsonKind(raw))
			}
			req.tab = s
			return nil
		}},
	{name: "session", where: topLevel, usage: `"name"`,
		summary: "a browser context of your own (cookies, storage, downloads, tabs and aliases); default $CDPSKILL_SESSION",
		set: func(raw json.RawMessage, _ place, req *request, _ *plannedStep) error {
			s, ok := asString(raw)
			if !ok && (hasField(raw, "state") || hasField(raw, "storageState")) {
				return fmt.Errorf(`must be a session name such as "review-42"; %s`, startFromState)
			}
			if !ok {
				return fmt.Errorf(`must be a session name such as "review-42", got %s`, jsonKind(raw))
			}
			if err := tabs.CheckSession(s); err != nil {
				return err
			}
			req.session = s
			return nil
		}},
	{name: "steps", where: topLevel, usage: `[{…}, …]`,
		summary: "the steps, run in order; each has one action key"},
	{name: "timeout", where: topLevel | onStep, usage: "ms",
		summary: "each step's time (default 30000, at most 300000); on a step, that step's",
		set: func(raw json.RawMessage, at place, req *request, ps *plannedStep) error {
			d, err := parseTimeout(raw)
			if err != nil {
				return err
			}
			if at == topLevel {
				req.timeout = d
			} else {
				ps.timeout = d
			}
			return nil
		}},
	{name: "annotate", where: topLevel, usage: "true",
		summary: "the call's screenshot boxes each interactive element with its ref",
		set: func(raw json.RawMessage, _ place, req *request, _ *plannedStep) error {
			b, ok := asBool(raw)
			if !ok {
				return fmt.Errorf("must be true or false, got %s", jsonKind(raw))
			}
			req.annotate = b
			return nil
		}},
	{name: "optional", where: onStep, usage: "true",
		summary: "the step's failure is reported as skipped and the batch goes on",
		set: func(raw json.RawMessage, _ place, _ *request, ps *plannedStep) error {
			b, ok := asBool(raw)
			if !ok {
				return fmt.Errorf("must be true or false, got %s", jsonKind(raw))
			}
			ps.optional = b
			return nil
		}},
	{name: "dialog", where: topLevel | onStep | inParams, usage: `{"accept": false, "promptText": "…"}`,
		summary: "how to answer alert/confirm/prompt/beforeunload (default: accept); on a step, its own",
		set: func(raw json.RawMessage, at place, req *request, ps *plannedStep) error {
			d, err := decodeDialog(raw)
			if err != nil {
				return err
			}
			switch {
			case at == topLevel:
				req.dialog = d
			case ps.dialog != nil:
				return fmt.Errorf(`is given twice: put it beside the action or inside its params, not both`)
			default:
				ps.dialog = d
			}
			return nil
		}},
	{name: "waitForResponse", where: onStep, usage: `"/api/items" | "any" | "POST" | {url, method, status}`,
		summary: "after the action, wait for that response; it comes back as the step's response",
		set: func(raw json.RawMessage, _ place, _ *request, ps *plannedStep) error {
			m, err := decodeWaitForResponse(raw)
			ps.waitFor = m
			return err
		}},
	hookField("readyWhen", "JavaScript that must be truthy before the action (polled)"),
	hookField("settledWhen", "JavaScript waited for after the action (a timeout is a warning)"),
	hookField("observe", "JavaScript run after the action settles; its value is the step's observation"),
}

// hookField is a hook: JavaScript source inside an action's params.
func hookField(name, summary string) fieldDef {
	return fieldDef{name: name, where: inParams, usage: `"() => …"`, summary: summary,
		set: func(raw json.RawMessage, _ place, _ *request, ps *plannedStep) error {
			src, ok := asString(raw)
			if !ok || strings.TrimSpace(src) == "" {
				return fmt.Errorf(`must be JavaScript source such as "() => !document.querySelector('.spinner')", got %s`, describeHookValue(raw, ok))
			}
			ps.hooks.set(name, src)
			return nil
		}}
}

// fieldAt is the field named name that may stand at at, or nil.
func fieldAt(name string, at place) *fieldDef {
	for i := range fieldDefs {
		if fieldDefs[i].name == name && fieldDefs[i].where&at != 0 {
			return &fieldDefs[i]
		}
	}
	return nil
}

// fieldNames lists the names of the fields that may stand at at.
func fieldNames(at place) []string {
	var names []string
	for _, f := range fieldDefs {
		if f.where&at != 0 {
			names = append(names, f.name)
		}
	}
	return names
}

// FieldInfo describes one field for documentation.
type FieldInfo struct {
	Name, Usage, Summary       string
	TopLevel, OnStep, InParams bool
}

// Fields lists the field registry in table order.
func Fields() []FieldInfo {
	out := make([]FieldInfo, len(fieldDefs))
	for i, f := range fieldDefs {
		out[i] = FieldInfo{f.name, f.usage, f.summary, f.where&topLevel != 0, f.where&onStep != 0, f.where&inParams != 0}
	}
	return out
}

// Where says where the field may stand, as --help names the places.
func (f FieldInfo) Where() string {
	var at []string
	for _, p := range []struct {
		ok   bool
		name string
	}{{f.TopLevel, "top"}, {f.OnStep, "step"}, {f.InParams, "params"}} {
		if p.ok {
			at = append(at, p.name)
		}
	}
	return strings.Join(at, ", ")
}
