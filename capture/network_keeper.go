package capture

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A tab the browser's keeper holds (its emulation, its routes) has its
// requests seen while no call runs too: the keeper keeps the newest ones
// it saw in a file beside the tab's log (<alias>.network.keeper.jsonl),
// whole, rewritten by it alone, and a call reading the log takes in
// those the log lacks. The keeper never writes the log itself: that is
// the calls' under the tab's lock, which a keeper taking would show a
// call as another call on the tab.

// maxKeeperRequests bounds the keeper's file: the requests of a page
// polling for a while between two calls.
const maxKeeperRequests = 300

// keeperLine is a request as the keeper's file keeps it, with its
// Exchange, which the log keeps in a file of its own.
type keeperLine struct {
	Target   string    `json:"target"`
	Exchange *Exchange `json:"exchange,omitempty"`
	Request
}

func (l NetworkLog) keeperPath() string {
	return strings.TrimSuffix(l.Path, ".jsonl") + ".keeper.jsonl"
}

// clearedPath holds when the log was last cleared: the keeper's requests
// from before are not taken in again.
func (l NetworkLog) clearedPath() string {
	return strings.TrimSuffix(l.Path, ".jsonl") + ".cleared"
}

func (l NetworkLog) clearedAt() int64 {
	data, err := l.Temp.ReadFile(l.clearedPath(), 64)
	if err != nil {
		return 0
	}
	at, _ := strconv.ParseInt(string(data), 10, 64)
	return at
}

// SaveSeen writes the newest ended requests n has seen to the keeper's
// file of log, in place of what it held; those whose Network ids are in
// routed are marked as a route's answers.
func (n *Network) SaveSeen(log NetworkLog, routed map[string]bool) error {
	n.mu.Lock()
	n.pump()
	var done []*Request
	for _, r := range n.reqs {
		if r.Done() && r.ID != "" {
			if routed[r.ID] {
				r.From = FromRoute
			}
			done = append(done, r)
		}
	}
	seen := copyRequests(done[max(0, len(done)-maxKeeperRequests):])
	n.mu.Unlock()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, r := range seen {
		if err := enc.Encode(keeperLine{Target: log.Target, Exchange: r.Exchange, Request: r}); err != nil {
			return fmt.Errorf("capture: network log: %w", err)
		}
	}
	return Files{Temp: log.Temp}.writeFile(log.keeperPath(), b.Bytes())
}

// withKeeper is the log's requests with those the keeper saw that it
// lacks, in the order they began; a request the log has under way that
// the keeper saw end is taken as the keeper saw it. A request is known
// by its id and URL (a redirect's hops share the id).
// changed says the log lacked some.
func (l NetworkLog) withKeeper(logged []Request) (_ []Request, changed bool) {
	data, err := l.Temp.ReadFile(l.keeperPath(), maxLogFile)
	if err != nil {
		return logged, false
	}
	cleared := l.clearedAt()
	at := map[string]int{}
	for i, r := range logged {
		at[r.ID+" "+r.URL] = i
	}
	added := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ln keeperLine
		if json.Unmarshal(sc.Bytes(), &ln) != nil || ln.ID == "" || (l.Target != "" && ln.Target != l.Target) || ln.Start < cleared {
			continue
		}
		r := ln.Request
		r.Exchange, r.saved = ln.Exchange, true
		i, known := at[r.ID+" "+r.URL]
		switch {
		case !known:
			logged = append(logged, r)
			added = true
		case !logged[i].Done() || logged[i].Note == noteUnseen:
			logged[i] = r
			changed = true
		}
	}
	if added {
		slices.SortStableFunc(logged, func(a, b Request) int { return cmp.Compare(a.Start, b.Start) })
	}
	return logged, changed || added
}
