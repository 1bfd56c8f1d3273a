package tab

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

// Bounds of the work on a tab's service workers: the setup of one (its
// network, its console, its resume), how long the setup and the console
// readers wait for setups under way.
const (
	workerSetupMax = 10 * time.Second
	WorkerWait     = time.Second
	// workerUpWait bounds the wait for a paused worker's answer to
	// Runtime.enable, which tells whether its thread is up (see setup).
	workerUpWait = 250 * time.Millisecond
	// workerResumeMax bounds the wait for a worker's resume, which even a
	// call that is ending sees through.
	workerResumeMax = 2 * time.Second
)

// workers follows the service workers that serve the call's tab.
// With auto-attach on the tab's session, Chrome attaches each one as it
// starts, paused before its script runs (and those already running, at
// once). Each gets the tab's emulated network first, so that offline and
// throttling reach what the worker itself fetches (Chrome applies
// conditions per target, and a worker's fetch is not the page's), and a
// console whose messages are marked service-worker; then it is resumed.
// The watch ends when the call leaves the tab.
type workers struct {
	page   *cdp.Session // the tab's
	conn   *cdp.Conn
	l      *cdp.Listener
	base   context.Context // the call's, without its end
	cancel context.CancelFunc
	loop   chan struct{} // closed when the event loop has ended
	warn   func(format string, args ...any)

	mu sync.Mutex
	// network is the tab's emulated network, for workers attached later.
	network page.NetworkConditions
	workers []*worker // every worker attached, in order, gone ones too
}

// worker is one attached service worker.
type worker struct {
	s       *cdp.Session
	url     string
	console *capture.Console // nil until its setup is done, or if it failed
	gone    bool             // Chrome detached it: the worker stopped
	ready   chan struct{}    // closed when its setup is done
}

// startWorkers turns auto-attach on for the service workers of sess's tab
// and sets up those already running before it returns (within
// WorkerWait), so that the steps meet them emulated.
func (t *Tab) startWorkers(ctx context.Context, sess *cdp.Session, n page.NetworkConditions) error {
	base := context.WithoutCancel(ctx) // the watch outlives the step; the call's trace goes on
	wctx, cancel := context.WithCancel(base)
	w := &workers{
		page: sess, conn: sess.Conn(), l: sess.Listen(proto.EventTargetAttachedTo, proto.EventTargetDetachedFrom),
		base: base, cancel: cancel, loop: make(chan struct{}), warn: t.warn, network: n,
	}
	err := proto.TargetSetAutoAttach{
		AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true,
		Filter: []proto.TargetFilter{{Type: "service_worker"}},
	}.Do(ctx, sess)
	if err != nil {
		cancel()
		w.l.Close()
		close(w.loop)
		return err
	}
	t.workers = w
	// Chrome announces the running workers before its reply: they are
	// queued now.
	for _, ev := range w.l.Drain() {
		w.handle(wctx, ev)
	}
	go w.run(wctx)
	w.await(ctx, WorkerWait)
	return nil
}

// run handles the workers Chrome attaches or detaches later in the call.
func (w *workers) run(ctx context.Context) {
	defer close(w.loop)
	for {
		ev, err := w.l.Next(ctx)
		if err != nil {
			return
		}
		w.handle(ctx, ev)
	}
}

func (w *workers) handle(ctx context.Context, ev cdp.Event) {
	// Both events name the session; attachedToTarget says more.
	var a proto.TargetAttachedToTarget
	if json.Unmarshal(ev.Params, &a) != nil || a.SessionID == "" {
		return
	}
	if ev.Method == proto.EventTargetDetachedFrom {
		w.mu.Lock()
		for _, wk := range w.workers {
			if wk.s.ID == a.SessionID {
				wk.gone = true
			}
		}
		w.mu.Unlock()
		return
	}
	s := cdp.Adopt(w.conn, a.SessionID, a.TargetInfo.TargetID)
	wk := &worker{s: s, url: a.TargetInfo.URL, ready: make(chan struct{})}
	w.mu.Lock()
	w.workers = append(w.workers, wk)
	w.mu.Unlock()
	go w.setup(ctx, wk, a.WaitingForDebugger)
}

// setup gives a worker the tab's network and a console, then resumes it
// if it waits at its start. Chrome keeps conditions set on a worker only
// once its thread is up, and a worker paused at its start answers some
// calls only once resumed, so the order depends on which pause it is in:
//   - an installed worker that an event (a page's fetch, a navigation)
//     wakes is paused with its thread up: it answers Runtime.enable at
//     once, and then gets the network before it is resumed, so that even
//     the fetch that woke it goes through the emulated network;
//   - a new worker is paused before its script is fetched and answers
//     nothing: the network is sent before the resume (it holds for the
//     script's fetch) and again once Runtime.enable is answered.
func (w *workers) setup(ctx context.Context, wk *worker, waiting bool) {
	defer close(wk.ready)
	ctx, cancel := context.WithTimeout(ctx, workerSetupMax)
	defer cancel()
	// The resume must go out even when the call is ending: Chrome does
	// not resume a worker paused before its script was fetched when the
	// session that held it goes, and it would never start.
	resumeCtx, cancelResume := xcontext.Detached(ctx, workerResumeMax)
	defer cancelResume()
	cons := capture.ListenConsole(wk.s, capture.ContextServiceWorker)
	enable := proto.RuntimeEnable{}.Send(ctx, wk.s)
	up := true
	w.mu.Lock()
	emulated := !w.network.IsZero()
	w.mu.Unlock()
	if waiting && emulated { // with nothing to apply first, no reason to wait
		rctx, cancel := context.WithTimeout(ctx, workerUpWait)
		up = enable.Wait(rctx, nil) == nil || rctx.Err() == nil // an error reply is an answer too
		cancel()
	}
	var sent []*cdp.Sent
	w.sendNetwork(ctx, wk, &sent)
	if up && !w.awaitAll(ctx, wk, sent) {
		sent = nil // failed: resume it all the same
	}
	if waiting {
		// Its answer is awaited even when the call is ending: a session
		// that goes before the worker has started can leave it unstarted.
		resume := proto.RuntimeRunIfWaitingForDebugger{}.Send(resumeCtx, wk.s)
		if err := resume.Wait(resumeCtx, nil); err != nil {
			w.failed(wk, "could not be resumed; it may not start until the tab is closed", err)
		}
	}
	if !up && enable.Wait(ctx, nil) == nil {
		w.sendNetwork(ctx, wk, &sent)
	}
	w.awaitAll(ctx, wk, sent)
	if cons.Enabled(ctx, enable) == nil {
		w.mu.Lock()
		wk.console = cons
		w.mu.Unlock()
	}
}

// awaitAll waits for the replies to the emulation sent, warning about the
// first failure.
func (w *workers) awaitAll(ctx context.Context, wk *worker, sent []*cdp.Sent) bool {
	for _, x := range sent {
		if err := x.Wait(ctx, nil); err != nil {
			w.failed(wk, "may not follow the tab's emulated network", err)
			return false
		}
	}
	return true
}

// sendNetwork sends the tab's emulated network to a worker, if any is
// emulated, adding the calls to sent. It holds the lock that emulate
// sends under: the last conditions sent are the current ones.
func (w *workers) sendNetwork(ctx context.Context, wk *worker, sent *[]*cdp.Sent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.network.IsZero() {
		*sent = append(*sent, page.SendNetworkConditions(ctx, wk.s, w.network)...)
	}
}

// failed warns that a worker's setup went wrong, unless the worker is
// gone (it stopped) or the call is ending.
func (w *workers) failed(wk *worker, what string, err error) {
	w.mu.Lock()
	gone := wk.gone
	w.mu.Unlock()
	if gone || cdp.IsTargetGone(err) || cdp.IsContextDestroyed(err) || cdp.IsConnection(err) || errors.Is(err, context.Canceled) {
		return
	}
	w.warn("service worker %s %s: %v", wk.url, what, err)
}

// await waits, at most limit, for the setups under way.
func (w *workers) await(ctx context.Context, limit time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	w.mu.Lock()
	ws := append([]*worker(nil), w.workers...)
	w.mu.Unlock()
	for _, wk := range ws {
		select {
		case <-wk.ready:
		case <-ctx.Done():
			return
		}
	}
}

// emulate applies n to every live worker and to those attached later.
func (w *workers) emulate(ctx context.Context, n page.NetworkConditions) {
	type call struct {
		wk   *worker
		sent []*cdp.Sent
	}
	var calls []call
	w.mu.Lock()
	w.network = n
	for _, wk := range w.workers {
		if !wk.gone {
			calls = append(calls, call{wk, page.SendNetworkConditions(ctx, wk.s, n)})
		}
	}
	w.mu.Unlock()
	for _, c := range calls {
		w.awaitAll(ctx, c.wk, c.sent)
	}
}

// consoles returns the consoles of the workers seen so far, gone ones
// included (what they logged stays readable), each flushed within limit
// when still running.
func (w *workers) consoles(ctx context.Context, limit time.Duration) []*capture.Console {
	w.await(ctx, limit)
	w.mu.Lock()
	var live, out []*capture.Console
	for _, wk := range w.workers {
		if wk.console == nil {
			continue
		}
		out = append(out, wk.console)
		if !wk.gone {
			live = append(live, wk.console)
		}
	}
	w.mu.Unlock()
	fctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var wg sync.WaitGroup
	for _, con := range live {
		wg.Go(func() { _ = con.Flush(fctx) }) // a busy or stopping worker keeps what arrived
	}
	wg.Wait()
	return out
}

// stop ends the watch when the call leaves the tab. Auto-attach goes off first,
// so that no worker starts paused with no one left to resume it (Chrome
// leaves a new worker paused when the session holding it goes), and a
// worker attached meanwhile is still resumed.
func (w *workers) stop() {
	ctx, cancel := context.WithTimeout(w.base, workerResumeMax)
	defer cancel()
	_ = proto.TargetSetAutoAttach{AutoAttach: false, WaitForDebuggerOnStart: false}.Do(ctx, w.page)
	w.cancel()
	<-w.loop
	for _, ev := range w.l.Drain() {
		w.handle(ctx, ev) // setup resumes even under an ended context
	}
	w.l.Close()
	w.mu.Lock()
	ws := w.workers
	w.mu.Unlock()
	for _, wk := range ws {
		<-wk.ready // a setup ends at once when its context has, but for a resume
		if wk.console != nil {
			wk.console.Close()
		}
	}
}

// WorkerConsoles returns the consoles of the tab's service workers seen
// so far (their messages are marked context "service-worker"), gone ones
// included, each flushed within limit when still running.
func (t *Tab) WorkerConsoles(ctx context.Context, limit time.Duration) []*capture.Console {
	if t.workers == nil {
		return nil
	}
	return t.workers.consoles(ctx, limit)
}
