package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// MaxRequests is how many requests a Network keeps; older ones are
// dropped. One call rarely sees a hundred.
const MaxRequests = 10000

// Request is one HTTP request as the network step lists it. Times are
// milliseconds: Start since the epoch, the others since Start.
type Request struct {
	// ID is Chrome's id of the request, which network's body takes; the
	// hops of a redirect share it.
	ID     string `json:"id,omitempty"`
	URL    string `json:"url"`
	Method string `json:"method"`
	Status int    `json:"status,omitempty"`
	// From is where the response came from (see the From… constants);
	// empty until one came.
	From     string `json:"from,omitempty"`
	Type     string `json:"type,omitempty"` // Document, Script, Fetch, XHR, Image…
	MimeType string `json:"mimeType,omitempty"`
	Start    int64  `json:"start"`
	// At is when it began, in ms since the tab's page began to load
	// (its navigation's start), for the page's own requests; the network
	// step sets it (NetworkQuery.NavStart).
	At         int64  `json:"at,omitempty"`
	ResponseMs int    `json:"responseMs,omitempty"` // until the response headers
	Ms         int    `json:"ms,omitempty"`         // until the last byte, or the failure
	Error      string `json:"error,omitempty"`      // net::ERR_…, or why it was blocked
	// Transferred is what came over the network, headers included;
	// Decoded the body as the page got it (decompressed).
	Transferred int64 `json:"transferred,omitempty"`
	Decoded     int64 `json:"decoded,omitempty"`
	// Pending is a request sent with nothing back yet; Receiving one whose
	// response came and whose body is still arriving.
	Pending   bool `json:"pending,omitempty"`
	Receiving bool `json:"receiving,omitempty"`
	// Note says what could not be seen: a request that ended between
	// calls, with no record left of how.
	Note string `json:"note,omitempty"`
	// Exchange is its headers, protocol and timing: the body read-back
	// and the HAR show them, the listing does not.
	Exchange *Exchange `json:"-"`

	loader    string  // the document it belongs to (CDP's loaderId)
	frame     string  // the frame it was made for
	seq       int     // the order it began in, from 1
	startMono float64 // Chrome's monotonic seconds, for the durations
	memory    bool    // Chrome said the memory cache served it
	canceled  bool    // stopped by the page (navigation, AbortController)
	saved     bool    // already in the tab's network log
	kept      bool    // its bodies are kept (KeepBodies)
	postData  string  // the request's body, as Chrome sent it along
}

// Where a response came from.
const (
	FromNetwork       = "network"
	FromServiceWorker = "service-worker"
	FromDiskCache     = "disk-cache"
	FromMemoryCache   = "memory-cache"
	FromPrefetchCache = "prefetch-cache"
	// FromRoute: a route the agent set answered it, failed it or
	// changed the answer (package route).
	FromRoute = "route"
)

// Routed marks the requests whose Network ids are in ids as answered by
// a route.
func (n *Network) Routed(ids map[string]bool) {
	if len(ids) == 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	for _, r := range n.reqs {
		if ids[r.ID] {
			r.From = FromRoute
		}
	}
}

// Done reports whether the request has ended, answered or failed.
func (r *Request) Done() bool { return !r.Pending && !r.Receiving }

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
	// late holds the events of requests this capture did not see begin:
	// an earlier call's, still under way when it ended. Save hands them
	// to the log's entries.
	late map[string][]lateEvent
	// early holds the ExtraInfo events that came before their request's
	// requestWillBeSent (or their redirect hop's).
	early map[string][]lateEvent
	// ended is when an event last said a request ended (a stream or a
	// ping left out; one begun before the capture, of no known type,
	// counts): its answer may still be rendering.
	ended time.Time
}

// lateEvent is one event of a request begun before the capture.
type lateEvent struct {
	method string
	e      netEvent
}

// maxLate bounds the requests whose late events are kept.
const maxLate = 1000

const (
	evWillBeSent = proto.EventNetworkRequestWillBeSent
	evResponse   = proto.EventNetworkResponseReceived
	evFinished   = proto.EventNetworkLoadingFinished
	evFailed     = proto.EventNetworkLoadingFailed
	evFromCache  = proto.EventNetworkRequestServedFromCache
	evData       = proto.EventNetworkDataReceived
	evSentExtra  = proto.EventNetworkRequestWillBeSentExtraInfo
	evRecvExtra  = proto.EventNetworkResponseReceivedExtraInfo
)

// StartNetwork subscribes to the tab's network events and enables the
// Network domain. Requests already in flight are not seen: Chrome does
// not replay them.
func StartNetwork(ctx context.Context, s *cdp.Session) (*Network, error) {
	l := s.Listen(evWillBeSent, evResponse, evFinished, evFailed, evFromCache, evData, evSentExtra, evRecvExtra)
	if err := (proto.NetworkEnable{}).Do(ctx, s); err != nil {
		l.Close()
		return nil, fmt.Errorf("capture: start network: %w", err)
	}
	return &Network{s: s, l: l, byID: map[string]*Request{}, late: map[string][]lateEvent{}, early: map[string][]lateEvent{}}, nil
}

// Flush waits until the events of everything the page did before the
// call have been collected (see Console.Flush).
func (n *Network) Flush(ctx context.Context) error {
	_, err := proto.RuntimeEvaluate{Expression: "0", Silent: true}.Do(ctx, n.s)
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

// Busy returns the requests begun since mark that have not ended, and
// whether any began since; long-lived streams and pings count for neither.
func (n *Network) Busy(mark int) (unfinished []Request, began bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	left := n.leftBehind(mark)
	for i := len(n.reqs) - 1; i >= 0 && n.reqs[i].seq > mark; i-- {
		r := n.reqs[i]
		if lingering[r.Type] {
			continue
		}
		began = true
		if !r.Done() && !left(r) {
			unfinished = append(unfinished, *r)
		}
	}
	return unfinished, began
}

// leftBehind says whether a request since mark belongs to a document its
// frame has since left: one that began after it was answered. Chrome
// tells such a request's end to no one (a fetch answered just before its
// page went elsewhere), and nothing waits for it. n.mu is held.
func (n *Network) leftBehind(mark int) func(*Request) bool {
	type doc struct {
		seq    int
		loader string
	}
	newest := map[string]doc{} // frame -> its latest answered document
	for i := len(n.reqs) - 1; i >= 0 && n.reqs[i].seq > mark; i-- {
		r := n.reqs[i]
		if r.Type == "Document" && !r.Pending && r.frame != "" {
			if _, ok := newest[r.frame]; !ok {
				newest[r.frame] = doc{r.seq, r.loader}
			}
		}
	}
	return func(r *Request) bool {
		d, ok := newest[r.frame]
		return ok && r.Type != "Document" && r.seq < d.seq && r.loader != d.loader
	}
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
		r := n.apply(ev.Method, ev.Params)
		if (ev.Method == evFinished || ev.Method == evFailed) && (r == nil || !lingering[r.Type]) && ev.At.After(n.ended) {
			n.ended = ev.At
		}
	}
}

// netEvent is the params of any of the Network events a capture
// follows, read as one: all carry the request's id, all but the ExtraInfo
// ones a timestamp, and each adds fields of its own.
type netEvent struct {
	RequestID        string                 `json:"requestId"`
	LoaderID         string                 `json:"loaderId"`
	FrameID          string                 `json:"frameId"`
	Timestamp        float64                `json:"timestamp"` // monotonic seconds
	WallTime         float64                `json:"wallTime"`  // seconds since the epoch
	Type             string                 `json:"type"`
	Request          proto.Request          `json:"request"`
	RedirectResponse *proto.Response        `json:"redirectResponse"`
	Response         *proto.Response        `json:"response"`
	ErrorText        string                 `json:"errorText"`
	Canceled         bool                   `json:"canceled"`
	BlockedReason    string                 `json:"blockedReason"`
	CorsErrorStatus  *proto.CorsErrorStatus `json:"corsErrorStatus"`
	// EncodedDataLength is, when loading finished, what came over the
	// network in all; DataLength what one chunk of the body decoded to.
	EncodedDataLength float64 `json:"encodedDataLength"`
	DataLength        int64   `json:"dataLength"`
	// Headers, StatusCode and HeadersText are the ExtraInfo events': the
	// headers that went over the wire, and a response's status and raw
	// headers (HTTP/1).
	Headers     map[string]string `json:"headers"`
	StatusCode  int               `json:"statusCode"`
	HeadersText string            `json:"headersText"`
}

// apply folds one event in; n.mu is held. A request begins with
// requestWillBeSent; a redirect ends the hop before and begins the next
// under the same id.
func (n *Network) apply(method string, params json.RawMessage) *Request {
	var e netEvent
	if json.Unmarshal(params, &e) != nil {
		return nil
	}
	r := n.byID[e.RequestID]
	if (method == evSentExtra || method == evRecvExtra) && (r == nil || r.Exchange != nil && method == evSentExtra && r.Exchange.rawRequest) {
		// Its request, or the next hop of a redirect, is yet to begin:
		// or it began before the capture, and is late.
		n.keepEarly(method, e)
		if r != nil {
			return r
		}
	}
	if r == nil {
		if method == evData {
			return nil // a body's chunks of a request begun before: its size is not the call's to know
		}
		if method != evWillBeSent || e.RedirectResponse != nil {
			n.keepLate(method, e)
		}
	} else {
		r.update(method, &e)
	}
	if method == evWillBeSent {
		n.begin(&e)
	}
	return r
}

// keepLate keeps an event of a request begun before the capture; n.mu is
// held.
func (n *Network) keepLate(method string, e netEvent) {
	if _, ok := n.late[e.RequestID]; !ok && len(n.late) >= maxLate {
		return
	}
	n.late[e.RequestID] = append(n.late[e.RequestID], lateEvent{method, e})
}

// update folds in one event about r (for requestWillBeSent, the redirect
// that ended it).
func (r *Request) update(method string, e *netEvent) {
	switch method {
	case evWillBeSent:
		if e.RedirectResponse != nil && !r.Done() {
			r.respond(e.RedirectResponse, e.Timestamp)
			r.finish(e.Timestamp)
		}
	case evResponse:
		if e.Response != nil {
			r.respond(e.Response, e.Timestamp)
		}
	case evFinished:
		r.finish(e.Timestamp)
		r.Transferred = int64(e.EncodedDataLength)
	case evData:
		r.Decoded += e.DataLength
	case evFailed:
		r.fail(e)
	case evFromCache:
		r.memory = true
		if r.From != "" && r.From != FromServiceWorker {
			r.From = FromMemoryCache
		}
	case evSentExtra:
		r.sentHeaders(e.Headers)
	case evRecvExtra:
		r.receivedHeaders(e)
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
		Start: int64(math.Round(e.WallTime * 1000)), ID: e.RequestID, loader: e.LoaderID, frame: e.FrameID, startMono: e.Timestamp,
		postData: e.Request.PostData,
	}
	r.askedHeaders(e.Request.Headers)
	for _, le := range n.early[e.RequestID] {
		r.update(le.method, &le.e)
	}
	delete(n.early, e.RequestID)
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
		if n.byID[r.ID] == r {
			delete(n.byID, r.ID)
		}
	}
	n.reqs = append([]*Request(nil), n.reqs[cut:]...)
	n.from = max(0, n.from-cut)
}

// respond records the response headers. Their time comes from the
// network stack's timing when there is one: the event itself may be
// stamped after the body has finished.
func (r *Request) respond(resp *proto.Response, at float64) {
	r.Status, r.MimeType, r.From = resp.Status, resp.MimeType, responseSource(resp, r.memory)
	r.responded(resp)
	if t := resp.Timing; t != nil && t.RequestTime > 0 && t.ReceiveHeadersEnd >= 0 {
		at = t.RequestTime + t.ReceiveHeadersEnd/1000
	}
	r.ResponseMs = r.since(at)
	if !r.Done() {
		r.Pending, r.Receiving = false, true
	}
}

// responseSource says where a response came from, as DevTools does: a service
// worker's answer first (Chrome also flags those it took from the Cache
// Storage as from the disk cache), then the memory cache
// (Network.requestServedFromCache), then the response's own flags.
func responseSource(resp *proto.Response, memory bool) string {
	switch {
	case resp.FromServiceWorker:
		return FromServiceWorker
	case memory:
		return FromMemoryCache
	case resp.FromPrefetchCache:
		return FromPrefetchCache
	case resp.FromDiskCache:
		return FromDiskCache
	}
	return FromNetwork
}

func (r *Request) finish(at float64) {
	r.Pending, r.Receiving = false, false
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
