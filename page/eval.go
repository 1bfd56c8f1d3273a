package page

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
)

//go:embed js/serialize.js
var serializeJS string

// Value is a JavaScript value in cdpskill's typed serialization (SPEC 17.7),
// marshalled as {"type":…,"value":…} plus "truncated":true and "total":N
// when a limit cut it. Type and Value are:
//
//	string, boolean     the JSON value
//	number              the JSON number; "NaN", "Infinity", "-Infinity", "-0" as strings
//	null                null
//	undefined, promise  no value
//	bigint              the decimal digits as a string
//	symbol              "Symbol(desc)"
//	function            its source, cut at 200 characters
//	date                {iso, time}: ISO string and epoch milliseconds (null when invalid)
//	regexp              "/src/flags"
//	error               {name, message, stack}
//	array               the items (first 100)
//	object              the own enumerable keys (first 50); toJSON is honoured
//	map                 [[key, value], …] (first 50)
//	set                 [value, …] (first 50)
//	element             {tag, id, class, attributes, value, text, isConnected, childCount}
//	node                {name, text} for text, comment and fragment nodes
//	nodelist            element values (first 20) of a NodeList or HTMLCollection
//	document            {title, url, readyState}
//	window              {location, innerWidth, innerHeight, scrollX, scrollY}
//	circular            no value: a reference back to an enclosing container
//	unreadable          the message of the exception reading it threw
//
// Inside arrays, objects, maps and sets, values JSON carries unchanged stay
// plain JSON; only the others are nested {type, value} descriptors, so a
// nested Date reads {"type":"date","value":{…}} while a nested number is
// just the number. Deeper than 8 levels, or past 2000 values in all,
// containers are cut to {"type":…,"truncated":true,"total":N}.
type Value struct {
	Type      string          `json:"type"`
	Value     json.RawMessage `json:"value,omitempty"`
	Truncated bool            `json:"truncated,omitempty"`
	Total     int             `json:"total,omitempty"`
}

// FuncRequest is a pageFunction step (SPEC 12.1).
type FuncRequest struct {
	// Source is a function ("() => …", "async x => …", "function () {…}")
	// that is called, or a bare expression or statement list whose
	// completion value is the result.
	Source string
	// Refs passes window.__ariaRefs to a function source.
	Refs bool
	// Await awaits a promise result; nil means true.
	Await *bool
	// Serialize applies the typed serialization; nil means true. When
	// false the result is CDP's plain JSON copy of the value.
	Serialize *bool
	// Timeout bounds the evaluation on top of ctx; 0 means ctx alone.
	Timeout time.Duration
	// File is the path Source was read from, if it was: errors then name
	// the file and a line in it rather than quoting the source.
	File string
}

// ScriptURL is the sourceURL req.Source is evaluated under: the frames of
// its stacks, and of the console calls it makes, carry it.
func (req FuncRequest) ScriptURL() string { return scriptURL(req.File, "pageFunction") }

// scriptURL names the agent's code: a file:// URL for a file (a sourceURL
// cannot hold a space), else the step.
func scriptURL(file, step string) string {
	if file == "" {
		return step
	}
	path := filepath.ToSlash(file)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return (&url.URL{Scheme: "file", Path: path}).String()
}

// agentScript is the agent's source as it is evaluated.
type agentScript struct {
	step string // the step that runs it: pageFunction, poll
	src  string // as given, trailing space cut
	file string // the file it came from, or ""
	url  string // its sourceURL
	// prefix is how many columns the wrapper adds before line 1.
	prefix int
}

func newAgentScript(step, src, file string) (*agentScript, error) {
	if strings.TrimSpace(src) == "" {
		if file != "" {
			return nil, fmt.Errorf("page: the script file %s is empty", file)
		}
		return nil, errors.New("page: the JavaScript source is empty")
	}
	return &agentScript{step: step, src: strings.TrimRightFunc(src, unicode.IsSpace), file: file, url: scriptURL(file, step)}, nil
}

// functionSource matches sources that are function expressions, bare or
// in parentheses. "(" alone is not enough: "(a + b) * 2" is an expression.
var functionSource = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\(?\s*(?:async\b\s*)?(?:function\b|\([^()]*\)\s*=>|[\p{L}_$][\p{L}\p{N}_$]*\s*=>)`)
})

// usesAwait finds top-level await candidates; REPL mode allows them.
var usesAwait = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bawait\b`) })

// functionSourceLimit matches LIMIT.source in js/serialize.js.
const functionSourceLimit = 200

// PageFunction evaluates req.Source in the page and returns its typed
// value. A primitive result costs one Runtime.evaluate; an object one more
// call to serialize it where it lives.
func PageFunction(ctx context.Context, p *Page, req FuncRequest) (*Value, error) {
	start := time.Now()
	src, err := newAgentScript("pageFunction", req.Source, req.File)
	if err != nil {
		return nil, err
	}
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	serialize := req.Serialize == nil || *req.Serialize
	if req.Refs {
		if err := ShareRefs(ctx, p); err != nil {
			return nil, err
		}
	}
	params := src.params(req.Refs)
	params.AwaitPromise = req.Await == nil || *req.Await
	params.ReturnByValue = !serialize
	ro, err := evaluateBounded(ctx, p, params)
	if !serialize && notJSON(err) {
		return nil, fmt.Errorf("%w: the result is not plain JSON; serialize:true handles circular and DOM values", err)
	}
	if err != nil {
		return nil, src.failed(err, start)
	}
	if !serialize {
		return valueByValue(ro), nil
	}
	v, err := describeResult(ctx, p, ro)
	if err != nil {
		return nil, src.failed(err, start)
	}
	return v, nil
}

// params builds the Runtime.evaluate parameters for the script. A
// function is called (with window.__ariaRefs when refs) unless it turns
// out to be an IIFE's result already; anything else runs inside a block so
// its let/const die with the call while its completion value survives.
// The wrapper opens on the source's first line and leading blank lines and
// comments stay, so line numbers in stacks and errors are the agent's own.
func (s *agentScript) params(refs bool) proto.RuntimeEvaluate {
	params := proto.RuntimeEvaluate{UserGesture: true}
	var expr string
	if functionSource().MatchString(codeStart(s.src)) {
		arg := ""
		if refs {
			arg = "window.__ariaRefs"
		}
		// A trailing ";" ends statements, not the expression it is put in.
		fn := strings.TrimRight(s.src, "; \t\r\n")
		const open = "{const __pageFunction = ("
		s.prefix = len(open)
		expr = open + fn + "\n);" +
			"typeof __pageFunction === \"function\" ? __pageFunction(" + arg + ") : __pageFunction}"
	} else {
		s.prefix = 1
		expr = "{" + s.src + "\n}"
		if usesAwait().MatchString(s.src) {
			params.ReplMode = true // top-level await
		}
	}
	params.Expression = expr + "\n//# sourceURL=" + s.url
	return params
}

// codeStart is src from its first token: leading space and comments, as
// a file often opens with, do not hide that it is a function.
func codeStart(src string) string {
	for {
		src = strings.TrimLeftFunc(src, unicode.IsSpace)
		end := jsCommentEnd(src, 0)
		if end == 0 {
			return src
		}
		src = src[end+1:]
	}
}

// v8TimeoutGrace lets ctx end before V8's own timeout does: V8 reports
// its timeout inconsistently ("Execution was terminated", "Internal
// error"), ctx does not. V8's timeout is the backstop for a process that
// dies before it can terminate anything.
const v8TimeoutGrace = 100 * time.Millisecond

// evaluateBounded runs the agent's code with Runtime.evaluate in the
// page's main world, so that neither a pending promise nor a busy loop
// outlives ctx: when ctx ends first the execution is terminated so the tab
// stays usable, and V8 is told the deadline too. A timeout comes back as
// an error wrapping context.DeadlineExceeded.
func evaluateBounded(ctx context.Context, p *Page, params proto.RuntimeEvaluate) (*proto.RemoteObject, error) {
	dl, hasDeadline := ctx.Deadline()
	if hasDeadline {
		params.Timeout = float64(max(time.Until(dl.Add(v8TimeoutGrace)).Milliseconds(), 1))
	}
	ro, err := p.Main().Evaluate(ctx, params)
	if err == nil {
		return ro, nil
	}
	if ctx.Err() != nil {
		terminateScript(ctx, p)
		return nil, ctx.Err()
	}
	if isTerminated(err) || hasDeadline && !time.Now().Before(dl) {
		return nil, fmt.Errorf("%w (%v)", context.DeadlineExceeded, err)
	}
	return nil, err
}

// notJSON reports Chrome refusing to copy a result by value.
func notJSON(err error) bool {
	var pe *cdp.ProtocolError
	return errors.As(err, &pe) && (strings.Contains(pe.Message, "Object reference chain is too long") ||
		strings.Contains(pe.Message, "Object couldn't be returned by value"))
}

// terminateScript stops whatever script is running in the tab. It is cleanup
// after a timeout that is already being reported, so its own failure is
// deliberately not.
func terminateScript(ctx context.Context, p *Page) {
	tctx, cancel := xcontext.Detached(ctx, time.Second)
	defer cancel()
	_ = proto.RuntimeTerminateExecution{}.Do(tctx, p.EvalSession())
}

// isTerminated reports the protocol error of an evaluation V8 stopped at
// its timeout or at Runtime.terminateExecution.
func isTerminated(err error) bool {
	var pe *cdp.ProtocolError
	return errors.As(err, &pe) && strings.Contains(pe.Message, "Execution was terminated")
}

// describeResult types ro: primitives here, objects by js/serialize.js where
// they live, by value.
func describeResult(ctx context.Context, p *Page, ro *proto.RemoteObject) (*Value, error) {
	if v, ok := primitiveValue(ro); ok {
		return v, nil
	}
	if ro.ObjectID == "" {
		return &Value{Type: "object", Value: ro.Value}, nil
	}
	res, err := proto.RuntimeCallFunctionOn{
		FunctionDeclaration: serializeJS,
		ObjectID:            ro.ObjectID,
		ReturnByValue:       true,
	}.Do(ctx, p.EvalSession())
	if err != nil {
		return nil, fmt.Errorf("page: serialize result: %w", err)
	}
	if res.ExceptionDetails != nil {
		return nil, NewJSError(res.ExceptionDetails)
	}
	var v Value
	if err := json.Unmarshal(res.Result.Value, &v); err != nil {
		return nil, fmt.Errorf("page: decode serialized result: %w", err)
	}
	return &v, nil
}

// valueByValue types a result Chrome already copied by value.
func valueByValue(ro *proto.RemoteObject) *Value {
	if v, ok := primitiveValue(ro); ok {
		return v
	}
	// A by-value copy has no subtype; its JSON shows what it is.
	if ro.Subtype == "array" || bytes.HasPrefix(ro.Value, []byte("[")) {
		return &Value{Type: "array", Value: ro.Value}
	}
	return &Value{Type: "object", Value: ro.Value}
}

// primitiveValue types the values CDP describes completely without an object
// round trip.
func primitiveValue(ro *proto.RemoteObject) (*Value, bool) {
	switch ro.Type {
	case "undefined":
		return &Value{Type: "undefined"}, true
	case "string", "boolean":
		return &Value{Type: ro.Type, Value: ro.Value}, true
	case "number":
		if ro.UnserializableValue != "" {
			return &Value{Type: "number", Value: jsonString(ro.UnserializableValue)}, true
		}
		return &Value{Type: "number", Value: ro.Value}, true
	case "bigint":
		return &Value{Type: "bigint", Value: jsonString(strings.TrimSuffix(ro.UnserializableValue, "n"))}, true
	case "symbol":
		return &Value{Type: "symbol", Value: jsonString(ro.Description)}, true
	case "function":
		src, cut := cutRunes(ro.Description, functionSourceLimit)
		return &Value{Type: "function", Value: jsonString(src), Truncated: cut}, true
	case "object":
		if ro.Subtype == "null" {
			return &Value{Type: "null", Value: json.RawMessage("null")}, true
		}
	}
	return nil, false
}

// jsonString encodes s without HTML escaping: "=>" stays readable.
func jsonString(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// cutRunes cuts s to n runes, marking the cut with an ellipsis.
func cutRunes(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	return string([]rune(s)[:n]) + "…", true
}

// failed explains a failed evaluation of the script: timeouts say so and
// keep wrapping the context error; exceptions name the source they came
// from (the file and line, for a file) and, for a SyntaxError in inline
// source, what the shell may have broken.
func (s *agentScript) failed(err error, start time.Time) error {
	var je *JSError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s timed out after %v (%s): %w",
			s.step, time.Since(start).Round(time.Millisecond), s.origin(), err)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%s canceled (%s): %w", s.step, s.origin(), err)
	case errors.As(err, &je):
		return s.explain(je)
	}
	return err
}

// origin says where the script came from, for a message.
func (s *agentScript) origin() string {
	if s.file != "" {
		return "file: " + s.file
	}
	return "source: " + sourcePreview(s.src)
}

// explain adds where the exception came from to its message: the place
// in the file, or a preview of inline source and the shell tip.
func (s *agentScript) explain(je *JSError) *JSError {
	msg := je.Message
	switch {
	case s.file != "":
		if line, col, ok := s.where(je); ok {
			msg += fmt.Sprintf(" (at %s:%d:%d)", s.file, line, col)
		} else {
			msg += " (file: " + s.file + ")"
		}
	default:
		if p := sourcePreview(s.src); !strings.Contains(msg, p) {
			msg += " (source: " + p + ")"
		}
		if strings.HasPrefix(je.Message, "SyntaxError") {
			if damage := shellDamage(s.src); damage != "" {
				msg += ". Tip: the source has " + damage +
					"; shell quoting may have mangled it. Pass the JSON on stdin with a quoted heredoc (<<'EOF') so the shell leaves it alone, or put the script in a file and pass {\"file\":\"/path/script.js\"}"
			}
		}
	}
	return &JSError{Message: msg, Stack: je.Stack, URL: je.URL, Line: je.Line, Column: je.Column, frames: je.frames}
}

// where is the place in the script an exception points to, 1-based: its
// innermost frame in the script (the agent's call into page code that
// threw, if that is where it went), else, for a SyntaxError, which has no
// stack, where the parser stopped.
func (s *agentScript) where(je *JSError) (line, col int, ok bool) {
	for _, f := range je.frames {
		if f.URL == s.url {
			line, col, ok = f.LineNumber+1, f.ColumnNumber+1, true
			break
		}
	}
	if !ok && len(je.frames) == 0 && (je.URL == "" || je.URL == s.url) && je.Line > 0 {
		line, col, ok = je.Line, je.Column, true
	}
	if ok && line == 1 {
		col = max(1, col-s.prefix)
	}
	return line, col, ok
}

// sourcePreview is src on one line, cut short enough for an error message.
func sourcePreview(src string) string {
	s, _ := cutRunes(strings.Join(strings.Fields(src), " "), 80)
	return s
}

// shellDamage looks for what a shell does to JavaScript quoted the wrong
// way: a string that never ends, a bracket that never closes or closes
// the wrong thing. It returns "" when the source looks intact. Regex
// literals and template substitutions are not understood; the result is
// only a tip on a SyntaxError, so a false alarm costs little.
func shellDamage(src string) string {
	var open []byte
	closer := map[byte]byte{')': '(', ']': '[', '}': '{'}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '\'', '"', '`':
			end := jsStringEnd(src, i)
			if end < 0 {
				return fmt.Sprintf("an unterminated %c string", c)
			}
			i = end
		case '/':
			i = jsCommentEnd(src, i)
		case '(', '[', '{':
			open = append(open, c)
		case ')', ']', '}':
			if len(open) == 0 || open[len(open)-1] != closer[c] {
				return fmt.Sprintf("an unmatched '%c'", c)
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		return fmt.Sprintf("an unclosed '%c'", open[len(open)-1])
	}
	return ""
}

// jsStringEnd is the index of the quote closing the string opened at i, or
// -1. Only template literals may span lines.
func jsStringEnd(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j
		case '\n':
			if q != '`' {
				return -1
			}
		}
	}
	return -1
}

// jsCommentEnd skips a comment starting at i and returns its last index, or
// i when no comment starts there.
func jsCommentEnd(src string, i int) int {
	rest := src[i:]
	switch {
	case strings.HasPrefix(rest, "//"):
		if n := strings.IndexByte(rest, '\n'); n >= 0 {
			return i + n
		}
		return len(src) - 1
	case strings.HasPrefix(rest, "/*"):
		if n := strings.Index(rest[2:], "*/"); n >= 0 {
			return i + 2 + n + 1
		}
		return len(src) - 1
	}
	return i
}
