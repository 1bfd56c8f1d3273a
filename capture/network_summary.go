package capture

import (
	"slices"
	"strings"
)

// RequestSummary is a page's requests in a few numbers: how many, the
// bytes they brought over the network (headers included; a cache's
// answer brings none), how many a cache or a service worker answered,
// failed or were still under way, and the count and bytes by type.
type RequestSummary struct {
	Count   int                     `json:"count"`
	Bytes   int64                   `json:"bytes"`
	Cached  int                     `json:"cached,omitempty"`
	Failed  int                     `json:"failed,omitempty"`
	Pending int                     `json:"pending,omitempty"`
	ByType  map[string]*TypeSummary `json:"byType,omitempty"`
}

// TypeSummary is the requests of one type.
type TypeSummary struct {
	Count int   `json:"count"`
	Bytes int64 `json:"bytes"`
}

// navSlack is how far before its document's time origin a request of
// the document may seem to begin: Chrome's wall clock for a request and
// the page's for its time origin round apart.
const navSlack = 1

// DocumentRequests are those of reqs that the document that began at
// navStart (performance.timeOrigin, ms since the epoch) made, the
// document's own included: those begun since, but Chrome's own probe for
// the favicon.
func DocumentRequests(reqs []Request, navStart float64) []Request {
	var out []Request
	for _, r := range reqs {
		if float64(r.Start) >= navStart-navSlack && !isFaviconProbe(&r) {
			out = append(out, r)
		}
	}
	return out
}

// SummarizeRequests sums reqs up; nil for none.
func SummarizeRequests(reqs []Request) *RequestSummary {
	if len(reqs) == 0 {
		return nil
	}
	s := &RequestSummary{ByType: map[string]*TypeSummary{}}
	for _, r := range reqs {
		s.Count++
		s.Bytes += r.Transferred
		switch {
		case !r.Done():
			s.Pending++
		case r.Failed() && !r.canceled:
			s.Failed++
		case r.From != "" && r.From != FromNetwork && r.From != FromRoute:
			s.Cached++
		}
		typ := strings.ToLower(r.Type)
		if typ == "" {
			typ = "other"
		}
		t := s.ByType[typ]
		if t == nil {
			t = &TypeSummary{}
			s.ByType[typ] = t
		}
		t.Count++
		t.Bytes += r.Transferred
	}
	return s
}

// TopRequests are the first n of reqs in order (SortSlowest, by their
// time, until now for one under way; SortLargest, by their size) as the
// report writes a request ("GET /app.js 200 840ms 320KB"), a URL on
// page's origin by its path.
func TopRequests(reqs []Request, order string, n int, page string, now int64) []string {
	q := NetworkQuery{Sort: order, Now: now}
	sorted := slices.Clone(reqs)
	q.sortBy(sorted)
	origin := originOf(page)
	var lines []string
	for i := range sorted[:min(n, len(sorted))] {
		lines = append(lines, requestLine(&sorted[i], origin))
	}
	return lines
}
