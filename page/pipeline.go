package page

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

//go:embed js/pipeline.js
var pipelineJS string

// PipelineOp is one micro-operation of a pipeline (SPEC 12.3), in the
// agent's form. Exactly one action is set: Fill, Click, Type, Check or
// Select act on the element Find names (a CSS selector or a ref);
// WaitFor polls a predicate for up to Timeout ms (default 10000); Sleep
// pauses; Return records a function's value.
type PipelineOp struct {
	Find    string  `json:"find,omitempty"`
	Fill    *string `json:"fill,omitempty"`
	Click   *bool   `json:"click,omitempty"`
	Type    *string `json:"type,omitempty"`
	Check   *bool   `json:"check,omitempty"`
	Select  *string `json:"select,omitempty"`
	WaitFor string  `json:"waitFor,omitempty"`
	Timeout int     `json:"timeout,omitempty"`
	Sleep   *int    `json:"sleep,omitempty"`
	Return  string  `json:"return,omitempty"`
}

// PipelineRequest is a pipeline step: Steps run in order in one
// evaluation, all within Timeout (0 means 30 s).
type PipelineRequest struct {
	Steps   []PipelineOp
	Timeout time.Duration
}

// Limits of a pipeline.
const (
	defaultPipelineTimeout = 30 * time.Second
	defaultWaitForMs       = 10000
	maxSleepMs             = 60000
)

// microOp is an operation as js/pipeline.js reads it: the agent's
// functions travel separately, as source, and are referred to by index.
type microOp struct {
	Op    string `json:"op"`
	Find  string `json:"find,omitempty"`
	Text  string `json:"text,omitempty"`
	Check bool   `json:"check,omitempty"`
	Ms    int    `json:"ms,omitempty"`
	Fn    int    `json:"fn"`
}

// compile turns o into its micro-op, adding its function source to fns;
// it reports what is wrong with o when it is not exactly one operation.
func (o PipelineOp) compile(fns *[]string) (microOp, error) {
	var ops []microOp
	add := func(m microOp) { ops = append(ops, m) }
	if o.Fill != nil {
		add(microOp{Op: "fill", Text: *o.Fill})
	}
	if o.Click != nil {
		if !*o.Click {
			return microOp{}, errors.New(`"click" must be true`)
		}
		add(microOp{Op: "click"})
	}
	if o.Type != nil {
		add(microOp{Op: "type", Text: *o.Type})
	}
	if o.Check != nil {
		add(microOp{Op: "check", Check: *o.Check})
	}
	if o.Select != nil {
		add(microOp{Op: "select", Text: *o.Select})
	}
	if o.WaitFor != "" {
		add(microOp{Op: "waitFor", Ms: defaultWaitForMs, Fn: len(*fns)})
	}
	if o.Sleep != nil {
		add(microOp{Op: "sleep", Ms: *o.Sleep})
	}
	if o.Return != "" {
		add(microOp{Op: "return", Fn: len(*fns)})
	}
	if len(ops) != 1 {
		return microOp{}, fmt.Errorf("needs exactly one of fill, click, type, check, select (with find), waitFor, sleep or return; got %d", len(ops))
	}
	return o.finish(ops[0], fns)
}

// finish checks what depends on the kind of operation.
func (o PipelineOp) finish(m microOp, fns *[]string) (microOp, error) {
	acts := m.Op != "waitFor" && m.Op != "sleep" && m.Op != "return"
	switch {
	case acts && strings.TrimSpace(o.Find) == "":
		return m, fmt.Errorf(`%s needs "find": the CSS selector or ref of the element`, m.Op)
	case !acts && o.Find != "":
		return m, fmt.Errorf(`"find" goes with fill, click, type, check or select, not %s`, m.Op)
	case o.Timeout != 0 && m.Op != "waitFor":
		return m, fmt.Errorf(`"timeout" belongs to waitFor`)
	case o.Timeout < 0:
		return m, fmt.Errorf(`"timeout" must be positive`)
	case m.Op == "sleep" && (m.Ms < 0 || m.Ms > maxSleepMs):
		return m, fmt.Errorf(`"sleep" must be 0 to %d ms, got %d`, maxSleepMs, m.Ms)
	}
	m.Find = strings.TrimSpace(o.Find)
	if o.Timeout > 0 {
		m.Ms = o.Timeout
	}
	switch m.Op {
	case "waitFor":
		*fns = append(*fns, o.WaitFor)
	case "return":
		*fns = append(*fns, o.Return)
	}
	return m, nil
}

// Validate checks every operation before anything runs; errors name the
// operation by its zero-based index, as failedAt does.
func (r PipelineRequest) Validate() error {
	_, err := r.compile()
	return err
}

// program is a compiled pipeline: its operations as data, and the agent's
// functions (waitFor's and return's) as source, which ops name by index.
type program struct {
	ops []microOp
	fns []string
}

func (r PipelineRequest) compile() (program, error) {
	if len(r.Steps) == 0 {
		return program{}, errors.New("the pipeline has no operations")
	}
	if r.Timeout < 0 {
		return program{}, errors.New(`"timeout" must be positive`)
	}
	prog := program{ops: make([]microOp, len(r.Steps))}
	for i, o := range r.Steps {
		m, err := o.compile(&prog.fns)
		if err != nil {
			return program{}, fmt.Errorf("pipeline[%d]: %w", i, err)
		}
		prog.ops[i] = m
	}
	return prog, nil
}

// PipelineResult is a pipeline's outcome. Results hold one entry per
// completed operation: true, or the JSON value a return produced.
type PipelineResult struct {
	Completed bool              `json:"completed"`
	Steps     int               `json:"steps,omitempty"`
	FailedAt  *int              `json:"failedAt,omitempty"`
	Error     string            `json:"error,omitempty"`
	Results   []json.RawMessage `json:"results"`
}

// PipelineError is the operation a pipeline stopped at. Kind is notFound,
// noOption, invalidSelector, notEditable, timeout, threw or syntax.
type PipelineError struct {
	Index   int
	Op      string // "fill #email", "waitFor"
	Kind    string
	Message string
}

func (e *PipelineError) Error() string {
	return fmt.Sprintf("pipeline[%d] %s: %s", e.Index, e.Op, e.Message)
}

// ErrorName maps the kind of failure to the spec's subtype.
func (e *PipelineError) ErrorName() string {
	switch e.Kind {
	case "notFound", "noOption":
		return "ElementNotFoundError"
	case "invalidSelector":
		return "StepValidationError"
	case "notEditable":
		return "ElementNotEditableError"
	case "timeout":
		return "TimeoutError"
	}
	return "EvaluationError"
}

// Unwrap lets errors.Is(err, context.DeadlineExceeded) hold for a timeout.
func (e *PipelineError) Unwrap() error {
	if e.Kind == "timeout" {
		return context.DeadlineExceeded
	}
	return nil
}

func (o PipelineOp) String() string {
	for _, a := range []struct {
		name string
		set  bool
	}{{"fill", o.Fill != nil}, {"click", o.Click != nil}, {"type", o.Type != nil}, {"check", o.Check != nil}, {"select", o.Select != nil}} {
		if a.set {
			return a.name + " " + o.Find
		}
	}
	switch {
	case o.WaitFor != "":
		return "waitFor"
	case o.Sleep != nil:
		return "sleep"
	}
	return "return"
}

// Timing of a pipeline: the in-page budget ends pipelineMargin before the
// step's deadline, so the page reports where it stopped; the evaluation
// itself is terminated pipelineSlack after the budget, which only code
// that never yields (a busy loop in a return) ever reaches.
const (
	pipelineMargin = 200 * time.Millisecond
	pipelineSlack  = time.Second
)

// Pipeline runs req's operations in order in one evaluation. The first
// operation that fails stops it: the result says where (FailedAt) and
// why, and comes with a *PipelineError.
func Pipeline(ctx context.Context, p *Page, req PipelineRequest) (*PipelineResult, error) {
	start := time.Now()
	prog, err := req.compile()
	if err != nil {
		return nil, err
	}
	budget := req.Timeout
	if budget == 0 {
		budget = defaultPipelineTimeout
	}
	if dl, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(dl)-pipelineMargin)
	}
	if budget <= 0 {
		return nil, fmt.Errorf("no time left to run: %w", context.DeadlineExceeded)
	}
	pctx, cancel := context.WithTimeout(ctx, budget+pipelineSlack)
	defer cancel()
	if findsRef(prog.ops) {
		if err := ShareRefs(pctx, p); err != nil {
			return nil, err
		}
	}
	ro, err := evaluateBounded(pctx, p, proto.RuntimeEvaluate{
		Expression:    pipelineExpression(prog, budget),
		AwaitPromise:  true,
		ReturnByValue: true,
		UserGesture:   true,
	})
	if err != nil {
		return pipelineFailure(ctx, p, req, prog, err, start)
	}
	var out struct {
		PipelineResult
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(ro.Value, &out); err != nil {
		return nil, fmt.Errorf("decode result %s: %w", ro.Value, err)
	}
	res := &out.PipelineResult
	if res.Results == nil {
		res.Results = []json.RawMessage{}
	}
	if res.Completed || res.FailedAt == nil {
		return res, nil
	}
	i := *res.FailedAt
	return res, &PipelineError{Index: i, Op: req.Steps[i].String(), Kind: out.Kind, Message: res.Error}
}

// pipelineScript is the sourceURL of a compiled pipeline.
const pipelineScript = "pipeline"

// pipelineExpression calls js/pipeline.js with the operations as JSON and
// the agent's functions as source: they are the agent's own JavaScript,
// the one part that cannot travel as data.
func pipelineExpression(prog program, budget time.Duration) string {
	data, _ := json.Marshal(prog.ops) // plain structs always encode
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(strings.TrimSpace(pipelineJS))
	b.WriteString(")(")
	b.Write(data)
	b.WriteString(", [")
	for i, f := range prog.fns {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n")
		b.WriteString(fnSource(f))
	}
	fmt.Fprintf(&b, "\n], %d)\n//# sourceURL=%s", budget.Milliseconds(), pipelineScript)
	return b.String()
}

// fnSource makes the agent's waitFor or return source a function: a
// function expression as it is, anything else as an expression to
// return. Newlines keep a trailing line comment from eating the rest.
func fnSource(src string) string {
	src = strings.TrimRight(strings.TrimSpace(src), "; \t\r\n")
	if functionSource().MatchString(src) {
		return "(" + src + "\n)"
	}
	return "() => (\n" + src + "\n)"
}

// pipelineFailure explains an evaluation that did not run to its own
// result: a syntax error in one of the agent's functions (found and named
// by compiling each), or a busy loop that outlived the budget.
func pipelineFailure(ctx context.Context, p *Page, req PipelineRequest, prog program, err error, start time.Time) (*PipelineResult, error) {
	var je *JSError
	if errors.As(err, &je) && strings.HasPrefix(je.Message, "SyntaxError") {
		if i, msg := syntaxCulprit(ctx, p, prog); i >= 0 {
			res := &PipelineResult{FailedAt: &i, Error: msg, Results: []json.RawMessage{}}
			return res, &PipelineError{Index: i, Op: req.Steps[i].String(), Kind: "syntax", Message: msg}
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("pipeline timed out after %v with an operation still running (a loop that never yields?): %w",
			time.Since(start).Round(time.Millisecond), err)
	}
	return nil, err
}

// findsRef reports an operation aimed at a ref: the pipeline runs in the
// page's world, which must be handed the refs first.
func findsRef(ops []microOp) bool {
	for _, op := range ops {
		if refPattern.MatchString(op.Find) {
			return true
		}
	}
	return false
}

var refPattern = regexp.MustCompile(`^s\d+e\d+$`)

// syntaxCulprit parses each of the agent's functions on its own and
// returns the index of the first operation whose source does not parse,
// with the parser's message; -1 when they all parse. Evaluating a
// function expression only creates the function, so nothing of the
// agent's code runs. (Runtime.compileScript would need Runtime.enable.)
func syntaxCulprit(ctx context.Context, p *Page, prog program) (int, string) {
	for i, op := range prog.ops {
		if op.Op != "waitFor" && op.Op != "return" {
			continue
		}
		_, err := p.Main().Evaluate(ctx, proto.RuntimeEvaluate{Expression: "void " + fnSource(prog.fns[op.Fn]), ReturnByValue: true})
		var je *JSError
		if errors.As(err, &je) {
			return i, je.Message
		}
	}
	return -1, ""
}
