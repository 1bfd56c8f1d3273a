package proto

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpskill/cdpskill/cdp"
)

// RemoteObject is a JavaScript value as CDP describes it
// (Runtime.RemoteObject), the parts cdpskill reads.
type RemoteObject struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype,omitempty"`
	ClassName string `json:"className,omitempty"`
	// Value is the value's JSON, present for primitives and for results
	// asked for by value (returnByValue).
	Value json.RawMessage `json:"value,omitempty"`
	// UnserializableValue is a number JSON cannot hold (NaN, -0,
	// Infinity) or a bigint ("12n").
	UnserializableValue string         `json:"unserializableValue,omitempty"`
	Description         string         `json:"description,omitempty"`
	ObjectID            string         `json:"objectId,omitempty"`
	Preview             *ObjectPreview `json:"preview,omitempty"`
}

// ObjectPreview is an object's abbreviated contents (Runtime.ObjectPreview).
type ObjectPreview struct {
	Type        string            `json:"type"`
	Subtype     string            `json:"subtype,omitempty"`
	Description string            `json:"description,omitempty"`
	Overflow    bool              `json:"overflow"`
	Properties  []PropertyPreview `json:"properties"`
	Entries     []EntryPreview    `json:"entries,omitempty"`
}

// PropertyPreview is one property of an ObjectPreview
// (Runtime.PropertyPreview).
type PropertyPreview struct {
	Name         string         `json:"name"`
	Type         string         `json:"type"`
	Subtype      string         `json:"subtype,omitempty"`
	Value        string         `json:"value,omitempty"`
	ValuePreview *ObjectPreview `json:"valuePreview,omitempty"`
}

// EntryPreview is one entry of a map's or set's ObjectPreview
// (Runtime.EntryPreview); a set's have no Key.
type EntryPreview struct {
	Key   *ObjectPreview `json:"key,omitempty"`
	Value ObjectPreview  `json:"value"`
}

// ExceptionDetails describes an exception (Runtime.ExceptionDetails).
type ExceptionDetails struct {
	// ExceptionID lets Runtime.exceptionRevoked withdraw it.
	ExceptionID  int           `json:"exceptionId"`
	Text         string        `json:"text"`
	LineNumber   int           `json:"lineNumber"`
	ColumnNumber int           `json:"columnNumber"`
	URL          string        `json:"url,omitempty"`
	Exception    *RemoteObject `json:"exception,omitempty"`
	StackTrace   *StackTrace   `json:"stackTrace,omitempty"`
}

// StackTrace is a JavaScript stack (Runtime.StackTrace). With async call
// stacks on (RuntimeSetAsyncCallStackDepth), Parent is the stack that
// scheduled this one (a setTimeout, a promise reaction, an event listener
// added earlier), and Description names how: "setTimeout",
// "Promise.then", "await".
type StackTrace struct {
	Description string      `json:"description,omitempty"`
	CallFrames  []CallFrame `json:"callFrames"`
	Parent      *StackTrace `json:"parent,omitempty"`
}

// CallFrame is one frame of a StackTrace (Runtime.CallFrame); lines and
// columns are 0-based.
type CallFrame struct {
	FunctionName string `json:"functionName"`
	URL          string `json:"url"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

// ExecutionContextDescription is an execution context: a frame's main
// world, an isolated world, a worker (Runtime.ExecutionContextDescription).
type ExecutionContextDescription struct {
	ID int `json:"id"`
	// Name is an isolated world's name (Page.createIsolatedWorld's
	// worldName); "" for a main world.
	Name string `json:"name"`
	// AuxData is the embedder's: Chrome's names the frame the context
	// belongs to and whether it is that frame's default (main world) one.
	AuxData struct {
		FrameID   string `json:"frameId"`
		IsDefault bool   `json:"isDefault"`
	} `json:"auxData"`
}

// RuntimeEnable turns on the Runtime events of the session. A session's
// first enable replays what happened before it: the console messages and
// exceptions Chrome kept, and every live execution context, before its
// reply.
type RuntimeEnable struct{}

func (p RuntimeEnable) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Runtime.enable", p)
}

// Send writes the enable without waiting: a worker paused at its start
// answers it only once its thread is up.
func (p RuntimeEnable) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Runtime.enable", p)
}

// RuntimeEvaluate evaluates an expression.
type RuntimeEvaluate struct {
	Expression string `json:"expression"`
	// ObjectGroup names the group the result's handles join, released
	// together (RuntimeReleaseObjectGroup).
	ObjectGroup string `json:"objectGroup,omitempty"`
	// Silent keeps an exception from pausing or reaching the console.
	Silent bool `json:"silent,omitempty"`
	// ContextID picks the execution context (a frame, a world); none is
	// the session's main frame's main world.
	ContextID     int  `json:"contextId,omitempty"`
	ReturnByValue bool `json:"returnByValue,omitempty"`
	// UserGesture lets the code do what needs a click: open popups, use
	// the clipboard.
	UserGesture  bool `json:"userGesture,omitempty"`
	AwaitPromise bool `json:"awaitPromise,omitempty"`
	// Timeout, in milliseconds, has V8 stop the script.
	Timeout float64 `json:"timeout,omitempty"`
	// ReplMode allows top-level await and let/const redeclaration, as the
	// DevTools console does.
	ReplMode bool `json:"replMode,omitempty"`
}

// RuntimeEvaluateResult is Runtime.evaluate's and
// Runtime.callFunctionOn's reply: an exception thrown comes back as
// ExceptionDetails, not as an error.
type RuntimeEvaluateResult struct {
	Result           RemoteObject      `json:"result"`
	ExceptionDetails *ExceptionDetails `json:"exceptionDetails,omitempty"`
}

func (p RuntimeEvaluate) Do(ctx context.Context, c Caller) (RuntimeEvaluateResult, error) {
	return call[RuntimeEvaluateResult](ctx, c, "Runtime.evaluate", p)
}

// Send writes the evaluation now: evaluations reach the page in the order
// they are sent, so one sent behind a long one runs while the long one's
// answer travels. Read the reply with ReadEvaluateResult.
func (p RuntimeEvaluate) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Runtime.evaluate", p)
}

// Raw returns the reply undecoded, for ReadEvaluateResult or a reader of
// its own.
func (p RuntimeEvaluate) Raw(ctx context.Context, c Caller) (json.RawMessage, error) {
	return c.CallRaw(ctx, "Runtime.evaluate", p)
}

// ReadEvaluateResult reads Runtime.evaluate's reply leaving the value
// where it came (cdp.Fields): a snapshot's runs to megabytes, which
// encoding/json would scan twice and copy before its reader decodes it.
func ReadEvaluateResult(raw json.RawMessage) (*RuntimeEvaluateResult, error) {
	var res RuntimeEvaluateResult
	var err error
	if !cdp.Fields(raw, func(key string, v json.RawMessage) bool {
		switch key {
		case "result":
			err = res.Result.readFields(v)
		case "exceptionDetails":
			err = json.Unmarshal(v, &res.ExceptionDetails)
		}
		return err == nil
	}) {
		err = fmt.Errorf("not an object: %.40s", raw)
	}
	if err != nil {
		return nil, fmt.Errorf("cdp: decode Runtime.evaluate result: %w", err)
	}
	return &res, nil
}

// readFields reads o from raw, its value as a slice of raw.
func (o *RemoteObject) readFields(raw json.RawMessage) error {
	var err error
	cdp.Fields(raw, func(key string, v json.RawMessage) bool {
		var field any
		switch key {
		case "value":
			o.Value = v
			return true
		case "type":
			field = &o.Type
		case "subtype":
			field = &o.Subtype
		case "className":
			field = &o.ClassName
		case "unserializableValue":
			field = &o.UnserializableValue
		case "description":
			field = &o.Description
		case "objectId":
			field = &o.ObjectID
		case "preview":
			field = &o.Preview
		default:
			return true
		}
		err = json.Unmarshal(v, field)
		return err == nil
	})
	return err
}

// RuntimeCallFunctionOn calls a function with an object as its this.
type RuntimeCallFunctionOn struct {
	FunctionDeclaration string `json:"functionDeclaration"`
	ObjectID            string `json:"objectId,omitempty"`
	ReturnByValue       bool   `json:"returnByValue,omitempty"`
	// GeneratePreview adds an ObjectPreview to the result: "function ()
	// { return this; }" with it fetches an object's preview.
	GeneratePreview bool   `json:"generatePreview,omitempty"`
	ObjectGroup     string `json:"objectGroup,omitempty"`
}

// RuntimeCallFunctionOnResult is the function's result, or the
// exception it threw.
type RuntimeCallFunctionOnResult struct {
	Result           RemoteObject      `json:"result"`
	ExceptionDetails *ExceptionDetails `json:"exceptionDetails,omitempty"`
}

func (p RuntimeCallFunctionOn) Do(ctx context.Context, c Caller) (RuntimeCallFunctionOnResult, error) {
	return call[RuntimeCallFunctionOnResult](ctx, c, "Runtime.callFunctionOn", p)
}

// RuntimeReleaseObjectGroup lets the page forget the objects handed out
// under a group.
type RuntimeReleaseObjectGroup struct {
	ObjectGroup string `json:"objectGroup"`
}

func (p RuntimeReleaseObjectGroup) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Runtime.releaseObjectGroup", p)
}

// RuntimeTerminateExecution stops the script running in the target, a
// busy loop included: V8 interrupts it, and the evaluation that ran it
// fails with "Execution was terminated".
type RuntimeTerminateExecution struct{}

func (p RuntimeTerminateExecution) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Runtime.terminateExecution", p)
}

// RuntimeRunIfWaitingForDebugger resumes a target held at its start
// (Target.setAutoAttach's waitForDebuggerOnStart).
type RuntimeRunIfWaitingForDebugger struct{}

func (p RuntimeRunIfWaitingForDebugger) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Runtime.runIfWaitingForDebugger", p)
}

// Send writes the resume without waiting, behind what was sent to set the
// target up: a worker paused before its script was fetched answers
// nothing until it runs.
func (p RuntimeRunIfWaitingForDebugger) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Runtime.runIfWaitingForDebugger", p)
}

// RuntimeSetAsyncCallStackDepth has stacks follow async hops back (a
// timer to the handler that set it). V8 takes it only once Runtime is
// enabled, and it covers what is scheduled from then on.
type RuntimeSetAsyncCallStackDepth struct {
	// MaxDepth is required: 0 turns async stacks off.
	MaxDepth int `json:"maxDepth"`
}

func (p RuntimeSetAsyncCallStackDepth) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Runtime.setAsyncCallStackDepth", p)
}

// Send writes it behind a RuntimeEnable sent the same way: Chrome runs a
// session's commands in order, so both take one round trip.
func (p RuntimeSetAsyncCallStackDepth) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Runtime.setAsyncCallStackDepth", p)
}

// RuntimeDiscardConsoleEntries has Chrome forget the console messages it
// keeps for the target, which the next session's RuntimeEnable would
// replay.
type RuntimeDiscardConsoleEntries struct{}

func (p RuntimeDiscardConsoleEntries) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Runtime.discardConsoleEntries", p)
}

// RuntimeAddBinding puts a function in the page's global scope whose
// calls come back as Runtime.bindingCalled events (once Runtime is
// enabled).
type RuntimeAddBinding struct {
	Name string `json:"name"`
}

func (p RuntimeAddBinding) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Runtime.addBinding", p)
}

// The Runtime domain's events, sent once it is enabled.
const (
	EventRuntimeConsoleAPICalled          = "Runtime.consoleAPICalled"
	EventRuntimeExceptionThrown           = "Runtime.exceptionThrown"
	EventRuntimeExceptionRevoked          = "Runtime.exceptionRevoked"
	EventRuntimeExecutionContextCreated   = "Runtime.executionContextCreated"
	EventRuntimeExecutionContextDestroyed = "Runtime.executionContextDestroyed"
	// EventRuntimeExecutionContextsCleared says the session's document
	// was replaced: every context it had is gone.
	EventRuntimeExecutionContextsCleared = "Runtime.executionContextsCleared"
	EventRuntimeBindingCalled            = "Runtime.bindingCalled"
)

// RuntimeConsoleAPICalled is Runtime.consoleAPICalled's params: a console
// call. Replayed ones (RuntimeEnable) come without previews.
type RuntimeConsoleAPICalled struct {
	// Type is the console method: log, warning, error, assert,
	// startGroup, endGroup…
	Type string         `json:"type"`
	Args []RemoteObject `json:"args"`
	// Timestamp is milliseconds since the epoch (Runtime.Timestamp).
	Timestamp  float64     `json:"timestamp"`
	StackTrace *StackTrace `json:"stackTrace"`
}

// RuntimeExceptionThrown is Runtime.exceptionThrown's params: an uncaught
// exception or unhandled rejection.
type RuntimeExceptionThrown struct {
	Timestamp        float64          `json:"timestamp"`
	ExceptionDetails ExceptionDetails `json:"exceptionDetails"`
}

// RuntimeExceptionRevoked is Runtime.exceptionRevoked's params: a
// rejection reported unhandled got its handler late.
type RuntimeExceptionRevoked struct {
	ExceptionID int `json:"exceptionId"`
}

// RuntimeExecutionContextCreated is Runtime.executionContextCreated's
// params.
type RuntimeExecutionContextCreated struct {
	Context ExecutionContextDescription `json:"context"`
}

// RuntimeExecutionContextDestroyed is Runtime.executionContextDestroyed's
// params.
type RuntimeExecutionContextDestroyed struct {
	ExecutionContextID int `json:"executionContextId"`
}
