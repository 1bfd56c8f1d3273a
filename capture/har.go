package capture

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// A HAR (HTTP Archive 1.2, http://www.softwareishard.com/blog/har-12-spec/)
// of a tab's recorded traffic, as DevTools' Network panel writes and
// imports one: an entry a request, in the order they began, with its
// headers (masked as captured), its timings (the network stack's, split
// as DevTools splits them), its sizes and the bodies kept of it
// (bodies.go), DevTools' own fields (_resourceType, _transferSize,
// _fromCache, _error) beside. NewHAR is a function of the requests and
// their bodies alone, so whatever records them (the calls' captures and
// the tab's log) can feed it. Query values and body fields that look like
// secrets are masked too (secrets.go): a HAR is made to be shared.

// HAR is a HAR 1.2 document.
type HAR struct {
	Log HARLog `json:"log"`
}

// HARLog is a HAR's one log.
type HARLog struct {
	Version string     `json:"version"`
	Creator HARCreator `json:"creator"`
	Entries []HAREntry `json:"entries"`
}

// HARCreator names the tool that wrote the HAR.
type HARCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// HAREntry is one request. Times are milliseconds.
type HAREntry struct {
	StartedDateTime string      `json:"startedDateTime"`
	Time            float64     `json:"time"`
	Request         HARRequest  `json:"request"`
	Response        HARResponse `json:"response"`
	Cache           struct{}    `json:"cache"`
	Timings         HARTimings  `json:"timings"`
	ServerIPAddress string      `json:"serverIPAddress,omitempty"`
	ResourceType    string      `json:"_resourceType,omitempty"`
	FromCache       string      `json:"_fromCache,omitempty"` // "memory" or "disk"
	Comment         string      `json:"comment,omitempty"`
}

// HARRequest is what the page sent. A size not known is -1.
type HARRequest struct {
	Method      string         `json:"method"`
	URL         string         `json:"url"`
	HTTPVersion string         `json:"httpVersion"`
	Cookies     []HARCookie    `json:"cookies"`
	Headers     []HARNameValue `json:"headers"`
	QueryString []HARNameValue `json:"queryString"`
	PostData    *HARPostData   `json:"postData,omitempty"`
	HeadersSize int            `json:"headersSize"`
	BodySize    int            `json:"bodySize"`
	Comment     string         `json:"comment,omitempty"`
}

// HARResponse is what came back; a request that failed has status 0.
type HARResponse struct {
	Status       int            `json:"status"`
	StatusText   string         `json:"statusText"`
	HTTPVersion  string         `json:"httpVersion"`
	Cookies      []HARCookie    `json:"cookies"`
	Headers      []HARNameValue `json:"headers"`
	Content      HARContent     `json:"content"`
	RedirectURL  string         `json:"redirectURL"`
	HeadersSize  int            `json:"headersSize"`
	BodySize     int64          `json:"bodySize"`
	TransferSize int64          `json:"_transferSize"`
	Error        string         `json:"_error,omitempty"`
	ViaWorker    bool           `json:"_fetchedViaServiceWorker,omitempty"`
	Comment      string         `json:"comment,omitempty"`
}

// HARContent is a response's body: Text when it was kept, base64 when
// Encoding says so.
type HARContent struct {
	Size     int64  `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Encoding string `json:"encoding,omitempty"`
	Comment  string `json:"comment,omitempty"`
}

// HARPostData is a request's body.
type HARPostData struct {
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
}

// HARNameValue is a header or a query parameter.
type HARNameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// HARCookie is a cookie sent or set; its value is masked.
type HARCookie struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Path     string `json:"path,omitempty"`
	Domain   string `json:"domain,omitempty"`
	HTTPOnly bool   `json:"httpOnly,omitempty"`
	Secure   bool   `json:"secure,omitempty"`
}

// HARTimings split an entry's time; -1 is a phase that did not happen
// (blocked, dns, connect, ssl only). SSL is part of Connect.
type HARTimings struct {
	Blocked float64 `json:"blocked"`
	DNS     float64 `json:"dns"`
	Connect float64 `json:"connect"`
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
	SSL     float64 `json:"ssl"`
}

// HARBody is what is kept of a request's bodies.
type HARBody struct {
	// Request is the body the page sent; empty for none or not kept.
	Request string
	// Response is the response's body; nil when not kept, Gone says why.
	Response []byte
	Gone     string
}

// harTime is a HAR's date format: ISO 8601 with milliseconds.
const harTime = "2006-01-02T15:04:05.000Z07:00"

// NewHAR makes a HAR of reqs, in the order they began; body gives the
// bodies kept of a request, nil for none.
func NewHAR(reqs []Request, body func(Request) *HARBody) *HAR {
	sorted := slices.Clone(reqs)
	slices.SortStableFunc(sorted, func(a, b Request) int { return cmp.Compare(a.Start, b.Start) })
	h := &HAR{Log: HARLog{Version: "1.2", Creator: HARCreator{Name: "cdpskill", Version: creatorVersion()},
		Entries: make([]HAREntry, 0, len(sorted))}}
	for _, r := range sorted {
		var b *HARBody
		if body != nil {
			b = body(r)
		}
		h.Log.Entries = append(h.Log.Entries, harEntry(r, b))
	}
	return h
}

// creatorVersion is the module's version as the go command recorded it.
func creatorVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func harEntry(r Request, b *HARBody) HAREntry {
	x := r.Exchange
	if x == nil {
		x = &Exchange{}
	}
	e := HAREntry{
		StartedDateTime: time.UnixMilli(r.Start).UTC().Format(harTime),
		Request:         harRequest(r, x, b),
		Response:        harResponse(r, x, b),
		Timings:         harTimings(r, x.Timing),
		ServerIPAddress: strings.Trim(x.RemoteIP, "[]"), // an IPv6 address without brackets, as DevTools writes it
		ResourceType:    resourceType(r.Type),
		Comment:         r.Note,
	}
	e.Time = e.Timings.total()
	switch {
	case !r.Done():
		e.Comment = "still under way when the HAR was written"
	case r.From == FromMemoryCache:
		e.FromCache = "memory"
	case r.From == FromDiskCache:
		e.FromCache = "disk"
	case r.From == FromRoute:
		e.Comment = "answered by a route the agent set (cdpskill), not the server"
	}
	return e
}

func harRequest(r Request, x *Exchange, b *HARBody) HARRequest {
	u := maskURL(r.URL)
	req := HARRequest{Method: r.Method, URL: u, HTTPVersion: httpVersion(x.Protocol),
		Cookies: requestCookies(x.RequestHeaders), Headers: nameValues(x.RequestHeaders),
		QueryString: queryString(u), HeadersSize: -1, Comment: omittedNote(x.RequestOmitted)}
	text := r.postData
	if b != nil && b.Request != "" {
		text = b.Request
	}
	req.BodySize = len(text)
	if text != "" {
		mime := x.RequestHeaders.Get("Content-Type")
		req.PostData = &HARPostData{MimeType: mime, Text: maskBody(mime, text)}
	}
	return req
}

func harResponse(r Request, x *Exchange, b *HARBody) HARResponse {
	resp := HARResponse{Status: r.Status, StatusText: x.StatusText, HTTPVersion: httpVersion(x.Protocol),
		Cookies: responseCookies(x.ResponseHeaders), Headers: nameValues(x.ResponseHeaders),
		RedirectURL: x.ResponseHeaders.Get("Location"), HeadersSize: -1, BodySize: -1,
		TransferSize: r.Transferred, Error: r.Error, ViaWorker: r.From == FromServiceWorker,
		Content: HARContent{Size: r.Decoded, MimeType: cmp.Or(r.MimeType, "x-unknown")}, Comment: omittedNote(x.ResponseOmitted)}
	if x.ResponseHeadersSize > 0 {
		resp.HeadersSize = x.ResponseHeadersSize
		resp.BodySize = max(0, r.Transferred-int64(x.ResponseHeadersSize))
	}
	if r.From == FromMemoryCache || r.From == FromDiskCache || r.Status == 304 {
		resp.BodySize = 0
	}
	if b == nil {
		return resp
	}
	c := &resp.Content
	switch {
	case b.Response == nil:
		c.Comment = b.Gone
	case utf8.Valid(b.Response) && !bytes.ContainsRune(b.Response, 0):
		c.Size, c.Text = int64(len(b.Response)), maskBody(r.MimeType, string(b.Response))
	default:
		c.Size, c.Text, c.Encoding = int64(len(b.Response)), base64.StdEncoding.EncodeToString(b.Response), "base64"
	}
	return resp
}

// maskBody masks a JSON or form body's secrets (see secrets.go).
func maskBody(mime, text string) string {
	mime = strings.ToLower(mime)
	switch {
	case strings.Contains(mime, "x-www-form-urlencoded"):
		return maskQuery(text)
	case strings.Contains(mime, "json") || json.Valid([]byte(text)):
		return maskJSON(text)
	}
	return text
}

func omittedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d headers left out: over the %d, or %d KB, kept", n, maxHeaders, maxHeaderBytes>>10)
}

// harTimings splits r's time as DevTools does (its HAR writer's
// buildTimings): blocked until the network stack's first phase, then DNS,
// connect, send, the wait for the headers and the body's receipt, which
// add up to its time.
// Without the stack's timing (a cache's answer, a failure) there are the
// wait and the receipt, or only blocked.
func harTimings(r Request, t *Timing) HARTimings {
	h := HARTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1}
	if t == nil {
		if r.Status == 0 {
			h.Blocked = float64(r.Ms)
		} else {
			h.Wait, h.Receive = float64(r.ResponseMs), float64(max(0, r.Ms-r.ResponseMs))
		}
		return h
	}
	first := leastNonNegative(t.DNSStart, t.ConnectStart, t.SendStart)
	h.Blocked = t.Queued + first
	if proxy := t.ProxyEnd - t.ProxyStart; t.ProxyEnd >= 0 && proxy > h.Blocked {
		h.Blocked = proxy
	}
	if t.DNSEnd >= 0 {
		h.DNS = t.DNSEnd - first
	}
	if t.SSLEnd > 0 {
		h.SSL = t.SSLEnd - t.SSLStart
	}
	if t.ConnectEnd >= 0 {
		// From where DNS ended: DevTools starts it at the first phase,
		// counting DNS twice in the entry's time.
		h.Connect = t.ConnectEnd - max(t.DNSEnd, first)
	}
	if t.SendEnd >= 0 {
		h.Send = max(0, t.SendEnd-max(t.ConnectEnd, t.DNSEnd, first))
	}
	sent := max(t.SendEnd, t.ConnectEnd, t.SSLEnd, t.DNSEnd, first, 0)
	headers := t.ReceiveHeadersEnd
	if headers <= 0 {
		headers = float64(r.ResponseMs) - t.Queued
	}
	h.Wait = max(0, headers-sent)
	h.Receive = max(0, float64(r.Ms)-t.Queued-headers)
	return h.rounded()
}

// leastNonNegative is the least of vs at least 0, or 0 when none is.
func leastNonNegative(vs ...float64) float64 {
	least := math.Inf(1)
	for _, v := range vs {
		if v >= 0 && v < least {
			least = v
		}
	}
	if math.IsInf(least, 1) {
		return 0
	}
	return least
}

func (h HARTimings) rounded() HARTimings {
	for _, p := range []*float64{&h.Blocked, &h.DNS, &h.Connect, &h.Send, &h.Wait, &h.Receive, &h.SSL} {
		*p = math.Round(*p*1000) / 1000
	}
	return h
}

// total is the entry's time: its phases' sum, SSL being part of connect.
func (h HARTimings) total() float64 {
	sum := 0.0
	for _, v := range []float64{h.Blocked, h.DNS, h.Connect, h.Send, h.Wait, h.Receive} {
		sum += max(0, v)
	}
	return math.Round(sum*1000) / 1000
}

// httpVersion is a protocol as a HAR writes it, as DevTools does.
func httpVersion(protocol string) string {
	switch p := strings.ToLower(protocol); {
	case p == "h2":
		return "http/2.0"
	case strings.HasPrefix(p, "http/1."):
		return strings.ToUpper(p)
	}
	return protocol
}

// resourceType is a CDP resource type as DevTools names it.
func resourceType(t string) string {
	switch t {
	case "SignedExchange":
		return "signed-exchange"
	case "CSPViolationReport":
		return "csp-violation-report"
	}
	return strings.ToLower(t)
}

// nameValues lists h by name, a value Chrome joined by newlines as one
// entry each; never nil, as a HAR's lists are arrays.
func nameValues(h Headers) []HARNameValue {
	out := []HARNameValue{}
	for _, name := range sortedNames(h) {
		for _, v := range strings.Split(h[name], "\n") {
			out = append(out, HARNameValue{Name: name, Value: v})
		}
	}
	return out
}

func sortedNames(h Headers) []string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// queryString lists a URL's query parameters, decoded.
func queryString(u string) []HARNameValue {
	out := []HARNameValue{}
	_, query, ok := strings.Cut(u, "?")
	if !ok {
		return out
	}
	query, _, _ = strings.Cut(query, "#")
	for _, p := range strings.Split(query, "&") {
		if p == "" {
			continue
		}
		k, v, _ := strings.Cut(p, "=")
		out = append(out, HARNameValue{Name: unescape(k), Value: unescape(v)})
	}
	return out
}

func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// requestCookies are the cookies of a (masked) Cookie header.
func requestCookies(h Headers) []HARCookie {
	out := []HARCookie{}
	for _, c := range strings.Split(h.Get("Cookie"), ";") {
		if name, value, ok := strings.Cut(strings.TrimSpace(c), "="); ok {
			out = append(out, HARCookie{Name: name, Value: value})
		}
	}
	return out
}

// responseCookies are the cookies of (masked) Set-Cookie headers, with
// the attributes a HAR has.
func responseCookies(h Headers) []HARCookie {
	out := []HARCookie{}
	for _, line := range strings.Split(h.Get("Set-Cookie"), "\n") {
		parts := strings.Split(line, ";")
		name, value, ok := strings.Cut(strings.TrimSpace(parts[0]), "=")
		if !ok {
			continue
		}
		c := HARCookie{Name: name, Value: value}
		for _, a := range parts[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(a), "=")
			switch strings.ToLower(k) {
			case "path":
				c.Path = v
			case "domain":
				c.Domain = v
			case "httponly":
				c.HTTPOnly = true
			case "secure":
				c.Secure = true
			}
		}
		out = append(out, c)
	}
	return out
}

// maxHARBodies bounds the bodies one HAR holds: a tab keeps up to 100 of
// up to 10 MB.
const maxHARBodies = 64 << 20

// HARFile is a HAR written: where, its entries, how many carry a
// response's body, and its size.
type HARFile struct {
	Path    string `json:"path"`
	Entries int    `json:"entries"`
	Bodies  int    `json:"bodies"`
	Bytes   int    `json:"bytes"`
}

// WriteHAR writes to path a HAR of reqs, tab alias's requests, with the
// bodies kept of them: whole or not at all (a temporary file renamed),
// 0600 (internal/private).
func (f Files) WriteHAR(alias, path string, reqs []Request) (*HARFile, error) {
	kb := f.keptForHAR(alias)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	h := NewHAR(reqs, kb.body)
	if err := enc.Encode(h); err != nil {
		return nil, fmt.Errorf("capture: har: %w", err)
	}
	if err := f.writeFile(path, b.Bytes()); err != nil {
		return nil, err
	}
	return &HARFile{Path: path, Entries: len(h.Log.Entries), Bodies: kb.count, Bytes: b.Len()}, nil
}

// harBodies reads a tab's kept bodies for a HAR, up to maxHARBodies.
type harBodies struct {
	f     Files
	kept  map[string]KeptBody // by request id and URL: a redirect's hops share the id
	size  int
	count int
}

// keptForHAR indexes the kept bodies of tab alias; a missing or damaged
// index gives none.
func (f Files) keptForHAR(alias string) *harBodies {
	kept, _ := f.readKept(alias)
	hb := &harBodies{f: f, kept: map[string]KeptBody{}}
	for _, k := range kept { // oldest first: the newest wins
		hb.kept[k.ID+" "+k.URL] = k
	}
	return hb
}

func (hb *harBodies) body(r Request) *HARBody {
	k, ok := hb.kept[r.ID+" "+r.URL]
	if !ok {
		return nil
	}
	b := &HARBody{Request: k.Request, Gone: k.Gone}
	if k.File == "" {
		return b
	}
	if hb.size >= maxHARBodies {
		b.Gone = fmt.Sprintf("left out: a HAR holds %d MB of bodies at most", maxHARBodies>>20)
		return b
	}
	data, err := hb.f.Temp.ReadFile(k.File, maxKeptBody)
	if err != nil {
		b.Gone = fmt.Sprintf("its file is gone: %v", err)
		return b
	}
	hb.size += len(data)
	hb.count++
	b.Response = data
	return b
}
