// Package page drives one tab: JavaScript calls into it, navigation and
// its lifecycle, what an action sets in motion (Effects), its JavaScript
// dialogs (DialogWatch), whether a silent page is held back or busy
// (Look), waits on page conditions, and the page context reported after
// every call.
package page

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// Page is one attached tab. Steps reach the page only through it, so that
// a later frame switch changes where every evaluation runs in one place.
//
// cdpskill's own in-page code runs in an isolated world of each frame (the
// helper world, named WorldName): the page shares its DOM but not its
// JavaScript, so a page that rewrote Array.from, JSON or
// EventTarget.prototype.dispatchEvent cannot break a snapshot or a fill,
// and refs kept in that world's globals outlive the call. Only the agent's
// own code (pageFunction, poll, pipeline, hooks) and reads of the page's
// globals run in the page's main world, through Main.
type Page struct {
	// S is the tab's session: navigation, input and captures go there.
	S *cdp.Session
	// Frame is the frame evaluations run in; nil is the top document.
	Frame *Frame
	fs    *frames
	navs  int
	main  bool // evaluate in the page's main world
}

// WorldName names the helper world; a later call finds it again by name.
const WorldName = "cdpskill"

// Main returns a page on the same tab and frame whose evaluations run in
// the page's own main world, where its globals and the agent's code live.
func (p *Page) Main() *Page {
	return &Page{S: p.S, Frame: p.Frame, fs: p.frameState(), navs: p.navs, main: true}
}

// New wraps an attached session.
func New(s *cdp.Session) *Page { return &Page{S: s, fs: newFrames(s)} }

// AsyncStackDepth is how many async hops the stacks CDP reports follow
// back (Runtime.setAsyncCallStackDepth), as DevTools does: an exception in
// a timer then shows the click handler that set the timer.
const AsyncStackDepth = 32

// InternalScript is the sourceURL of cdpskill's own in-page code, so that
// stacks shown to the agent can leave its frames out: an event cdpskill
// dispatched runs the page's listener under them.
const InternalScript = "cdpskill"

// IsInternalScript reports a frame of cdpskill's own making: its in-page
// code, or the function a pipeline is compiled to.
func IsInternalScript(url string) bool { return url == InternalScript || url == pipelineScript }

// JSError is an exception thrown by page JavaScript.
type JSError struct {
	Message string // "Error: boom", "ReferenceError: x is not defined"
	Stack   string
	// Where it was thrown, when CDP says: the top frame, or for a
	// SyntaxError the place the parser stopped. Line and Column are 1-based.
	URL          string
	Line, Column int
	frames       []proto.CallFrame
}

func (e *JSError) Error() string     { return e.Message }
func (e *JSError) ErrorName() string { return "EvaluationError" }

// NewJSError turns exception details into a *JSError.
func NewJSError(d *proto.ExceptionDetails) *JSError {
	e := &JSError{Message: d.Text, URL: d.URL, Line: d.LineNumber + 1, Column: d.ColumnNumber + 1}
	if d.StackTrace != nil {
		e.frames = d.StackTrace.CallFrames
	}
	if d.Exception != nil {
		desc := d.Exception.Description
		if desc == "" && len(d.Exception.Value) > 0 {
			desc = "Uncaught " + string(d.Exception.Value)
		}
		if desc != "" {
			// V8 descriptions of errors are "Name: message\n    at ..." .
			first, rest, _ := strings.Cut(desc, "\n")
			e.Message = first
			if rest != "" {
				e.Stack = desc
			}
		}
	}
	if e.Stack == "" && d.StackTrace != nil {
		var b strings.Builder
		b.WriteString(e.Message)
		for _, f := range d.StackTrace.CallFrames {
			fmt.Fprintf(&b, "\n    at %s (%s:%d:%d)", orAnon(f.FunctionName), f.URL, f.LineNumber+1, f.ColumnNumber+1)
		}
		e.Stack = b.String()
	}
	return e
}

func orAnon(s string) string {
	if s == "" {
		return "<anonymous>"
	}
	return s
}

// Evaluate runs Runtime.evaluate in the current frame, in the helper
// world (or the main world, for a page from Main). The params are sent
// as given plus the context id; an exception comes back as *JSError.
func (p *Page) Evaluate(ctx context.Context, params proto.RuntimeEvaluate) (*proto.RemoteObject, error) {
	return p.sendEval(ctx, params).wait(ctx)
}

// evalCall is a Runtime.evaluate sent to where the current frame's
// evaluations go; id is the context id it named (0: the session's main
// frame).
type evalCall struct {
	p      *Page
	params proto.RuntimeEvaluate
	id     int
	sent   *cdp.Sent
	err    error // it could not be sent
}

func (p *Page) sendEval(ctx context.Context, params proto.RuntimeEvaluate) *evalCall {
	e := &evalCall{p: p, params: params}
	var s *cdp.Session
	if s, e.id, e.err = p.target(ctx); e.err != nil {
		return e
	}
	params.ContextID = e.id
	e.sent = params.Send(ctx, s)
	return e
}

func (e *evalCall) wait(ctx context.Context) (*proto.RemoteObject, error) {
	res, err := e.reply(ctx)
	if e.id != 0 && cdp.IsContextDestroyed(err) {
		e.p.forget(e.p.EvalSession(), e.id)
		// The frame moved to a new document since its context was looked
		// up; nothing ran, so asking again in the new one is safe. A frame
		// that is gone keeps the first answer.
		var fe *FrameError
		if again, aerr := e.p.sendEval(ctx, e.params).reply(ctx); !errors.As(aerr, &fe) {
			res, err = again, aerr
		}
	}
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, NewJSError(res.ExceptionDetails)
	}
	return &res.Result, nil
}

// reply reads the answer in place (proto.ReadEvaluateResult): a
// snapshot's runs to megabytes.
func (e *evalCall) reply(ctx context.Context) (*proto.RuntimeEvaluateResult, error) {
	if e.err != nil {
		return nil, e.err
	}
	defer e.sent.Forget() // an answer given up on is not kept
	raw, err := e.sent.WaitRaw(ctx)
	if err != nil {
		return nil, err
	}
	return proto.ReadEvaluateResult(raw)
}

// CallJS applies fn, the source of a JavaScript function (usually an
// embedded .js file), to args, awaits its result and decodes it by value
// into out (which may be nil).
//
// In the helper world a large function is kept in the document's world,
// under its hash, the first time it is called, and later calls (from this
// process or the next) send only the call: cdpskill's functions carry
// their libraries along and run to tens of kilobytes, which every call
// would otherwise send and Chrome parse. A document that does not have it
// yet (a new one) answers so, and the function goes along then.
func (p *Page) CallJS(ctx context.Context, fn string, out any, args ...any) error {
	return p.StartJS(ctx, fn, args...).Wait(ctx, out)
}

// StartJS is CallJS in two halves: it sends the call now, and Wait reads
// its answer. Calls reach the page in the order they were started, so a
// call started right behind a long one runs in the page while the long
// one's answer travels to Go.
func (p *Page) StartJS(ctx context.Context, fn string, args ...any) *PendingJS {
	var call strings.Builder
	call.WriteString("(")
	for i, a := range args {
		if i > 0 {
			call.WriteString(",")
		}
		data, err := json.Marshal(a)
		if err != nil {
			return &PendingJS{err: fmt.Errorf("page: encode argument %d: %w", i, err)}
		}
		call.Write(data)
	}
	call.WriteString(")\n//# sourceURL=" + InternalScript)
	fn = strings.TrimSpace(fn)
	if p.main || len(fn) < keepAbove {
		return &PendingJS{p: p, sent: p.sendEval(ctx, evalParams("("+fn+")"+call.String()))}
	}
	key, callArgs := fnKey(fn), call.String()
	return &PendingJS{
		p:        p,
		sent:     p.sendEval(ctx, evalParams(fmt.Sprintf(callKept, key, notKept)+callArgs)),
		key:      key,
		fn:       fn,
		callArgs: callArgs,
	}
}

// PendingJS is a call StartJS sent. Wait is called once.
type PendingJS struct {
	p    *Page
	sent *evalCall
	// key, fn and callArgs make the call that keeps the function, built
	// only if the page lacks it (the composed scripts are ~100 KB).
	key, fn, callArgs string
	err               error
}

// Wait awaits the call's result and decodes it by value into out (which
// may be nil).
func (j *PendingJS) Wait(ctx context.Context, out any) error {
	if j.err != nil {
		return j.err
	}
	obj, err := j.sent.wait(ctx)
	if err == nil && j.key != "" && string(obj.Value) == `"`+notKept+`"` {
		obj, err = j.p.Evaluate(ctx, evalParams(fmt.Sprintf(keepAndCall, j.key, j.fn)+j.callArgs))
	}
	return decodeValue(obj, err, out)
}

// keepAbove is the size from which a function is kept in the world.
const keepAbove = 2048

// notKept is the answer of a document that does not have the function.
const notKept = "cdpskill: not kept"

// callKept calls the kept function %[1]s, or answers %[2]s (notKept);
// keepAndCall keeps the function %[2]s as %[1]s and calls it. The
// arguments follow.
const (
	callKept    = "(globalThis.__cdpskillFns && globalThis.__cdpskillFns[%q] || (() => %q))"
	keepAndCall = "((globalThis.__cdpskillFns ||= Object.create(null))[%q] = (%s))"
)

var fnKeys sync.Map // fn source → its key

// fnKey is a short hash of a function's source.
func fnKey(fn string) string {
	if k, ok := fnKeys.Load(fn); ok {
		return k.(string)
	}
	sum := sha256.Sum256([]byte(fn))
	k := hex.EncodeToString(sum[:8])
	fnKeys.Store(fn, k)
	return k
}

func evalParams(expr string) proto.RuntimeEvaluate {
	return proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true, AwaitPromise: true}
}

func decodeValue(obj *proto.RemoteObject, err error, out any) error {
	if err != nil || out == nil {
		return err
	}
	if obj.Type == "undefined" || len(obj.Value) == 0 {
		return nil
	}
	return json.Unmarshal(obj.Value, out)
}
