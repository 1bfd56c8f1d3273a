package keeper

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
)

// Relay brings a call the download events its browser's keeper hears
// (see relay), delivered to the call's connection as if Chrome had sent
// them there: the call's download watch and its click's new-tab watch
// listen for them as ever. It follows them while the call runs, and a
// Flush delivers all Chrome sent so far.
type Relay struct {
	c        *Client
	ep       chrome.Endpoint
	rec      record
	conn     *cdp.Conn
	bctx     string
	dir      string
	session  string
	mu       sync.Mutex
	seq      int64
	stop     context.CancelFunc
	followed chan struct{}
}

// relayPoll is how long one ask of a following Relay waits for an event.
const relayPoll = time.Second

// Relay has the keeper of the browser at ep, started if need be, save
// the downloads of browser context bctx ("" the default one) in dir and
// tell it of them, and returns the Relay that brings them to conn, the
// call's connection; session is the call's, whose visit it counts as.
func (c *Client) Relay(ctx context.Context, ep chrome.Endpoint, conn *cdp.Conn, session, bctx, dir string) (*Relay, string, error) {
	if c == nil || c.Exe == nil {
		return nil, "", errors.New("no keeper can be started in this process")
	}
	rep, note, _, err := c.do(ctx, ep, request{Op: "watch", Session: session, Context: bctx, Dir: dir}, false, true)
	if err != nil {
		return nil, note, err
	}
	if rep.Failure != nil {
		return nil, note, errors.New(rep.Failure.Message)
	}
	rec, ok := readRecord(c.Temp, Dir(c.Temp, ep))
	if !ok {
		return nil, note, errors.New("keeper: its record is gone")
	}
	fctx, cancel := context.WithCancel(context.Background())
	r := &Relay{c: c, ep: ep, rec: rec, conn: conn, bctx: bctx, dir: dir, session: session,
		seq: rep.Seq, stop: cancel, followed: make(chan struct{})}
	go r.follow(fctx)
	return r, note, nil
}

// Renew sets the download settings again (see capture.Downloads.Renew).
func (r *Relay) Renew(ctx context.Context) error {
	rep, err := ask(ctx, r.rec, request{Op: "watch", Session: r.session, Context: r.bctx, Dir: r.dir})
	if err == nil && rep.Failure != nil {
		err = errors.New(rep.Failure.Message)
	}
	return err
}

// Flush delivers every download event Chrome sent before it.
func (r *Relay) Flush(ctx context.Context) error {
	r.mu.Lock()
	since := r.seq
	r.mu.Unlock()
	rep, err := ask(ctx, r.rec, request{Op: "events", Since: since, Flush: true})
	if err != nil {
		return err
	}
	r.deliver(rep)
	return nil
}

// Close stops following.
func (r *Relay) Close() {
	r.stop()
	<-r.followed
}

// follow asks for the next events, one ask at a time, until stopped.
func (r *Relay) follow(ctx context.Context) {
	defer close(r.followed)
	for ctx.Err() == nil {
		r.mu.Lock()
		since := r.seq
		r.mu.Unlock()
		rep, err := ask(ctx, r.rec, request{Op: "events", Since: since, Wait: int(relayPoll / time.Millisecond)})
		if err != nil {
			select { // a keeper gone for a moment is asked again, not hammered
			case <-ctx.Done():
			case <-time.After(relayPoll):
			}
			continue
		}
		r.deliver(rep)
	}
}

// deliver hands the events after the Relay's last to the call's
// connection, in order, each once.
func (r *Relay) deliver(rep reply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ev := range rep.Events {
		if ev.Seq <= r.seq {
			continue
		}
		r.seq = ev.Seq
		r.conn.Deliver(cdp.Event{Method: ev.Method, Params: ev.Params, At: time.Now()})
	}
}
