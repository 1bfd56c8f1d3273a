//go:build !unix

package private

import "io/fs"

// noFollow: the platform has no O_NOFOLLOW; links are refused by the
// Lstat before each write instead.
const noFollow = 0

func isLoop(error) bool { return false }

// otherOwner: the platform keeps owners in ACLs, which the per-user
// temp directory already keeps private.
func otherOwner(fs.FileInfo) (int, bool) { return 0, false }
