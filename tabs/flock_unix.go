//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package tabs

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/cdpskill/cdpskill/internal/private"
)

// lockFreeReads: rename replaces a file that a reader holds open, so
// readers need no lock.
const lockFreeReads = true

// platformLock is flock(2) on a sibling lock file. The kernel drops the lock
// when its holder dies, so a crashed process never leaves the registry
// locked. The lock file is never removed: unlinking a flocked file lets a
// later opener lock a different inode than a current waiter. flock needs
// no write access, so on a file system that went read-only an existing
// lock file is still taken, opened for reading.
func platformLock(temp private.Temp, lockPath string, timeout time.Duration) (unlockFunc, error) {
	f, err := temp.OpenFile(lockPath, os.O_CREATE|os.O_RDWR)
	if errors.Is(err, syscall.EROFS) {
		if rf, rerr := temp.Open(lockPath); rerr == nil {
			f, err = rf, nil
		}
	}
	if err != nil {
		return nil, err // it names the lock file and what to do
	}
	fd := int(f.Fd())
	err = pollLock(lockPath, timeout, func() (bool, error) {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK), errors.Is(err, syscall.EINTR):
			return false, nil
		default:
			return false, fmt.Errorf("flock %s: %w", lockPath, err)
		}
	})
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(fd, syscall.LOCK_UN)
		f.Close()
	}, nil
}
