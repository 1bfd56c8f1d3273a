package tabs

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/cdpskill/cdpskill/internal/private"
)

// exclLockStaleAfter is the age past which an O_EXCL lock file is taken to
// belong to a process that died holding it. Real holds last milliseconds;
// it is below the default lock wait so a waiter can break a dead lock.
const exclLockStaleAfter = 3 * time.Second

// exclLock is the portable lock: whoever creates lockPath with O_EXCL holds
// it, and releasing removes it. Nothing frees the lock of a crashed holder,
// so a lock file older than exclLockStaleAfter is removed and retried.
// Two waiters may both judge the same file stale and one may then remove
// the other's fresh lock; the window is one stat-to-remove gap after a
// crash, which is accepted rather than adding a second protocol.
// It is compiled everywhere so its tests run on every platform.
func exclLock(temp private.Temp, lockPath string, timeout time.Duration) (unlockFunc, error) {
	err := pollLock(lockPath, timeout, func() (bool, error) {
		f, err := temp.OpenFile(lockPath, os.O_CREATE|os.O_EXCL|os.O_WRONLY)
		if err == nil {
			// The pid is for a human looking at a stuck lock.
			f.WriteString(strconv.Itoa(os.Getpid()))
			f.Close()
			return true, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return false, err // it names the lock file and what to do
		}
		breakStaleLock(lockPath)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return func() { os.Remove(lockPath) }, nil
}

// breakStaleLock removes lockPath if it is older than exclLockStaleAfter.
func breakStaleLock(lockPath string) {
	fi, err := os.Stat(lockPath)
	if err != nil || time.Since(fi.ModTime()) < exclLockStaleAfter {
		return
	}
	os.Remove(lockPath)
}
