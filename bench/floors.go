package main

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/page"
)

// A floor is a scenario's work done the cheapest way there is: bare CDP
// commands over the bench's one open websocket and an already attached
// session, so no process start, no dial, no attach, no registry, no
// settle, no file written. Where the work is cdpskill's in-page code (a
// snapshot), the floor evaluates that same code through package aria, so
// the figure is what the browser needs, and the scenario's multiple of it
// is what cdpskill adds. Each floor runs on a tab of its own that loaded
// the scenario's page, never on the CLI's tab.

var (
	//go:embed js/center.js
	centerJS string
	//go:embed js/fill.js
	fillJS string
	//go:embed js/scroll.js
	scrollJS string
	//go:embed js/context.js
	contextJS string
)

// floorLimit bounds one floor's work.
const floorLimit = 30 * time.Second

// floorTab is a tab of the bench's own, attached over its websocket.
type floorTab struct {
	conn *cdp.Conn
	p    *page.Page
	url  string // the page it loaded
}

type floor struct {
	// setup runs once on the tab, untimed, after the page loaded.
	setup func(ctx context.Context, t *floorTab) error
	// do is the timed work.
	do func(ctx context.Context, t *floorTab) error
}

// openFloor: Target.createTarget (a window of its own, as openTab makes),
// attach, Page.enable, Page.navigate and its load event, then the report
// an openTab prints (context, the viewport and whole-page snapshots, a
// screenshot); the tab is closed untimed.
func openFloor() floor {
	return floor{do: func(ctx context.Context, t *floorTab) error {
		nt, err := newFloorTab(ctx, t.conn, t.url)
		if err != nil {
			return err
		}
		defer nt.close()
		return report(ctx, nt.p)
	}}
}

// evalFloor: one Runtime.evaluate of expr, returned by value, in the
// page's main world (pageFunction, getTitle).
func evalFloor(expr string) floor {
	return floor{do: func(ctx context.Context, t *floorTab) error {
		return evaluate(ctx, t.p, expr)
	}}
}

// clickFloor: the screen's snapshot before (for the diff), the element's
// centre (one evaluation), mouseMoved, mousePressed and mouseReleased
// there, then concurrently the page context, the viewport and
// whole-page snapshots, and a screenshot.
func clickFloor(selector string) floor {
	return floor{do: func(ctx context.Context, t *floorTab) error {
		if _, err := aria.TakeReport(ctx, t.p, aria.ReportOptions{Viewport: true}); err != nil {
			return err
		}
		if err := click(ctx, t.p, selector); err != nil {
			return err
		}
		return report(ctx, t.p)
	}}
}

// batchFloor: the ten steps of the batch scenario, each the least it
// takes: a fill is one evaluation (focus, value, input and change
// events), a click the centre and three mouse events, a key press
// keyDown and keyUp, a scroll one evaluation, a hover the centre and
// mouseMoved, the pageFunction one Runtime.evaluate; with the report
// around them as clickFloor has it.
func batchFloor() floor {
	return floor{do: func(ctx context.Context, t *floorTab) error {
		p := t.p
		if _, err := aria.TakeReport(ctx, p, aria.ReportOptions{Viewport: true}); err != nil {
			return err
		}
		for _, f := range batchFills {
			if err := p.CallJS(ctx, fillJS, nil, f.selector, f.value); err != nil {
				return err
			}
		}
		for _, sel := range []string{"#agree", "#save"} {
			if err := click(ctx, p, sel); err != nil {
				return err
			}
		}
		for _, typ := range []string{"keyDown", "keyUp"} {
			err := proto.InputDispatchKeyEvent{Type: typ, Key: "Enter",
				Code: "Enter", WindowsVirtualKeyCode: 13, Text: "\r"}.Do(ctx, p.S)
			if err != nil {
				return err
			}
		}
		if err := p.CallJS(ctx, scrollJS, nil, "#bottom"); err != nil {
			return err
		}
		var at struct{ X, Y float64 }
		if err := p.CallJS(ctx, centerJS, &at, "#help"); err != nil {
			return err
		}
		if err := mouse(ctx, p, "mouseMoved", at.X, at.Y); err != nil {
			return err
		}
		if err := evaluate(ctx, p, batchExpr); err != nil {
			return err
		}
		return report(ctx, p)
	}}
}

// snapshotFloor: the snapshot step's in-page evaluation with its default
// options (package aria, the code the CLI runs).
func snapshotFloor() floor {
	return floor{do: func(ctx context.Context, t *floorTab) error {
		_, err := aria.Snapshot(ctx, t.p, aria.Options{})
		return err
	}}
}

// refsFloor is evalFloor on a tab that holds the refs of a whole-page
// snapshot, as the CLI's tab does.
func refsFloor(expr string) floor {
	f := evalFloor(expr)
	f.setup = func(ctx context.Context, t *floorTab) error {
		_, err := aria.Snapshot(ctx, t.p, aria.Options{Root: "body"})
		return err
	}
	return f
}

func evaluate(ctx context.Context, p *page.Page, expr string) error {
	res, err := proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true}.Do(ctx, p.S)
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return page.NewJSError(res.ExceptionDetails)
	}
	return nil
}

func click(ctx context.Context, p *page.Page, selector string) error {
	var at struct{ X, Y float64 }
	if err := p.CallJS(ctx, centerJS, &at, selector); err != nil {
		return err
	}
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		if err := mouse(ctx, p, typ, at.X, at.Y); err != nil {
			return err
		}
	}
	return nil
}

func mouse(ctx context.Context, p *page.Page, typ string, x, y float64) error {
	ev := proto.InputDispatchMouseEvent{Type: typ, X: x, Y: y}
	if typ != "mouseMoved" {
		ev.Button, ev.ClickCount = "left", 1
	}
	return ev.Do(ctx, p.S)
}

// report is the after-action report's captures, concurrently as the CLI
// takes them: the page context, the viewport and whole-page snapshots,
// and a PNG screenshot.
func report(ctx context.Context, p *page.Page) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var c map[string]any
		return p.CallJS(ctx, contextJS, &c)
	})
	g.Go(func() error {
		_, err := aria.TakeReport(ctx, p, aria.ReportOptions{Viewport: true, Full: true})
		return err
	})
	g.Go(func() error {
		_, err := proto.PageCaptureScreenshot{Format: "png"}.Do(ctx, p.S)
		return err
	})
	return g.Wait()
}

// newFloorTab opens url in a window of its own and waits for its load
// event.
func newFloorTab(ctx context.Context, conn *cdp.Conn, url string) (*floorTab, error) {
	created, err := proto.TargetCreateTarget{URL: "about:blank", NewWindow: true}.Do(ctx, conn.Browser())
	if err != nil {
		return nil, fmt.Errorf("create a tab: %w", err)
	}
	t := &floorTab{conn: conn, url: url}
	s, err := proto.Attach(ctx, conn, created.TargetID)
	if err != nil {
		closeTarget(conn, created.TargetID)
		return nil, fmt.Errorf("attach to the tab: %w", err)
	}
	t.p = page.New(s)
	if err := navigate(ctx, s, url); err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

func (t *floorTab) close() { closeTarget(t.conn, t.p.S.TargetID) }

func closeTarget(conn *cdp.Conn, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	proto.TargetCloseTarget{TargetID: id}.Do(ctx, conn.Browser())
}

// navigate loads url and waits for its load event.
func navigate(ctx context.Context, s *cdp.Session, url string) error {
	if err := (proto.PageEnable{}).Do(ctx, s); err != nil {
		return err
	}
	l := s.Listen(proto.EventPageLoadEventFired)
	defer l.Close()
	res, err := proto.PageNavigate{URL: url}.Do(ctx, s)
	if err != nil {
		return err
	}
	if res.ErrorText != "" {
		return fmt.Errorf("navigate to %s: %s", url, res.ErrorText)
	}
	if _, err := l.Next(ctx); err != nil {
		return fmt.Errorf("waiting for the load of %s: %w", url, err)
	}
	return nil
}
