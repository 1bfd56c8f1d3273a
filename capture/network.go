package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/cdpskill/cdpskill/cdp"
)

// MaxRequests is how many requests a Network keeps; older ones are
// dropped. One call rarely sees a hundred.
const MaxRequests = 10000

// Request is one HTTP request as the network step lists it. Times are
// milliseconds: Start since the epoch, the others since Start.
type Request struct {
	URL               string `json:"url"`
	Method            string `json:"method"`
	Status            int    `json:"status,omitempty"`
	Type              string `json:"type,omitempty"` // Document, Script, Fetch, XHR, Image…
	MimeType          string `json:"mimeType,omitempty"`
	Start             int64  `json:"start"`
	ResponseMs        int    `json:"responseMs,omitempty"` // until the response headers
	Ms                int    `json:"ms,omitempty"`         // until the last byte, or the failure
	Error             string `json:"error,omitempty"`      // net::ERR_…, or why it was blocked
	FromCache         bool   `json:"fromCache,omitempty"`
	FromServiceWorker bool   `json:"fromServiceWorker,omitempty"`
	// Pending is a request with no response or failure yet.
	Pending bool `json:"pending,omitempty"`

	id        string
	seq       int     // the order it began in, from 1
	startMono float64 // Chrome's monotonic seconds, for the durations
	canceled  bool    // stopped by the page (navigation, AbortController)
	saved     bool    // already in the tab's network log
}

// Failed reports a network failure or an HTTP error status.
func (r *Request) Failed() bool { return r.Error != "" || r.Status >= 400 }

// Network records a tab's HTTP requests from Network events. Like
// Console, it queues events and folds them in when read, so no goroutine
// runs beside the call.
type Network struct {
	s *cdp.Session
	l *cdp.Listener

	mu   sync.Mutex
	reqs []*Request
	byID map[string]*Request
	// from is where listings start: Clear moves it; the failure report of
	// the call still sees everything.
	from int
	// seq counts the requests begun.
	seq int
}

const (
	evWillBeSent = "Network.requestWillBeSent"
	evResponse   = "Network.responseReceived"
	evFinished   = "Network.loadingFinished"
	evFailed     = "Network.loadingFailed"
	evFromCache  = "Network.requestServedFromCache"
)

// StartNetwork subscribes to the tab's network events and enables the
// Network domain. Requests already in flight are not seen: Chrome does
// not replay them.
func StartNetwork(ctx context.Context, s *cdp.Session) (*Network, error) {
	l := s.Listen(evWillBeSent, evResponse, evFinished, evFailed, evFromCache)
	if err := s.Call(ctx, "Network.enable", nil, nil); err != nil {
		l.Close()
		return nil, fmt.Errorf("capture: start network: %w", err)
	}
	return &Network{s: s, l: l, byID: map[string]*Request{}}, nil
}

// Flush waits until the events of everything the page did before the
// call have been collected (see Console.Flush).
func (n *Network) Flush(ctx context.Context) error {
	err := n.s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "0", "silent": true}, nil)
	n.mu.Lock()
	n.pump()
	n.mu.Unlock()
	var pe *cdp.ProtocolError
	if err != nil && !errors.As(err, &pe) {
		return fmt.Errorf("capture: flush network: %w", err)
	}
	return nil
}

// Requests returns the requests seen since the start or the last Clear,
// in the order they were sent.
func (n *Network) Requests() []Request {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	return copyRequests(n.reqs[n.from:])
}

// Clear starts listings afresh; the requests seen so far are not saved
// to the log either.
func (n *Network) Clear() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	for _, r := range n.reqs {
		r.saved = true
	}
	n.from = len(n.reqs)
}

// Close stops collecting; what was collected stays readable.
func (n *Network) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	n.l.Close()
}

// Mark is where the requests of an action about to start will begin:
// pass it to Busy after the action.
func (n *Network) Mark() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	return n.seq
}

// lingering are request types that may stay open for as long as the
// page lives: waiting for them to finish would wait for nothing.
var lingering = map[string]bool{"EventSource": true, "WebSocket": true, "Media": true, "Ping": true,
	"CSPViolationReport": true, "Manifest": true, "Prefetch": true}

// Busy returns the requests begun since mark that are still pending, and
// whether any began since; long-lived streams and pings count for neither.
func (n *Network) Busy(mark int) (pending []Request, began bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	for i := len(n.reqs) - 1; i >= 0 && n.reqs[i].seq > mark; i-- {
		r := n.reqs[i]
		if lingering[r.Type] {
			continue
		}
		began = true
		if r.Pending {
			pending = append(pending, *r)
		}
	}
	return pending, began
}

// WaitEvent waits for the next network event, or for ctx to end.
func (n *Network) WaitEvent(ctx context.Context) error {
	return n.l.Wait(ctx)
}

func copyRequests(rs []*Request) []Request {
	out := make([]Request, len(rs))
	for i, r := range rs {
		out[i] = *r
	}
	return out
}

// pump folds queued events in; n.mu is held.
func (n *Network) pump() {
	for _, ev := range n.l.Drain() {
		n.apply(ev.Method, ev.Params)
	}
}

type netResponse struct {
	Status            int    `json:"status"`
	MimeType          string `json:"mimeType"`
	FromDiskCache     bool   `json:"fromDiskCache"`
	FromPrefetchCache bool   `json:"fromPrefetchCache"`
	FromServiceWorker bool   `json:"fromServiceWorker"`
	Timing            *struct {
		RequestTime       float64 `json:"requestTime"`       // monotonic seconds
		ReceiveHeadersEnd float64 `json:"receiveHeadersEnd"` // ms after RequestTime
	} `json:"timing"`
}

type netEvent struct {
	RequestID string  `json:"requestId"`
	Timestamp float64 `json:"timestamp"` // monotonic seconds
	WallTime  float64 `json:"wallTime"`  // seconds since the epoch
	Type      string  `json:"type"`
	Request   struct {
		URL    string `json:"url"`
		Method string `json:"method"`
	} `json:"request"`
	RedirectResponse *netResponse `json:"redirectResponse"`
	Response         *netResponse `json:"response"`
	ErrorText        string       `json:"errorText"`
	Canceled         bool         `json:"canceled"`
	BlockedReason    string       `json:"blockedReason"`
	CorsErrorStatus  *struct {
		CorsError string `json:"corsError"`
	} `json:"corsErrorStatus"`
}

// apply folds one event in; n.mu is held.
func (n *Network) apply(method string, params json.RawMessage) {
	var e netEvent
	if json.Unmarshal(params, &e) != nil {
		return
	}
	r := n.byID[e.RequestID]
	switch method {
	case evWillBeSent:
		if r != nil && e.RedirectResponse != nil {
			r.respond(e.RedirectResponse, e.Timestamp)
			r.finish(e.Timestamp)
		}
		n.begin(&e)
	case evResponse:
		if r != nil && e.Response != nil {
			r.respond(e.Response, e.Timestamp)
		}
	case evFinished:
		if r != nil {
			r.finish(e.Timestamp)
		}
	case evFailed:
		if r != nil {
			r.fail(&e)
		}
	case evFromCache:
		if r != nil {
			r.FromCache = true
		}
	}
}

// begin records a new request. data: URLs are left out: they never touch
// the network and can be megabytes long.
func (n *Network) begin(e *netEvent) {
	if strings.HasPrefix(e.Request.URL, "data:") {
		return
	}
	n.seq++
	r := &Request{
		URL: e.Request.URL, Method: e.Request.Method, Type: e.Type, Pending: true, seq: n.seq,
		Start: int64(math.Round(e.WallTime * 1000)), id: e.RequestID, startMono: e.Timestamp,
	}
	n.byID[e.RequestID] = r
	n.reqs = append(n.reqs, r)
	if len(n.reqs) >= 2*MaxRequests {
		n.compact()
	}
}

// compact drops the oldest requests beyond MaxRequests; n.mu is held.
func (n *Network) compact() {
	cut := len(n.reqs) - MaxRequests
	for _, r := range n.reqs[:cut] {
		if n.byID[r.id] == r {
			delete(n.byID, r.id)
		}
	}
	n.reqs = append([]*Request(nil), n.reqs[cut:]...)
	n.from = max(0, n.from-cut)
}

// respond records the response headers. Their time comes from the
// network stack's timing when there is one: the event itself may be
// stamped after the body has finished.
func (r *Request) respond(resp *netResponse, at float64) {
	r.Status, r.MimeType = resp.Status, resp.MimeType
	r.FromCache = r.FromCache || resp.FromDiskCache || resp.FromPrefetchCache
	r.FromServiceWorker = resp.FromServiceWorker
	if t := resp.Timing; t != nil && t.RequestTime > 0 && t.ReceiveHeadersEnd >= 0 {
		at = t.RequestTime + t.ReceiveHeadersEnd/1000
	}
	r.ResponseMs = r.since(at)
}

func (r *Request) finish(at float64) {
	r.Pending = false
	r.Ms = max(r.since(at), r.ResponseMs)
}

func (r *Request) fail(e *netEvent) {
	r.finish(e.Timestamp)
	r.canceled = e.Canceled
	r.Error = e.ErrorText
	switch {
	case e.BlockedReason != "":
		r.Error += " (blocked: " + e.BlockedReason + ")"
	case e.CorsErrorStatus != nil && e.CorsErrorStatus.CorsError != "":
		r.Error += " (CORS: " + e.CorsErrorStatus.CorsError + ")"
	}
}

func (r *Request) since(monotonic float64) int {
	return max(0, int(math.Round((monotonic-r.startMono)*1000)))
}
