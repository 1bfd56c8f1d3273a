package page

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// DialogPolicy is how to answer JavaScript dialogs (SPEC 19.2): the
// top-level "dialog" field for a whole call, or a step's own. Without
// one, every dialog is accepted and a prompt gets its default text, so a
// batch never stops at a dialog; each one is reported with the step it
// interrupted, so the agent sees what it agreed to.
type DialogPolicy struct {
	Accept     *bool   `json:"accept"`
	PromptText *string `json:"promptText"`
}

// DialogReport is one JavaScript dialog as the step result reports it.
type DialogReport struct {
	Type     string `json:"type"` // alert, confirm, prompt or beforeunload
	Message  string `json:"message"`
	Accepted bool   `json:"accepted"`
	// PromptText is what an accepted prompt was answered with.
	PromptText *string `json:"promptText,omitempty"`
}

// answer decides the reply to ev: the step's policy, else the call's,
// else accept.
func answer(ev proto.PageJavascriptDialogOpening, policies ...*DialogPolicy) DialogReport {
	r := DialogReport{Type: ev.Type, Message: ev.Message, Accepted: true}
	text := ev.DefaultPrompt
	for _, p := range policies {
		if p == nil {
			continue
		}
		if p.Accept != nil {
			r.Accepted = *p.Accept
		}
		if p.PromptText != nil {
			text = *p.PromptText
		}
		break
	}
	if ev.Type == "alert" {
		r.Accepted = true // an alert has only OK
	}
	if ev.Type == "prompt" && r.Accepted {
		r.PromptText = &text
	}
	return r
}

// dialogAnswerBudget bounds Page.handleJavaScriptDialog.
const dialogAnswerBudget = 5 * time.Second

// DialogWatch answers the call's JavaScript dialogs as they open, for as
// long as the call lasts: an unanswered dialog blocks every later call
// into the page, the screenshot and page context included. Each answer is
// recorded for the step that was running.
type DialogWatch struct {
	policy *DialogPolicy // the call's

	mu      sync.Mutex
	step    *DialogPolicy // the running step's, when it has one
	reports []DialogReport
	notes   []string
	opened  int // dialogs Chrome reported

	sess *cdp.Session
	stop func()
}

// NewDialogWatch is a watch that answers by the call's policy (nil:
// accept every dialog); it follows no tab until Follow.
func NewDialogWatch(policy *DialogPolicy) *DialogWatch { return &DialogWatch{policy: policy} }

// Follow makes sure sess's dialogs are answered: it subscribes to them
// and enables the Page domain, first dismissing a dialog left open by
// something that ran after the previous call ended. Events are the
// session's own, so another tab's dialogs never reach the watch; a dialog
// of an out-of-process frame is reported to, and answered by, its tab's
// session. Calling it again for the same session costs nothing.
func (w *DialogWatch) Follow(ctx context.Context, sess *cdp.Session) error {
	if sess == nil || sess == w.sess {
		return nil
	}
	w.Close()
	l := sess.Listen(proto.EventPageJavascriptDialogOpening)
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.serve(wctx, sess, l)
	}()
	w.sess = sess
	w.stop = func() {
		cancel()
		l.Close()
		<-done
	}
	return w.enable(ctx, sess)
}

// serve answers each dialog of sess until ctx ends.
func (w *DialogWatch) serve(ctx context.Context, sess *cdp.Session, l *cdp.Listener) {
	for {
		ev, err := l.Next(ctx)
		if err != nil {
			return
		}
		var d proto.PageJavascriptDialogOpening
		if json.Unmarshal(ev.Params, &d) != nil {
			continue
		}
		w.mu.Lock()
		w.opened++
		r := answer(d, w.step, w.policy)
		w.mu.Unlock()
		actx, cancel := context.WithTimeout(ctx, dialogAnswerBudget)
		err = proto.PageHandleJavaScriptDialog{Accept: r.Accepted, PromptText: r.PromptText}.Do(actx, sess)
		cancel()
		w.mu.Lock()
		if err != nil {
			w.notes = append(w.notes, fmt.Sprintf("could not answer the %s %q: %v", d.Type, d.Message, err))
		} else {
			w.reports = append(w.reports, r)
		}
		w.mu.Unlock()
	}
}

// BeginStep sets the running step's policy.
func (w *DialogWatch) BeginStep(p *DialogPolicy) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.step = p
}

// Take returns the dialogs answered and the problems met since the last
// take, and ends the running step's policy.
func (w *DialogWatch) Take() ([]DialogReport, []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r, n := w.reports, w.notes
	w.reports, w.notes, w.step = nil, nil, nil
	return r, n
}

// Close stops answering; it returns once no answer is in flight.
func (w *DialogWatch) Close() {
	if w.stop != nil {
		w.stop()
	}
	w.sess, w.stop = nil, nil
}

// Timing of the check for a dialog nobody can answer. Page.enable answers
// in a millisecond or two unless the page's renderer is held or busy, or
// a navigation is under way (Chrome holds the page's commands until the
// next document commits).
const (
	stuckAfter = 300 * time.Millisecond
	// liveWait is how long the page's main thread may take to answer
	// the liveness probe before the input probes begin: a busy script
	// usually ends well within it.
	liveWait = time.Second
	// heldRounds input probes, heldGap apart, each acknowledged within
	// probeBudget, while the main thread stays silent, mean a dialog.
	heldRounds  = 3
	heldGap     = 150 * time.Millisecond
	probeBudget = 200 * time.Millisecond
	// dismissBudget bounds the closing of a dialog nobody can answer.
	dismissBudget = 2 * time.Second
	// enableWait is how long a busy page may keep Page.enable waiting.
	// Chrome routes dialogs to the session as soon as it has the command,
	// so giving up on the reply loses nothing; the step that follows meets
	// the busy page under its own timeout.
	enableWait = 2 * time.Second
)

// enable turns on the Page domain, so that dialogs are reported to this
// session. Chrome reports a dialog only to the sessions that had the
// domain on when it opened, and lets only them answer it (to any other,
// Page.handleJavaScriptDialog says "No dialog is showing"), so a dialog
// that opened while no call was watching holds the page with nobody to
// answer it: every page call waits behind it, Page.enable included. When
// Page.enable is slow the watch looks for that dialog (heldByDialog) and,
// only when the page is held by one, closes it (dismissHeld). A page that
// is merely busy or loading is left alone.
func (w *DialogWatch) enable(ctx context.Context, sess *cdp.Session) error {
	var err error
	enabled := make(chan struct{})
	go func() {
		err = proto.PageEnable{}.Do(ctx, sess)
		close(enabled)
	}()
	t := time.NewTimer(stuckAfter)
	defer t.Stop()
	select {
	case <-enabled:
		return err
	case <-t.C:
	}
	if w.heldByDialog(ctx, sess, enabled) {
		w.dismissHeld(ctx, sess)
	}
	t.Reset(enableWait)
	select {
	case <-enabled:
		return err
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (w *DialogWatch) note(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.notes = append(w.notes, fmt.Sprintf(format, args...))
}

// seen counts the dialogs Chrome reported to the watch.
func (w *DialogWatch) seen() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.opened
}

// heldByDialog tells a page held by a dialog from one that is busy or
// loading, while Page.enable waits (enabled is closed when it answers).
// While a JavaScript dialog shows, its renderer's main thread runs
// nothing, and the browser drops input to that renderer, acknowledging it
// at once. So the page is held when the main thread leaves a liveness
// probe unanswered (Performance.getMetrics, which Chrome does not hold
// back during a navigation, unlike Page.enable or Runtime.evaluate) while
// input is acknowledged without it, round after round. A busy page
// acknowledges input only when its script ends, and then answers the
// liveness probe too; a loading page answers it at once. A dialog Chrome
// reports to this session meanwhile is the watch's to answer, not this.
func (w *DialogWatch) heldByDialog(ctx context.Context, sess *cdp.Session, enabled <-chan struct{}) bool {
	before := w.seen()
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	live := make(chan struct{})
	go func() {
		proto.PerformanceGetMetrics{}.Do(pctx, sess) // an error is an answer too
		close(live)
	}()
	wait := liveWait
	for round := 0; ; round++ {
		t := time.NewTimer(wait)
		select {
		case <-enabled:
		case <-live:
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
		select {
		case <-enabled:
			return false
		case <-live:
			return false
		default:
		}
		if ctx.Err() != nil || w.seen() != before {
			return false
		}
		if round == heldRounds {
			return true
		}
		if !inputDropped(ctx, sess) {
			return false
		}
		wait = heldGap
	}
}

// inputDropped sends the page the release of a key nobody holds (F24) and
// tells whether it was acknowledged at once. Asked while the main thread
// is silent, a quick acknowledgement means the browser dropped the event
// without the renderer, as it does while a dialog shows.
func inputDropped(ctx context.Context, sess *cdp.Session) bool {
	pctx, cancel := context.WithTimeout(ctx, probeBudget)
	defer cancel()
	err := proto.InputDispatchKeyEvent{
		Type: "keyUp", Key: "F24", Code: "F24", WindowsVirtualKeyCode: 135,
	}.Do(pctx, sess)
	return err == nil
}

// dismissHeld closes the dialog that holds the page, which no session can
// answer, and reports what Chrome says of it. Any navigation closes the
// tab's dialogs, and a same-document one (to a fragment) does so without
// unloading the page: the dialog is dismissed, the page keeps its state.
// Chrome then tells this session the dialog closed, though it never told
// it the dialog's kind or text.
func (w *DialogWatch) dismissHeld(ctx context.Context, sess *cdp.Session) {
	ctx, cancel := context.WithTimeout(ctx, dismissBudget)
	defer cancel()
	closed := sess.Listen(proto.EventPageJavascriptDialogClosed)
	defer closed.Close()
	restore, err := navigateInPlace(ctx, sess)
	if err != nil {
		w.note("the tab did not answer, as when a JavaScript dialog that opened while no call was watching holds it, and could not be freed: %v", err)
		return
	}
	ev, err := closed.Next(ctx)
	var d proto.PageJavascriptDialogClosed
	if err != nil || json.Unmarshal(ev.Params, &d) != nil {
		w.note("the tab did not answer and dropped input, as when a JavaScript dialog holds it, but Chrome reported no dialog of this tab closed when the page was sent to its own URL; a dialog of another tab sharing its renderer may hold it")
		return
	}
	answer := "dismissed"
	if d.Result {
		answer = "accepted"
	}
	w.note("a JavaScript dialog held this tab when the call began: it opened while no call was watching the tab, so Chrome told this call neither its kind nor its text; a same-document navigation to the page's own address (no reload: the page keeps what it held) closed it, and Chrome reports it %s", answer)
	if restore != "" {
		proto.RuntimeEvaluate{Expression: restore}.Do(ctx, sess)
	}
}

// restoreURLExpr puts the URL back after the dismissal added an empty
// fragment to it. It names no page function; it is one history call.
const restoreURLExpr = `history.replaceState(history.state, "", %s)`

// navigateInPlace sends the page to its own URL, with an empty fragment
// when it has none: a same-document navigation. It returns the expression
// that takes the fragment off again, if one was added.
func navigateInPlace(ctx context.Context, sess *cdp.Session) (string, error) {
	info, err := proto.TargetGetTargetInfo{TargetID: sess.TargetID}.Do(ctx, sess.Conn().Browser())
	if err != nil {
		return "", err
	}
	orig := info.TargetInfo.URL
	to := orig
	if !strings.Contains(orig, "#") {
		to = orig + "#"
	}
	res, err := proto.PageNavigate{URL: to}.Do(ctx, sess)
	if err != nil {
		return "", err
	}
	if res.ErrorText != "" {
		return "", errors.New(res.ErrorText)
	}
	if to == orig {
		return "", nil
	}
	quoted, _ := json.Marshal(orig)
	return fmt.Sprintf(restoreURLExpr, quoted), nil
}
