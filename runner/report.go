package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/diff"
)

// The after-action report (SPEC 14): the screen before the steps, the
// screen and the page after them, and what changed between the two.
const (
	beforeBudget = time.Second
	afterBudget  = 2500 * time.Millisecond
	// changeListLimit caps each list of changes (SPEC 14.2).
	changeListLimit = 10
	// viewportInlineLimit is the most of the lean view printed inline.
	viewportInlineLimit = defaultInlineLimit
)

// ran is what the steps of a call did, for the report.
type ran struct {
	// visual: a step changed what is on screen.
	visual bool
	// verbs are the actions that ran, in order, once each.
	verbs []string
	// looked: a snapshot step ran after the last visual step, so the
	// agent already holds the screen.
	looked bool
	// print is the page's fingerprint when last read (aria.Fingerprint),
	// "" when unknown; the verbs from since on were added after it.
	print string
	since int
}

// scripted sums up a step that ran the agent's code (script), given the
// page's fingerprint before and after it ("" when unread): the actions
// since the last reading that left the page as it was lose their verbs,
// and the script gets its own when it changed the page, so a summary
// names the steps that made its changes ("Ran pageFunction. 1 text
// changed", not "Clicked. 1 text changed").
func (r *ran) scripted(s *step, before, after string) {
	if before != "" && before == r.print {
		r.verbs = r.verbs[:r.since]
	}
	if before != "" && after != "" && after != before && !slices.Contains(r.verbs, s.verb) {
		r.verbs = append(r.verbs, s.verb)
	}
	r.print, r.since = after, len(r.verbs)
}

func (r *ran) step(s *step, ok bool) {
	if s.has(visual) {
		r.visual, r.looked = true, false
		if ok && s.verb != "" && !slices.Contains(r.verbs, s.verb) {
			r.verbs = append(r.verbs, s.verb)
		}
	}
	if s.name == "snapshot" && ok && r.visual {
		r.looked = true
	}
}

// action is the summary's opening: "Filled, pressed".
func (r *ran) action() string {
	if len(r.verbs) == 0 {
		return "Done"
	}
	rest := make([]string, len(r.verbs)-1)
	for i, v := range r.verbs[1:] {
		rest[i] = strings.ToLower(v[:1]) + v[1:]
	}
	return strings.Join(append([]string{r.verbs[0]}, rest...), ", ")
}

// takeBefore snapshots the screen before a batch that acts on the tab;
// the diff needs it, nothing else does. A failure only costs the diff.
func (c *Call) takeBefore(ctx context.Context, req *request) {
	c.scripts = slices.ContainsFunc(req.steps, func(ps plannedStep) bool { return ps.def.has(script) })
	if !diffable(req) {
		return
	}
	c.snapBefore(ctx)
}

// rebase takes the screen again before an action that follows a step
// that loaded another document ("goto, then click"): the changes then
// say what the actions on the new page did, beside navigated.
func (c *Call) rebase(ctx context.Context, ps plannedStep, r *ran) {
	s := ps.def
	switch {
	case s.name == "openTab" || s.name == "connectTab" || ps.loads():
		c.landed = true
	case c.landed && settles(s):
		c.landed, c.rebased = false, true
		r.verbs = nil
		c.snapBefore(ctx)
		r.print, r.since = c.beforePrint(), 0
	}
}

// beforePrint is the fingerprint of the page the changes start from, ""
// when there is none.
func (c *Call) beforePrint() string {
	if c.before == nil {
		return ""
	}
	return c.before.Print
}

// fingerprint reads the page's fingerprint around a script step of a
// batch whose changes are reported, "" otherwise or when it cannot be
// read: a courtesy to the summary, bounded tightly.
func (c *Call) fingerprint(ctx context.Context, s *step) string {
	if !s.has(script) || c.before == nil || c.page() == nil || c.dead() {
		return ""
	}
	fctx, cancel := context.WithTimeout(ctx, fingerprintBudget)
	defer cancel()
	p, err := aria.Fingerprint(fctx, c.page())
	if err != nil {
		return ""
	}
	return p
}

// fingerprintBudget bounds a fingerprint: a busy page's summary names
// every step rather than hold the call up.
const fingerprintBudget = 250 * time.Millisecond

func (c *Call) snapBefore(ctx context.Context) {
	if c.page() == nil || c.dead() {
		return
	}
	bctx, cancel := context.WithTimeout(ctx, beforeBudget)
	defer cancel()
	s, e := c.tab.RefFloors()
	r, err := aria.TakeReport(bctx, c.page(), aria.ReportOptions{Viewport: true, Print: c.scripts, SnapshotFloor: s, ElementFloor: e})
	c.before, c.beforeFailed = r, err != nil
}

// diffable says whether a batch acts on its tab before it loads another
// document: a batch that starts by navigating has nothing to compare.
func diffable(req *request) bool {
	for _, ps := range req.steps {
		switch {
		case ps.def.name == "openTab" || ps.def.name == "connectTab" || ps.loads():
			return false
		case settles(ps.def):
			return true
		}
	}
	return false
}

// screen is the report's after-snapshots.
type screen struct {
	now      *aria.Report
	fullPath string
}

// full is the full snapshot's file, "" for none.
func (s *screen) full() string {
	if s == nil {
		return ""
	}
	return s.fullPath
}

// takeAfter snapshots the screen and then the whole page, which goes to
// the call's file in its tab's history (0007.after.yaml); finish runs it
// beside the other captures. The screen comes first, so a page too large
// to walk in time still shows what is on it.
func (c *Call) takeAfter(ctx context.Context) *screen {
	actx, cancel := context.WithTimeout(ctx, afterBudget)
	defer cancel()
	s, e := c.tab.RefFloors()
	opts := aria.ReportOptions{Viewport: true, Elsewhere: c.name(), Marks: c.after != nil, SnapshotFloor: s, ElementFloor: e}
	now, err := aria.TakeReport(actx, c.page(), opts)
	c.after.set(marksOf(now), err)
	if err != nil {
		why := err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			why = fmt.Sprintf("it took longer than %d ms", afterBudget.Milliseconds())
		}
		c.warn("no viewportSnapshot or changes: the page could not be read after the steps (%s)", why)
		return nil
	}
	out := &screen{now: now}
	opts.Viewport, opts.Full, opts.Elsewhere, opts.Marks = false, true, "", false
	if full, err := aria.TakeReport(actx, c.page(), opts); err == nil {
		now.LastSnapshot, now.LastElement = full.LastSnapshot, full.LastElement
		out.fullPath = c.env().writeArtifact(c.callFile(capture.AfterYAML), []byte(full.Full+"\n"))
	}
	c.tab.SaveRefCounters(now.LastSnapshot, now.LastElement)
	return out
}

// report puts the screen into the result: the changes since the screen
// before, unless the page navigated or the document was replaced (a
// comparison across documents means nothing); the lean view inline,
// unless the agent's own snapshot came last; the full snapshot's path.
// Chrome's page for a failed navigation gets none of it.
func (c *Call) report(res *Result, r *ran, s *screen) {
	if s == nil || res.Context != nil && strings.HasPrefix(res.Context.URL, "chrome-error:") {
		return // Chrome's error page says nothing the error does not
	}
	res.FullSnapshot = s.fullPath
	b := c.before
	switch {
	case res.Navigated && (!c.rebased || b == nil || b.Doc != s.now.Doc):
		// Across documents there is nothing to compare.
	case b != nil && b.Doc == s.now.Doc:
		d := diff.Compare(diff.Parse(b.Viewport), diff.Parse(s.now.Viewport),
			diff.Options{Scrolled: c.scrolled || b.Scroll != s.now.Scroll})
		res.Changes = d.Report(r.action(), changeListLimit).WithElsewhere(r.action(), away(s.now.Elsewhere))
	case b != nil:
		res.Changes = notCompared(r, "the steps ended in another document (another frame, or a frame that loaded a new page)")
	case c.beforeFailed:
		res.Changes = notCompared(r, "the page could not be read before the steps")
	}
	if !r.looked {
		res.ViewportSnapshot, res.Truncated = cutInline(s.now.Lean, viewportInlineLimit, s.fullPath != "")
	}
}

// away is the report's changes out of view, for the diff's summary.
func away(in []aria.Away) []diff.Away {
	out := make([]diff.Away, len(in))
	for i, a := range in {
		out[i] = diff.Away{Side: a.Side, Region: a.Region, Text: a.Text}
	}
	return out
}

// notCompared is the changes of a call whose screens cannot be compared:
// said, so that no changes never reads as nothing changed.
func notCompared(r *ran, why string) *diff.Changes {
	return &diff.Changes{Summary: r.action() + ". Not compared: " + why + "."}
}

// cutInline cuts a snapshot at the last whole line within limit.
func cutInline(yaml string, limit int, full bool) (string, bool) {
	if len(yaml) <= limit {
		return yaml, false
	}
	cut := strings.LastIndexByte(yaml[:limit], '\n')
	if cut < 0 {
		cut = 0
	}
	if !full {
		return yaml[:cut] + "\n# … cut here: take a snapshot for the rest", true
	}
	return yaml[:cut] + "\n# … cut here: fullSnapshot has the whole page", true
}
