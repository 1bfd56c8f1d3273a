// Package jsfiles checks, for the tests of the packages that embed in-page
// JavaScript, the shape their sources must keep: one commented function
// expression per file, which composition pastes between parentheses.
package jsfiles

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var head = regexp.MustCompile(`(?m)\A(//.*\n)+function \w+\([\w, ]*\) \{\n`)

// CheckShape checks every .js file of the test's directory, of which there
// must be at least least, each at most maxLines long, and returns their
// names.
func CheckShape(t *testing.T, least, maxLines int) []string {
	t.Helper()
	files, _ := filepath.Glob("*.js")
	if len(files) < least {
		t.Fatalf("found %d .js files, want at least %d", len(files), least)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		if !head.MatchString(src) || !strings.HasSuffix(src, "\n}\n") {
			t.Errorf("%s: not a commented function expression", f)
		}
		if n := strings.Count(src, "\n"); n > maxLines {
			t.Errorf("%s: %d lines; split it", f, n)
		}
	}
	return files
}
