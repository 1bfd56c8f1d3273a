package aria

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

// Frames the page may not read: the walk (walk.js) cannot enter the
// document of a cross-origin frame, so it marks the frame's line with
// [xframe=<index>] and keeps the frame element in window.__ariaXFrames.
// Go finds the frame that element holds, snapshots its document in the
// frame's own context (an out-of-process iframe through its own session),
// and puts that snapshot in place of the line, under a document node
// that keeps [cross-origin]. Its refs continue the numbers of the
// snapshot that met it, in the same s{N}; the refs live in the frame's
// window. A frame that cannot be read keeps its iframe line.

// frameMark is the attribute walk.js puts on an unreadable frame's line.
const frameMark = "xframe"

// frameWait bounds the reading of one frame, so that a frame that hangs
// or is still loading costs its content, not the snapshot.
const frameWait = 5 * time.Second

// defaultMaxDepth is walk.js's maxDepth when the options give none.
const defaultMaxDepth = 50

// xframe is one frame the walk could not read, as snapshot.js lists it.
type xframe struct {
	// Depth is the depth of the frame's node in the output tree.
	Depth int    `json:"depth"`
	Name  string `json:"name"`
	// Path is the selectors of the frame elements from the snapshotted
	// document down to this one (ai mode).
	Path []string `json:"path"`
	// Origin is where the frame's viewport starts in the top viewport;
	// Clip the part of the top viewport it shows.
	Origin xy   `json:"origin"`
	Clip   rect `json:"clip"`
}

type xy struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// frameWalk is what the frames of one snapshot share: the ref counters
// and the element budget they use up in turn, and the tab's frame list.
type frameWalk struct {
	opts      Options
	list      *page.FrameList
	snap      int // ref counters so far
	elem      int
	used      int // elements walked so far, for maxElements
	refs      int
	truncated bool
	refMap    map[string]RefMeta
	summary   [3]int // landmarks, headings, interactive of the frames
}

// addFrames snapshots the frames out lists and splices them into res.
func addFrames(ctx context.Context, p *page.Page, opts Options, out *snapshotOut, res *Result) error {
	refMap, err := out.RefMap.decode()
	if err != nil {
		return fmt.Errorf("aria: snapshot: refs map: %w", err)
	}
	w := &frameWalk{opts: opts, snap: out.LastSnapshot, elem: out.LastElement, used: out.Elements, refMap: refMap}
	maxDepth := opts.MaxDepth
	if maxDepth == 0 {
		maxDepth = defaultMaxDepth
	}
	yaml, err := w.expand(ctx, p, out, maxDepth, nil)
	if err != nil {
		return err
	}
	if opts.Detail == DetailSummary {
		yaml = w.addSummaryCounts(yaml)
	}
	res.YAML = yaml
	res.Refs += w.refs
	res.Truncated = res.Truncated || w.truncated
	res.LastSnapshot, res.LastElement = w.snap, w.elem
	res.RefMap = nil
	if opts.RefMapAbove > 0 && res.Refs > opts.RefMapAbove {
		if res.RefMap, err = json.Marshal(w.refMap); err != nil {
			return err
		}
	}
	return nil
}

// expand snapshots the frames of out, a snapshot of p's document made
// with maxDepth, and returns out's YAML with them in place. path leads
// from the top document to p's.
func (w *frameWalk) expand(ctx context.Context, p *page.Page, out *snapshotOut, maxDepth int, path []string) (string, error) {
	docs := make([]*snapshotOut, len(out.XFrames))
	for i, xf := range out.XFrames {
		doc, err := w.frame(ctx, p, i, xf, maxDepth, path)
		if err != nil {
			return "", err
		}
		docs[i] = doc
	}
	return w.splice(out.YAML, out.XFrames, docs), nil
}

// frame returns the snapshot of the i-th frame of out, with its own
// frames in place; nil when it cannot be read, or the limits leave no
// room to read it (its iframe line then says what and where it is). Only
// the end of ctx is an error.
func (w *frameWalk) frame(ctx context.Context, p *page.Page, i int, xf xframe, maxDepth int, path []string) (*snapshotOut, error) {
	depth := maxDepth - xf.Depth - 1
	switch {
	case depth <= 0:
		return nil, nil
	case w.opts.MaxElements > 0 && w.used >= w.opts.MaxElements:
		w.truncated = true
		return nil, nil
	case w.opts.ViewportOnly && (xf.Clip.Width <= 0 || xf.Clip.Height <= 0):
		return offscreen, nil
	}
	fp, doc, err := w.read(ctx, p, i, w.frameIn(xf, depth))
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("aria: snapshot of frame %q: %w", xf.Name, err)
		}
		return nil, nil // gone, no context, or hostile to the snapshot code
	}
	return doc, w.take(ctx, fp, doc, depth, append(append([]string(nil), path...), xf.Path...))
}

// read enters the i-th frame of p's snapshot and snapshots it, within
// frameWait.
func (w *frameWalk) read(ctx context.Context, p *page.Page, i int, in snapshotIn) (*page.Page, *snapshotOut, error) {
	ctx, cancel := context.WithTimeout(ctx, frameWait)
	defer cancel()
	fp, err := w.enter(ctx, p, i)
	if err != nil {
		return nil, nil, err
	}
	doc, _, err := callSnapshot(ctx, fp, in)
	if err == nil && doc.Error != "" {
		err = fmt.Errorf("aria: snapshot of a frame: %s: %s", doc.Error, doc.Message)
	}
	return fp, doc, err
}

// frameIn is the options of a frame's own snapshot: the top snapshot's,
// on the frame's whole document, within what the top one left of the
// limits, numbering refs above every ref handed out so far.
func (w *frameWalk) frameIn(xf xframe, depth int) snapshotIn {
	o := w.opts
	o.Root, o.Since, o.Internal, o.MaxDepth = "body", "", true, depth
	if o.MaxElements > 0 {
		o.MaxElements -= w.used
	}
	in := snapshotIn{Options: o, SnapshotFloor: w.snap, ElementFloor: w.elem, FrameMark: frameMark,
		Frame: true, RefMapAll: w.opts.RefMapAbove > 0,
		FreshFrame: w.opts.PreserveRefs != nil && !*w.opts.PreserveRefs && !w.opts.Internal}
	if o.ViewportOnly {
		in.Origin, in.Clip = &xf.Origin, &xf.Clip
	}
	return in
}

// take counts what a frame's snapshot used and handed out, then puts the
// frame's own unreadable frames in place.
func (w *frameWalk) take(ctx context.Context, fp *page.Page, doc *snapshotOut, depth int, path []string) error {
	w.snap, w.elem = max(w.snap, doc.LastSnapshot), max(w.elem, doc.LastElement)
	w.used += doc.Elements
	w.refs += doc.Refs
	w.truncated = w.truncated || doc.Truncated
	refMap, _ := doc.RefMap.decode() // an unreadable one leaves the frame's refs out of the file
	for ref, m := range refMap {
		if w.refMap == nil {
			w.refMap = map[string]RefMeta{}
		}
		m.Frame = append(append([]string(nil), path...), m.Frame...)
		w.refMap[ref] = m
	}
	if len(doc.XFrames) == 0 {
		return nil
	}
	yaml, err := w.expand(ctx, fp, doc, depth, path)
	doc.YAML = yaml
	return err
}

// enter returns a page evaluating in the frame that the i-th element of
// window.__ariaXFrames in p's document holds.
func (w *frameWalk) enter(ctx context.Context, p *page.Page, i int) (*page.Page, error) {
	id, err := p.ElementFrameID(ctx, "window.__ariaXFrames["+strconv.Itoa(i)+"]", strconv.Itoa(i))
	if err != nil {
		return nil, err
	}
	f, err := w.find(ctx, p, id)
	if err != nil {
		return nil, err
	}
	fp := p.Top()
	fp.Enter(f)
	return fp, nil
}

// find looks id up in the tab's frames, listed once per snapshot and
// again when a frame is not in the list (it appeared since).
func (w *frameWalk) find(ctx context.Context, p *page.Page, id string) (*page.Frame, error) {
	for fresh := w.list == nil; ; fresh = true {
		if fresh {
			list, err := p.Frames(ctx)
			if err != nil {
				return nil, err
			}
			w.list = list
		}
		f, err := w.list.FindFrame(id)
		if err == nil || fresh {
			return f, err
		}
	}
}

// splice replaces the marked lines of yaml with the frames' snapshots
// (docs[i] nil: the frame could not be read).
func (w *frameWalk) splice(yaml string, xfs []xframe, docs []*snapshotOut) string {
	lines := strings.Split(yaml, "\n")
	out := make([]string, 0, len(lines))
	dropped := false
	for _, line := range lines {
		i, head, ok := markedLine(line, len(docs))
		if !ok {
			out = append(out, line)
			continue
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
		repl := w.frameLines(indent, head, xfs[i], docs[i])
		dropped = dropped || len(repl) == 0
		out = append(out, repl...)
	}
	if dropped {
		out = pruneEmpty(out, w.opts.Detail == DetailSummary)
	}
	return strings.Join(out, "\n")
}

// markedLine returns the index in a line that ends with [xframe=<i>],
// and the line without it.
func markedLine(line string, n int) (int, string, bool) {
	if !strings.HasSuffix(line, "]") {
		return 0, "", false
	}
	at := strings.LastIndex(line, " ["+frameMark+"=")
	if at < 0 {
		return 0, "", false
	}
	i, err := strconv.Atoi(line[at+len(frameMark)+3 : len(line)-1])
	if err != nil || i < 0 || i >= n {
		return 0, "", false
	}
	return i, line[:at], true
}

// offscreen stands for a frame that viewportOnly leaves out.
var offscreen = &snapshotOut{}

// frameLines is what stands in a frame's place: its content under a
// document node, or at the summary level its landmarks and headings; a
// frame that could not be read keeps its iframe line, except at the
// levels that leave out what has nothing to act on.
func (w *frameWalk) frameLines(indent, head string, xf xframe, doc *snapshotOut) []string {
	if doc == offscreen {
		return nil
	}
	var body []string
	if doc != nil && doc.YAML != "" {
		body = strings.Split(doc.YAML, "\n")
	}
	if w.opts.Detail == DetailSummary {
		if len(body) > 0 && strings.HasPrefix(body[0], "# summary:") {
			w.countSummary(body[0])
			body = body[1:]
		}
		return indented(indent, body)
	}
	if doc == nil {
		if w.opts.Detail == DetailInteractive {
			return nil
		}
		return []string{head}
	}
	if len(body) == 0 && w.opts.Detail == DetailInteractive {
		return nil
	}
	line := indent + "- document"
	if name := firstOf(xf.Name, doc.Title); name != "" {
		line += " " + quote(name)
	}
	line += " [cross-origin]"
	if len(body) > 0 {
		line += ":"
	}
	return append([]string{line}, indented(indent+"  ", body)...)
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func indented(indent string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = indent + l
	}
	return out
}

// pruneEmpty fixes the parents of dropped frame lines that were left
// with no children: at the interactive level a structure line goes (it
// was there only for the frame), while an element with a ref, or a
// summary's landmark, stays without its colon.
func pruneEmpty(lines []string, summary bool) []string {
	keep := make([]bool, len(lines))
	nextIndent := -1 // indent of the next kept line
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		ind := len(l) - len(strings.TrimLeft(l, " "))
		keep[i] = true
		if strings.HasSuffix(l, ":") && strings.HasPrefix(l[ind:], "- ") && nextIndent <= ind {
			if summary || strings.Contains(l, " [ref=") {
				lines[i] = strings.TrimSuffix(l, ":")
			} else {
				keep[i] = false
				continue
			}
		}
		nextIndent = ind
	}
	out := lines[:0]
	for i, l := range lines {
		if keep[i] {
			out = append(out, l)
		}
	}
	return out
}

// countSummary adds a frame's summary header to the frames' totals.
func (w *frameWalk) countSummary(header string) {
	var l, h, n int
	if _, err := fmt.Sscanf(header, "# summary: %d landmarks, %d headings, %d interactive", &l, &h, &n); err == nil {
		w.summary[0] += l
		w.summary[1] += h
		w.summary[2] += n
	}
}

// addSummaryCounts adds the frames' totals to the top summary's header.
func (w *frameWalk) addSummaryCounts(yaml string) string {
	head, rest, _ := strings.Cut(yaml, "\n")
	var l, h, n int
	if _, err := fmt.Sscanf(head, "# summary: %d landmarks, %d headings, %d interactive", &l, &h, &n); err != nil {
		return yaml
	}
	head = fmt.Sprintf("# summary: %d landmarks, %d headings, %d interactive",
		l+w.summary[0], h+w.summary[1], n+w.summary[2])
	if rest == "" {
		return head
	}
	return head + "\n" + rest
}

// quote renders s as JSON.stringify does in the page, which the rest of
// the snapshot's names come from.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return strconv.Quote(s)
	}
	q := strings.TrimSuffix(b.String(), "\n")
	return strings.NewReplacer(`\u2028`, "\u2028", `\u2029`, "\u2029").Replace(q)
}
