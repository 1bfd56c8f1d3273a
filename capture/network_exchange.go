package capture

import (
	"math"
	"slices"
	"strings"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// Exchange is what a request's HAR entry and its body's read-back show
// beyond its listing: the headers both ways, masked and bounded as they
// are captured (see secrets.go), the protocol and the network stack's
// timing. The listing leaves it out, as its bytes would cost the agent on
// every line, and so does the tab's log, which every call reads: the log's
// exchanges file holds it (NetworkLog.ReadExchanges). It is never changed
// in place; an event replaces it, so a copy of a Request handed out stays
// as it was.
type Exchange struct {
	RequestHeaders  Headers `json:"requestHeaders,omitempty"`
	ResponseHeaders Headers `json:"responseHeaders,omitempty"`
	StatusText      string  `json:"statusText,omitempty"`
	Protocol        string  `json:"protocol,omitempty"` // "http/1.1", "h2"…
	RemoteIP        string  `json:"remoteIP,omitempty"`
	// ResponseHeadersSize is the bytes of the response's headers as they
	// came; 0 when Chrome did not say (HTTP/2 and later, a cache).
	ResponseHeadersSize int `json:"responseHeadersSize,omitempty"`
	// Timing is the network stack's; nil for an answer from a cache.
	Timing *Timing `json:"timing,omitempty"`
	// RequestOmitted and ResponseOmitted count the headers left out over
	// the bounds.
	RequestOmitted  int `json:"requestOmitted,omitempty"`
	ResponseOmitted int `json:"responseOmitted,omitempty"`

	// rawRequest and rawResponse: the headers are those that went over
	// the wire, cookies included (the ExtraInfo events), which those the
	// page was shown do not replace; rawStatus is the status they came
	// with, to tell a redirect's from the next hop's.
	rawRequest, rawResponse bool
	rawStatus               int
}

// Headers are a request's or a response's, by name; a name given twice
// has its values joined by newlines, as Chrome gives them.
type Headers map[string]string

// Timing is the network stack's timing of a request: Queued is the ms
// from the page's asking to the stack's start (RequestTime), the others
// ms after that start, -1 for a phase that did not happen.
type Timing struct {
	Queued float64 `json:"queued"`
	proto.ResourceTiming
}

// Bounds on a request's or a response's headers: a page can send
// kilobytes of cookies, and every request has its headers kept.
const (
	maxHeaders     = 64
	maxHeaderValue = 1024
	maxHeaderBytes = 8 << 10
)

// keepHeaders masks h's secrets and bounds it: the names in order, each
// value cut to maxHeaderValue, until maxHeaders or maxHeaderBytes; it
// also returns how many were left out.
func keepHeaders(h map[string]string) (Headers, int) {
	if len(h) == 0 {
		return nil, 0
	}
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	out, size, omitted := make(Headers, min(len(h), maxHeaders)), 0, 0
	for _, name := range names {
		v := truncate(maskHeader(name, h[name]), maxHeaderValue)
		if len(out) == maxHeaders || size+len(name)+len(v) > maxHeaderBytes {
			omitted++
			continue
		}
		out[name] = v
		size += len(name) + len(v)
	}
	return out, omitted
}

// Get is the value of the header called name, in any case.
func (h Headers) Get(name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// exchange gives r a copy of its Exchange to change (see Exchange).
func (r *Request) exchange() *Exchange {
	x := &Exchange{}
	if r.Exchange != nil {
		*x = *r.Exchange
	}
	r.Exchange = x
	return x
}

// askedHeaders records the headers the page asked to send, unless those
// sent are known.
func (r *Request) askedHeaders(h map[string]string) {
	if len(h) == 0 || (r.Exchange != nil && r.Exchange.rawRequest) {
		return
	}
	x := r.exchange()
	x.RequestHeaders, x.RequestOmitted = keepHeaders(h)
}

// sentHeaders records the headers that went over the wire
// (Network.requestWillBeSentExtraInfo).
func (r *Request) sentHeaders(h map[string]string) {
	x := r.exchange()
	x.RequestHeaders, x.RequestOmitted = keepHeaders(h)
	x.rawRequest = true
}

// responded records what a response says beyond its status: its headers,
// unless those received over the wire for it are known, its protocol and
// the network stack's timing.
func (r *Request) responded(resp *proto.Response) {
	x := r.exchange()
	x.StatusText, x.Protocol, x.RemoteIP = resp.StatusText, resp.Protocol, resp.RemoteIPAddress
	if !x.rawResponse || x.rawStatus != resp.Status {
		x.ResponseHeaders, x.ResponseOmitted = keepHeaders(resp.Headers)
		x.rawResponse, x.ResponseHeadersSize = false, 0
	}
	if t := resp.Timing; t != nil && t.RequestTime > 0 {
		queued := math.Round((t.RequestTime-r.startMono)*1e6) / 1000 // to the µs
		x.Timing = &Timing{Queued: max(0, queued), ResourceTiming: *t}
	}
}

// receivedHeaders records the headers received over the wire
// (Network.responseReceivedExtraInfo), unless r was answered with another
// status: those were its redirect's, come late.
func (r *Request) receivedHeaders(e *netEvent) {
	if r.Status != 0 && r.Status != e.StatusCode {
		return
	}
	x := r.exchange()
	x.ResponseHeaders, x.ResponseOmitted = keepHeaders(e.Headers)
	x.rawResponse, x.rawStatus, x.ResponseHeadersSize = true, e.StatusCode, len(e.HeadersText)
}

// keepEarly keeps an ExtraInfo event that came before its request's
// requestWillBeSent (Chrome sends them in either order); begin applies
// it. n.mu is held.
func (n *Network) keepEarly(method string, e netEvent) {
	if _, ok := n.early[e.RequestID]; !ok && len(n.early) >= maxLate {
		return
	}
	n.early[e.RequestID] = append(n.early[e.RequestID], lateEvent{method, e})
}
