package runner

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cdpskill/cdpskill/internal/private"
)

// A file the call could not save (a full disk, a read-only or refused
// temp directory) drops what it would have held, never the call. Such a
// cause usually costs several files at once (the screenshot, the full
// snapshot, the network log), so the call tells each cause once, naming
// the files it cost.
type lostFile struct {
	path string
	err  error
}

// unsaved notes that path could not be written because of err.
func (c *Call) unsaved(path string, err error) {
	c.warnMu.Lock()
	defer c.warnMu.Unlock()
	c.lost = append(c.lost, lostFile{path, err})
}

// fileTrouble notes err as an unsaved file when it is one, else warns
// with what it was about.
func (c *Call) fileTrouble(what string, err error) {
	if path, ok := private.File(err); ok {
		c.unsaved(path, err)
		return
	}
	c.warn("%s: %v", what, err)
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
		cause, name := unsavedCause(l.path, l.err)
		if _, seen := names[cause]; !seen {
			order = append(order, cause)
		}
		if !contains(names[cause], name) {
			names[cause] = append(names[cause], name)
		}
	}
	for _, cause := range order {
		c.warn("could not save %s%s", strings.Join(names[cause], ", "), cause)
	}
}

// unsavedCause is how the cause of a lost file is told, and how the file
// is named beside it.
func unsavedCause(path string, err error) (cause, name string) {
	var fe *private.FileError
	var re *private.RefusedError
	switch {
	case errors.As(err, &re):
		return ": " + re.Error(), filepath.Base(path)
	case errors.As(err, &fe):
		return fmt.Sprintf(" in %s: %s", filepath.Dir(fe.Path), fe.Reason()), filepath.Base(path)
	}
	return ": " + err.Error(), path
}
