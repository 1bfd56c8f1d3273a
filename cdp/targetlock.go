package cdp

import (
	"fmt"
	"path/filepath"
	"regexp"
	"time"

	"github.com/cdpskill/cdpskill/internal/private"
)

// TargetBusyError means another process held the tab for the whole wait.
type TargetBusyError struct {
	TargetID string
	Waited   time.Duration
}

func (e *TargetBusyError) Error() string {
	return fmt.Sprintf("tab %s is busy: another cdpskill call held it for %v", e.TargetID, e.Waited.Round(time.Millisecond))
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// LockTarget serialises cdpskill calls on one tab across processes: two
// calls driving the same page at once would interleave their input and
// their waits. The lock is a private file under $TMPDIR/cdp-skill/locks,
// released by unlock or when the process exits. Where flock is missing
// the lock file counts as stale after a few seconds, so there it only
// orders calls that start close together.
func LockTarget(targetID string, wait time.Duration) (unlock func(), err error) {
	path := filepath.Join(private.Root(), "locks", unsafeName.ReplaceAllString(targetID, "_")+".lock")
	u, err := platformLock(path, wait)
	if err != nil {
		if le, ok := err.(*RegistryLockError); ok {
			return nil, &TargetBusyError{TargetID: targetID, Waited: le.Waited}
		}
		return nil, err
	}
	return func() { u() }, nil
}
