package cdp

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Event is one CDP event as it arrived, and when.
type Event struct {
	SessionID string
	Method    string
	Params    json.RawMessage
	At        time.Time
}

// Listener queues the events it was asked for, without bound, so the read
// loop never blocks on a slow consumer. Subscribe before acting: events
// that arrive between the action and the wait are kept, not lost.
type Listener struct {
	conn       *Conn
	sessionID  string
	anySession bool
	methods    map[string]bool

	mu     sync.Mutex
	queue  []Event
	signal chan struct{}
}

// Listen subscribes to the named events of one session ("" for the
// browser). With no methods it receives every event of that session.
func (c *Conn) Listen(sessionID string, methods ...string) *Listener {
	return c.listen(&Listener{sessionID: sessionID}, methods)
}

// ListenAll subscribes to the named events of every session, the
// browser's and each attached target's; Event.SessionID says whose.
func (c *Conn) ListenAll(methods ...string) *Listener {
	return c.listen(&Listener{anySession: true}, methods)
}

func (c *Conn) listen(l *Listener, methods []string) *Listener {
	l.conn, l.signal = c, make(chan struct{}, 1)
	if len(methods) > 0 {
		l.methods = map[string]bool{}
		for _, m := range methods {
			l.methods[m] = true
		}
	}
	c.mu.Lock()
	c.listeners[l] = struct{}{}
	c.mu.Unlock()
	return l
}

// offer is called by the read loop with the connection lock held.
func (l *Listener) offer(ev Event) {
	if (ev.SessionID != l.sessionID && !l.anySession) || (l.methods != nil && !l.methods[ev.Method]) {
		return
	}
	l.mu.Lock()
	l.queue = append(l.queue, ev)
	l.mu.Unlock()
	select {
	case l.signal <- struct{}{}:
	default:
	}
}

// Next returns the oldest queued event, waiting for one until ctx ends or
// the connection closes.
func (l *Listener) Next(ctx context.Context) (Event, error) {
	for {
		l.mu.Lock()
		if len(l.queue) > 0 {
			ev := l.queue[0]
			l.queue[0] = Event{}
			l.queue = l.queue[1:]
			l.mu.Unlock()
			return ev, nil
		}
		l.mu.Unlock()
		select {
		case <-l.signal:
		case <-ctx.Done():
			return Event{}, ctx.Err()
		case <-l.conn.done:
			// Drain what arrived before the close first.
			l.mu.Lock()
			n := len(l.queue)
			l.mu.Unlock()
			if n == 0 {
				return Event{}, l.conn.Err()
			}
		}
	}
}

// Wait returns once an event is queued, without taking it, or when ctx
// ends or the connection closes.
func (l *Listener) Wait(ctx context.Context) error {
	for {
		l.mu.Lock()
		n := len(l.queue)
		l.mu.Unlock()
		if n > 0 {
			return nil
		}
		select {
		case <-l.signal:
		case <-ctx.Done():
			return ctx.Err()
		case <-l.conn.done:
			return l.conn.Err()
		}
	}
}

// Drain returns every queued event without waiting.
func (l *Listener) Drain() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.queue
	l.queue = nil
	return q
}

// Close unsubscribes.
func (l *Listener) Close() {
	l.conn.mu.Lock()
	delete(l.conn.listeners, l)
	l.conn.mu.Unlock()
}
