package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// MaxLogRequests is how many requests a tab's network log keeps.
const MaxLogRequests = 1000

// NetworkLog is a tab's requests across calls: each call is a process of
// its own, so what "since capture began" means must live in a file,
// $TMPDIR/cdp-skill/<alias>.network.jsonl, one request a line. The tab's
// call lock keeps two calls from writing it at once.
type NetworkLog struct {
	Path string
	// Target is the tab's target id. Lines of another target, left by an
	// earlier tab that had the same alias, are ignored.
	Target string
}

// TabNetworkLog is the log of tab alias, whose target is targetID.
func TabNetworkLog(alias, targetID string) NetworkLog {
	return NetworkLog{Path: TabFile(alias, ".network.jsonl"), Target: targetID}
}

// logLine is a request as the log stores it.
type logLine struct {
	Target string `json:"target"`
	Request
}

// Read returns the logged requests, oldest first. A missing log is empty;
// lines it cannot read are skipped.
func (l NetworkLog) Read() ([]Request, error) {
	data, err := os.ReadFile(l.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("capture: network log: %w", err)
	}
	var out []Request
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ln logLine
		if json.Unmarshal(sc.Bytes(), &ln) != nil || (l.Target != "" && ln.Target != l.Target) {
			continue
		}
		out = append(out, ln.Request)
	}
	return out, nil
}

// Append adds reqs, keeping the newest MaxLogRequests. The file is
// rewritten whole through a rename, so a reader never sees half a line.
func (l NetworkLog) Append(reqs []Request) error {
	if len(reqs) == 0 {
		return nil
	}
	old, err := l.Read()
	if err != nil {
		return err
	}
	all := append(old, reqs...)
	all = all[max(0, len(all)-MaxLogRequests):]
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, r := range all {
		if err := enc.Encode(logLine{Target: l.Target, Request: r}); err != nil {
			return fmt.Errorf("capture: network log: %w", err)
		}
	}
	return writeFile(l.Path, b.Bytes())
}

// Clear empties the log.
func (l NetworkLog) Clear() error {
	if err := os.Remove(l.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("capture: network log: %w", err)
	}
	return nil
}

// Save appends to log the requests it does not hold yet: the finished
// ones, and with final (at the end of a call) those still in flight too,
// which stay pending there.
func (n *Network) Save(log NetworkLog, final bool) error {
	n.mu.Lock()
	n.pump()
	var batch []*Request
	for _, r := range n.reqs[n.from:] {
		if !r.saved && (final || !r.Pending) {
			batch = append(batch, r)
		}
	}
	out := copyRequests(batch)
	n.mu.Unlock()
	if err := log.Append(out); err != nil {
		return err
	}
	n.mu.Lock()
	for _, r := range batch {
		r.saved = true
	}
	n.mu.Unlock()
	return nil
}

// Unsaved returns the requests not in the log yet, oldest first: after a
// Save, those still in flight.
func (n *Network) Unsaved() []Request {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	var out []Request
	for _, r := range n.reqs[n.from:] {
		if !r.saved {
			out = append(out, *r)
		}
	}
	return out
}
