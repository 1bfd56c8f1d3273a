package capture

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/page"
)

// MaxLogRequests is how many requests a tab's network log keeps.
const MaxLogRequests = 1000

// maxLogFile bounds what is read of a log: its requests' URLs and notes
// come to a few MB at most.
const maxLogFile = 64 << 20

// NetworkLog is a tab's requests across calls: each call is a process of
// its own, so what "since capture began" means must live in a file,
// $TMPDIR/cdp-skill/<alias>.network.jsonl, one request a line. The tab's
// call lock keeps two calls from writing it at once.
type NetworkLog struct {
	Path string
	// Target is the tab's target id. Lines of another target, left by an
	// earlier tab that had the same alias, are ignored.
	Target string
	// Temp is the temp directory Path is in (Files.NetworkLog); empty is
	// the process's.
	Temp private.Temp
}

// logLine is a request as the log stores it, with what a later call
// needs to follow a request still under way: its document and its start
// on Chrome's clock. Its Exchange is in the exchanges file.
type logLine struct {
	Target string  `json:"target"`
	Loader string  `json:"loader,omitempty"`
	Mono   float64 `json:"mono,omitempty"`
	Request
}

// Read returns the logged requests, oldest first. A missing log is empty;
// lines it cannot read are skipped.
func (l NetworkLog) Read() ([]Request, error) {
	reqs, _, err := l.read()
	return reqs, err
}

// read is Read, and whether it took in requests the keeper saw that the
// log lacked (see withKeeper).
func (l NetworkLog) read() ([]Request, bool, error) {
	data, err := l.Temp.ReadFile(l.Path, maxLogFile)
	if errors.Is(err, fs.ErrNotExist) {
		reqs, changed := l.withKeeper(nil)
		return reqs, changed, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("capture: network log: %w", err)
	}
	var out []Request
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ln logLine
		if json.Unmarshal(sc.Bytes(), &ln) != nil || (l.Target != "" && ln.Target != l.Target) {
			continue
		}
		r := ln.Request
		r.loader, r.startMono, r.saved = ln.Loader, ln.Mono, true
		out = append(out, r)
	}
	out, changed := l.withKeeper(out)
	return out, changed, nil
}

// write replaces the log with the newest MaxLogRequests of reqs. The file
// is rewritten whole through a rename, so a reader never sees half a line.
func (l NetworkLog) write(reqs []Request) error {
	reqs = reqs[max(0, len(reqs)-MaxLogRequests):]
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, r := range reqs {
		ln := logLine{Target: l.Target, Request: r}
		if !r.Done() || r.Note == noteUnseen { // what a later call needs to see it end
			ln.Loader, ln.Mono = r.loader, r.startMono
		}
		if err := enc.Encode(ln); err != nil {
			return fmt.Errorf("capture: network log: %w", err)
		}
	}
	return Files{Temp: l.Temp}.writeFile(l.Path, b.Bytes())
}

// Clear empties the log; what the keeper saw before stays out of it.
func (l NetworkLog) Clear() error {
	if err := os.Remove(l.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("capture: network log: %w", err)
	}
	return errors.Join(l.clearExchanges(), l.Temp.WriteFile(l.clearedPath(), []byte(strconv.FormatInt(time.Now().UnixMilli(), 10))))
}

// Save brings the tab's log up to date. It adds the requests the log does
// not hold yet: the ended ones, and with final (at the end of a call)
// those still under way too. And it ends the requests an earlier call
// left under way that have ended since: by the events this capture
// received for them, or, with top given, by the page's own timing
// records (see settleByTiming).
func (n *Network) Save(ctx context.Context, log NetworkLog, final bool, top *page.Page) error {
	n.mu.Lock()
	n.pump()
	var batch []*Request
	for _, r := range n.reqs[n.from:] {
		if !r.saved && (final || r.Done()) {
			batch = append(batch, r)
		}
	}
	out := copyRequests(batch)
	late := maps.Clone(n.late)
	n.mu.Unlock()

	old, fromKeeper, err := log.read()
	if err != nil {
		return err
	}
	if fromKeeper {
		// What the keeper saw of this call's requests: the call's own
		// record of them stands.
		mine := make(map[string]bool, len(out))
		for _, r := range out {
			mine[r.ID+" "+r.URL] = true
		}
		old = slices.DeleteFunc(old, func(r Request) bool { return mine[r.ID+" "+r.URL] })
	}
	changed := settleLate(old, late) || fromKeeper
	if top != nil && settleByTiming(ctx, top, old) {
		changed = true
	}
	if len(out) == 0 && !changed {
		return nil
	}
	all := append(old, out...)
	if err := log.write(all); err != nil {
		return err
	}
	// The exchanges of the new requests, and what this call heard of
	// those the log had under way (only events give a logged one any).
	news := out
	for _, r := range old {
		if r.Exchange != nil {
			news = append(news, r)
		}
	}
	if err := log.appendExchanges(news, all[max(0, len(all)-MaxLogRequests):]); err != nil {
		return err
	}
	n.mu.Lock()
	for _, r := range batch {
		r.saved = true
	}
	n.mu.Unlock()
	return nil
}

// InFlight returns the URLs of the tab's requests under way, long-lived
// streams and pings left out as in Busy, and when this capture last saw
// a request end. Under way are this capture's that have not ended, and
// those an earlier call left under way that neither an event of this
// call nor, with top given, the page's timing records have ended since.
// A request whose end no one saw and no record tells stays under way:
// the caller waits the longer for it, never the shorter. The log is left
// as it is; Save brings it up to date.
func (n *Network) InFlight(ctx context.Context, log NetworkLog, top *page.Page) page.Traffic {
	mine, _ := n.Busy(0)
	var urls []string
	for _, r := range mine {
		urls = append(urls, r.URL)
	}
	n.mu.Lock()
	late := maps.Clone(n.late)
	ended := n.ended
	n.mu.Unlock()
	old, err := log.Read()
	if err != nil {
		return page.Traffic{InFlight: urls, LastEnd: ended}
	}
	settleLate(old, late)
	if top != nil {
		settleByTiming(ctx, top, old)
	}
	for _, r := range old {
		if !r.Done() && !lingering[r.Type] {
			urls = append(urls, r.URL)
		}
	}
	return page.Traffic{InFlight: urls, LastEnd: ended}
}

// settleLate folds into the logged requests still under way the events
// that arrived for them in this call, and reports whether any changed.
func settleLate(logged []Request, late map[string][]lateEvent) bool {
	changed := false
	for i := range logged {
		r := &logged[i]
		evs := late[r.ID]
		// One taken for ended unseen may yet be heard of: a navigation
		// slower than the gap between calls.
		if (r.Done() && r.Note != noteUnseen) || r.ID == "" || len(evs) == 0 {
			continue
		}
		before := *r
		r.Note = ""
		for _, le := range evs {
			if le.method == evResponse && le.e.Response != nil && le.e.Response.URL != "" && le.e.Response.URL != r.URL {
				// This is the answer to where r was redirected, unseen
				// between calls: r itself ended then.
				r.Pending, r.Receiving, r.Note = false, false, noteUnseen
				break
			}
			r.update(le.method, &le.e)
		}
		switch {
		case r.Note == "" && r.Status == before.Status && r.Error == before.Error && r.Ms == before.Ms:
			r.Note = before.Note // nothing it was waiting for came
		case r.Done() && r.Status == 0 && r.Error == "" && r.Note == "":
			r.Note = noteNoStatus // its response went to the call before
		}
		changed = changed || *r != before
	}
	return changed
}

// WithUnsaved returns logged, the log's requests, followed by those not in
// the log yet, oldest first: after a Save, those still in flight, unless
// the log has them already, as the keeper saw them end.
func (n *Network) WithUnsaved(logged []Request) []Request {
	in := make(map[string]bool, len(logged))
	for _, r := range logged {
		in[r.ID+" "+r.URL] = true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	for _, r := range n.reqs[n.from:] {
		if !r.saved && !in[r.ID+" "+r.URL] {
			logged = append(logged, *r)
		}
	}
	return logged
}
