package js

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every file is one function expression, so that Compose can paste it
// between parentheses, and stays readable in size.
func TestOneFunctionPerFile(t *testing.T) {
	files, _ := filepath.Glob("*.js")
	if len(files) < 6 {
		t.Fatalf("found %d .js files", len(files))
	}
	head := regexp.MustCompile(`(?m)\A(//.*\n)+function \w+\([\w, ]*\) \{\n`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		if !head.MatchString(src) || !strings.HasSuffix(src, "\n}\n") {
			t.Errorf("%s: not a commented function expression", f)
		}
		if n := strings.Count(src, "\n"); n > 450 {
			t.Errorf("%s: %d lines; split it", f, n)
		}
	}
}
