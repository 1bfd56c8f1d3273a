package tabs

import (
	"errors"
	"fmt"
	"os"
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
// their waits. The lock is a private file under temp's cdp-skill/locks,
// released by unlock or when the process exits. Where flock is missing
// the lock file counts as stale after a few seconds, so there it only
// orders calls that start close together. waited is how long another
// call kept this one waiting, zero when the tab was free.
func LockTarget(temp private.Temp, targetID string, wait time.Duration) (unlock func(), waited time.Duration, err error) {
	path := targetLockPath(temp, targetID)
	// One try first: only a tab found busy has made the call wait.
	u, err := platformLock(temp, path, 0)
	var busy *RegistryLockError
	if errors.As(err, &busy) {
		start := time.Now()
		u, err = platformLock(temp, path, wait)
		waited = time.Since(start)
	}
	if err != nil {
		if errors.As(err, &busy) {
			return nil, 0, &TargetBusyError{TargetID: targetID, Waited: busy.Waited}
		}
		return nil, 0, err
	}
	return func() { u() }, waited, nil
}

// LockFile takes the exclusive inter-process lock path, a file in temp,
// waiting at most wait: the lock the registry and tabs use, for other
// packages' files (a keeper's). The lock goes with the process.
func LockFile(temp private.Temp, path string, wait time.Duration) (unlock func(), err error) {
	u, err := platformLock(temp, path, wait)
	if err != nil {
		return nil, err
	}
	return func() { u() }, nil
}

func targetLockPath(temp private.Temp, targetID string) string {
	return filepath.Join(temp.Root(), "locks", unsafeName.ReplaceAllString(targetID, "_")+".lock")
}

// ForgetTarget removes the lock file of a tab that was closed, so opening
// and closing tabs leaves no file behind for each. A call still waiting
// on that tab may then lock a file of its own, which only lets it find
// the tab gone.
func ForgetTarget(temp private.Temp, targetID string) {
	_ = os.Remove(targetLockPath(temp, targetID))
}
