package capture

import (
	"encoding/json"
	"fmt"
	"testing"
)

// feedNet folds CDP events, written as JSON, into a Network with no session.
func feedNet(n *Network, events ...string) {
	for _, ev := range events {
		var e struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal([]byte(ev), &e); err != nil {
			panic(fmt.Sprintf("%s: %v", ev, err))
		}
		n.apply(e.Method, e.Params)
	}
}

func newTestNetwork() *Network {
	return &Network{byID: map[string]*Request{}, late: map[string][]lateEvent{}, early: map[string][]lateEvent{}}
}

func sent(id, url string) string {
	return fmt.Sprintf(`{"method":"Network.requestWillBeSent","params":{"requestId":%q,"loaderId":"L1","timestamp":10,"wallTime":1700000000,"type":"Fetch","request":{"url":%q,"method":"GET"}}}`, id, url)
}

func response(id, url, flags string) string {
	return fmt.Sprintf(`{"method":"Network.responseReceived","params":{"requestId":%q,"timestamp":10.2,"response":{"url":%q,"status":200,"mimeType":"text/plain"%s}}}`, id, url, flags)
}

func finished(id string) string {
	return fmt.Sprintf(`{"method":"Network.loadingFinished","params":{"requestId":%q,"timestamp":10.5}}`, id)
}

// Where a response came from, as DevTools tells it: a service worker's
// answer before the cache flags Chrome also sets on it, the memory cache
// (its own event) before the response's flags.
func TestRequestFrom(t *testing.T) {
	cases := []struct {
		name   string
		events []string
		want   string
	}{
		{"network", []string{sent("1", "http://a/x"), response("1", "http://a/x", ""), finished("1")}, FromNetwork},
		{"disk", []string{sent("1", "http://a/x"), response("1", "http://a/x", `,"fromDiskCache":true`)}, FromDiskCache},
		{"prefetch", []string{sent("1", "http://a/x"), response("1", "http://a/x", `,"fromPrefetchCache":true`)}, FromPrefetchCache},
		{"worker over disk", []string{sent("1", "http://a/x"), response("1", "http://a/x", `,"fromServiceWorker":true,"fromDiskCache":true`)}, FromServiceWorker},
		{"memory", []string{sent("1", "http://a/x"), `{"method":"Network.requestServedFromCache","params":{"requestId":"1"}}`, response("1", "http://a/x", `,"fromDiskCache":true`)}, FromMemoryCache},
		{"memory after", []string{sent("1", "http://a/x"), response("1", "http://a/x", ""), `{"method":"Network.requestServedFromCache","params":{"requestId":"1"}}`}, FromMemoryCache},
		{"none yet", []string{sent("1", "http://a/x")}, ""},
	}
	for _, tc := range cases {
		n := newTestNetwork()
		feedNet(n, tc.events...)
		if got := n.reqs[0].From; got != tc.want {
			t.Errorf("%s: from %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A request is pending until its response, receiving until its last byte:
// never a status and pending together.
func TestRequestStates(t *testing.T) {
	n := newTestNetwork()
	feedNet(n, sent("1", "http://a/x"))
	if r := n.reqs[0]; !r.Pending || r.Receiving || r.Status != 0 || r.Done() {
		t.Errorf("sent: %+v", *r)
	}
	feedNet(n, response("1", "http://a/x", ""))
	if r := n.reqs[0]; r.Pending || !r.Receiving || r.Status != 200 || r.Done() || r.ResponseMs != 200 {
		t.Errorf("answered: %+v", *r)
	}
	feedNet(n, finished("1"))
	if r := n.reqs[0]; r.Pending || r.Receiving || !r.Done() || r.Ms != 500 {
		t.Errorf("finished: %+v", *r)
	}
	// A redirect ends one hop and begins the next under the same id.
	feedNet(n, sent("2", "http://a/old"),
		`{"method":"Network.requestWillBeSent","params":{"requestId":"2","timestamp":10.1,"wallTime":1700000000.1,"type":"Fetch","request":{"url":"http://a/new","method":"GET"},"redirectResponse":{"url":"http://a/old","status":302}}}`)
	if hop, next := n.reqs[1], n.reqs[2]; hop.Status != 302 || !hop.Done() || hop.From != FromNetwork || !next.Pending || next.URL != "http://a/new" {
		t.Errorf("redirect: %+v then %+v", *hop, *next)
	}
}

// Events of requests an earlier call saw begin end its logged entries.
func TestSettleLate(t *testing.T) {
	n := newTestNetwork()
	feedNet(n,
		response("old1", "http://a/slow", ""), finished("old1"),
		`{"method":"Network.loadingFailed","params":{"requestId":"old2","timestamp":11,"errorText":"net::ERR_EMPTY_RESPONSE"}}`,
		response("old3", "http://a/elsewhere", ""), // where old3 was redirected, unseen
		finished("nobody"))
	logged := []Request{
		{URL: "http://a/slow", Method: "GET", Pending: true, ID: "old1", startMono: 10},
		{URL: "http://a/drop", Method: "GET", Pending: true, ID: "old2", startMono: 10},
		{URL: "http://a/moved", Method: "GET", Pending: true, ID: "old3", startMono: 10},
		{URL: "http://a/quiet", Method: "GET", Pending: true, ID: "old4", startMono: 10},
		{URL: "http://a/done", Method: "GET", Status: 200, Ms: 3, ID: "old5"},
	}
	if !settleLate(logged, n.late) {
		t.Fatal("nothing changed")
	}
	if r := logged[0]; !r.Done() || r.Status != 200 || r.Ms != 500 || r.From != FromNetwork {
		t.Errorf("answered late: %+v", r)
	}
	if r := logged[1]; !r.Done() || r.Error != "net::ERR_EMPTY_RESPONSE" || r.Ms != 1000 {
		t.Errorf("failed late: %+v", r)
	}
	if r := logged[2]; !r.Done() || r.Status != 0 || r.Note != noteUnseen {
		t.Errorf("redirected unseen: %+v", r)
	}
	if r := logged[3]; !r.Pending {
		t.Errorf("no news is still pending: %+v", r)
	}
	if len(n.reqs) != 0 {
		t.Errorf("late events began requests: %d", len(n.reqs))
	}
}

func sentExtra(id, headers string) string {
	return fmt.Sprintf(`{"method":"Network.requestWillBeSentExtraInfo","params":{"requestId":%q,"headers":%s}}`, id, headers)
}

func receivedExtra(id string, status int, headers string) string {
	return fmt.Sprintf(`{"method":"Network.responseReceivedExtraInfo","params":{"requestId":%q,"statusCode":%d,"headers":%s,"headersText":"HTTP/1.1 %d X\r\n\r\n"}}`, id, status, headers, status)
}

// The headers that went over the wire (the ExtraInfo events, cookies
// included) win over those the page was shown, whichever came first, and
// are masked as they come; a redirect's stay with its hop.
func TestRequestHeaders(t *testing.T) {
	for _, order := range []string{"extra first", "extra after"} {
		n := newTestNetwork()
		asked := `{"method":"Network.requestWillBeSent","params":{"requestId":"1","timestamp":10,"wallTime":1700000000,"type":"Fetch","request":{"url":"http://a/x","method":"GET","headers":{"Authorization":"Bearer abc"}}}}`
		extra := sentExtra("1", `{"Authorization":"Bearer abc","Cookie":"sid=s3cret"}`)
		answer := `{"method":"Network.responseReceived","params":{"requestId":"1","timestamp":10.2,"response":{"url":"http://a/x","status":200,"statusText":"OK","protocol":"http/1.1","headers":{"Content-Type":"text/plain"},"timing":{"requestTime":10.01,"dnsStart":-1,"dnsEnd":-1,"connectStart":-1,"connectEnd":-1,"sslStart":-1,"sslEnd":-1,"sendStart":1,"sendEnd":2,"receiveHeadersEnd":150}}}}`
		got := receivedExtra("1", 200, `{"Content-Type":"text/plain","Set-Cookie":"sid=new; HttpOnly"}`)
		if order == "extra first" {
			feedNet(n, extra, asked, got, answer)
		} else {
			feedNet(n, asked, extra, answer, got)
		}
		x := n.reqs[0].Exchange
		if x == nil || x.RequestHeaders["Cookie"] != "sid=***" || x.RequestHeaders["Authorization"] != "Bearer ***" ||
			x.ResponseHeaders["Set-Cookie"] != "sid=***; HttpOnly" || x.ResponseHeadersSize == 0 || x.StatusText != "OK" ||
			x.Timing == nil || x.Timing.Queued != 10 {
			t.Errorf("%s: %+v", order, x)
		}
	}
	// A redirect: the 302's headers are its hop's, the next hop's its own.
	n := newTestNetwork()
	feedNet(n, sent("2", "http://a/old"), sentExtra("2", `{"Cookie":"a=1"}`), receivedExtra("2", 302, `{"Location":"/new?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"}`),
		`{"method":"Network.requestWillBeSent","params":{"requestId":"2","timestamp":10.1,"wallTime":1700000000.1,"type":"Fetch","request":{"url":"http://a/new","method":"GET"},"redirectResponse":{"url":"http://a/old","status":302,"headers":{"Location":"/new"}}}}`,
		sentExtra("2", `{"Cookie":"b=2"}`), receivedExtra("2", 200, `{"Content-Length":"2"}`), response("2", "http://a/new", ""))
	hop, next := n.reqs[0].Exchange, n.reqs[1].Exchange
	if hop.ResponseHeaders["Location"] != "/new?token=***" || hop.RequestHeaders["Cookie"] != "a=***" ||
		next.RequestHeaders["Cookie"] != "b=***" || next.ResponseHeaders["Content-Length"] != "2" {
		t.Errorf("redirect: %+v then %+v", hop, next)
	}
	// A copy handed out stays as it was.
	before := copyRequests(n.reqs)[1]
	feedNet(n, receivedExtra("2", 200, `{"Content-Length":"3"}`))
	if before.Exchange.ResponseHeaders["Content-Length"] != "2" {
		t.Errorf("a copy changed with its request")
	}
}
