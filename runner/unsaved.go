package runner

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cdpskill/cdpskill/internal/private"
)

// A file the call could not write (a full disk, a read-only or refused
// temp directory) drops what it would have held, never the call. Such a
// cause usually costs several files at once (the screenshot, the full
// snapshot, the network log, the tab's lock), so the call tells each cause
// once, naming what it cost.
type lostFile struct {
	name string // the file's name, or what was lost with it
	err  error
}

// unsaved notes that name could not be written because of err.
func (c *Call) unsaved(name string, err error) {
	c.warnMu.Lock()
	defer c.warnMu.Unlock()
	c.lost = append(c.lost, lostFile{name, err})
}

// unsavedFile notes err as a file that could not be written when it is
// one of internal/private's errors, and reports whether it was.
func (c *Call) unsavedFile(err error) bool {
	path, ok := private.File(err)
	if ok {
		c.unsaved(fileName(path), err)
	}
	return ok
}

// fileName is how a lost file is named: by its base name, with its
// directory when that is a tab's history (t1.history/0007.after.png),
// whose numbers alone name no tab.
func fileName(path string) string {
	if dir := filepath.Base(filepath.Dir(path)); strings.HasSuffix(dir, ".history") {
		return dir + "/" + filepath.Base(path)
	}
	return filepath.Base(path)
}

// fileTrouble notes err as an unsaved file when it is one, else warns
// with what it was about.
func (c *Call) fileTrouble(what string, err error) {
	if !c.unsavedFile(err) {
		c.warn("%s: %v", what, err)
	}
}

// tellUnsaved turns the unsaved files into warnings, one per cause.
func (c *Call) tellUnsaved() {
	c.warnMu.Lock()
	lost := c.lost
	c.lost = nil
	c.warnMu.Unlock()
	var order []string
	names := map[string][]string{}
	for _, l := range lost {
		cause := unsavedCause(l.err)
		if _, seen := names[cause]; !seen {
			order = append(order, cause)
		}
		if !slices.Contains(names[cause], l.name) {
			names[cause] = append(names[cause], l.name)
		}
	}
	for _, cause := range order {
		c.warn("could not write %s%s", strings.Join(names[cause], ", "), cause)
	}
}

// unsavedCause is how the cause of a lost file is told after its name.
func unsavedCause(err error) string {
	var fe *private.FileError
	var re *private.RefusedError
	switch {
	case errors.As(err, &re):
		return ": " + re.Error()
	case errors.As(err, &fe):
		return fmt.Sprintf(" in %s: %s", filepath.Dir(fe.Path), fe.Reason())
	}
	return ": " + err.Error()
}
