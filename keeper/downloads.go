package keeper

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// Chrome tells a download only to the connections that asked for download
// events, and, of a tab's own sessions, only to that tab's: a call whose
// connection is its tab's own websocket, which the browser's is dear
// beside (ARCHITECTURE.md, Chrome quirks), would not hear of a download
// in a tab its click opened. The keeper asks for them on its browser
// connection, for each browser context a call works in, and keeps them
// for the calls, which fetch them (Relay) and hand them to their own
// connection's listeners. Calls that do so set no download settings
// themselves: Chrome ends a connection's with it, and would end the
// keeper's too.

// relayKeep is how many download events a keeper keeps: far more than
// the calls running at once fetch before they ask again.
const relayKeep = 4096

// watchIdle is how long a keeper keeps the browser's download settings
// after the last call, when nothing else keeps it running.
const watchIdle = 10 * time.Minute

// relay keeps the browser's download events, numbered, for the calls.
type relay struct {
	conn *cdp.Conn
	l    *cdp.Listener

	mu      sync.Mutex
	events  []relayed
	seq     int64
	arrived chan struct{} // closed, and replaced, when events arrive
	// watched are the browser contexts whose downloads it is told of.
	watched map[string]bool
}

// relayed is an event the keeper heard, numbered.
type relayed struct {
	Seq    int64           `json:"seq"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func newRelay(conn *cdp.Conn) *relay {
	r := &relay{conn: conn, arrived: make(chan struct{}), watched: map[string]bool{},
		l: conn.ListenAll(proto.EventBrowserDownloadWillBegin, proto.EventBrowserDownloadProgress)}
	go r.follow()
	return r
}

// follow moves events into the relay as they come.
func (r *relay) follow() {
	for r.l.Wait(context.Background()) == nil {
		r.take()
	}
}

// take moves the events queued so far; under r.mu, so that a flush and
// follow keep Chrome's order.
func (r *relay) take() {
	r.mu.Lock()
	defer r.mu.Unlock()
	evs := r.l.Drain()
	if len(evs) == 0 {
		return
	}
	for _, ev := range evs {
		if ev.SessionID != "" {
			continue
		}
		r.seq++
		r.events = append(r.events, relayed{Seq: r.seq, Method: ev.Method, Params: ev.Params})
	}
	if over := len(r.events) - relayKeep; over > 0 {
		r.events = append(r.events[:0], r.events[over:]...)
	}
	close(r.arrived)
	r.arrived = make(chan struct{})
}

// watch has Chrome save the downloads of browser context bctx ("" the
// default one) in dir and tell the keeper of them; said again, it sets
// them again, as a call that set its own since ended them. It returns
// the number of the last event so far.
func (r *relay) watch(ctx context.Context, bctx, dir string) (int64, error) {
	err := proto.BrowserSetDownloadBehavior{
		Behavior: "allowAndName", DownloadPath: dir, EventsEnabled: true, BrowserContextID: bctx,
	}.Do(ctx, r.conn.Browser())
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		r.watched[bctx] = true
	}
	return r.seq, err
}

// since returns the events after seq: after a flush, every one Chrome
// sent before it; else it waits, until ctx ends, for one.
func (r *relay) since(ctx context.Context, seq int64, flush bool) ([]relayed, int64) {
	if flush {
		_, _ = proto.BrowserGetVersion{}.Do(ctx, r.conn.Browser()) // a reply follows the events sent before it
		r.take()
	}
	for {
		r.mu.Lock()
		var out []relayed
		for _, ev := range r.events {
			if ev.Seq > seq {
				out = append(out, ev)
			}
		}
		last, arrived := r.seq, r.arrived
		r.mu.Unlock()
		if len(out) > 0 || flush {
			return out, last
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return nil, last
		}
	}
}

// watching tells whether the keeper has download settings to keep.
func (r *relay) watching() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.watched) > 0
}
