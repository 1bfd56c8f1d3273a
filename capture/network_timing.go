package capture

import (
	"context"
	_ "embed"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/page"
)

//go:embed js/request_timings.js
var requestTimingsJS string

// The notes of requests that ended between calls: with no record left of
// how, or of its status (its last events reached no capture).
const (
	noteUnseen   = "ended between calls; how is not known"
	noteNoStatus = "ended between calls; its status is not known"
)

// pageTiming is what the page's timing record says of a request's end.
type pageTiming struct {
	Status     int    `json:"status"`
	Ms         int    `json:"ms"`
	ResponseMs int    `json:"responseMs"`
	Delivery   string `json:"delivery"` // "cache", "navigational-prefetch" or ""
	Worker     bool   `json:"worker"`   // a service worker saw it
	Bytes      int    `json:"bytes"`    // transferred
}

// settleByTiming ends the logged requests an earlier call left under way
// and no event of this call ended: each call is a process of its own, and
// whatever ended between two calls, no one saw. The page's timing records
// (one evaluation in the top document) tell how those of its current
// documents ended. One with no record whose document is gone has ended
// too, unseen; one with no record whose document is still shown is still
// under way. It reports whether any changed; it changes nothing when the
// page cannot be asked.
func settleByTiming(ctx context.Context, top *page.Page, logged []Request) bool {
	var open []*Request
	var wanted []map[string]any
	for i := range logged {
		if r := &logged[i]; !r.Done() || r.Note == noteNoStatus {
			open = append(open, r)
			wanted = append(wanted, map[string]any{"url": r.URL, "start": r.Start})
		}
	}
	if len(open) == 0 {
		return false
	}
	loaders, err := liveLoaders(ctx, top.S)
	if err != nil {
		return false
	}
	timings := make([]*pageTiming, len(open))
	if err := top.CallJS(ctx, requestTimingsJS, &timings, wanted); err != nil || len(timings) != len(open) {
		return false
	}
	for i, r := range open {
		t := timings[i]
		switch {
		case t != nil:
			r.endByTiming(t)
		case r.Done(): // it keeps its note
		case !loaders[r.loader] || r.Type == "Document":
			// Its document is gone, or it is a document that was
			// replaced or redirected on the way to the one shown.
			r.Pending, r.Receiving, r.Note = false, false, noteUnseen
		}
	}
	return true
}

// endByTiming ends r as its page's timing record says. Where the response
// came from is said only when the record is sure of it: a service worker
// that saw the request may have answered from its cache or the network.
func (r *Request) endByTiming(t *pageTiming) {
	if !r.Done() {
		r.Pending, r.Receiving = false, false
		r.Ms, r.ResponseMs = t.Ms, t.ResponseMs
	}
	switch {
	case t.Status > 0:
		r.Status, r.Note = t.Status, ""
	case r.Status == 0 && r.Error == "":
		r.Note = noteNoStatus
	}
	switch {
	case r.From != "":
	case t.Delivery == "cache":
		r.From = FromDiskCache
	case t.Delivery == "navigational-prefetch":
		r.From = FromPrefetchCache
	case !t.Worker && t.Bytes > 0:
		r.From = FromNetwork
	}
}

// liveLoaders are the documents the tab shows now, by CDP loader id.
func liveLoaders(ctx context.Context, s *cdp.Session) (map[string]bool, error) {
	res, err := proto.PageGetFrameTree{}.Do(ctx, s)
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	var walk func(t *proto.FrameTree)
	walk = func(t *proto.FrameTree) {
		live[t.Frame.LoaderID] = true
		for i := range t.ChildFrames {
			walk(&t.ChildFrames[i])
		}
	}
	walk(&res.FrameTree)
	return live, nil
}
