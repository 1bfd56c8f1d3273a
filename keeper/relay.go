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
// Flush delivers all Chrome sent so far. A keeper that goes away meanwhile
// is found again, or another started, and told to watch again.
type Relay struct {
	c     *Client
	ep    chrome.Endpoint
	conn  *cdp.Conn
	watch request

	mu  sync.Mutex
	rec record
	seq int64

	stop      context.CancelFunc
	ctx       context.Context // the Relay's life
	followed  chan struct{}
	renewing  sync.WaitGroup
	renewBusy sync.Mutex
}

// relayPoll is how long one ask of a following Relay waits for an event.
const relayPoll = time.Second

// Relay has the keeper of the browser at ep, started if need be, save
// the downloads of browser context bctx ("" the default one) in dir and
// tell it of them, and returns the Relay that brings them to conn, the
// call's connection; session is the call's, whose visit it counts as.
func (c *Client) Relay(ctx context.Context, ep chrome.Endpoint, conn *cdp.Conn, session, bctx, dir string) (*Relay, string, error) {
	if c == nil || c.Exe == nil {
		return nil, "", errNoExe
	}
	r := &Relay{c: c, ep: ep, conn: conn, watch: request{Op: "watch", Session: session, Context: bctx, Dir: dir},
		followed: make(chan struct{})}
	note, err := r.rewatch(ctx)
	if err != nil {
		return nil, note, err
	}
	r.ctx, r.stop = context.WithCancel(context.Background())
	go r.follow(r.ctx)
	return r, note, nil
}

// rewatch has the keeper, or the one that replaced it, watch the call's
// downloads, and follows it from its last event on.
func (r *Relay) rewatch(ctx context.Context) (string, error) {
	rep, rec, note, _, err := r.c.do(ctx, r.ep, r.watch, true)
	if err == nil && rep.Failure != nil {
		err = errors.New(rep.Failure.Message)
	}
	if err != nil {
		return note, err
	}
	r.mu.Lock()
	if r.rec.Addr != rec.Addr {
		r.rec, r.seq = rec, rep.Seq // a new keeper numbers its events afresh
	}
	r.mu.Unlock()
	return note, nil
}

// Renew sets the download settings again (see capture.Downloads.Renew),
// beside the step rather than before it: a step waits for no keeper, and
// a call that ended their settings ended within the step's first
// milliseconds is as rare as one that ends them during it. One renewal
// at a time; one asked meanwhile is the one under way.
func (r *Relay) Renew(context.Context) error {
	if !r.renewBusy.TryLock() {
		return nil
	}
	r.renewing.Add(1)
	go func() {
		defer r.renewing.Done()
		defer r.renewBusy.Unlock()
		_, _ = r.rewatch(r.ctx) // a keeper gone is found again by the follower
	}()
	return nil
}

// Flush delivers every download event Chrome sent before it.
func (r *Relay) Flush(ctx context.Context) error {
	r.mu.Lock()
	rec, since := r.rec, r.seq
	r.mu.Unlock()
	rep, err := ask(ctx, rec, request{Version: protocol, Op: "events", Since: since, Flush: true})
	if err != nil {
		return err
	}
	r.deliver(rec, rep)
	return nil
}

// Close stops following, and renewing.
func (r *Relay) Close() {
	r.stop()
	<-r.followed
	r.renewing.Wait()
}

// follow asks for the next events, one ask at a time, until stopped; a
// keeper that does not answer is found again, or replaced.
func (r *Relay) follow(ctx context.Context) {
	defer close(r.followed)
	for ctx.Err() == nil {
		r.mu.Lock()
		rec, since := r.rec, r.seq
		r.mu.Unlock()
		start := time.Now()
		rep, err := ask(ctx, rec, request{Version: protocol, Op: "events", Since: since, Wait: int(relayPoll / time.Millisecond)})
		switch {
		case ctx.Err() != nil:
			return
		case err != nil || rep.Failure != nil:
			if _, werr := r.rewatch(ctx); werr != nil {
				pause(ctx, relayPoll)
			}
		default:
			r.deliver(rec, rep)
			if len(rep.Events) == 0 && time.Since(start) < relayPoll/10 {
				pause(ctx, relayPoll/10) // a keeper that answers nothing at once is not asked at once again
			}
		}
	}
}

func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// deliver hands the events rec's keeper sent after the Relay's last to
// the call's connection, in order, each once.
func (r *Relay) deliver(rec record, rep reply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if rec.Addr != r.rec.Addr {
		return // from a keeper since replaced
	}
	for _, ev := range rep.Events {
		if ev.Seq <= r.seq {
			continue
		}
		r.seq = ev.Seq
		r.conn.Deliver(cdp.Event{Method: ev.Method, Params: ev.Params, At: time.Now()})
	}
}
