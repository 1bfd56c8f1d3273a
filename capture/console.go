// Package capture records what a page shows and tells: console messages
// and uncaught exceptions, HTTP requests, screenshots and PDFs. Each call
// is a process of its own, so what must outlive it goes to files under
// $TMPDIR/cdp-skill: the images and documents, listings too long to show
// inline, and a tab's network log.
package capture

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/page"
)

// MaxMessages is how many messages a Console keeps; older ones are dropped.
const MaxMessages = 10000

// Console collects a tab's console messages and uncaught exceptions.
//
// Events are queued by the connection's reader and turned into messages
// when the Console is read, so no goroutine has to be stopped and reads
// never race an event half handled. Reads see what has arrived; call
// Flush first to be sure that everything the page logged before the call
// is included. Until a read, events wait in the listener's queue, which
// has no cap: one CLI call is short, and MaxMessages applies on reading.
type Console struct {
	s *cdp.Session
	l *cdp.Listener
	// context marks each message with where it was logged (Message.Context).
	context string

	mu  sync.Mutex
	buf []Message // grows to twice MaxMessages before old ones are cut
	seq uint64    // how many messages were ever added
}

// ContextServiceWorker marks the messages of a page's service worker.
const ContextServiceWorker = "service-worker"

// Session is the session whose console c captures.
func (c *Console) Session() *cdp.Session { return c.s }

// StartConsole subscribes to the tab's console and enables the Runtime
// domain, which replays the messages Chrome kept from before: those are in
// the buffer when StartConsole returns. The replay happens only on a
// session's first Runtime.enable, so call StartConsole before anything
// else enables Runtime on s.
//
// It also turns on async call stacks, so that an exception in a timer or
// a promise shows the code that scheduled it (the click handler behind
// the setTimeout). They cover what is scheduled from now on, while the
// session lasts.
func StartConsole(ctx context.Context, s *cdp.Session) (*Console, error) {
	c := ListenConsole(s, "")
	// One round trip for both; V8 takes the depth only once Runtime is
	// enabled, and Chrome runs a session's commands in order.
	enable := proto.RuntimeEnable{}.Send(ctx, s)
	depth := proto.RuntimeSetAsyncCallStackDepth{MaxDepth: page.AsyncStackDepth}.Send(ctx, s)
	if err := c.Enabled(ctx, enable); err != nil {
		depth.Wait(ctx, nil)
		return nil, err
	}
	var pe *cdp.ProtocolError
	if err := depth.Wait(ctx, nil); err != nil && !errors.As(err, &pe) {
		// A browser that refuses async stacks still has a console worth
		// capturing, with synchronous stacks; a dead connection has not.
		c.l.Close()
		return nil, fmt.Errorf("capture: start console: %w", err)
	}
	return c, nil
}

// ListenConsole subscribes to s's console, marking its messages with
// context ("" for the page's own). The caller sends Runtime.enable and
// hands it to Enabled: a worker paused at its start answers only once it
// is resumed, so the enable, the resume and the wait are the caller's to
// order.
func ListenConsole(s *cdp.Session, context string) *Console {
	return &Console{s: s, l: s.Listen(proto.EventRuntimeConsoleAPICalled, proto.EventRuntimeExceptionThrown, proto.EventRuntimeExceptionRevoked), context: context}
}

// Enabled waits for the reply to the Runtime.enable sent on c's session
// and collects the messages Chrome replayed before it.
func (c *Console) Enabled(ctx context.Context, enable *cdp.Sent) error {
	if err := enable.Wait(ctx, nil); err != nil {
		c.l.Close()
		return fmt.Errorf("capture: start console: %w", err)
	}
	// Chrome sends the replay before the reply to Runtime.enable, so it
	// is all queued now; replayed arguments come without previews.
	var entries []entry
	for _, ev := range c.l.Drain() {
		if e, ok := decode(ev.Method, ev.Params); ok {
			entries = append(entries, e)
		}
	}
	fillPreviews(ctx, c.s, entries)
	c.mu.Lock()
	for i := range entries {
		c.apply(&entries[i])
	}
	c.mu.Unlock()
	return nil
}

// Flush waits until every message the page logged before the call has
// been collected. CDP delivers a session's events and replies in order on
// one socket, so once the reply to a cheap call has arrived, so have they.
// While a JavaScript dialog is open Chrome answers nothing, so Flush then
// waits for ctx to end; what arrived before is collected either way.
func (c *Console) Flush(ctx context.Context) error {
	_, err := proto.RuntimeEvaluate{Expression: "0", Silent: true}.Do(ctx, c.s)
	c.mu.Lock()
	c.pump()
	c.mu.Unlock()
	var pe *cdp.ProtocolError
	if err != nil && !errors.As(err, &pe) { // an error reply still completed the round trip
		return fmt.Errorf("capture: flush console: %w", err)
	}
	return nil
}

// Messages returns every collected message, oldest first.
func (c *Console) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pump()
	return slices.Clone(c.view())
}

// Since returns the messages logged at or after t, oldest first, keeping
// only the given levels when any are given.
func (c *Console) Since(t time.Time, levels ...string) []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pump()
	var out []Message
	for _, m := range c.view() {
		if m.Timestamp.Before(t) || (len(levels) > 0 && !slices.Contains(levels, m.Level)) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// Mark is a place in the stream of messages a Console collects.
type Mark uint64

// Mark returns the place after every message that has arrived so far.
// An evaluation's console calls arrive before its reply, so the messages
// after a Mark taken before it and read after it include them all.
func (c *Console) Mark() Mark {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pump()
	return Mark(c.seq)
}

// LoggedBy returns the console calls collected after mark that ran
// through the script named url (its sourceURL), oldest first: made by its
// code, by code it called, or by code it scheduled (async stack parts
// count). The page's other messages of the same moment are left out.
// They are marked as shown in a step's output, so that the call's report
// does not repeat them; the console step still lists them.
func (c *Console) LoggedBy(mark Mark, url string) []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pump()
	var out []Message
	for i := range c.buf {
		m := &c.buf[i]
		if m.seq > uint64(mark) && m.Type == typeCons && slices.Contains(m.scripts, url) {
			m.inStep = true
			out = append(out, *m)
		}
	}
	return out
}

// Clear empties the buffer of everything collected so far.
func (c *Console) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pump()
	c.buf = nil
}

// Discard empties the buffer and has Chrome forget the messages it keeps
// for the page, so that the next call's Runtime.enable does not replay
// them: without it a clear would last only until this process exits.
func (c *Console) Discard(ctx context.Context) error {
	if err := (proto.RuntimeDiscardConsoleEntries{}).Do(ctx, c.s); err != nil {
		return fmt.Errorf("capture: clear console: %w", err)
	}
	c.Clear() // what was logged before the reply has arrived by now
	return nil
}

// Close stops collecting; what was collected stays readable.
func (c *Console) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pump()
	c.l.Close()
}

// pump turns queued events into messages; c.mu is held.
func (c *Console) pump() {
	for _, ev := range c.l.Drain() {
		if e, ok := decode(ev.Method, ev.Params); ok {
			c.apply(&e)
		}
	}
}

// apply adds a message, or withdraws a rejection that was handled late;
// c.mu is held.
func (c *Console) apply(e *entry) {
	if e.method == proto.EventRuntimeExceptionRevoked {
		c.buf = slices.DeleteFunc(c.buf, func(m Message) bool {
			return m.Type == typeExcept && m.exceptionID == e.revokedID
		})
		return
	}
	m := e.message()
	m.Context = c.context
	c.add(m)
}

// add appends m, cutting the oldest messages only when the buffer reaches
// twice the cap so that adding stays cheap; c.mu is held.
func (c *Console) add(m Message) {
	c.seq++
	m.seq = c.seq
	c.buf = append(c.buf, m)
	if len(c.buf) >= 2*MaxMessages {
		n := copy(c.buf, c.buf[len(c.buf)-MaxMessages:])
		clear(c.buf[n:])
		c.buf = c.buf[:n]
	}
}

// view is the newest MaxMessages messages; c.mu is held.
func (c *Console) view() []Message {
	return c.buf[max(0, len(c.buf)-MaxMessages):]
}
