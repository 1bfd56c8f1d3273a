package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/page"
)

// evalSteps run the agent's JavaScript in the page.
var evalSteps = []step{
	defineFiles("pageFunction", `"() => expr" | "expression" | {fn|expression|file, refs, await, serialize, timeout}`,
		"run JavaScript (inline or a file) in the page", needsTab|script, decodePageFunction, runPageFunction).out(`{type, value, console?}`).did("Ran pageFunction").
		also(`{"pageFunction":"…"}`, "evaluate", "eval", "evaluateScript", "execute", "executeScript", "exec", "script", "js", "javascript", "runScript", "runJs"),
	defineFiles("poll", `"() => expr" | {fn|file, interval, timeout}`,
		"re-run a predicate until truthy", needsTab|script, decodePoll, runPoll).out(`{resolved, value, elapsed}`).did("Ran poll").
		also(`{"poll":"…"}`, "waitForFunction", "waitForCondition"),
}

// scriptLogs is what the agent's code logged with console.* while its
// step ran: only its own calls, and those of code it called or scheduled,
// not the page's other chatter of the moment.
type scriptLogs struct {
	Console []capture.Logged `json:"console,omitempty"`
	// ConsoleOmitted counts older entries left out of Console.
	ConsoleOmitted int `json:"consoleOmitted,omitempty"`
}

// watchLogs starts following the console calls of the agent's code
// evaluated under url in the current frame; the function it returns
// collects them. An evaluation's console events arrive before its reply,
// so nothing is waited for.
func (e *env) watchLogs(ctx context.Context, url string) func() scriptLogs {
	con := e.tab.EvalConsole(ctx)
	if con == nil {
		return func() scriptLogs { return scriptLogs{} }
	}
	mark := con.Mark()
	return func() scriptLogs {
		logs, omitted := capture.Logs(con.LoggedBy(mark, url))
		return scriptLogs{Console: logs, ConsoleOmitted: omitted}
	}
}

// withLogs is an executor's result when the agent's code may have logged:
// a failed evaluation still shows what it logged before it threw.
func withLogs[T any](out T, logs scriptLogs, err error) (any, error) {
	if err != nil {
		if len(logs.Console) == 0 {
			return nil, err
		}
		return logs, err
	}
	return out, nil
}

// maxScriptBytes bounds a script file: a library an agent injects fits, a
// wrong path to a disk image does not.
const maxScriptBytes = 10 << 20

// readScript reads the file of a pageFunction or poll step while the
// batch is validated, so a wrong path stops the batch before anything
// runs. It returns the absolute path, which errors and stacks name.
func readScript(files capture.Files, path string) (abs, src string, err error) {
	if strings.TrimSpace(path) == "" {
		return "", "", paramErrorf(`"file" is empty: give the path of a JavaScript file`)
	}
	abs, err = files.Abs(path)
	if err != nil {
		return "", "", paramErrorf(`script file %q: %v`, path, err)
	}
	name := fmt.Sprintf("%q", path)
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", "", paramErrorf(`script file %s does not exist%s`, name, relativeNote(path, abs))
	case err != nil:
		return "", "", paramErrorf(`cannot read script file %s: %v`, name, pathCause(err))
	case st.IsDir():
		return "", "", paramErrorf(`script file %s is a directory: name the .js file`, name)
	case !st.Mode().IsRegular():
		return "", "", paramErrorf(`script file %s is not a regular file`, name)
	case st.Size() > maxScriptBytes:
		return "", "", paramErrorf(`script file %s is %d MB; scripts over %d MB are not sent`, name, st.Size()>>20, maxScriptBytes>>20)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return "", "", paramErrorf(`cannot read script file %s: %v`, name, pathCause(err))
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	switch {
	case !utf8.Valid(data):
		return "", "", paramErrorf(`script file %s is not UTF-8 text`, name)
	case len(bytes.TrimSpace(data)) == 0:
		return "", "", paramErrorf(`script file %s is empty`, name)
	}
	return abs, string(data), nil
}

// hasField reports an object's field, even one set to "".
func hasField(raw json.RawMessage, name string) bool {
	return isObject(raw) && gjson.GetBytes(raw, gjson.Escape(name)).Exists()
}

// pathCause is what went wrong with a file, without the path the message
// already names.
func pathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// --- pageFunction

type pageFunctionParams struct {
	Fn         string `json:"fn"`
	Expression string `json:"expression"`
	File       string `json:"file"`
	Refs       bool   `json:"refs"`
	Await      *bool  `json:"await"`
	Serialize  *bool  `json:"serialize"`
	Timeout    int    `json:"timeout"`
}

func decodePageFunction(raw json.RawMessage, files capture.Files) (pageFunctionParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *pageFunctionParams) error {
		if s, ok := asString(raw); ok {
			p.Fn = s
			return nil
		}
		return paramErrorf(`expected JavaScript source or {fn, refs, timeout} or {file: "/path/script.js"}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	given := 0
	for _, s := range []string{p.Fn, p.Expression, p.File} {
		if s != "" {
			given++
		}
	}
	if given > 1 {
		return p, paramErrorf(`give one of "fn", "expression" or "file"`)
	}
	if p.Fn == "" {
		p.Fn = p.Expression
	}
	if p.File != "" || hasField(raw, "file") {
		if p.File, p.Fn, err = readScript(files, p.File); err != nil {
			return p, err
		}
	}
	if strings.TrimSpace(p.Fn) == "" {
		return p, paramErrorf(`the JavaScript source is empty`)
	}
	if p.Timeout < 0 {
		return p, paramErrorf(`"timeout" must be a positive number of milliseconds`)
	}
	return p, nil
}

// pageFunctionOutput is the typed value and what the code logged.
type pageFunctionOutput struct {
	*page.Value
	scriptLogs
}

func runPageFunction(ctx context.Context, e *env, p pageFunctionParams) (output, error) {
	req := page.FuncRequest{
		Source: p.Fn, File: p.File, Refs: p.Refs, Await: p.Await, Serialize: p.Serialize,
		Timeout: time.Duration(p.Timeout) * time.Millisecond,
	}
	logs := e.watchLogs(ctx, req.ScriptURL())
	v, err := page.PageFunction(ctx, e.page(), req)
	out := logs()
	return value(withLogs(pageFunctionOutput{v, out}, out, err))
}

// --- poll

type pollParams struct {
	Fn       string `json:"fn"`
	File     string `json:"file"`
	Interval int    `json:"interval"`
	Timeout  int    `json:"timeout"`
}

func decodePoll(raw json.RawMessage, files capture.Files) (pollParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *pollParams) error {
		if s, ok := asString(raw); ok {
			p.Fn = s
			return nil
		}
		return paramErrorf(`expected a predicate such as "() => document.querySelector('.done')" or {fn, interval, timeout}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	if p.Fn != "" && p.File != "" {
		return p, paramErrorf(`give "fn" or "file", not both`)
	}
	if p.File != "" || hasField(raw, "file") {
		if p.File, p.Fn, err = readScript(files, p.File); err != nil {
			return p, err
		}
	}
	switch {
	case strings.TrimSpace(p.Fn) == "":
		return p, paramErrorf(`"fn" or "file" is required`)
	case p.Interval < 0:
		return p, paramErrorf(`"interval" must be a positive number of milliseconds`)
	case p.Timeout < 0:
		return p, paramErrorf(`"timeout" must be a positive number of milliseconds`)
	}
	return p, nil
}

// pollOutput is the poll's outcome and what the predicate logged.
type pollOutput struct {
	*page.PollResult
	scriptLogs
}

func runPoll(ctx context.Context, e *env, p pollParams) (output, error) {
	req := page.PollRequest{
		Source:   p.Fn,
		File:     p.File,
		Interval: time.Duration(p.Interval) * time.Millisecond,
		Timeout:  time.Duration(p.Timeout) * time.Millisecond,
	}
	logs := e.watchLogs(ctx, req.ScriptURL())
	res, err := page.Poll(ctx, e.page(), req)
	out := logs()
	return value(withLogs(pollOutput{res, out}, out, err))
}
