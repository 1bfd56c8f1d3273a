package capture

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cdpskill/cdpskill/internal/invalid"
)

// DefaultNetworkLimit is how many requests the network step shows when
// the agent names no limit: the most recent ones.
const DefaultNetworkLimit = 50

// maxListedURL bounds a URL in an inline listing; the spilled file and
// the log keep it whole.
const maxListedURL = 300

// ResourceTypes are the request types Chrome reports, in lower case.
var ResourceTypes = []string{"document", "stylesheet", "image", "media", "font", "script",
	"texttrack", "xhr", "fetch", "prefetch", "eventsource", "websocket", "manifest",
	"signedexchange", "ping", "cspviolationreport", "preflight", "other"}

// NetworkQuery selects requests for the network step.
type NetworkQuery struct {
	Limit  int          // the most recent Limit; DefaultNetworkLimit when 0
	URL    *URLFilter   // nil for every URL
	Status *StatusRange // nil for every status
	// Failed keeps network failures and HTTP error statuses (4xx, 5xx).
	Failed bool
	Types  []string // lower-case ResourceTypes; none means all
	// NavStart is when the tab's page began to load (performance.
	// timeOrigin, ms since the epoch): a request begun since gets its At.
	NavStart float64
	// Sort, when set, orders the selection before the limit keeps its
	// first Limit: SortSlowest or SortLargest.
	Sort string
	// Now is when the step ran (ms since the epoch): a request still
	// under way has taken until then so far.
	Now int64
}

// The network step's orders: the slowest first (by duration), or the
// largest (by transferred or decoded size, the larger: a response from a
// cache transfers nothing).
const (
	SortSlowest = "slowest"
	SortLargest = "largest"
)

// ParseSort reads a sort order.
func ParseSort(s string) (string, error) {
	switch s {
	case SortSlowest, SortLargest:
		return s, nil
	}
	return "", fmt.Errorf(`sort %q: give "slowest" or "largest"`, s)
}

// sortBy orders reqs, the most first, stably (equals stay in the order
// they began).
func (q NetworkQuery) sortBy(reqs []Request) {
	key := func(r *Request) int64 { return max(r.Transferred, r.Decoded) }
	if q.Sort == SortSlowest {
		key = func(r *Request) int64 {
			if !r.Done() && q.Now > r.Start && r.Start > 0 {
				return q.Now - r.Start
			}
			return int64(r.Ms)
		}
	}
	slices.SortStableFunc(reqs, func(a, b Request) int { return cmp.Compare(key(&b), key(&a)) })
}

// URLFilter matches URLs by substring, or by regular expression when the
// filter was written /like this/.
type URLFilter struct {
	sub string
	re  *regexp.Regexp
}

// ParseURLFilter reads a filter; a /regex/ that does not compile is an
// error.
func ParseURLFilter(s string) (*URLFilter, error) {
	if len(s) >= 2 && strings.HasPrefix(s, "/") && strings.HasSuffix(s, "/") {
		re, err := invalid.Compile("filter", s[1:len(s)-1])
		if err != nil {
			return nil, err
		}
		return &URLFilter{re: re}, nil
	}
	return &URLFilter{sub: s}, nil
}

func (f *URLFilter) match(url string) bool {
	if f.re != nil {
		return f.re.MatchString(url)
	}
	return strings.Contains(url, f.sub)
}

// StatusRange is an inclusive range of HTTP statuses.
type StatusRange struct{ Min, Max int }

// ParseStatus reads "404" or a class such as "4xx".
func ParseStatus(s string) (*StatusRange, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) == 3 && s[0] >= '1' && s[0] <= '5' && s[1:] == "xx" {
		base := int(s[0]-'0') * 100
		return &StatusRange{base, base + 99}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 100 || n > 599 {
		return nil, fmt.Errorf(`status %q: give a code such as 404 or a class such as "4xx"`, s)
	}
	return &StatusRange{n, n}, nil
}

// ParseTypes reads one resource type or several joined by commas, in any
// case.
func ParseTypes(s string) ([]string, error) {
	var out []string
	for _, t := range strings.Split(s, ",") {
		t = strings.ToLower(strings.TrimSpace(t))
		if !slices.Contains(ResourceTypes, t) {
			return nil, fmt.Errorf("unknown request type %q (types: %s)", t, strings.Join(ResourceTypes, ", "))
		}
		out = append(out, t)
	}
	return out, nil
}

func (q NetworkQuery) matches(r *Request) bool {
	switch {
	case q.URL != nil && !q.URL.match(r.URL):
		return false
	case q.Status != nil && (r.Status < q.Status.Min || r.Status > q.Status.Max):
		return false
	case q.Failed && !r.Failed():
		return false
	case len(q.Types) > 0 && !slices.Contains(q.Types, strings.ToLower(r.Type)):
		return false
	}
	return true
}

// NetworkView is the network step's listing. When the inline listing
// would pass SpillBytes, File holds all Showing requests and Requests
// only the newest few.
type NetworkView struct {
	Total    int       `json:"total"`
	Showing  int       `json:"showing"`
	File     string    `json:"file,omitempty"`
	Requests []Request `json:"requests"`
}

// Select returns the requests q matches, oldest first: the most recent
// Limit of them, all when Limit is 0. Sort is the listing's.
func (q NetworkQuery) Select(reqs []Request) []Request {
	sel := q.matching(reqs)
	if q.Limit > 0 {
		sel = sel[max(0, len(sel)-q.Limit):]
	}
	return sel
}

func (q NetworkQuery) matching(reqs []Request) []Request {
	var sel []Request
	for i := range reqs {
		if q.matches(&reqs[i]) {
			sel = append(sel, reqs[i])
		}
	}
	return sel
}

// NewNetworkView lists the requests q selects, oldest first or in q's
// order, writing them to spillPath when they are too many to show inline.
func (f Files) NewNetworkView(reqs []Request, q NetworkQuery, spillPath string) (*NetworkView, error) {
	sel := q.matching(reqs)
	total := len(sel)
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultNetworkLimit
	}
	if q.Sort != "" {
		q.sortBy(sel)
		sel = sel[:min(total, limit)]
	} else {
		sel = sel[max(0, total-limit):]
	}
	if start := int64(q.NavStart); start > 0 {
		for i := range sel {
			if sel[i].Start >= start {
				sel[i].At = sel[i].Start - start
			}
		}
	}
	v := &NetworkView{Total: total, Showing: len(sel), Requests: cutURLs(sel, maxListedURL)}
	if fitsInline(v) {
		return v, nil
	}
	if err := f.writeJSON(spillPath, sel); err != nil {
		return nil, err
	}
	v.File = spillPath
	if q.Sort != "" {
		v.Requests = previewHead(cutURLs(sel, previewText))
	} else {
		v.Requests = previewTail(cutURLs(sel, previewText))
	}
	return v, nil
}

// previewHead keeps the first entries that fit in previewBytes, and at
// least one: a sorted listing's top.
func previewHead[T any](items []T) []T {
	size := 0
	for i, it := range items {
		data, _ := json.Marshal(it)
		size += len(data) + 1
		if size > previewBytes && i > 0 {
			return items[:i]
		}
	}
	return items
}

func cutURLs(reqs []Request, n int) []Request {
	out := make([]Request, len(reqs)) // never nil: an empty listing is [], not null
	copy(out, reqs)
	for i := range out {
		out[i].URL = truncate(out[i].URL, n)
	}
	return out
}

// MaxReportRequests bounds the failed requests a call reports.
const MaxReportRequests = 10

// maxReportURL keeps the call's report small; the network step shows more.
const maxReportURL = 150

// NetworkReport is what a call says about its own requests, next to its
// console errors: the page's own (documents, fetch, XHR), one line each,
// and the failures, network failures and HTTP error statuses, each
// distinct one listed once.
type NetworkReport struct {
	Requests []string        `json:"requests,omitempty"`
	Errors   []FailedRequest `json:"errors,omitempty"`
	// Omitted counts the failures left out beyond MaxReportRequests.
	Omitted int `json:"omitted,omitempty"`
}

// FailedRequest is one failure; Method is left out for GET.
type FailedRequest struct {
	Method string `json:"method,omitempty"`
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	// From is "route" when a route the agent set made it fail.
	From  string `json:"from,omitempty"`
	Count int    `json:"count,omitempty"` // set when it happened more than once
}

// Report lists the page's own requests begun since since (milliseconds
// since the epoch: the call's start), and summarises the failures among
// every request the Network saw, Clear or not; nil when there is neither.
// Requests the page cancelled itself (navigating away, AbortController)
// are not failures, nor is a missing /favicon.ico that Chrome, not the
// page, asked for. A URL on the origin of the tab's document (its last
// one the call loaded, else page) is shown by its path.
func (n *Network) Report(since int64, page string) *NetworkReport {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	r := newNetworkReport(n.reqs)
	if lines := requestLines(n.reqs, since, n.s.TargetID, page); len(lines) > 0 {
		if r == nil {
			r = &NetworkReport{}
		}
		r.Requests = lines
	}
	return r
}

// isFaviconProbe is Chrome's own request for a page's default icon.
func isFaviconProbe(r *Request) bool {
	u, err := url.Parse(r.URL)
	return err == nil && u.Path == "/favicon.ico" && r.Type == "Other"
}

func newNetworkReport(reqs []*Request) *NetworkReport {
	r := &NetworkReport{}
	index := map[FailedRequest]int{}
	for _, q := range reqs {
		if !q.Failed() || q.canceled || isFaviconProbe(q) {
			continue
		}
		f := FailedRequest{URL: truncate(q.URL, maxReportURL), Status: q.Status, Error: q.Error}
		if q.From == FromRoute {
			f.From = FromRoute
		}
		if q.Method != "GET" {
			f.Method = q.Method
		}
		if i, ok := index[f]; ok {
			r.Errors[i].Count = max(2, r.Errors[i].Count+1)
			continue
		}
		if len(r.Errors) == MaxReportRequests {
			r.Omitted++
			continue
		}
		index[f] = len(r.Errors)
		r.Errors = append(r.Errors, f)
	}
	if len(r.Errors) == 0 {
		return nil
	}
	return r
}

// NewNetworkView is Files{}.NewNetworkView, in the process's temp
// directory.
func NewNetworkView(reqs []Request, q NetworkQuery, spillPath string) (*NetworkView, error) {
	return Files{}.NewNetworkView(reqs, q, spillPath)
}

// maxReportLines bounds the report's requests: the network step lists
// them all.
const maxReportLines = 10

// requestLines are the report's lines for the page's own requests begun
// since since: "POST /api/items 201 12ms 48B".
func requestLines(reqs []*Request, since int64, main, page string) []string {
	var own []*Request
	for _, r := range reqs {
		if r.Start >= since && pageOwn(r) {
			own = append(own, r)
			if r.Type == "Document" && r.frame == main {
				page = r.URL
			}
		}
	}
	origin := originOf(page)
	var lines []string
	for i, r := range own {
		if i == maxReportLines {
			lines = append(lines, fmt.Sprintf("+%d more (the network step lists them)", len(own)-i))
			break
		}
		lines = append(lines, requestLine(r, origin))
	}
	return lines
}

// pageOwn: a document, or a fetch or XHR, the requests that carry what
// the page does, unlike its images, scripts and fonts.
func pageOwn(r *Request) bool {
	switch r.Type {
	case "Document", "Fetch", "XHR", "EventSource":
		return true
	}
	return false
}

// requestLine is r in one line: method, address, then its status (or
// what became of it), time and size, and where the answer came from when
// not the network.
func requestLine(r *Request, origin string) string {
	u := r.URL
	if origin != "" && strings.HasPrefix(u, origin+"/") {
		u = u[len(origin):]
	}
	parts := []string{r.Method, truncate(u, maxReportURL)}
	switch {
	case r.Pending || r.Receiving:
		parts = append(parts, "pending")
	case r.canceled:
		parts = append(parts, "canceled")
	case r.Error != "":
		parts = append(parts, r.Error)
	default:
		parts = append(parts, strconv.Itoa(r.Status))
	}
	if r.Done() && r.Error == "" {
		parts = append(parts, fmt.Sprintf("%dms", r.Ms))
		if r.Decoded > 0 { // the body as the page got it
			parts = append(parts, byteSize(r.Decoded))
		}
	}
	if r.From != "" && r.From != FromNetwork {
		parts = append(parts, "("+r.From+")")
	}
	return strings.Join(parts, " ")
}

// originOf is raw's scheme and host, "" for none.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// byteSize is n as the agent reads it: 48B, 1.2KB, 230KB, 3.4MB.
func byteSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%dB", n)
	case n < 10_000:
		return fmt.Sprintf("%.1fKB", float64(n)/1000)
	case n < 1_000_000:
		return fmt.Sprintf("%dKB", n/1000)
	}
	return fmt.Sprintf("%.1fMB", float64(n)/1e6)
}
