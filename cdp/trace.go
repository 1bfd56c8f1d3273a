package cdp

import (
	"sync"
	"sync/atomic"
	"time"
)

// The trace records every call's timing in this process, for --debug logs:
// where a call's time goes, round trip by round trip. Each call of the CLI
// is its own process, so one trace per process is the call's.
var trace struct {
	on      atomic.Bool
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

// StartTrace begins recording calls.
func StartTrace() {
	trace.mu.Lock()
	trace.start, trace.entries = time.Now(), nil
	trace.mu.Unlock()
	trace.on.Store(true)
}

// Trace returns the calls recorded so far, in the order their replies came.
func Trace() []TraceEntry {
	trace.mu.Lock()
	defer trace.mu.Unlock()
	return append([]TraceEntry(nil), trace.entries...)
}

// traced is a call being timed.
type traced struct {
	method, session string
	sent            time.Time
}

func newTraced(method, session string) *traced {
	if !trace.on.Load() {
		return nil
	}
	if len(session) > 8 {
		session = session[:8]
	}
	return &traced{method, session, time.Now()}
}

func (t *traced) done(bytes int, failed bool) {
	if t == nil {
		return
	}
	now := time.Now()
	trace.mu.Lock()
	trace.entries = append(trace.entries, TraceEntry{
		At: ms(t.sent.Sub(trace.start)), Ms: ms(now.Sub(t.sent)),
		Method: t.method, Session: t.session, Bytes: bytes, Failed: failed,
	})
	trace.mu.Unlock()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// TraceMark records a point in the call (a phase begun or ended) among the
// CDP calls, as an entry whose method is "· " + name.
func TraceMark(name string) {
	if !trace.on.Load() {
		return
	}
	now := time.Now()
	trace.mu.Lock()
	trace.entries = append(trace.entries, TraceEntry{At: ms(now.Sub(trace.start)), Method: "· " + name})
	trace.mu.Unlock()
}
