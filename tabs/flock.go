package tabs

import (
	"fmt"
	"time"

	"github.com/cdpskill/cdpskill/internal/private"
)

// unlockFunc releases a lock taken by a lockFunc.
type unlockFunc func()

// lockFunc takes an exclusive inter-process lock named by lockPath, a file
// in temp, waiting at most timeout.
type lockFunc func(temp private.Temp, lockPath string, timeout time.Duration) (unlockFunc, error)

// RegistryLockError means another process held the tab registry's lock for
// longer than the wait allowed. Holds last milliseconds, so this points at a
// hung process or an unwritable temp directory rather than ordinary traffic.
type RegistryLockError struct {
	LockPath string
	Waited   time.Duration
}

func (e *RegistryLockError) Error() string {
	return fmt.Sprintf("tab registry lock %s still held after %v", e.LockPath, e.Waited.Round(time.Millisecond))
}

// pollLock calls try until it takes the lock, fails for good, or the
// deadline passes. try reports (taken, err); a nil err with taken false
// means "busy, try again". The wait backs off from 1ms to 20ms: holds are
// short, and a blocking lock could not honour the deadline.
func pollLock(lockPath string, timeout time.Duration, try func() (bool, error)) error {
	start := time.Now()
	deadline := start.Add(timeout)
	wait := time.Millisecond
	for {
		taken, err := try()
		if err != nil {
			return err
		}
		if taken {
			return nil
		}
		now := time.Now()
		if !now.Before(deadline) {
			return &RegistryLockError{LockPath: lockPath, Waited: now.Sub(start)}
		}
		time.Sleep(min(wait, deadline.Sub(now)))
		wait = min(2*wait, 20*time.Millisecond)
	}
}
