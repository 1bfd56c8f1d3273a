package runner

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/capture"
)

// Each call's report files (its screenshot, its full snapshot) are the
// call's own, numbered in its tab's history (capture/history.go), and the
// call adds its line to the tab's index as it ends: what it did, where it
// ended, whether it failed.

// callFile is the path of the call's file with suffix in its tab's
// history. The call takes its number when it first needs one; the tab's
// call lock, held until the call ends, keeps another call from taking the
// same. The early screenshot and the captures may ask at once, hence
// turnMu.
func (c *Call) callFile(suffix string) string {
	c.turnMu.Lock()
	defer c.turnMu.Unlock()
	if alias := c.alias(); c.turn == 0 || c.turnAlias != alias {
		c.turnAlias, c.turn = alias, c.files.NextCall(alias)
	}
	return c.files.CallFile(c.turnAlias, c.turn, suffix)
}

// recordCall adds the call to its tab's history when its report left a
// file there; url is where the tab ended when its context is unknown,
// fullPath the full snapshot's file.
func (c *Call) recordCall(res *Result, url, fullPath string) {
	c.turnMu.Lock()
	alias, n := c.turnAlias, c.turn
	c.turnMu.Unlock()
	if n == 0 || alias != c.alias() || res.Screenshot == "" && fullPath == "" {
		return
	}
	if res.Context != nil {
		url = res.Context.URL
	}
	e := capture.HistoryEntry{N: n, At: time.Now().Format(time.RFC3339), URL: url,
		Summary: callSummary(res), Error: callError(res)}
	if res.Screenshot != "" {
		e.Screenshot = filepath.Base(res.Screenshot)
	}
	if fullPath != "" {
		e.Snapshot = filepath.Base(fullPath)
	}
	if _, err := c.files.RecordCall(alias, e); err != nil {
		c.fileTrouble("the tab's history", err)
	}
}

// callSummary is what a call did, in a line: its changes' summary, which
// names its actions, else its steps.
func callSummary(res *Result) string {
	if res.Changes != nil && res.Changes.Summary != "" {
		return res.Changes.Summary
	}
	names := make([]string, 0, len(res.Steps))
	for _, s := range res.Steps {
		names = append(names, s.Action)
	}
	return strings.Join(names, ", ")
}

// callError is why the call failed, "" when it did not.
func callError(res *Result) string {
	if len(res.Errors) == 0 {
		return ""
	}
	e := res.Errors[0]
	return fmt.Sprintf("step %d (%s): %s", e.Step, e.Action, e.Error)
}
