package runner

import (
	"context"
	"errors"
	"net/url"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/page"
)

// Post-call captures are courtesies: they never hold the agent up for
// long, least of all after a step that already timed out.
const (
	contextBudget    = time.Second
	screenshotBudget = 1500 * time.Millisecond
	consoleBudget    = 500 * time.Millisecond
)

// Options configure a call.
type Options struct {
	Getenv cdp.Env
	// RegistryPath overrides the tab registry file (tests).
	RegistryPath string
}

// Run validates input whole, runs its steps in order and returns the
// result document. It never panics on bad input and never calls os.Exit.
func Run(ctx context.Context, input []byte, opts Options) *Result {
	req, perr := parseRequest(input)
	if perr != nil {
		return errorResult(perr)
	}
	if e := checkTabPlan(req); e != nil {
		return errorResult(e)
	}
	path := opts.RegistryPath
	if path == "" {
		path = cdp.DefaultRegistryPath()
	}
	ctx, abort := context.WithCancelCause(ctx)
	defer abort(nil)
	c := &Call{getenv: opts.Getenv, tabs: cdp.OpenRegistry(path), start: time.Now(), abort: abort, lockWait: req.timeout}
	defer c.close()
	c.tabs.OnCorrupt = func(err error) { c.warn("the tab registry was damaged and has been rebuilt: %v", err) }

	if req.tab != "" {
		if err := c.attachAlias(ctx, req.tab); err != nil {
			res := errorResult(classify(err))
			res.Tab = req.tab
			return res
		}
	}
	res := &Result{Status: "ok"}
	ranVisual := c.runSteps(ctx, req, res)
	c.finish(ctx, res, ranVisual)
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
// not optional. It reports whether any visual step ran.
func (c *Call) runSteps(ctx context.Context, req *request, res *Result) bool {
	ranVisual := false
	for _, ps := range req.steps {
		if ctx.Err() != nil {
			break
		}
		timeout := req.timeout
		if ps.timeout > 0 {
			timeout = ps.timeout
		}
		sr, err := c.runStep(ctx, ps, timeout)
		var died *Error
		if err != nil && errors.As(context.Cause(ctx), &died) {
			err = died // the tab died: that, not the interrupted call, is the news
		}
		if ps.def.has(visual) {
			ranVisual = true
		}
		if err != nil {
			e := classify(err)
			sr.Error = e.Error()
			var js *page.JSError
			if errors.As(err, &js) {
				sr.Stack = js.Stack
			}
			sr.Params = ps.raw
			if ps.optional {
				sr.Status = "skipped"
				sr.Params = nil
			} else {
				sr.Status = "error"
				res.Status = "error"
				res.Errors = append(res.Errors, StepError{Step: ps.n, Action: ps.def.name, Type: e.Type, Name: e.Name, Error: sr.Error})
			}
		}
		res.Steps = append(res.Steps, sr)
		if sr.Status == "error" {
			break
		}
	}
	return ranVisual
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
	out, err := ps.def.run(sctx, c, ps.params)
	sr.Output = emptyToNil(out) // a failing step may still say what it saw
	return sr, err
}

// finish adds what every call reports about the tab: context, console
// errors and, after visual steps, a screenshot. They run concurrently,
// each under its own short deadline, and a failure only drops its field.
func (c *Call) finish(ctx context.Context, res *Result, ranVisual bool) {
	res.Warnings = c.warnings
	if c.page == nil || c.dead.Load() {
		return
	}
	res.Tab = c.alias
	p := c.page
	var endURL string
	var g errgroup.Group
	if c.startURL != "" {
		g.Go(func() error {
			uctx, cancel := context.WithTimeout(ctx, contextBudget)
			defer cancel()
			endURL = c.targetURL(uctx) // the same source as startURL
			return nil
		})
	}
	g.Go(func() error {
		cctx, cancel := context.WithTimeout(ctx, contextBudget)
		defer cancel()
		if pc, err := page.GetContext(cctx, p); err == nil {
			res.Context = pc
		}
		return nil
	})
	if ranVisual {
		g.Go(func() error {
			sctx, cancel := context.WithTimeout(ctx, screenshotBudget)
			defer cancel()
			path := capture.AfterPath(c.alias)
			if capture.Screenshot(sctx, c.sess, path, capture.ShotOptions{}) == nil {
				res.Screenshot = path
			}
			return nil
		})
	}
	if c.console != nil {
		g.Go(func() error {
			cctx, cancel := context.WithTimeout(ctx, consoleBudget)
			defer cancel()
			_ = c.console.Flush(cctx)
			res.Console = capture.NewReport(c.console.Since(c.start, "error", "warning"))
			return nil
		})
	}
	_ = g.Wait()
	if endURL != "" {
		res.Navigated = navigated(c.startURL, endURL)
	}
}

// navigated compares origin, path and query; a fragment change is not a
// navigation (SPEC 14.3). An unreadable URL counts as navigated.
func navigated(before, after string) bool {
	b, err1 := url.Parse(before)
	a, err2 := url.Parse(after)
	if err1 != nil || err2 != nil {
		return true
	}
	return b.Scheme != a.Scheme || b.Host != a.Host || b.Path != a.Path || b.RawQuery != a.RawQuery
}
