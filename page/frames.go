package page

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/xcontext"
)

// Frame is one frame of the tab (ParentID "" is the top document); once
// the agent switches into one, evaluations run there (SPEC 13.2). A frame
// is rendered either by the tab's own process or, when it is cross-site,
// by an out-of-process iframe (OOPIF) target with a session of its own.
type Frame struct {
	ID          string `json:"frameId"`
	URL         string `json:"url"`
	Name        string `json:"name,omitempty"`
	ParentID    string `json:"parentId,omitempty"`
	Depth       int    `json:"depth"`
	CrossOrigin bool   `json:"crossOrigin"`

	s      *cdp.Session // the session that renders the frame
	root   bool         // the frame is s's own main frame: no context id needed
	origin string
	// sealed: the parent's scripts cannot reach the frame's document
	// (their origins differ), so in-page code sees only its element.
	sealed bool
	// hops lead from the frame up to the top document: each names a frame
	// and the session that renders its parent, where DOM.getFrameOwner
	// finds the element holding it.
	hops []hop
	// rootHops are the hops of the root frame of s: the owner box of a
	// frame s renders is relative to that frame's viewport.
	rootHops []hop
}

type hop struct {
	frameID string
	parent  *cdp.Session
}

// frames is what a Page knows about the tab's frames during one call:
// the sessions of OOPIFs and the execution contexts of each session.
// Copies of a Page share it.
type frames struct {
	mu       sync.Mutex
	top      *cdp.Session
	oopifs   map[string]*cdp.Session // target (= frame) id → session
	contexts map[string]*contexts    // session id → its contexts
	// traffic is TrackRequests' function; it lives here because every
	// Page of the tab (Top, Main) shares this state.
	traffic func(context.Context) Traffic
	// exposed holds the documents ExposeClickHandlers served (documents'
	// keys).
	exposed map[string]bool
}

func newFrames(top *cdp.Session) *frames {
	f := &frames{top: top, oopifs: map[string]*cdp.Session{}, contexts: map[string]*contexts{}}
	// Listening from the start catches the contexts that the tab's first
	// Runtime.enable replays, whoever sends it.
	f.contexts[top.ID] = newContexts(top, false)
	return f
}

// RuntimeEnabled tells p that Runtime.enable was sent to the tab after
// New: the replayed contexts are on their way, and asking again would not
// replay them.
func (p *Page) RuntimeEnabled() {
	fs := p.frameState()
	fs.mu.Lock()
	fs.contexts[p.S.ID].enabled = true
	fs.mu.Unlock()
}

func (f *frames) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.contexts {
		c.l.Close()
	}
}

// contexts follows one session's execution contexts: the default (main
// world) context and the helper world of each of its frames.
type contexts struct {
	s       *cdp.Session
	l       *cdp.Listener
	enabled bool
	byFrame map[string]int  // frame id → default context id
	world   map[string]int  // frame id → helper world context id
	removed map[string]bool // frames detached from the page for good
}

func newContexts(s *cdp.Session, enabled bool) *contexts {
	return &contexts{
		s: s,
		l: s.Listen(proto.EventRuntimeExecutionContextCreated, proto.EventRuntimeExecutionContextDestroyed,
			proto.EventRuntimeExecutionContextsCleared, proto.EventPageFrameDetached),
		enabled: enabled,
		byFrame: map[string]int{},
		world:   map[string]int{},
		removed: map[string]bool{},
	}
}

func (c *contexts) apply(ev cdp.Event) {
	switch ev.Method {
	case proto.EventRuntimeExecutionContextCreated:
		var created proto.RuntimeExecutionContextCreated
		if json.Unmarshal(ev.Params, &created) != nil {
			return
		}
		ctx := created.Context
		frame, id := ctx.AuxData.FrameID, ctx.ID
		switch {
		case ctx.AuxData.IsDefault:
			c.byFrame[frame] = id
		case ctx.Name == WorldName && c.world[frame] == 0:
			// Made by an earlier call, and replayed by Runtime.enable: its
			// globals hold the refs.
			c.world[frame] = id
		}
	case proto.EventRuntimeExecutionContextDestroyed:
		var destroyed proto.RuntimeExecutionContextDestroyed
		if json.Unmarshal(ev.Params, &destroyed) != nil {
			return
		}
		id := destroyed.ExecutionContextID
		for f, v := range c.byFrame {
			if v == id {
				delete(c.byFrame, f)
			}
		}
		for f, v := range c.world {
			if v == id {
				delete(c.world, f)
			}
		}
	case proto.EventRuntimeExecutionContextsCleared:
		// The session's own document was replaced: the frames that had
		// contexts belonged to the old one, all but the session's own
		// frame (its id is the target's), which holds the new document.
		for _, m := range []map[string]int{c.byFrame, c.world} {
			for f := range m {
				if f != c.s.TargetID {
					c.removed[f] = true
				}
			}
		}
		clear(c.byFrame)
		clear(c.world)
	case proto.EventPageFrameDetached:
		var e proto.PageFrameDetached
		if json.Unmarshal(ev.Params, &e) == nil && e.Reason == "remove" {
			c.removed[e.FrameID] = true
		}
	}
}

// contextWait bounds the wait for a frame's context to appear: a frame
// between documents gets its new one within a load.
const contextWait = 2 * time.Second

// enable makes sure the session reports its contexts, then takes in what
// it reported.
func (c *contexts) enable(ctx context.Context) error {
	if !c.enabled {
		if err := (proto.RuntimeEnable{}).Do(ctx, c.s); err != nil {
			return err
		}
		c.enabled = true
	}
	for _, ev := range c.l.Drain() {
		c.apply(ev)
	}
	return nil
}

// of returns frameID's default context, waiting briefly for one that is
// being created; a frame that gets none (Chrome creates them lazily for
// frames no script touched) gets the helper world.
func (c *contexts) of(ctx context.Context, frameID string) (int, error) {
	if err := c.enable(ctx); err != nil {
		return 0, err
	}
	if id := c.byFrame[frameID]; id != 0 {
		return id, nil
	}
	wctx, cancel := context.WithTimeout(ctx, contextWait)
	defer cancel()
	for c.byFrame[frameID] == 0 && !c.removed[frameID] {
		ev, err := c.l.Next(wctx)
		if err != nil {
			break
		}
		c.apply(ev)
	}
	if id := c.byFrame[frameID]; id != 0 {
		return id, nil
	}
	return c.helperWorld(ctx, frameID)
}

// helperWorld returns frameID's helper world: the one an earlier call
// made, found by name, or a new one. Chrome hands every session the same
// world for a name, so refs kept there survive from call to call.
// A session nobody enabled Runtime on is not asked to: the world needs no
// events, and the console capture of an out-of-process frame relies on
// its own Runtime.enable replaying what the frame logged.
func (c *contexts) helperWorld(ctx context.Context, frameID string) (int, error) {
	if c.enabled {
		for _, ev := range c.l.Drain() {
			c.apply(ev)
		}
	}
	if c.removed[frameID] {
		return 0, &FrameError{Frame: frameID, Reason: "it was removed from the page", Gone: true}
	}
	if id := c.world[frameID]; id != 0 {
		return id, nil
	}
	res, err := proto.PageCreateIsolatedWorld{FrameID: frameID, WorldName: WorldName, GrantUniveralAccess: true}.Do(ctx, c.s)
	if err != nil {
		if ctx.Err() != nil {
			return 0, err
		}
		return 0, &FrameError{Frame: frameID, Reason: "it has no execution context (it was removed or is still loading): " + err.Error(), Gone: true}
	}
	c.world[frameID] = res.ExecutionContextID
	return res.ExecutionContextID, nil
}

// forget drops context id from what p knows, after Chrome said it is gone
// (a session that does not report its contexts cannot say so sooner).
func (p *Page) forget(s *cdp.Session, id int) {
	fs := p.frameState()
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if c := fs.contexts[s.ID]; c != nil {
		for _, m := range []map[string]int{c.byFrame, c.world} {
			for f, v := range m {
				if v == id {
					delete(m, f)
				}
			}
		}
	}
}

// target is where p's evaluations go: the session and the context id
// (0: the session's main frame's main world).
func (p *Page) target(ctx context.Context) (*cdp.Session, int, error) {
	s, frameID := p.S, p.S.TargetID // a tab's target id is its main frame's id
	if p.Frame != nil {
		s, frameID = p.Frame.s, p.Frame.ID
	}
	if p.main && (p.Frame == nil || p.Frame.root) {
		return s, 0, nil
	}
	fs := p.frameState()
	fs.mu.Lock()
	defer fs.mu.Unlock()
	c := fs.contexts[s.ID]
	if c == nil {
		c = newContexts(s, false)
		fs.contexts[s.ID] = c
	}
	var id int
	var err error
	if p.main {
		id, err = c.of(ctx, frameID)
	} else {
		id, err = c.helperWorld(ctx, frameID)
	}
	return s, id, err
}

// document names the document p's main-world evaluations reach: its
// session, frame and that frame's default context, which a new document
// replaces. Empty when the session does not report its contexts.
func (p *Page) document() string {
	s, frameID := p.S, p.S.TargetID
	if p.Frame != nil {
		s, frameID = p.Frame.s, p.Frame.ID
	}
	fs := p.frameState()
	fs.mu.Lock()
	defer fs.mu.Unlock()
	c := fs.contexts[s.ID]
	if c == nil || !c.enabled {
		return ""
	}
	for _, ev := range c.l.Drain() {
		c.apply(ev)
	}
	id := c.byFrame[frameID]
	if id == 0 {
		return ""
	}
	return s.ID + " " + frameID + " " + strconv.Itoa(id)
}

// served reports whether key was marked, and marks it.
func (p *Page) served(key string, mark bool) bool {
	fs := p.frameState()
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if mark {
		if fs.exposed == nil {
			fs.exposed = map[string]bool{}
		}
		fs.exposed[key] = true
	}
	return fs.exposed[key]
}

// EvalSession is the session that renders the current frame: Runtime and
// DOM calls on its objects go there. Input goes to S, the tab.
func (p *Page) EvalSession() *cdp.Session {
	if p.Frame != nil {
		return p.Frame.s
	}
	return p.S
}

func (p *Page) frameState() *frames {
	if p.fs == nil {
		p.fs = newFrames(p.S)
	}
	return p.fs
}

// Close ends what the page listens to.
func (p *Page) Close() {
	if p.fs != nil {
		p.fs.close()
	}
}

// Top returns a page on the same tab evaluating in the top document, in
// the same world as p.
func (p *Page) Top() *Page { return &Page{S: p.S, fs: p.frameState(), main: p.main} }

// FrameError says a frame cannot be entered or used. A frame that is not
// there is an ElementNotFoundError (its element is missing); one whose
// document went away under the call, a ContextDestroyedError.
type FrameError struct {
	Frame  string
	Reason string
	Gone   bool
}

func (e *FrameError) Error() string { return fmt.Sprintf("frame %s: %s", e.Frame, e.Reason) }

func (e *FrameError) ErrorName() string {
	if e.Gone {
		return "ContextDestroyedError"
	}
	return "ElementNotFoundError"
}

// FrameList is the tab's frame hierarchy (SPEC 13.1).
type FrameList struct {
	MainFrameID    string   `json:"mainFrameId"`
	CurrentFrameID string   `json:"currentFrameId"`
	Frames         []*Frame `json:"frames"`
}

// Frames lists every frame of the tab, top first, each followed by its
// children: the tab's own frame tree plus out-of-process iframes, which
// Page.getFrameTree leaves out, each attached and read in turn.
func (p *Page) Frames(ctx context.Context) (*FrameList, error) {
	return p.frames(ctx, "")
}

// FindFrame returns the frame with id. It reads only the out-of-process
// iframes on the way to it when it can tell which they are, so a page
// full of cross-site ads does not cost an attach each.
func (p *Page) FindFrame(ctx context.Context, id string) (*Frame, error) {
	list, err := p.frames(ctx, id)
	if err != nil {
		return nil, err
	}
	return list.FindFrame(id)
}

// frames lists the tab's frames; with want set, only as far as it takes to
// place that frame.
func (p *Page) frames(ctx context.Context, want string) (*FrameList, error) {
	fs := p.frameState()
	res, err := proto.PageGetFrameTree{}.Do(ctx, p.S)
	if err != nil {
		return nil, fmt.Errorf("frame tree: %w", err)
	}
	top := res.FrameTree
	var oopifs []proto.TargetInfo
	if want == "" || !treeHas(&top, want) {
		if oopifs, err = p.oopifTargets(ctx); err != nil {
			return nil, err
		}
	}
	read := oopifsToRead(oopifs, want, &top)
	byParent := map[string][]proto.TargetInfo{}
	for _, t := range oopifs {
		if read == nil || read[t.TargetID] {
			byParent[t.ParentFrameID] = append(byParent[t.ParentFrameID], t)
		}
	}
	list := &FrameList{MainFrameID: top.Frame.ID, CurrentFrameID: top.Frame.ID}
	if p.Frame != nil {
		list.CurrentFrameID = p.Frame.ID
	}
	topOrigin := originOf(top.Frame.SecurityOrigin, top.Frame.URL, "")
	var walk func(t proto.FrameTree, s *cdp.Session, parent *Frame, depth int)
	walk = func(t proto.FrameTree, s *cdp.Session, parent *Frame, depth int) {
		f := newFrame(t, s, parent, depth, topOrigin)
		list.Frames = append(list.Frames, f)
		for _, c := range t.ChildFrames {
			walk(c, s, f, depth+1)
		}
		for _, o := range byParent[f.ID] {
			sub, os, err := fs.oopifTree(ctx, o.TargetID)
			if err != nil {
				continue // the frame went away while we looked
			}
			walk(*sub, os, f, depth+1)
		}
	}
	walk(top, p.S, nil, 0)
	return list, nil
}

// oopifsToRead is the set of out-of-process iframes to read to place
// want: none when it is in the tab's own tree, the chain of iframe
// targets down to it when that chain starts in the tab's tree, else nil,
// meaning all of them.
func oopifsToRead(oopifs []proto.TargetInfo, want string, top *proto.FrameTree) map[string]bool {
	if want == "" {
		return nil
	}
	read := map[string]bool{}
	if treeHas(top, want) {
		return read
	}
	byID := map[string]proto.TargetInfo{}
	for _, t := range oopifs {
		byID[t.TargetID] = t
	}
	for id := want; ; {
		t, ok := byID[id]
		if !ok {
			if treeHas(top, id) {
				return read
			}
			return nil // want, or a frame above it, lives inside an iframe's process
		}
		read[id] = true
		id = t.ParentFrameID
	}
}

// treeHas reports whether frame id is in t.
func treeHas(t *proto.FrameTree, id string) bool {
	if t.Frame.ID == id {
		return true
	}
	for i := range t.ChildFrames {
		if treeHas(&t.ChildFrames[i], id) {
			return true
		}
	}
	return false
}

// newFrame describes node t, rendered by s, below parent (nil for the top).
func newFrame(t proto.FrameTree, s *cdp.Session, parent *Frame, depth int, topOrigin string) *Frame {
	f := &Frame{ID: t.Frame.ID, URL: t.Frame.URL + t.Frame.URLFragment, Name: t.Frame.Name, Depth: depth, s: s}
	if parent == nil {
		f.origin, f.root = topOrigin, true
		return f
	}
	f.ParentID = parent.ID
	f.origin = originOf(t.Frame.SecurityOrigin, f.URL, parent.origin)
	f.sealed = f.origin != parent.origin
	f.CrossOrigin = f.origin != topOrigin
	f.root = s != parent.s
	f.hops = append([]hop{{f.ID, parent.s}}, parent.rootHops...)
	f.rootHops = parent.rootHops
	if f.root {
		f.rootHops = f.hops
	}
	return f
}

// oopifTargets lists the out-of-process iframes of this tab, at any depth.
func (p *Page) oopifTargets(ctx context.Context) ([]proto.TargetInfo, error) {
	res, err := proto.TargetGetTargets{Filter: []proto.TargetFilter{{Type: "iframe"}}}.Do(ctx, p.S.Conn().Browser())
	if err != nil {
		return nil, fmt.Errorf("frame targets: %w", err)
	}
	mine := map[string]bool{p.S.TargetID: true}
	var out []proto.TargetInfo
	for changed := true; changed; {
		changed = false
		for _, t := range res.TargetInfos {
			if t.Type == "iframe" && mine[t.ParentID] && !mine[t.TargetID] {
				mine[t.TargetID] = true
				out = append(out, t)
				changed = true
			}
		}
	}
	return out, nil
}

// oopifTree attaches to an out-of-process iframe (once per call) and
// reads its frame tree: the iframe and the frames its process renders.
func (fs *frames) oopifTree(ctx context.Context, targetID string) (*proto.FrameTree, *cdp.Session, error) {
	fs.mu.Lock()
	s := fs.oopifs[targetID]
	fs.mu.Unlock()
	if s == nil {
		var err error
		if s, err = proto.Attach(ctx, fs.top.Conn(), targetID); err != nil {
			return nil, nil, err
		}
		fs.mu.Lock()
		fs.oopifs[targetID] = s
		fs.mu.Unlock()
	}
	res, err := proto.PageGetFrameTree{}.Do(ctx, s)
	return &res.FrameTree, s, err
}

// originOf is a frame's origin: Chrome's security origin when it has a
// real one, else the URL's; about:blank, srcdoc and the like inherit
// their parent's.
func originOf(security, rawURL, parent string) string {
	if security != "" && security != "://" && security != "null" {
		return security
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || !strings.HasPrefix(u.Scheme, "http") {
		return parent
	}
	return u.Scheme + "://" + u.Host
}

// SealedBelow lists the frames below frame id that in-page code running
// there cannot walk into: those of another origin than their parent, the
// nearest ones only (each has its own SealedBelow).
func (l *FrameList) SealedBelow(id string) []*Frame {
	below := map[string]bool{id: true}
	var out []*Frame
	for _, f := range l.Frames { // parents come before their children
		if !below[f.ParentID] {
			continue
		}
		if f.sealed {
			out = append(out, f)
			continue
		}
		below[f.ID] = true
	}
	return out
}

// FindFrame returns the frame with id, or a FrameError listing what
// there is.
func (l *FrameList) FindFrame(id string) (*Frame, error) {
	for _, f := range l.Frames {
		if f.ID == id {
			return f, nil
		}
	}
	return nil, &FrameError{Frame: id, Reason: "no such frame in this tab; frame {list:true} shows them"}
}

// TopNavigated records that the top document was replaced: every frame
// died with it, so p evaluates in the top document again.
func (p *Page) TopNavigated() {
	p.Frame = nil
	p.navs++
}

// Navigations counts the top-document navigations p has seen, so that
// code switching frames for a moment can tell whether the frame it would
// go back to still exists.
func (p *Page) Navigations() int { return p.navs }

// Enter makes f the frame p evaluates in; nil returns to the top.
func (p *Page) Enter(f *Frame) {
	if f != nil && f.ParentID == "" {
		f = nil
	}
	p.Frame = f
}

// FrameOffset is where the current frame's viewport starts in the tab's
// viewport. Coordinates the page reports are relative to the frame's own
// viewport; input events need the tab's. With reveal, each frame element
// on the way up is first scrolled into its parent's view, as an action
// about to aim at the frame needs: the page cannot scroll documents of
// other origins above it.
func (p *Page) FrameOffset(ctx context.Context, reveal bool) (x, y float64, err error) {
	if p.Frame == nil {
		return 0, 0, nil
	}
	for _, h := range p.Frame.hops {
		owner, err := proto.DOMGetFrameOwner{FrameID: h.frameID}.Do(ctx, h.parent)
		if err != nil {
			return 0, 0, &FrameError{Frame: h.frameID, Reason: "its element is gone: " + err.Error(), Gone: true}
		}
		if reveal {
			if err := (proto.DOMScrollIntoViewIfNeeded{BackendNodeID: owner.BackendNodeID}).Do(ctx, h.parent); err != nil {
				return 0, 0, fmt.Errorf("frame %s: scroll into view: %w", h.frameID, err)
			}
		}
		box, err := proto.DOMGetBoxModel{BackendNodeID: owner.BackendNodeID}.Do(ctx, h.parent)
		if err != nil || len(box.Model.Content) < 2 {
			return 0, 0, &FrameError{Frame: h.frameID, Reason: fmt.Sprintf("its element has no box (hidden?): %v", err)}
		}
		x += box.Model.Content[0]
		y += box.Model.Content[1]
	}
	return x, y, nil
}

//go:embed js/frame_owner.js
var frameOwnerJS string

// ChildFrameID returns the id of the frame held by the element that
// selector matches, or else by the index-th frame element, in the current
// frame's document: nested frames are entered one level at a time.
func (p *Page) ChildFrameID(ctx context.Context, selector string, index int) (string, error) {
	args, err := json.Marshal([]any{selector, index})
	if err != nil {
		return "", err
	}
	name := selector
	if name == "" {
		name = fmt.Sprintf("index %d", index)
	}
	id, err := p.ElementFrameID(ctx, "("+strings.TrimSpace(frameOwnerJS)+")(..."+string(args)+")", name)
	var fe *FrameError
	if errors.As(err, &fe) {
		if reason, ok := strings.CutPrefix(fe.Reason, "invalid selector: "); ok {
			return "", &invalid.Selector{Selector: selector, Reason: reason}
		}
	}
	return id, err
}

// ElementFrameID evaluates expr in the current frame, where it names a
// frame element (<iframe>, <frame>), and returns the id of the frame that
// element holds. An expr that yields a string instead says why there is
// no such element; that, like nothing at all, is a FrameError about what.
func (p *Page) ElementFrameID(ctx context.Context, expr, what string) (string, error) {
	const group = "cdpskill-frame"
	obj, err := p.Evaluate(ctx, proto.RuntimeEvaluate{Expression: expr, ObjectGroup: group})
	if err != nil {
		return "", err
	}
	s := p.EvalSession()
	defer releaseGroup(ctx, s, group)
	switch {
	case obj.Type == "string":
		var why string
		_ = json.Unmarshal(obj.Value, &why)
		return "", &FrameError{Frame: what, Reason: why}
	case obj.ObjectID == "":
		return "", &FrameError{Frame: what, Reason: "its element is gone"}
	}
	node, err := proto.DOMDescribeNode{ObjectID: obj.ObjectID}.Do(ctx, s)
	if err != nil {
		return "", fmt.Errorf("frame element: %w", err)
	}
	if node.Node.FrameID == "" {
		return "", &FrameError{Frame: what, Reason: "the frame element holds no document yet"}
	}
	return node.Node.FrameID, nil
}

// releaseGroup lets the page forget a group of objects, even after ctx
// ended; it is cleanup, so its failure is not reported.
func releaseGroup(ctx context.Context, s *cdp.Session, group string) {
	ctx, cancel := xcontext.Detached(ctx, 2*time.Second)
	defer cancel()
	_ = proto.RuntimeReleaseObjectGroup{ObjectGroup: group}.Do(ctx, s)
}

// ReachesFrame reports that input at pt (the tab's viewport) should go
// into the current frame, rendered by another process: once both
// documents have rendered a frame, the top document's renderer hits the
// frame's element there, nothing of its own over it. The browser routes
// input to a frame's process by what the compositor last drew, and under
// load that can be a frame behind a scroll: events the frame never saw
// then went to that element. false for a frame the tab's process renders
// (its input is never routed so), and for one inside another
// out-of-process frame, whose document the events may have reached.
func (p *Page) ReachesFrame(ctx context.Context, pt [2]float64) (bool, error) {
	if p.Frame == nil || p.Frame.s == p.S || len(p.Frame.hops) == 0 || p.Frame.hops[0].parent != p.S {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_ = p.Top().CallJS(ctx, yieldJS, nil) // a hidden tab's is bounded by its timer
	_ = p.CallJS(ctx, yieldJS, nil)
	hit, err := proto.DOMGetNodeForLocation{X: int(pt[0]), Y: int(pt[1])}.Do(ctx, p.S)
	if err != nil {
		return false, nil // nothing there: not the frame's element either
	}
	owner, err := proto.DOMGetFrameOwner{FrameID: p.Frame.hops[0].frameID}.Do(ctx, p.S)
	if err != nil {
		return false, &FrameError{Frame: p.Frame.ID, Reason: "its element is gone: " + err.Error(), Gone: true}
	}
	return owner.BackendNodeID == hit.BackendNodeID, nil
}
