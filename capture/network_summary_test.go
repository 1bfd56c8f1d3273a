package capture_test

import (
	"slices"
	"testing"

	"github.com/cdpskill/cdpskill/capture"
)

// A document's requests are those begun since its time origin, but
// Chrome's favicon probe; they sum up by type, with what a cache
// answered, failed or is under way, and list slowest and largest first
// as the report writes a request.
func TestRequestSummary(t *testing.T) {
	page := "http://app.test/shop"
	reqs := []capture.Request{
		{URL: "http://app.test/old.js", Method: "GET", Type: "Script", Start: 999, Status: 200, Ms: 900, Transferred: 10},
		{URL: page, Method: "GET", Type: "Document", Start: 1000, Status: 200, Ms: 40, Transferred: 2000, Decoded: 1800},
		{URL: "http://app.test/app.js", Method: "GET", Type: "Script", Start: 1010, Status: 200, Ms: 840, Transferred: 320_000, Decoded: 900_000},
		{URL: "http://cdn.test/hero.png", Method: "GET", Type: "Image", Start: 1020, Status: 200, From: capture.FromDiskCache, Decoded: 240_000},
		{URL: "http://app.test/api", Method: "POST", Type: "Fetch", Start: 1030, Status: 500, Ms: 12, Transferred: 300},
		{URL: "http://app.test/feed", Method: "GET", Type: "Fetch", Start: 1040, Pending: true},
		{URL: "http://app.test/favicon.ico", Method: "GET", Type: "Other", Start: 1050, Status: 404, Ms: 2},
	}
	doc := capture.DocumentRequests(reqs, 1000.4)
	if len(doc) != 5 || doc[0].URL != page {
		t.Fatalf("the document's requests: %v", doc)
	}
	s := capture.SummarizeRequests(doc)
	if s.Count != 5 || s.Bytes != 322_300 || s.Cached != 1 || s.Failed != 1 || s.Pending != 1 ||
		*s.ByType["script"] != (capture.TypeSummary{Count: 1, Bytes: 320_000}) || s.ByType["fetch"].Count != 2 {
		t.Errorf("summary %+v, by type %v", s, s.ByType)
	}
	if got, want := capture.TopRequests(doc, capture.SortSlowest, 3, page, 5040), []string{
		"GET /feed pending", "GET /app.js 200 840ms 900KB", "GET /shop 200 40ms 1.8KB",
	}; !slices.Equal(got, want) {
		t.Errorf("slowest %q, want %q", got, want)
	}
	if got, want := capture.TopRequests(doc, capture.SortLargest, 2, page, 5040), []string{
		"GET /app.js 200 840ms 900KB", "GET http://cdn.test/hero.png 200 0ms 240KB (disk-cache)",
	}; !slices.Equal(got, want) {
		t.Errorf("largest %q, want %q", got, want)
	}
	if capture.SummarizeRequests(nil) != nil {
		t.Error("no requests sum up to something")
	}
}
