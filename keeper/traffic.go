package keeper

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/route"
)

// A tab the keeper holds has its requests recorded while no call runs:
// a page polling between calls, a route answering a reload. The keeper
// keeps what it saw beside the tab's log (capture.Network.SaveSeen),
// which the next call reading the log takes in, so the network step and
// a HAR show them. Requests a call saw too are the same ones by their
// ids.

// traffic records one held tab's requests on the keeper's session.
type traffic struct {
	stop context.CancelFunc
	done chan struct{}
}

// trafficBatch is how long the keeper lets a burst of requests go on
// before it writes them: one write for a page's burst, not one each.
const trafficBatch = 300 * time.Millisecond

// logOf is the network log of the tab whose file (emulation, routes) is
// at path, with suffix.
func (k *keeper) logOf(path, suffix, target string) capture.NetworkLog {
	alias := strings.TrimSuffix(filepath.Base(path), suffix)
	return capture.NetworkLog{Path: filepath.Join(filepath.Dir(path), alias+".network.jsonl"), Target: target, Temp: k.cfg.Temp}
}

// record starts recording h's requests into log's keeper file.
func (k *keeper) record(ctx context.Context, h *heldTab, log capture.NetworkLog) {
	n, err := capture.StartNetwork(ctx, h.page.S)
	if err != nil {
		k.log.Printf("tab %s: its requests are not recorded between calls: %v", h.label, err)
		return
	}
	rctx, stop := context.WithCancel(context.Background())
	t := &traffic{stop: stop, done: make(chan struct{})}
	h.traffic = t
	go func() {
		defer close(t.done)
		defer n.Close()
		for n.WaitEvent(rctx) == nil {
			if xcontext.Sleep(rctx, trafficBatch) != nil {
				return
			}
			if err := n.SaveSeen(log, routed(k, log)); err != nil {
				k.log.Printf("tab %s: %v", h.label, err)
			}
		}
	}()
}

// stopRecording ends h's recording, if any.
func (h *heldTab) stopRecording() {
	if t := h.traffic; t != nil {
		t.stop()
		<-t.done
		h.traffic = nil
	}
}

// routed are the Network ids of the requests the tab's routes answered,
// as their hits file says: the recording reads no state of the hold.
func routed(k *keeper, log capture.NetworkLog) map[string]bool {
	path := strings.TrimSuffix(log.Path, ".network.jsonl") + ".routes.json"
	hits := route.LoadHits(k.cfg.Temp, path, log.Target)
	if len(hits.Routed) == 0 {
		return nil
	}
	ids := make(map[string]bool, len(hits.Routed))
	for _, r := range hits.Routed {
		ids[r.Request] = true
	}
	return ids
}
