package capture

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// A request's time splits as DevTools splits it: blocked until the first
// phase, DNS, connect (SSL within), send, the wait for the headers and
// the body's receipt, which sum to its time.
func TestHARTimings(t *testing.T) {
	r := Request{Status: 200, ResponseMs: 52, Ms: 62}
	tm := &Timing{Queued: 2, ResourceTiming: proto.ResourceTiming{ProxyStart: -1, ProxyEnd: -1,
		DNSStart: 0.5, DNSEnd: 3, ConnectStart: 3, ConnectEnd: 10, SSLStart: 5, SSLEnd: 10,
		SendStart: 10.5, SendEnd: 11, ReceiveHeadersEnd: 50}}
	got := harTimings(r, tm)
	want := HARTimings{Blocked: 2.5, DNS: 2.5, Connect: 7, SSL: 5, Send: 1, Wait: 39, Receive: 10}
	if got != want || got.total() != 62 {
		t.Errorf("got %+v (total %v), want %+v", got, got.total(), want)
	}
	// A reused connection: no DNS, no connect.
	tm.DNSStart, tm.DNSEnd, tm.ConnectStart, tm.ConnectEnd, tm.SSLStart, tm.SSLEnd = -1, -1, -1, -1, -1, -1
	if got := harTimings(r, tm); got.DNS != -1 || got.Connect != -1 || got.SSL != -1 || got.Blocked != 12.5 || got.total() != 62 {
		t.Errorf("reused: %+v (total %v)", got, got.total())
	}
	// From a cache, no stack timing: the wait and the receipt.
	if got := harTimings(Request{Status: 200, ResponseMs: 3, Ms: 5}, nil); got.Wait != 3 || got.Receive != 2 || got.Blocked != -1 {
		t.Errorf("cached: %+v", got)
	}
}

// An entry has what HAR 1.2 requires, masked; the lists are arrays, never
// null; a binary body is base64.
func TestHAREntry(t *testing.T) {
	r := Request{ID: "7.1", URL: "https://a.test/api?page=2&token=abc", Method: "POST", Status: 201, Type: "Fetch", MimeType: "application/json",
		Start: 1700000000123, ResponseMs: 300, Ms: 305, Transferred: 200, Decoded: 27,
		Exchange: &Exchange{RequestHeaders: Headers{"Content-Type": "application/json", "Cookie": "sid=***"},
			ResponseHeaders: Headers{"Set-Cookie": "sid=***; Path=/; HttpOnly\nb=***"}, Protocol: "h2"}}
	h := NewHAR([]Request{r, {URL: "https://a.test/logo.png", Method: "GET", Status: 200, Start: 1700000000000, Type: "Image"}},
		func(q Request) *HARBody {
			if q.ID == "" {
				return &HARBody{Response: []byte{0x89, 'P', 'N', 'G', 0}}
			}
			return &HARBody{Request: `{"password":"x","name":"Oat milk"}`, Response: []byte(`{"id":7,"token":"t"}`)}
		})
	e := h.Log.Entries[1]
	if h.Log.Entries[0].Request.URL != "https://a.test/logo.png" || h.Log.Entries[0].Response.Content.Encoding != "base64" {
		t.Errorf("the image: %+v", h.Log.Entries[0])
	}
	if e.StartedDateTime != "2023-11-14T22:13:20.123Z" || e.Request.URL != "https://a.test/api?page=2&token=***" ||
		e.Request.HTTPVersion != "http/2.0" || len(e.Request.QueryString) != 2 || e.Request.QueryString[1].Value != "***" ||
		e.Request.PostData == nil || e.Request.PostData.Text != `{"password":"***","name":"Oat milk"}` ||
		e.Response.Content.Text != `{"id":7,"token":"***"}` || e.Response.Content.Size != 20 ||
		len(e.Response.Cookies) != 2 || !e.Response.Cookies[0].HTTPOnly || e.Response.Cookies[0].Path != "/" ||
		len(e.Request.Cookies) != 1 || e.ResourceType != "fetch" || e.Time != 305 {
		data, _ := json.Marshal(e)
		t.Errorf("entry: %s", data)
	}
	data, _ := json.Marshal(NewHAR([]Request{{URL: "http://a/x", Method: "GET", Pending: true}}, nil))
	if s := string(data); strings.Contains(s, "null") || !strings.Contains(s, `"comment":"still under way`) {
		t.Errorf("a bare entry: %s", s)
	}
}
