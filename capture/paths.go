package capture

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cdpskill/cdpskill/internal/private"
)

// Files is where one call's files go: its temp directory, whose
// cdp-skill directory (Dir) holds every per-tab file (screenshots, PDFs,
// spilled console and network listings, the network log, the history of
// the report's screenshots and snapshots, downloads), and
// the working directory a relative path the agent gives is taken from.
// Every file is private (see internal/private). The zero value is the
// process's: os.TempDir() and the current directory. A call is a process
// of its own, but tests run many calls at once, each with its own Files.
type Files struct {
	Temp private.Temp
	// WorkDir is where relative paths start; empty is the process's
	// working directory.
	WorkDir string
	// Session is the call's session, whose files are its own: t1 of one
	// session is not t1 of another. Empty is the default session.
	Session string
	// History bounds each tab's history (history.go); the zero value is
	// the default bound.
	History HistoryBound
}

// Dir is where every per-tab file goes: $TMPDIR/cdp-skill, or a
// session's $TMPDIR/cdp-skill/sessions/<name>.
func (f Files) Dir() string {
	if f.Session != "" {
		return f.Temp.SessionDir(f.Session)
	}
	return f.Temp.Root()
}

// Abs is p made absolute: a relative path is taken from WorkDir.
func (f Files) Abs(p string) (string, error) {
	if filepath.IsAbs(p) || f.WorkDir == "" {
		return filepath.Abs(p)
	}
	return filepath.Join(f.WorkDir, p), nil
}

// TabFile is Dir()/<alias><suffix>, e.g. TabFile("t1", ".console.json").
func (f Files) TabFile(alias, suffix string) string {
	return filepath.Join(f.Dir(), safeAlias(alias)+suffix)
}

// safeAlias keeps an alias a file name: it is a short name, never a path.
func safeAlias(alias string) string {
	alias = strings.NewReplacer("/", "_", `\`, "_").Replace(alias)
	if alias == "" || alias == "." || alias == ".." {
		return "tab"
	}
	return alias
}

// OutputPath resolves a path the agent gave for a file cdpskill writes:
// a bare file name goes into Dir() (SPEC 17.3), anything else is taken
// from the working directory. The result is absolute.
func (f Files) OutputPath(p string) (string, error) {
	if !strings.ContainsAny(p, `/\`) {
		return filepath.Join(f.Dir(), p), nil
	}
	abs, err := f.Abs(p)
	if err != nil {
		return "", fmt.Errorf("capture: %w", err)
	}
	return abs, nil
}

// NextPath is the first unused Dir()/<alias>.<kind><n>.<ext>, n from 1,
// so successive screenshots of a tab never overwrite one another.
// Numbers come from the files present, so they restart after the temp
// directory is cleaned.
func (f Files) NextPath(alias, kind, ext string) string {
	prefix := safeAlias(alias) + "." + kind
	n := 0
	entries, _ := os.ReadDir(f.Dir()) // a missing directory means n = 1
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		num, _, _ := strings.Cut(rest, ".")
		if i, err := strconv.Atoi(num); err == nil && i > n {
			n = i
		}
	}
	return filepath.Join(f.Dir(), prefix+strconv.Itoa(n+1)+"."+ext)
}

// DownloadsDir is Dir()/downloads.
func (f Files) DownloadsDir() string { return filepath.Join(f.Dir(), "downloads") }

// NetworkLog is the log of tab alias, whose target is targetID.
func (f Files) NetworkLog(alias, targetID string) NetworkLog {
	return NetworkLog{Path: f.TabFile(alias, ".network.jsonl"), Target: targetID, Temp: f.Temp}
}
