package aria

import (
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/cdpskill/cdpskill/internal/invalid"
)

// RootNotFoundError means the snapshot root matched no element.
type RootNotFoundError struct{ Root string }

func (e *RootNotFoundError) Error() string {
	return fmt.Sprintf("snapshot root %q matches no element", e.Root)
}

// ErrorName is the SPEC 16.2 subtype the runner reports.
func (e *RootNotFoundError) ErrorName() string { return "ElementNotFoundError" }

// jsOnlyRE finds the JavaScript regular expression features Go's RE2
// lacks (lookaround, backreferences): patterns using them are left for
// the page to judge.
var jsOnlyRE = regexp.MustCompile(`\(\?<?[=!]|\\[1-9]|\\k<`)

// checkPattern rejects a pattern that cannot compile, before Chrome is
// touched. Matching is case-insensitive, so a leading (?i) is allowed.
func checkPattern(field, pattern string) error {
	if _, err := invalid.Compile(field, pattern); err != nil && !jsOnlyRE.MatchString(pattern) {
		return err
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
