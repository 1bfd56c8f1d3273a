package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/keeper"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/tab"
	"github.com/cdpskill/cdpskill/tabs"
)

// Post-call captures are courtesies: they never hold the agent up for
// long, least of all after a step that already timed out.
const (
	contextBudget    = time.Second
	screenshotBudget = 1500 * time.Millisecond
	consoleBudget    = 500 * time.Millisecond
)

// Options configure a call. What the call takes from its process's
// environment comes in here as values (the temp directory, the working
// directory, the environment), so that calls sharing a process, as tests
// do, each keep to their own.
type Options struct {
	Getenv chrome.Env
	// TempDir is $TMPDIR: the registry, the per-tab files under
	// TempDir/cdp-skill, the tab locks and an auto-launched Chrome's
	// profile go there. Empty is os.TempDir().
	TempDir string
	// Dir is the working directory relative paths are taken from (a
	// pageFunction's file, upload's files, a screenshot's or pdf's path).
	// Empty is the process's.
	Dir string
	// RegistryPath overrides the default session's tab registry file
	// (tests); empty is TempDir/cdp-skill-tabs.json. A session's is its
	// own (tabs.OpenSession).
	RegistryPath string
	// Trace records every CDP call's timing for WriteDebugLog.
	Trace bool
	// Exiting: the process ends right after Run, so a browser websocket
	// is left for the exit to close. Closing one sets every renderer and
	// the GPU process to work (a few hundred ms of CPU with dozens of
	// tabs), and a process that closes it itself is starved by that
	// before it can end.
	Exiting bool
	// Keeper is how the call starts a browser's keeper (the cdpskill
	// binary, as "--keeper"); nil starts none: emulation ends with each
	// call, and nothing closes an idle session or Chrome.
	Keeper *keeper.Exe
	// History bounds each tab's history of screenshots and snapshots
	// (tests); the zero value is capture.MaxHistoryCalls and
	// MaxHistoryBytes.
	History capture.HistoryBound
}

// Run validates input whole, runs its steps in order and returns the
// result document. It never panics on bad input and never calls os.Exit.
func Run(ctx context.Context, input []byte, opts Options) *Result {
	var trace *cdp.Trace
	if opts.Trace {
		trace = cdp.NewTrace()
		ctx = cdp.WithTrace(ctx, trace)
	}
	res := run(ctx, input, opts, trace)
	res.trace = trace
	return res
}

// files is where the call's files go, from opts: a relative TempDir is
// taken from Dir.
func (opts Options) files() capture.Files {
	f := capture.Files{WorkDir: opts.Dir, History: opts.History}
	tmp := opts.TempDir
	if tmp == "" {
		tmp = os.TempDir()
	}
	if abs, err := f.Abs(tmp); err == nil {
		tmp = abs
	}
	f.Temp = private.Temp(tmp)
	return f
}

func run(ctx context.Context, input []byte, opts Options, trace *cdp.Trace) *Result {
	files := opts.files()
	if opts.Getenv != nil {
		files.Session = opts.Getenv("CDPSKILL_SESSION")
	}
	req, perr := parseRequest(input, files)
	if perr != nil {
		return errorResult(perr)
	}
	files.Session = req.session
	reg := tabs.OpenSession(files.Temp, req.session)
	if req.session == "" && opts.RegistryPath != "" {
		reg = tabs.OpenRegistryIn(files.Temp, opts.RegistryPath)
	}
	if e := checkTabPlan(req); e != nil {
		return errorResult(e)
	}
	ctx, abort := context.WithCancelCause(ctx)
	defer abort(nil)
	c := &Call{getenv: opts.Getenv, tabs: reg, files: files, trace: trace,
		start: time.Now(), abort: abort, timeout: req.timeout, exiting: opts.Exiting, after: newAfterMarks(req.annotate)}
	defer c.close()
	c.keep = c.keeperClient(opts.Keeper)
	// The registry is transient state: a damaged one is rebuilt from what
	// survived, and the call goes on, told.
	c.tabs.OnCorrupt = func(err error) {
		c.warnMu.Lock()
		c.damage = err
		c.warnMu.Unlock()
		c.warn("the tab registry was damaged and has been rebuilt: %v", err)
	}
	dialogs := page.NewDialogWatch(req.dialog)
	defer dialogs.Close()
	c.dialogs = dialogs

	if req.tab != "" {
		// The keeper brings a click the downloads of the tabs it opens,
		// which a tab's own websocket does not hear of; a batch that
		// clicks nothing hears its tab's own on it, at no cost.
		c.relay = c.keep != nil && req.any(browserWide)
		if err := c.open(ctx, req.tab, !req.any(browserWide) || c.relay); err != nil {
			if died := tab.Died(ctx); died != nil {
				err = died // the tab died while the call set up: that is the news
			}
			e := classifyUnder(err, req.timeout)
			if left := c.recordingLeft(req.tab); left != "" {
				e.Message += "; " + left
			}
			return errorResult(e)
		}
	}
	res := &Result{Status: "ok"}
	c.trace.Mark("attached")
	c.takeBefore(ctx, req)
	c.trace.Mark("steps")
	r := c.runSteps(ctx, req, res, dialogs)
	c.followDialogs(ctx) // the captures must not meet an open dialog either
	c.visitKeeper(ctx)
	c.trace.Mark("finish")
	c.finish(ctx, res, r)
	c.trace.Mark("late downloads")
	c.lateDownloads(ctx, res)
	c.trace.Mark("done")
	dialogs.Close()
	lateDialogs(res, dialogs)
	res.secrets = c.secrets
	return res
}

// checkTabPlan rejects a batch whose first tab-bound step has no tab.
func checkTabPlan(req *request) *Error {
	if req.tab != "" {
		return nil
	}
	for _, ps := range req.steps {
		switch {
		case ps.def.name == "openTab" || ps.def.name == "connectTab":
			return nil
		case ps.def.has(needsTab):
			return newError(Validation, `step %d (%s) needs a tab: pass "tab":"t1" at the top level, or start with {"openTab":"https://example.com"}`, ps.n, ps.def.name)
		}
	}
	return nil
}

// runSteps runs the steps in order, stopping at the first failure that is
// not optional. It reports what ran, for the report.
func (c *Call) runSteps(ctx context.Context, req *request, res *Result, dialogs *page.DialogWatch) *ran {
	r := &ran{print: c.beforePrint()}
	last := -1 // the last action on the tab
	for i, ps := range req.steps {
		if settles(ps.def) {
			last = i
		}
	}
	for i, ps := range req.steps {
		ps.last = i == last
		timeout := req.timeout
		if ps.timeout > 0 {
			timeout = ps.timeout
		}
		if err := ctx.Err(); err != nil {
			// Interrupted, or the tab died, between two steps: the step
			// that did not run says so, optional or not, so that a call
			// whose steps did not all run never says ok.
			if died := tab.Died(ctx); died != nil {
				err = died
			}
			sr := StepResult{Action: ps.def.name}
			ps.optional = false
			c.recordFailure(ctx, ps, &sr, res, err, timeout)
			res.Steps = append(res.Steps, sr)
			break
		}
		c.followDialogs(ctx)
		c.rebase(ctx, ps, r)
		c.watchInteractions(ctx, req, i)
		dialogs.BeginStep(ps.dialog)
		print := c.fingerprint(ctx, ps.def)
		sr, err := c.runStep(ctx, ps, timeout)
		if err != nil {
			err = c.checkAnswers(ctx, err)
		}
		c.takeDialogs(&sr, dialogs)
		if err != nil && dismissedUnload(sr.Dialogs) {
			err = &StayedError{Err: err}
		}
		var closed *cdp.ClosedError
		switch died := tab.Died(ctx); {
		case err != nil && died != nil:
			err = died // the tab died: that, not the interrupted call, is the news
		case errors.As(err, &closed) && c.alias() != "":
			// The step saw the connection close before the tab watch did.
			err = &tab.DroppedError{Alias: c.alias(), Remote: c.browser != nil && c.browser.Endpoint.Remote(), Err: closed}
		}
		r.step(ps.def, err == nil)
		if print != "" {
			r.scripted(ps.def, print, c.fingerprint(ctx, ps.def))
		}
		if err != nil {
			c.recordFailure(ctx, ps, &sr, res, err, timeout)
		}
		res.Steps = append(res.Steps, sr)
		if sr.Status == "error" {
			break
		}
	}
	return r
}

// recordFailure fills in a failed step's result and, unless the step was
// optional, the call's errors.
func (c *Call) recordFailure(ctx context.Context, ps plannedStep, sr *StepResult, res *Result, err error, timeout time.Duration) {
	e := classifyUnder(err, timeout)
	sr.Error = e.Error()
	var js *page.JSError
	if errors.As(err, &js) {
		sr.Stack = js.Stack
	}
	if ps.optional {
		sr.Status = "skipped"
		return
	}
	sr.Params = redactParams(ps.raw)
	sr.Status = "error"
	res.Status = "error"
	res.Errors = append(res.Errors, StepError{Step: ps.n, Action: ps.def.name, Type: e.Type, Name: e.Name, Error: sr.Error})
	if e.Type == Execution && takesHooks(ps.def) && !strings.HasPrefix(e.Name, "Navigation") {
		// After a failed navigation the page is Chrome's error page or the
		// old one: describing it would not help.
		d := c.failureContext(ctx, ps.def, err)
		if d == nil {
			return
		}
		sr.Context = d
		if hint := exactElsewhere(err, d); hint != "" {
			sr.Error += hint
			res.Errors[len(res.Errors)-1].Error += hint
		}
		if f := d.InFrame; f != nil {
			hint := fmt.Sprintf("; it is in frame %s: switch with {\"frame\":{\"frameId\":%q}}", frameLabel(f), f.ID)
			if accepts(ps.params, "searchFrames") {
				hint += ` or add "searchFrames": true`
			}
			sr.Error += hint
			res.Errors[len(res.Errors)-1].Error += hint
		}
	}
}

// exactElsewhere is the hint for a search by text or selector that
// missed although an element reads exactly so: a heading or a paragraph
// a click by text does not take as clickable, or words given as a
// selector. It names the way to reach that element.
func exactElsewhere(err error, d *dom.Diagnostics) string {
	var nf *dom.NotFoundError
	if !errors.As(err, &nf) || len(d.NearMatches) == 0 || (nf.Target.Text == "" && nf.Target.Selector == "") {
		return ""
	}
	m := d.NearMatches[0]
	if m.Score < 100 {
		return ""
	}
	how := fmt.Sprintf("{\"selector\":%q}", m.Selector)
	if m.Ref != "" {
		how = fmt.Sprintf("%q", m.Ref)
	}
	what := "an element"
	if m.Role != "" {
		what = "a " + m.Role
	}
	switch {
	case nf.Target.Selector != "":
		return fmt.Sprintf("; %s reads %q: to click it by its text, give {\"text\":%q}, or its ref %s", what, m.Text, m.Text, how)
	case clickedByText[m.Role]:
		// The search would take it now: it came as the wait ended.
		return fmt.Sprintf("; %s reading %q came as the wait ended: run the step again, or target it with %s", what, m.Text, how)
	}
	return fmt.Sprintf("; %s reads %q but is not something a click by text takes: target it with %s", what, m.Text, how)
}

// clickedByText are the roles of the elements a click by text takes
// (dom/js/resolve_text.js's CLICKABLE_TIERS, but for the catch-all last tier).
var clickedByText = map[string]bool{
	"button": true, "link": true, "checkbox": true, "radio": true, "switch": true, "tab": true,
	"option": true, "menuitem": true, "menuitemcheckbox": true, "menuitemradio": true,
	"treeitem": true, "gridcell": true,
}

// accepts says whether a step whose decoded params are params takes the
// parameter name.
func accepts(params any, name string) bool {
	t := reflect.TypeOf(params)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t != nil && t.Kind() == reflect.Struct && slices.Contains(jsonFields(t), name)
}

// frameLabel names a frame for a message: its name, else its URL.
func frameLabel(f *page.CurrentFrame) string {
	if f.Name != "" {
		return strconv.Quote(f.Name)
	}
	return f.URL
}

func (c *Call) runStep(ctx context.Context, ps plannedStep, timeout time.Duration) (StepResult, error) {
	sr := StepResult{Action: ps.def.name, Status: "ok"}
	if ps.def.has(needsTab) {
		if _, err := c.requirePage(); err != nil {
			return sr, err
		}
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	c.renewDownloads(sctx, ps.def)
	var nc *tab.Network
	mark := 0
	if ps.waitFor != nil {
		var err error
		if nc, err = c.tab.EnsureNetwork(sctx); err != nil {
			return sr, err
		}
		mark = nc.Mark()
	}
	out, err := c.runHooked(sctx, ps, &sr)
	if ref := unknownRef(err); ref != "" && c.page() != nil {
		out, err = c.runInFrameOf(sctx, ps, &sr, ref, out, err)
	}
	if err == nil && nc != nil {
		sr.Response, err = c.awaitResponse(sctx, nc, mark, *ps.waitFor, start)
	}
	c.takeDownloads(sctx, &sr, false)
	if err == nil && ps.def.verb != "" && !ps.def.has(navigates) {
		if w := c.pageThrew(ctx, start); w != "" {
			sr.addWarning(w)
		}
	}
	if out.warning != "" {
		sr.addWarning(out.warning)
	}
	if present(out.value) { // a failing step may still say what it saw
		sr.Output = c.inline(ps.def, out.value)
	}
	return sr, err
}

// pageThrew words the exceptions the page's own scripts threw since start,
// while an action that went through ran: its listeners' failures are the
// page's, worth knowing, and never the action's.
func (c *Call) pageThrew(ctx context.Context, start time.Time) string {
	if c.console() == nil {
		return ""
	}
	var thrown []capture.Message
	pick := func(con *capture.Console) []capture.Message { return con.Since(start, "error") }
	for _, m := range c.env().withFrameConsole(ctx, pick(c.console()), pick) {
		if m.Type == "exception" {
			thrown = append(thrown, m)
		}
	}
	if len(thrown) == 0 {
		return ""
	}
	first := thrown[0]
	msg := strings.TrimPrefix(first.Text, "Uncaught ")
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if first.URL != "" {
		msg += fmt.Sprintf(" (%s:%d)", first.URL, first.Line)
	}
	if n := len(thrown) - 1; n > 0 {
		msg += fmt.Sprintf(" and %d more (see console)", n)
	}
	return "the page's own script threw while the step ran; the step itself went through: " + msg
}

// unknownRef is the ref a step failed on because the current frame's
// document never issued it.
func unknownRef(err error) string {
	var st *dom.StaleElementError
	if errors.As(err, &st) && st.Navigated {
		return st.Ref
	}
	var nf *dom.NotFoundError
	if errors.As(err, &nf) && nf.Target.Ref != "" {
		return nf.Target.Ref
	}
	return ""
}

// runInFrameOf runs a step again in the frame whose window holds ref,
// then returns to the current frame: a ref from a snapshot taken inside a
// frame, or of a cross-origin frame's content, works from anywhere. When
// no frame has the ref, the first run's result stands.
func (c *Call) runInFrameOf(ctx context.Context, ps plannedStep, sr *StepResult, ref string, out output, err error) (output, error) {
	f, ok, ferr := dom.FrameOfRef(ctx, c.page(), ref)
	if ferr != nil || !ok {
		return out, err
	}
	pg := c.page()
	saved, navs := pg.Frame, pg.Navigations()
	pg.Enter(f)
	defer func() {
		if pg.Navigations() == navs {
			pg.Frame = saved
		}
	}()
	return c.runHooked(ctx, ps, sr)
}

// outputInlineLimit is the largest step output printed inline; as for
// snapshots, more would flood the agent's context.
const outputInlineLimit = 9000

// spilledOutput stands in for an output written to a file.
type spilledOutput struct {
	TruncatedInline bool              `json:"truncatedInline"`
	Artifacts       map[string]string `json:"artifacts"`
	Bytes           int               `json:"bytes"`
	Preview         string            `json:"preview"`
}

// spill writes a large output whole to $TMPDIR/cdp-skill and returns a
// short preview with the file's path; if the file cannot be written the
// output stays inline.
// inline is a step's output as the result carries it: encoded once, and
// spilled to a file when it is too long to read inline, unless the step
// keeps its own output small.
func (c *Call) inline(def *step, v any) any {
	if def.has(sized) {
		return v
	}
	raw, err := Encode(v)
	if err != nil {
		return v
	}
	raw = bytes.TrimSuffix(raw, []byte("\n"))
	if len(raw) > outputInlineLimit {
		return c.spill(def.name, raw)
	}
	return json.RawMessage(raw)
}

func (c *Call) spill(action string, raw json.RawMessage) any {
	path := c.env().writeArtifact(c.files.NextPath(orStr(c.alias(), "call"), action, "json"), raw)
	if path == "" {
		return raw
	}
	preview := []rune(string(raw))
	if len(preview) > 500 {
		preview = append(preview[:500], '…')
	}
	return &spilledOutput{TruncatedInline: true, Artifacts: map[string]string{"output": path}, Bytes: len(raw), Preview: string(preview)}
}

// followDialogs points the dialog watch at the call's current tab, which
// a step may have just opened or switched to.
func (c *Call) followDialogs(ctx context.Context) {
	if c.tab != nil {
		c.tab.FollowDialogs(ctx)
	}
}

// takeDialogs moves what the dialog watch saw during a step into its
// result: the dialogs to the step, problems to the call's warnings.
func (c *Call) takeDialogs(sr *StepResult, dialogs *page.DialogWatch) {
	reports, notes := dialogs.Take()
	sr.Dialogs = reports
	c.warnings = append(c.warnings, notes...)
}

// lateDialogs reports the dialogs answered after the last step ended,
// during the captures, with that step: its action most likely opened them.
func lateDialogs(res *Result, dialogs *page.DialogWatch) {
	reports, notes := dialogs.Take()
	res.Warnings = append(res.Warnings, notes...)
	if len(reports) == 0 {
		return
	}
	if n := len(res.Steps); n > 0 {
		res.Steps[n-1].Dialogs = append(res.Steps[n-1].Dialogs, reports...)
		return
	}
	for _, r := range reports {
		res.Warnings = append(res.Warnings, fmt.Sprintf("answered a JavaScript %s %q (accepted: %v)", r.Type, r.Message, r.Accepted))
	}
}

// finish adds what every call reports about the tab: context, console
// errors and, after visual steps, a screenshot and the report's snapshots.
// They run concurrently, each under its own short deadline, and a failure
// only drops its field.
func (c *Call) finish(ctx context.Context, res *Result, r *ran) {
	if c.page() == nil || c.dead() {
		c.tellUnsaved()
		res.Warnings = c.warnings
		return
	}
	res.Tab = c.alias()
	p := c.page()
	var endURL string
	var scr *screen
	var g errgroup.Group
	if c.startURL != "" {
		g.Go(func() error {
			uctx, cancel := context.WithTimeout(ctx, contextBudget)
			defer cancel()
			endURL, _ = page.TargetURL(uctx, p) // the same source as startURL
			return nil
		})
	}
	// A page a navigation holds back answers none of what reads it: each
	// capture would only wait out its budget.
	held := c.held
	if held {
		c.warn("no page context, viewportSnapshot or changes: a navigation holds the page back (see the error)")
	}
	// The context's evaluation doubles as the flush of the console and
	// network events: CDP delivers in order, so once its reply is read
	// every event the page sent before it has been read too.
	g.Go(func() error {
		cctx, cancel := context.WithTimeout(ctx, contextBudget)
		defer cancel()
		if !held {
			// The framework is told only on arrival at a page: a call that
			// arrived asks at once, one that navigated asks once it knows
			// (below).
			pc, err := page.GetContext(cctx, p, r.visual && c.arrived)
			if err == nil {
				c.explainEmulation(pc)
				res.Context = pc
			} else if c.console() != nil {
				fctx, cancel := context.WithTimeout(ctx, consoleBudget)
				_ = c.console().Flush(fctx)
				cancel()
			}
		}
		if c.console() != nil {
			// Every level: the report shows errors and warnings and counts the rest.
			since := func(con *capture.Console) []capture.Message { return con.Since(c.start) }
			msgs := c.env().withFrameConsole(cctx, since(c.console()), since)
			res.Console = capture.NewReport(c.env().withWorkerConsoles(cctx, msgs, since, consoleBudget))
		}
		rep, routes, err := c.finishNetwork(cctx, held)
		if err != nil {
			c.fileTrouble("network log", err)
		}
		res.Network, res.Routes = rep, routes
		return nil
	})
	if r.visual && !held {
		g.Go(func() error {
			// The next call that misses its target learns from it how
			// long the page has been still (issue 21).
			wctx, cancel := context.WithTimeout(ctx, contextBudget)
			defer cancel()
			_ = dom.WatchStill(wctx, p)
			return nil
		})
		g.Go(func() error { scr = c.takeAfter(ctx); return nil })
	} else {
		c.after.set(nil, fmt.Errorf("a navigation holds the page back"))
	}
	if r.visual {
		g.Go(func() error {
			path := c.callFile(capture.AfterShot)
			shot, ok := c.takeEarly(ctx)
			var err error
			if !ok {
				sctx, cancel := context.WithTimeout(ctx, screenshotBudget)
				defer cancel()
				shot, err = c.files.Capture(sctx, c.sess(), path, capture.ShotOptions{MaxSide: capture.ReadableSide})
			}
			if err == nil {
				c.annotateShot(ctx, shot)
				res.Screenshot, res.ScreenshotScale, res.ScreenshotLegend = path, shot.Scale, shot.Legend
			} else {
				c.unsavedFile(err) // the agent can do something about that one; a slow page, not
			}
			return nil
		})
	}
	_ = g.Wait()
	if endURL != "" {
		res.Navigated = page.Navigated(c.startURL, endURL)
	}
	if res.Context != nil && c.startDoc != 0 && res.Context.Doc != c.startDoc {
		res.Navigated = true // a new document at the same address: a reload, a form posted to itself
	}
	if pc := res.Context; pc != nil && (!res.Navigated && !c.arrived || strings.HasPrefix(pc.URL, "chrome-error:")) {
		pc.Framework = "" // told once, on arrival at a page of the site's own
	} else if pc != nil && r.visual && !c.arrived {
		fctx, cancel := context.WithTimeout(ctx, contextBudget)
		pc.Framework = page.Framework(fctx, p)
		cancel()
	}
	c.siteReport(res)
	c.report(res, r, scr)
	c.recordCall(res, endURL, scr.full())
	c.tellUnsaved()
	res.Warnings = c.warnings
}

// failureBudget bounds the failure context: a courtesy to a step that has
// already failed, it must not hold the agent up.
const failureBudget = time.Second

// failureContext describes the page after an action step failed (SPEC
// 16.3): its state and, when the step looked for something, what nearly
// matches it. Best effort and brief; nil when it cannot be read.
func (c *Call) failureContext(ctx context.Context, def *step, err error) *dom.Diagnostics {
	if c.page() == nil || c.dead() || ctx.Err() != nil {
		return nil
	}
	term := ""
	var s dom.Searched
	if errors.As(err, &s) {
		term = s.SearchTerm()
	}
	fctx, cancel := context.WithTimeout(ctx, failureBudget)
	defer cancel()
	d, ferr := dom.FailureContext(fctx, c.page(), term, def.has(field))
	if ferr != nil {
		return nil
	}
	var nf *dom.NotFoundError
	if errors.As(err, &nf) {
		d.InFrame = dom.FrameWith(fctx, c.page(), nf.Target)
	}
	// A stale ref's near matches are what stands where its element was:
	// the same kind of element, by what sets each apart.
	var st *dom.StaleElementError
	if errors.As(err, &st) && len(st.Now) > 0 {
		d.NearMatches = st.Now
	}
	return d
}
