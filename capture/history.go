package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A tab's history. Each call that leaves a screenshot or a full snapshot
// of its tab keeps them in files of its own, numbered per tab
// ({alias}.history/0007.after.png, 0007.after.yaml), and adds a line to
// the tab's index (index.jsonl) saying what the call did: an agent can
// look back at what the page showed three calls ago, not only now. The
// history is bounded (HistoryBound), goes with the tab (ForgetHistory,
// at closeTab) and can be copied out first (KeepHistory).
//
// The tab's call lock keeps two calls from numbering or writing it at
// once; numbers come from the index and the files present, so they go
// on from process to process.

// Bounds on a tab's history: its last MaxHistoryCalls calls, at most
// MaxHistoryBytes of files in all.
const (
	MaxHistoryCalls = 50
	MaxHistoryBytes = 100 << 20
)

// Suffixes of a call's files in the history: the report's screenshot and
// its full snapshot.
const (
	AfterShot = "after.png"
	AfterYAML = "after.yaml"
)

// historyIndex is the index's name in a tab's history directory.
const historyIndex = "index.jsonl"

// historyLine caps an entry's summary and error, in characters: the index
// is a list to read down, not the call's result.
const historyLine = 200

// HistoryBound bounds a tab's history: its last Calls calls and Bytes of
// files, the oldest going first; the newest call stays whatever its
// size, as the result names its files. A zero field is the default
// (MaxHistoryCalls, MaxHistoryBytes).
type HistoryBound struct {
	Calls int
	Bytes int64
}

func (b HistoryBound) calls() int {
	if b.Calls > 0 {
		return b.Calls
	}
	return MaxHistoryCalls
}

func (b HistoryBound) bytes() int64 {
	if b.Bytes > 0 {
		return b.Bytes
	}
	return MaxHistoryBytes
}

// HistoryEntry is a call's line in its tab's index.
type HistoryEntry struct {
	N int `json:"n"`
	// At is when the call ended, RFC 3339 in local time.
	At  string `json:"at"`
	URL string `json:"url,omitempty"`
	// Summary is what the call did in a line; Error, when it failed, why.
	Summary string `json:"summary,omitempty"`
	Error   string `json:"error,omitempty"`
	// Screenshot and Snapshot are the call's files, by their names in the
	// history directory, so a copy of it (KeepHistory) reads the same.
	Screenshot string `json:"screenshot,omitempty"`
	Snapshot   string `json:"snapshot,omitempty"`
	// Bytes is the size of the call's files, for the bound.
	Bytes int64 `json:"bytes,omitempty"`
}

// files are the entry's files, by name.
func (e HistoryEntry) files() []string {
	var out []string
	for _, f := range []string{e.Screenshot, e.Snapshot} {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// HistoryDir is where tab alias's history goes: Dir()/<alias>.history.
func (f Files) HistoryDir(alias string) string { return f.TabFile(alias, ".history") }

// CallFile is call n's file of tab alias with suffix (AfterShot,
// AfterYAML): <HistoryDir>/0007.after.png.
func (f Files) CallFile(alias string, n int, suffix string) string {
	return filepath.Join(f.HistoryDir(alias), callName(n, suffix))
}

func callName(n int, suffix string) string { return fmt.Sprintf("%04d.%s", n, suffix) }

// callNumber is the call a history file belongs to: 7 for 0007.after.png.
func callNumber(name string) (int, bool) {
	num, _, ok := strings.Cut(name, ".")
	if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	return n, err == nil
}

// NextCall is the number the next call of tab alias takes: one more than
// the highest the index or a file of its history has, 1 for none. What is
// not a regular file there (a link) is not the history's, and is refused
// when written over.
func (f Files) NextCall(alias string) int {
	n := 0
	entries, _ := f.ReadHistory(alias)
	for _, e := range entries {
		n = max(n, e.N)
	}
	files, _ := os.ReadDir(f.HistoryDir(alias)) // none yet: 1
	for _, d := range files {
		if i, ok := callNumber(d.Name()); ok && d.Type().IsRegular() {
			n = max(n, i)
		}
	}
	return n + 1
}

// ReadHistory is tab alias's index, oldest first. A damaged line is left
// out; a missing index is an empty history.
func (f Files) ReadHistory(alias string) ([]HistoryEntry, error) {
	data, err := f.Temp.ReadFile(filepath.Join(f.HistoryDir(alias), historyIndex), 4<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []HistoryEntry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e HistoryEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.N > 0 {
			out = append(out, e)
		}
	}
	return out, nil
}

// RecordCall adds e, a call whose files are written, to tab alias's
// index, and keeps the history within its bound: the oldest calls go,
// their files with them, and so do files no entry names (a call that
// ended before it was recorded). It returns the entry as recorded.
func (f Files) RecordCall(alias string, e HistoryEntry) (HistoryEntry, error) {
	dir := f.HistoryDir(alias)
	e.Summary, e.Error = truncate(e.Summary, historyLine), truncate(e.Error, historyLine)
	e.Bytes = 0
	for _, name := range e.files() {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			e.Bytes += fi.Size()
		}
	}
	old, err := f.ReadHistory(alias)
	if err != nil {
		return e, err
	}
	all := append(slices.DeleteFunc(old, func(o HistoryEntry) bool { return o.N == e.N }), e)
	all = f.History.keep(all)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, k := range all {
		if err := enc.Encode(k); err != nil {
			return e, fmt.Errorf("capture: history index: %w", err)
		}
	}
	if err := f.Temp.WriteFile(filepath.Join(dir, historyIndex), b.Bytes()); err != nil {
		return e, err
	}
	kept := map[int]bool{}
	for _, k := range all {
		kept[k.N] = true
	}
	files, _ := os.ReadDir(dir)
	for _, d := range files {
		// A number above e's is no call before it: leave it be.
		if n, ok := callNumber(d.Name()); ok && !kept[n] && n < e.N {
			_ = os.Remove(filepath.Join(dir, d.Name()))
		}
	}
	return e, nil
}

// keep is the newest of entries within the bound, the last always.
func (b HistoryBound) keep(entries []HistoryEntry) []HistoryEntry {
	entries = entries[max(0, len(entries)-b.calls()):]
	var total int64
	for i := len(entries) - 1; i >= 0; i-- {
		total += entries[i].Bytes
		if total > b.bytes() && i < len(entries)-1 {
			return entries[i+1:]
		}
	}
	return entries
}

// Kept is what KeepHistory copied.
type Kept struct {
	Dir   string `json:"dir"`
	Calls int    `json:"calls"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
}

// KeepHistory copies tab alias's history, its files and index, into dir,
// which is made if missing (0700, files 0600): what the agent wants to
// keep past the tab's life. A file the tab's history lost since its call
// is left out.
func (f Files) KeepHistory(alias, dir string) (Kept, error) {
	kept := Kept{Dir: dir}
	src := f.HistoryDir(alias)
	if rel, err := filepath.Rel(src, dir); err == nil && !strings.HasPrefix(rel, "..") {
		return kept, &InsideHistoryError{Dir: dir}
	}
	entries, err := f.ReadHistory(alias)
	if err != nil || len(entries) == 0 {
		return kept, err
	}
	var index bytes.Buffer
	enc := json.NewEncoder(&index)
	enc.SetEscapeHTML(false)
	for _, e := range entries {
		copied := e
		copied.Screenshot, copied.Snapshot = "", ""
		for _, name := range e.files() {
			n, err := f.copyFile(filepath.Join(src, name), filepath.Join(dir, name))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return kept, err
			}
			kept.Files++
			kept.Bytes += n
			if name == e.Screenshot {
				copied.Screenshot = name
			} else {
				copied.Snapshot = name
			}
		}
		if err := enc.Encode(copied); err != nil {
			return kept, fmt.Errorf("capture: history index: %w", err)
		}
		kept.Calls++
	}
	return kept, f.Temp.WriteFile(filepath.Join(dir, historyIndex), index.Bytes())
}

// InsideHistoryError is a directory to keep a history in that is the
// history's own: the copy would go with the tab.
type InsideHistoryError struct{ Dir string }

// ErrorName: the agent fixes the directory it gives.
func (e *InsideHistoryError) ErrorName() string { return "StepValidationError" }

func (e *InsideHistoryError) Error() string {
	return fmt.Sprintf("%s is in the tab's history, which goes with the tab: keep it in a directory of your own", e.Dir)
}

// copyFile copies from, a file of the history, to to, streaming: a
// history may hold 100 MB.
func (f Files) copyFile(from, to string) (int64, error) {
	in, err := f.Temp.Open(from)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := f.Temp.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, fmt.Errorf("capture: copy %s to %s: %w", filepath.Base(from), to, err)
	}
	return n, nil
}

// ForgetHistory removes tab alias's history, which went with its tab, and
// says what it removed ("12 screenshots, 12 snapshots, 3.1MB"), "" when
// there was nothing.
func (f Files) ForgetHistory(alias string) string {
	dir := f.HistoryDir(alias)
	files, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	shots, snaps := 0, 0
	var size int64
	for _, d := range files {
		if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() {
			size += fi.Size()
		}
		switch {
		case strings.HasSuffix(d.Name(), "."+AfterShot):
			shots++
		case strings.HasSuffix(d.Name(), "."+AfterYAML):
			snaps++
		}
	}
	if err := os.RemoveAll(dir); err != nil || shots+snaps == 0 {
		return ""
	}
	return fmt.Sprintf("%s, %s, %s", plural(shots, "screenshot"), plural(snaps, "snapshot"), byteSize(size))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
