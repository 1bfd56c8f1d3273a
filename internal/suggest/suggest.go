// Package suggest finds the "did you mean" for a name the agent wrote
// that is not one of the names it could have meant: a step, a parameter,
// a key, a preset.
package suggest

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// Nearest returns the candidate closest to s, case aside, or "" when none
// is close enough to be a likely slip of it (see near). A candidate that
// s cuts short or runs on from ("waitUnti", "openTabb") is one slip away
// however many letters differ; between candidates equally near, the one
// with fewer edits wins, then the first.
func Nearest(s string, candidates []string) string {
	best, bestD, bestEdits := "", -1, 0
	ls := strings.ToLower(s)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == ls {
			return c
		}
		edits := levenshtein.ComputeDistance(ls, lc)
		d := edits
		if strings.HasPrefix(lc, ls) || strings.HasPrefix(ls, lc) {
			d = min(d, 1)
		}
		if bestD < 0 || d < bestD || (d == bestD && edits < bestEdits) {
			best, bestD, bestEdits = c, d, edits
		}
	}
	if bestD >= 0 && near(bestD, len(s)) {
		return best
	}
	return ""
}

// near is the one threshold: up to two slips, or a third of a long name;
// and s keeps at least one of its letters, since a name of one or two
// letters is as near to many names as to the one meant ("a" for "Alt").
func near(d, n int) bool {
	return d <= max(2, n/3) && d < n
}
