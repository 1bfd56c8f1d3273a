//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package tabs

// lockFreeReads is off because on Windows a rename onto a file that a
// reader holds open can fail; readers take the lock there.
const lockFreeReads = false

// platformLock has no flock(2) here, so it uses the portable lock-file
// protocol of flock_excl.go.
var platformLock lockFunc = exclLock
