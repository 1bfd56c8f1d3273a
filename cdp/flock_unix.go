//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package cdp

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockFreeReads: rename replaces a file that a reader holds open, so
// readers need no lock.
const lockFreeReads = true

// platformLock is flock(2) on a sibling lock file. The kernel drops the lock
// when its holder dies, so a crashed process never leaves the registry
// locked. The lock file is never removed: unlinking a flocked file lets a
// later opener lock a different inode than a current waiter.
func platformLock(lockPath string, timeout time.Duration) (unlockFunc, error) {
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open tab registry lock: %w", err)
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
