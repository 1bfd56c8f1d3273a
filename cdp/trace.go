package cdp

import (
	"context"
	"sync"
	"time"
)

// A Trace records the timing of the CDP calls made under a context that
// carries it (WithTrace), for --debug logs: where a call's time goes,
// round trip by round trip. It is the call's, not the process's, so
// calls that share a process (tests) keep their traces apart. A nil
// Trace records nothing.
type Trace struct {
	start   time.Time
	mu      sync.Mutex
	entries []TraceEntry
}

// TraceEntry is one CDP call.
type TraceEntry struct {
	At      float64 `json:"at"` // ms from the trace's start to the send
	Ms      float64 `json:"ms"` // ms until the reply
	Method  string  `json:"method"`
	Session string  `json:"session,omitempty"` // its first characters
	Bytes   int     `json:"bytes"`             // of the reply
	Failed  bool    `json:"failed,omitempty"`
}

// NewTrace begins a trace.
func NewTrace() *Trace { return &Trace{start: time.Now()} }

type traceKey struct{}

// WithTrace returns ctx with t: the calls sent under it are recorded in t.
func WithTrace(ctx context.Context, t *Trace) context.Context {
	if t == nil {
		return ctx
	}
	return context.WithValue(ctx, traceKey{}, t)
}

func traceOf(ctx context.Context) *Trace {
	t, _ := ctx.Value(traceKey{}).(*Trace)
	return t
}

// Entries returns the calls recorded so far, in the order their replies
// came.
func (t *Trace) Entries() []TraceEntry {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]TraceEntry(nil), t.entries...)
}

// traced is a call being timed.
type traced struct {
	t               *Trace
	method, session string
	sent            time.Time
}

func newTraced(ctx context.Context, method, session string) *traced {
	t := traceOf(ctx)
	if t == nil {
		return nil
	}
	if len(session) > 8 {
		session = session[:8]
	}
	return &traced{t, method, session, time.Now()}
}

func (tc *traced) done(bytes int, failed bool) {
	if tc == nil {
		return
	}
	now := time.Now()
	t := tc.t
	t.mu.Lock()
	t.entries = append(t.entries, TraceEntry{
		At: ms(tc.sent.Sub(t.start)), Ms: ms(now.Sub(tc.sent)),
		Method: tc.method, Session: tc.session, Bytes: bytes, Failed: failed,
	})
	t.mu.Unlock()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Mark records a point in the call (a phase begun or ended) among the
// CDP calls, as an entry whose method is "· " + name.
func (t *Trace) Mark(name string) {
	if t == nil {
		return
	}
	now := time.Now()
	t.mu.Lock()
	t.entries = append(t.entries, TraceEntry{At: ms(now.Sub(t.start)), Method: "· " + name})
	t.mu.Unlock()
}
