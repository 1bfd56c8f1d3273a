package dom

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

var (
	//go:embed js/input-drag-plan.js
	inputDragPlanJS string
	//go:embed js/input-drag-watch.js
	inputDragWatchJS string
	//go:embed js/input-drag-html5.js
	inputDragHTML5JS string

	inputDragPlanFn  = bind(inputDragPlanJS)
	inputDragWatchFn = bind(inputDragWatchJS)
	inputDragHTML5Fn = bind(inputDragHTML5JS)
)

// Drag methods (SPEC 9.6). MethodSetValue reports a range input set from
// the target position.
const (
	DragAuto  = "auto"
	DragMouse = "mouse"
	DragHTML5 = "html5"
)

// DefaultDragSteps is how many mouse moves a drag makes by default.
const DefaultDragSteps = 10

// DragEndpoint is where a drag starts or ends: an element (Target, a CSS
// selector or a ref; its centre) or a viewport point (X, Y), moved by
// OffsetX, OffsetY.
type DragEndpoint struct {
	Target           string
	X, Y             *float64
	OffsetX, OffsetY float64
}

func (e DragEndpoint) String() string {
	if e.Target != "" {
		return ParseTarget(e.Target).String()
	}
	if e.X != nil && e.Y != nil {
		return fmt.Sprintf("point (%g, %g)", *e.X, *e.Y)
	}
	return "nothing"
}

// DragRequest is one drag step (SPEC 9.6).
type DragRequest struct {
	Source, Target DragEndpoint
	// Method is auto (default), mouse or html5.
	Method string
	// Steps is the number of mouse moves from source to target;
	// DefaultDragSteps when zero.
	Steps int
	// Delay is the pause between two moves.
	Delay time.Duration
	// Timeout is the actionability timeout of each endpoint element.
	Timeout time.Duration
}

// DragResult is what the drag did.
type DragResult struct {
	Dragged bool   `json:"dragged"`
	Method  string `json:"method"`
	Source  Point  `json:"source"`
	Target  Point  `json:"target"`
	Steps   int    `json:"steps,omitempty"`
	// Value is a range input's value after it was set.
	Value string `json:"value,omitempty"`
	// MouseAttempted: mouse events changed nothing, so HTML5 events
	// followed.
	MouseAttempted bool `json:"-"`
	ReResolved     bool `json:"reResolved,omitempty"`
	Note
	// settled: the page was still within its bounds each time the drag
	// waited for it (no animation the drag started, no DOM change).
	settled bool
}

// Drag moves from source to target. Range inputs as the source are set
// from the target's x position along their track (auto only). Otherwise
// mouse presses at the source, moves in Steps paced moves and releases at
// the target, which works for mouse- and pointer-driven libraries and, in
// Chrome, native HTML5 drag and drop; html5 dispatches the DnD events in
// the page; auto tries the mouse, watching the page, and falls back to
// html5 when the mouse changed nothing. The page is watched throughout:
// once it has answered the drop, a source element that did not move
// makes the drag not Dragged, with a warning saying where it is and where
// the drop landed.
func Drag(ctx context.Context, p *page.Page, req DragRequest) (*DragResult, error) {
	method, steps, err := dragInput(req)
	if err != nil {
		return nil, err
	}
	d := dragger{p: p, steps: steps, delay: req.Delay, agentTimeout: req.Timeout > 0}
	defer d.releaseAll(ctx)
	var src, tgt endpoint
	plan, replaced, err := reResolving(req.Timeout, Target{}, ActionDrag, func(timeout time.Duration, _ bool) (*dragPlan, error) {
		d.releaseAll(ctx)
		var err error
		if src, err = d.ready(ctx, req.Source, timeout); err != nil {
			return nil, err
		}
		if tgt, err = d.ready(ctx, req.Target, timeout); err != nil {
			return nil, err
		}
		return d.plan(ctx, src, tgt, req, method == DragAuto)
	})
	if err != nil {
		// Only a replacement makes a DetachedError here: name its side.
		var ae *ActionabilityError
		var de *DetachedError
		if errors.As(err, &ae) && errors.As(ae.Reason, &de) {
			ae.Target = ParseTarget(d.lastReplaced)
		}
		return nil, err
	}
	res := &DragResult{Dragged: true, Source: rounded(plan.Source.plus(plan.off)), Target: rounded(plan.Target.plus(plan.off)), Note: Note{endpointNotes(src, tgt)},
		ReResolved: replaced || src.reResolved() || tgt.reResolved()}
	if plan.Value != nil {
		res.Method, res.Value = MethodSetValue, *plan.Value
		return res, nil
	}
	// The watch's observer and listeners leave the page on every path:
	// release removes them with its record.
	w := d.newWatch(src, tgt)
	defer release(ctx, p, &Element{token: w.token})
	if err := w.call(ctx, "start", nil); err != nil {
		return nil, err
	}
	switch method {
	case DragHTML5:
		res, err = d.html5(ctx, res, src, tgt, plan)
	case DragMouse:
		res.Method, res.Steps = DragMouse, steps
		err = d.mouse(ctx, plan, w)
	default:
		res, err = d.auto(ctx, res, src, tgt, plan, w)
	}
	if err != nil {
		return nil, err
	}
	r, err := w.stop(ctx)
	if err != nil {
		return nil, err
	}
	judge(res, r, src.el != nil)
	return res, nil
}

// dragInput validates the request and fills in defaults.
func dragInput(req DragRequest) (method string, steps int, err error) {
	method = req.Method
	if method == "" {
		method = DragAuto
	}
	if method != DragAuto && method != DragMouse && method != DragHTML5 {
		return "", 0, &invalid.Option{Field: "method", Reason: fmt.Sprintf("unknown drag method %q (auto, mouse, html5)", req.Method)}
	}
	for name, ep := range map[string]DragEndpoint{"source": req.Source, "target": req.Target} {
		if ep.Target == "" && (ep.X == nil || ep.Y == nil) {
			return "", 0, &invalid.Option{Field: name, Reason: "give a selector, a ref, or x and y"}
		}
	}
	steps = req.Steps
	if steps <= 0 {
		steps = DefaultDragSteps
	}
	return method, steps, nil
}

// dragger holds one drag's page and pinned endpoints between its calls.
type dragger struct {
	p      *page.Page
	steps  int
	delay  time.Duration
	pinned []*Element
	// lastReplaced is the endpoint last found replaced before the drag.
	lastReplaced string
	// agentTimeout: the agent set the wait itself (ActionRequest).
	agentTimeout bool
}

// endpoint is a readied endpoint: a pinned element, or a point.
type endpoint struct {
	el   *Element
	spec DragEndpoint
}

// arg is the endpoint as the page scripts read it.
func (e endpoint) arg(frame Point) map[string]any {
	a := map[string]any{"offsetX": e.spec.OffsetX, "offsetY": e.spec.OffsetY}
	if e.el != nil {
		a["token"] = e.el.token
	} else {
		a["x"], a["y"] = *e.spec.X-frame.X, *e.spec.Y-frame.Y
	}
	return a
}

// ready waits for an element endpoint to be actionable and pins it.
func (d *dragger) ready(ctx context.Context, ep DragEndpoint, timeout time.Duration) (endpoint, error) {
	if ep.Target == "" {
		return endpoint{spec: ep}, nil
	}
	el, err := WaitActionable(ctx, d.p, ActionRequest{Target: ParseTarget(ep.Target), Action: ActionDrag, Timeout: timeout, AgentTimeout: d.agentTimeout})
	if err != nil {
		return endpoint{}, err
	}
	d.pinned = append(d.pinned, el)
	return endpoint{el: el, spec: ep}, nil
}

func (d *dragger) releaseAll(ctx context.Context) {
	for _, el := range d.pinned {
		release(ctx, d.p, el)
	}
	d.pinned = nil
}

func (e endpoint) reResolved() bool { return e.el != nil && e.el.ReResolved }

// dragPlan is js/input-drag-plan.js's reply.
type dragPlan struct {
	Source   Point   `json:"source"`
	Target   Point   `json:"target"`
	Value    *string `json:"value"`
	Detached string  `json:"detached"`
	NoBox    string  `json:"noBox"`
	// off is where the evaluating frame's viewport sits in the tab's.
	off Point
}

func (d *dragger) plan(ctx context.Context, src, tgt endpoint, req DragRequest, setRange bool) (*dragPlan, error) {
	var plan dragPlan
	// The page works in the viewport of the frame it evaluates in; the
	// agent's coordinates and the mouse use the tab's.
	var off Point
	if err := inTab(ctx, d.p, &off); err != nil {
		return nil, err
	}
	arg := map[string]any{"source": src.arg(off), "target": tgt.arg(off), "setRange": setRange}
	if err := d.p.CallJS(ctx, inputDragPlanFn(), &plan, arg); err != nil {
		return nil, err
	}
	plan.off = off
	side := map[string]DragEndpoint{"source": req.Source, "target": req.Target}
	switch {
	case plan.Detached != "":
		d.lastReplaced = side[plan.Detached].Target
		return nil, errReplaced
	case plan.NoBox != "":
		return nil, &ActionabilityError{Target: ParseTarget(side[plan.NoBox].Target), Action: ActionDrag, Reason: &NotVisibleError{Detail: "no box to drag " + plan.NoBox}}
	}
	return &plan, nil
}

// endpointNotes warns about endpoints the mouse may not reach: forced
// past the actionability timeout, or under another element.
func endpointNotes(eps ...endpoint) string {
	var note string
	for i, ep := range eps {
		side := [...]string{"source", "target"}[i]
		switch {
		case ep.el == nil:
		case ep.el.AutoForced:
			note = page.JoinNotes(note, "the "+side+" was "+ep.el.forcedNote("dragged anyway"))
		case !ep.el.Clickable:
			note = page.JoinNotes(note, "another element is on top of the "+side+" at its centre and takes the mouse events there")
		}
	}
	return note
}

func (p Point) plus(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }

// rounded keeps a tenth of a pixel: enough to place it, cheap to print.
func rounded(pt Point) Point {
	return Point{math.Round(pt.X*10) / 10, math.Round(pt.Y*10) / 10}
}

// dragPace is the pause between two moves when the agent gave none: a
// frame, as a person's hand moves, so the page sees each move.
const dragPace = 16 * time.Millisecond

// acceptWait bounds the wait at the target, with the button held, for an
// HTML5 drop target to accept the drag (cancel its dragover).
const acceptWait = 500 * time.Millisecond

// mouse presses the left button at the source and moves to the target in
// d.steps moves with the button held, paced like a hand: the first move
// is a small one (a pointer library arms its drag, Chrome starts an HTML5
// one), the others go along the line to the target, a frame apart. When
// an HTML5 drag started, the pointer stays at the target, nudged a pixel
// at a time, until the target accepts it (acceptWait); the page's
// animations (rows sliding out of the way) finish before the release. If
// a move fails the button is released anyway, so the tab is not left
// mid-drag.
func (d *dragger) mouse(ctx context.Context, plan *dragPlan, w *watch) (err error) {
	from, to := plan.Source.plus(plan.off), plan.Target.plus(plan.off)
	s := d.p.S
	if err := mouseMove(ctx, d.p, from, "none", 0); err != nil {
		return err
	}
	down := proto.InputDispatchMouseEvent{Type: "mousePressed", X: from.X, Y: from.Y, Button: "left", Buttons: 1, ClickCount: 1}
	if err := down.Do(ctx, s); err != nil {
		return err
	}
	last := from
	defer func() {
		if err == nil {
			return
		}
		rctx, cancel := xcontext.Detached(ctx, 2*time.Second)
		defer cancel()
		up := proto.InputDispatchMouseEvent{Type: "mouseReleased", X: last.X, Y: last.Y, Button: "left", ClickCount: 1}
		_ = up.Do(rctx, s)
	}()
	delay := d.delay
	if delay <= 0 {
		delay = dragPace
	}
	for i := 1; i <= d.steps; i++ {
		if err := xcontext.Sleep(ctx, delay); err != nil {
			return err
		}
		pt := pathPoint(from, to, i, d.steps)
		if err := mouseMove(ctx, d.p, pt, "left", 1); err != nil {
			return err
		}
		last = pt
	}
	if w != nil {
		if err := d.awaitAccept(ctx, w, to); err != nil {
			return err
		}
		if err := w.call(ctx, "hold", nil); err != nil {
			return err
		}
	}
	up := proto.InputDispatchMouseEvent{Type: "mouseReleased", X: to.X, Y: to.Y, Button: "left", ClickCount: 1}
	return up.Do(ctx, s)
}

// pathPoint is move i of n from from to to: the first a step of 2 px
// (less on a short way), the rest along the line, the last at to.
func pathPoint(from, to Point, i, n int) Point {
	dx, dy := to.X-from.X, to.Y-from.Y
	dist := math.Hypot(dx, dy)
	if n < 3 || dist < 10 {
		f := float64(i) / float64(n)
		return Point{from.X + dx*f, from.Y + dy*f}
	}
	if i == 1 {
		return Point{from.X + dx/dist*2, from.Y + dy/dist*2}
	}
	f := float64(i-1) / float64(n-1)
	return Point{from.X + dx*f, from.Y + dy*f}
}

// awaitAccept keeps the pointer at the target of an HTML5 drag, a pixel
// this way and that, until the target's dragover is cancelled (it will
// take the drop) or acceptWait passes.
func (d *dragger) awaitAccept(ctx context.Context, w *watch, to Point) error {
	deadline := time.Now().Add(acceptWait)
	for i := 0; ; i++ {
		var r watchReply
		if err := w.call(ctx, "over", &r); err != nil {
			return err
		}
		if !r.DragStart || r.Accepted || time.Now().After(deadline) {
			return nil
		}
		if err := xcontext.Sleep(ctx, 40*time.Millisecond); err != nil {
			return err
		}
		nudge := Point{to.X + float64(1-2*(i%2)), to.Y}
		if err := mouseMove(ctx, d.p, nudge, "left", 1); err != nil {
			return err
		}
	}
}

// html5Reply is js/input-drag-html5.js's reply.
type html5Reply struct {
	Missing string `json:"missing"`
	Started bool   `json:"started"`
	Dropped bool   `json:"dropped"`
}

// html5 dispatches the HTML5 drag-and-drop sequence in the page.
func (d *dragger) html5(ctx context.Context, res *DragResult, src, tgt endpoint, plan *dragPlan) (*DragResult, error) {
	var r html5Reply
	arg := map[string]any{"source": src.arg(plan.off), "target": tgt.arg(plan.off), "from": plan.Source, "to": plan.Target}
	if err := d.p.CallJS(ctx, inputDragHTML5Fn(), &r, arg); err != nil {
		return nil, err
	}
	res.Method = DragHTML5
	switch {
	case r.Missing != "":
		pt := map[string]Point{"source": plan.Source, "target": plan.Target}[r.Missing]
		return nil, &invalid.Option{Field: r.Missing, Reason: fmt.Sprintf("no element at (%g, %g) to send HTML5 drag events to", pt.X, pt.Y)}
	case !r.Started:
		res.Warning = page.JoinNotes(res.Warning, "the page cancelled dragstart, so nothing was dragged")
	case !r.Dropped:
		res.Warning = page.JoinNotes(res.Warning, "the target did not accept the drop (no dragover handler called preventDefault)")
	}
	return res, nil
}

// watch is js/input-drag-watch.js's record of one drag in the page.
type watch struct {
	d     *dragger
	token string
	args  map[string]any
}

// watchReply is js/input-drag-watch.js's reply: what the page did, and
// for a source element, whether it moved (Judged: something read as it
// did after the drop) and where it is (Place), and where the drop landed.
type watchReply struct {
	Mutations int    `json:"mutations"`
	DragStart bool   `json:"dragstart"`
	Drop      bool   `json:"drop"`
	Accepted  bool   `json:"accepted"`
	Judged    bool   `json:"judged"`
	Moved     bool   `json:"moved"`
	Place     string `json:"place"`
	Landed    string `json:"landed"`
	// DropEffect and EffectAllowed are what the page's last dragover
	// left on its DataTransfer.
	DropEffect    string `json:"dropEffect"`
	EffectAllowed string `json:"effectAllowed"`
	Settled       bool   `json:"settled"`
}

// newWatch is the watch of a drag from src to tgt, not started yet.
func (d *dragger) newWatch(src, tgt endpoint) *watch {
	w := &watch{d: d, token: page.Token(), args: map[string]any{}}
	if src.el != nil {
		w.args["source"] = src.el.token
	}
	if tgt.el != nil {
		w.args["target"] = tgt.el.token
	}
	return w
}

func (w *watch) call(ctx context.Context, phase string, out any) error {
	arg := map[string]any{"phase": phase, "token": w.token}
	for k, v := range w.args {
		arg[k] = v
	}
	return w.d.p.CallJS(ctx, inputDragWatchFn(), out, arg)
}

// stop ends the watch once the page has answered the drop.
func (w *watch) stop(ctx context.Context) (*watchReply, error) {
	var r watchReply
	err := w.call(ctx, "stop", &r)
	return &r, err
}

// auto drags with the mouse while watching the page. Native drag events
// or any DOM change mean the mouse worked; otherwise HTML5 events follow.
func (d *dragger) auto(ctx context.Context, res *DragResult, src, tgt endpoint, plan *dragPlan, w *watch) (*DragResult, error) {
	if err := d.mouse(ctx, plan, w); err != nil {
		return nil, err
	}
	var r watchReply
	if err := w.call(ctx, "over", &r); err != nil {
		return nil, err
	}
	res.Method, res.Steps = DragMouse, d.steps
	if r.DragStart || r.Mutations > 0 {
		return res, nil
	}
	res.Steps, res.MouseAttempted = 0, true
	return d.html5(ctx, res, src, tgt, plan)
}

// judge says what the drag did, from the page's answer: a source element
// was dragged only if it moved (changed lists or places); otherwise the
// warning says where it still is and where the drop landed, or that
// nothing on the page reads as it did, so whether it moved is not known.
// A drag between points is taken as done.
func judge(res *DragResult, r *watchReply, hadSource bool) {
	res.settled = r.Settled
	if res.Method != DragHTML5 && r.DragStart && !r.Drop {
		res.Warning = page.JoinNotes(res.Warning, noDrop(r))
	}
	if !hadSource || (r.Judged && r.Moved) {
		return
	}
	res.Dragged = false
	var note string
	if !r.Judged {
		note = "whether the source moved is not known: after the drop nothing on the page reads as it did (the page removed it or changed its text); take a snapshot to see"
	} else {
		note = "the source did not move: it is still " + r.Place
	}
	if r.Landed != "" {
		note += "; the drop landed on " + r.Landed
	}
	res.Warning = page.JoinNotes(res.Warning, note)
}

// noDrop says why a native drag that started brought no drop event: the
// target never cancelled dragover, or it did but left a drop effect that
// refuses the drop (none, or one the source's effectAllowed does not
// allow), or, that all right, the drop did not come.
func noDrop(r *watchReply) string {
	drop, allowed := r.DropEffect, strings.ToLower(r.EffectAllowed)
	switch {
	case !r.Accepted:
		return "the drag started but the target did not accept the drop (no dragover handler called preventDefault)"
	case drop == "none":
		return `the target's dragover handler called preventDefault but set dropEffect "none", which refuses the drop: no drop event came`
	case drop != "" && allowed != "" && allowed != "all" && allowed != "uninitialized" && !strings.Contains(allowed, drop):
		return fmt.Sprintf("the target's dragover asked for dropEffect %q, which the source's effectAllowed %q does not allow: no drop event came", drop, r.EffectAllowed)
	}
	return "the target accepted the drag (its dragover called preventDefault) but no drop event came"
}
