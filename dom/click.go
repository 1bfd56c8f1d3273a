package dom

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// Click methods, as reported in ClickResult.Method (SPEC 9.1).
const (
	MethodCDP         = "cdp"          // real mouse events that reached the target
	MethodJSClick     = "jsClick"      // element.click(), as asked
	MethodJSClickAuto = "jsClick-auto" // element.click(), because CDP could not reach the target
)

// ClickMethod is how a click reaches its element.
type ClickMethod int

const (
	// ClickAuto sends mouse events, and calls element.click() when they
	// cannot reach the element (a left click only).
	ClickAuto ClickMethod = iota
	// ClickJS calls element.click() only.
	ClickJS
	// ClickNative sends mouse events only, never element.click().
	ClickNative
)

// ClickRequest is one click (SPEC 9.1).
type ClickRequest struct {
	// Target is a CSS selector or a ref; Text finds a clickable element by
	// its text (SPEC 6.4), matched as a case-insensitive substring unless
	// Exact, within the subtree Within selects when set; Selectors are
	// tried in order (SPEC 6.6). Give one of them, or none for a click at
	// X, Y in the viewport; with one, X and Y are an offset from the
	// top-left of the element's box instead of its centre.
	Target    string
	Text      string
	Exact     bool
	Within    string
	Selectors []string
	X, Y      *float64
	// Force skips the actionability checks.
	Force bool
	// Button is left (default), right, middle, back or forward.
	Button string
	// ClickCount presses the button that many times (default 1; 2 is a
	// double click).
	ClickCount int
	Method     ClickMethod
	// Timeout is the actionability timeout; DefaultTimeout when zero.
	Timeout time.Duration
	// ScrollUntilVisible scrolls the page step by step until the target
	// exists, for lazily loaded content (SPEC 8.10).
	ScrollUntilVisible *ScrollSearch
	// WaitAfter waits, after the click, for the DOM to stop changing.
	WaitAfter *Settle
	// SearchFrames looks for the target in the other frames of the tab
	// when the current frame has none (SPEC 13.3).
	SearchFrames bool
	// Stable requires the target to hold still for that many animation
	// frames before the click (SPEC 8.6); see ActionRequest.StableFrames.
	Stable int
	// Acted, when set, is called once the click happened, before the
	// wait for its effects.
	Acted func()
	// NoGrace: the caller watches the page after the click itself (the
	// runner's settle), so the click does not wait ClickGrace for a
	// router's late step; it reports what had begun when the page had
	// rendered a frame after the click.
	NoGrace bool
}

// ClickResult is what the click did. Field order is output order.
type ClickResult struct {
	// Clicked: the target got the click (not so when the mouse events
	// landed on another element and no fallback was allowed).
	Clicked bool   `json:"clicked"`
	Method  string `json:"method"`
	// Scrolled: the target was found by scrolling a container to it (a
	// virtualized grid's row); which one, and how far.
	Scrolled *Scrolled `json:"scrolled,omitempty"`
	// Navigated: the tab's URL changed (a pushState route change too);
	// NewURL is the URL now.
	Navigated bool   `json:"navigated,omitempty"`
	NewURL    string `json:"newUrl,omitempty"`
	// NewTabs are the tabs the click opened.
	NewTabs []page.NewTab `json:"newTabs,omitempty"`
	// Found: the target's element had been replaced and was found again;
	// what was clicked.
	Found
	// AutoForced: the element never became actionable and was clicked anyway.
	AutoForced bool `json:"autoForced,omitempty"`
	// TargetReceived: the mouse events reached the target or a descendant.
	TargetReceived bool `json:"targetReceived,omitempty"`
	// CDPAttempted: mouse events were sent before the JavaScript fallback.
	CDPAttempted bool `json:"cdpAttempted,omitempty"`
	// MatchedSelector and MatchedIndex (0-based) say which of Selectors
	// was clicked.
	MatchedSelector string `json:"matchedSelector,omitempty"`
	MatchedIndex    *int   `json:"matchedIndex,omitempty"`
	// ViaLabel: the target was a visually hidden checkbox or radio, and
	// its label was clicked instead.
	ViaLabel bool `json:"viaLabel,omitempty"`
	// Settled is false when WaitAfter's timeout passed with the DOM still
	// changing.
	Settled *bool `json:"settled,omitempty"`
	// Frame is the frame SearchFrames found the target in, when it is not
	// the current one.
	Frame *page.CurrentFrame `json:"frame,omitempty"`
	Note
}

// Click waits for the target to be actionable and clicks it with CDP mouse
// events at its centre, verifying with a listener installed beforehand
// that the events reached it; when they did not, it falls back to
// element.click() unless the Method is ClickNative. It reports the navigation and the new
// tabs the click caused (see page.Effects); registering those tabs is the
// caller's.
func Click(ctx context.Context, p *page.Page, req ClickRequest) (*ClickResult, error) {
	button, count, err := clickInput(req)
	if err != nil {
		return nil, err
	}
	target := req.target()
	var found *page.CurrentFrame
	if req.SearchFrames && target != nil {
		f, restore, err := enterFrameWith(ctx, p, *target)
		if err != nil {
			return nil, err
		}
		defer restore()
		if f != nil {
			found = &page.CurrentFrame{ID: f.ID, URL: f.URL, Name: f.Name, CrossOrigin: f.CrossOrigin}
		}
	}
	var revealed *Scrolled
	if req.ScrollUntilVisible != nil && target != nil {
		var err error
		if revealed, err = Reveal(ctx, p, *target, *req.ScrollUntilVisible); err != nil {
			return nil, err
		}
	}
	fx, err := page.WatchEffects(ctx, p, true)
	if err != nil {
		return nil, err
	}
	defer fx.Close()
	res, err := clickOnce(ctx, p, req, target, button, count)
	if err != nil {
		return nil, err
	}
	if revealed != nil {
		res.Scrolled = revealed
	}
	if req.Acted != nil {
		req.Acted()
	}
	grace := ClickGrace
	if req.NoGrace {
		grace = 0
	}
	out := fx.Collect(ctx, grace)
	res.Navigated, res.NewURL, res.NewTabs = out.Navigated, out.NewURL, out.NewTabs
	res.Frame = found
	res.Warning = page.JoinNotes(res.Warning, out.Warning)
	if req.WaitAfter != nil {
		settled, err := SettleDOM(ctx, p, *req.WaitAfter)
		if err != nil {
			return nil, err
		}
		if !settled {
			res.Settled = &settled
			res.Warning = page.JoinNotes(res.Warning, "the page was still changing when waitAfter's timeout passed")
		}
	}
	return res, nil
}

// target is the element the request names, or nil for a click at X, Y.
func (req ClickRequest) target() *Target {
	switch {
	case req.Text != "":
		return &Target{Text: req.Text, Exact: req.Exact, Within: req.Within}
	case len(req.Selectors) > 0:
		return &Target{Selectors: req.Selectors}
	case req.Target != "":
		t := ParseTarget(req.Target)
		return &t
	}
	return nil
}

// clickOnce is the click itself: at a point, or on the target once it is
// actionable.
func clickOnce(ctx context.Context, p *page.Page, req ClickRequest, target *Target, button string, count int) (*ClickResult, error) {
	if target == nil {
		if err := mouseClick(ctx, p.S, Point{*req.X, *req.Y}, button, count); err != nil {
			return nil, err
		}
		return &ClickResult{Clicked: true, Method: MethodCDP}, nil
	}
	ar := ActionRequest{Target: *target, Action: ActionClick, Force: req.Force, Timeout: req.Timeout, AgentTimeout: req.Timeout > 0, StableFrames: req.Stable, probe: req.Method != ClickJS}
	if req.X != nil {
		ar.Offset = &Point{*req.X, *req.Y}
	}
	res, replaced, err := reResolving(req.Timeout, ar.Target, ActionClick, func(timeout time.Duration, again bool) (*ClickResult, error) {
		ar.Timeout, ar.Describe = timeout, again
		return clickTarget(ctx, p, req, ar, button, count)
	})
	if res != nil {
		res.or(replaced)
	}
	return res, err
}

// clickTarget readies the target and clicks it once.
func clickTarget(ctx context.Context, p *page.Page, req ClickRequest, ar ActionRequest, button string, count int) (*ClickResult, error) {
	el, err := WaitActionable(ctx, p, ar)
	if err != nil {
		return nil, err
	}
	defer release(ctx, p, el)
	c := clicker{p: p, el: el, target: ar.Target, button: button, count: count}
	res, err := c.click(ctx, req)
	if err != nil {
		return nil, err
	}
	if i := el.MatchedIndex; i >= 0 && i < len(req.Selectors) {
		res.MatchedSelector, res.MatchedIndex = req.Selectors[i], &i
	}
	res.ViaLabel = el.ViaLabel
	return res, nil
}

// clickInput validates the button, the target and the coordinates and
// derives the count.
func clickInput(req ClickRequest) (button string, count int, err error) {
	button = req.Button
	if button == "" {
		button = "left"
	}
	if _, ok := mouseButtons[button]; !ok {
		return "", 0, &invalid.Option{Field: "button", Reason: fmt.Sprintf("unknown mouse button %q (left, right, middle, back, forward)", button)}
	}
	if (req.X == nil) != (req.Y == nil) {
		return "", 0, &invalid.Option{Field: "x, y", Reason: "give both coordinates or neither"}
	}
	targets := 0
	for _, set := range []bool{req.Target != "", req.Text != "", len(req.Selectors) > 0} {
		if set {
			targets++
		}
	}
	switch {
	case targets > 1:
		return "", 0, &invalid.Option{Field: "target", Reason: "give one of a selector, a ref, text or selectors"}
	case targets == 0 && req.X == nil:
		return "", 0, &invalid.Option{Field: "target", Reason: "give a selector, a ref, text, selectors, or x and y"}
	case targets == 0 && req.ScrollUntilVisible != nil:
		return "", 0, &invalid.Option{Field: "scrollUntilVisible", Reason: "needs an element to look for, not coordinates"}
	}
	return button, max(req.ClickCount, 1), nil
}

// forcedPastPointer: the element was auto-forced for a reason that means
// real mouse events would go to some other element.
func forcedPastPointer(el *Element) bool {
	var covered *CoveredError
	var none *PointerEventsNoneError
	var hidden *NotVisibleError
	return el.AutoForced && (errors.As(el.Forced, &covered) || errors.As(el.Forced, &none) || errors.As(el.Forced, &hidden))
}

// clicker holds one click's element between its page calls.
type clicker struct {
	p      *page.Page
	el     *Element
	target Target
	button string
	count  int
}

// click picks the method: element.click() when asked, or when CDP could
// not reach the element anyway; otherwise CDP mouse events, verified.
func (c clicker) click(ctx context.Context, req ClickRequest) (*ClickResult, error) {
	res := &ClickResult{Found: c.el.Found, AutoForced: c.el.AutoForced, Scrolled: c.el.Scrolled}
	// element.click() can only press the left button.
	jsAllowed := req.Method != ClickNative && c.button == "left"
	switch {
	case req.Method == ClickJS:
		return c.js(ctx, res, MethodJSClick)
	case jsAllowed && c.el.Point == nil:
		res.Warning = "the element has no box to click; clicked with element.click()"
		if c.el.AutoForced {
			res.Warning = c.el.forcedNote("clicked with element.click()")
		}
		return c.js(ctx, res, MethodJSClickAuto)
	case jsAllowed && forcedPastPointer(c.el):
		res.Warning = c.el.forcedNote("clicked with element.click(), since mouse events would not reach it")
		return c.js(ctx, res, MethodJSClickAuto)
	case c.el.Point == nil:
		return nil, &ActionabilityError{Target: c.target, Action: ActionClick, Reason: &NotVisibleError{Detail: "no box to click"}}
	}
	if c.el.AutoForced {
		res.Warning = c.el.forcedNote("clicked anyway")
	}
	return c.native(ctx, res, jsAllowed)
}

// native sends the mouse events, reads the probe, and falls back to
// element.click() if they missed and that is allowed.
func (c clicker) native(ctx context.Context, res *ClickResult, jsAllowed bool) (*ClickResult, error) {
	nav := c.p.S.Listen(proto.EventPageFrameStartedNavigating)
	defer nav.Close()
	v, err := c.press(ctx, nav)
	switch {
	case err != nil:
		return nil, err
	case v.Replaced:
		return nil, errReplaced
	case v.Gone:
		return nil, &ActionabilityError{Target: c.target, Action: ActionClick, Reason: &DetachedError{}}
	}
	received := v.Received
	if v.ReResolved {
		res.Found = Found{ReResolved: true, Target: orStr(v.Target, res.Target)}
	}
	if received || !jsAllowed {
		// Events that another element took did not click the target.
		res.Clicked, res.Method, res.TargetReceived = received, MethodCDP, received
		if !received {
			res.Warning = "the mouse events did not reach the target (another element is on top of it); it was not clicked"
		}
		return res, nil
	}
	res.CDPAttempted = true
	return c.js(ctx, res, MethodJSClickAuto)
}

// press sends the mouse events and reads the probe. Events an
// out-of-process frame never saw though they should have reached it (see
// page.ReachesFrame) went astray to the element holding it, and are sent
// again, up to maxResends times, each after both documents rendered a
// frame: a loaded machine's compositor can stay behind for a few.
func (c clicker) press(ctx context.Context, nav *cdp.Listener) (probeVerdict, error) {
	pt := *c.el.Point
	for sent := 0; ; sent++ {
		if err := mouseClick(ctx, c.p.S, pt, c.button, c.count); err != nil {
			return probeVerdict{}, err
		}
		v, err := probeUnlessLeaving(ctx, c.p, c.el, c.target, nav)
		c.el.leaving = v.leaving
		if err != nil || sent == maxResends || v.Received || v.Seen || v.Replaced || v.Gone {
			return v, err
		}
		if astray, err := c.p.ReachesFrame(ctx, [2]float64{pt.X, pt.Y}); err != nil || !astray {
			return v, err
		}
		if v, err = verifyProbe(ctx, c.p, c.el, c.target); err != nil || v.Received || v.Seen {
			return v, err // they came after all, late
		}
	}
}

// maxResends bounds how often press sends events that went astray again.
const maxResends = 3

// probeVerdict is what the probe saw of an action's mouse events
// (verify_probe.js).
type probeVerdict struct {
	Received   bool   `json:"received"`
	ReResolved bool   `json:"reResolved"` // by the element that replaced the target
	Target     string `json:"target"`     // that element, described
	Replaced   bool   `json:"replaced"`   // the target was replaced; the events missed it
	Gone       bool   `json:"gone"`       // the target left the page; nothing stands for it
	Seen       bool   `json:"seen"`       // the events reached the document, on another element
	// leaving: the page started navigating away instead of answering.
	leaving bool
}

// verifyProbe reads el's probe. A page that navigated away took the
// events.
func verifyProbe(ctx context.Context, p *page.Page, el *Element, target Target) (probeVerdict, error) {
	var v probeVerdict
	err := p.CallJS(ctx, verifyProbeFn(), &v, map[string]any{"token": el.token, "target": target.arg()})
	if cdp.IsContextDestroyed(err) {
		return probeVerdict{Received: true}, nil
	}
	return v, err
}

// probeUnlessLeaving reads el's probe, unless the document the click
// landed in starts leaving first (a link, a form posted): Chrome holds a
// page's calls back from then until the new document commits, which a
// slow server puts off past the step's time, and a navigation that began
// with the click says the page took its events, as a document gone does.
// nav hears the tab's navigations since just before the events.
func probeUnlessLeaving(ctx context.Context, p *page.Page, el *Element, target Target, nav *cdp.Listener) (probeVerdict, error) {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		v   probeVerdict
		err error
	}
	probed := make(chan answer, 1)
	go func() {
		v, err := verifyProbe(pctx, p, el, target)
		probed <- answer{v, err}
	}()
	leaving, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		if leaves(pctx, nav, p) {
			close(leaving)
		}
	}()
	// Both read p, whose frame the caller may switch once this returns:
	// they end first.
	defer func() {
		cancel()
		<-watched
	}()
	select {
	case a := <-probed:
		return a.v, a.err
	case <-leaving:
		select {
		case a := <-probed:
			return a.v, a.err // it answered too: its word is the better one
		default:
		}
		cancel()
		<-probed
		return probeVerdict{Received: true, leaving: true}, nil
	}
}

// leaves waits, until ctx ends, for the main frame or the frame p is in to
// start a navigation to another document.
func leaves(ctx context.Context, nav *cdp.Listener, p *page.Page) bool {
	frame := p.S.TargetID // the main frame's id is its tab's
	if p.Frame != nil {
		frame = p.Frame.ID
	}
	for {
		ev, err := nav.Next(ctx)
		if err != nil {
			return false
		}
		var e struct {
			FrameID        string `json:"frameId"`
			NavigationType string `json:"navigationType"`
		}
		if json.Unmarshal(ev.Params, &e) == nil && (e.FrameID == p.S.TargetID || e.FrameID == frame) &&
			e.NavigationType != "sameDocument" && e.NavigationType != "historySameDocument" {
			return true
		}
	}
}

// js clicks with element.click() and completes res.
func (c clicker) js(ctx context.Context, res *ClickResult, method string) (*ClickResult, error) {
	var r struct {
		Detached bool `json:"detached"`
	}
	err := c.p.CallJS(ctx, jsClickFn(), &r, map[string]any{"token": c.el.token, "count": c.count})
	if err != nil && !cdp.IsContextDestroyed(err) {
		return nil, err
	}
	if r.Detached {
		return nil, errReplaced
	}
	res.Clicked, res.Method = true, method
	return res, nil
}
