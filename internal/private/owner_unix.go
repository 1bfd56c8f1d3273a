//go:build unix

package private

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// noFollow makes opening a symbolic link fail (ELOOP) rather than open
// what it points to.
const noFollow = syscall.O_NOFOLLOW

func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

// otherOwner is the owner of fi when that is not this process's user.
func otherOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	uid := int(st.Uid)
	return uid, uid != os.Geteuid()
}
