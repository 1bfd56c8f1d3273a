package inpage

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every file is one function expression, so that Compose can paste it
// between parentheses.
func TestOneFunctionPerFile(t *testing.T) {
	files, _ := filepath.Glob("*.js")
	if len(files) != 3 {
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
	}
}

func TestCompose(t *testing.T) {
	src := Compose("function e(lib, a) {\n  return lib.m().x + a;\n}", Module{"m", "function m() { return { x: 1 }; }"})
	want := "function () {\n  const lib = {\n    m: (function m() { return { x: 1 }; })\n  };\n  return (function e(lib, a) {\n  return lib.m().x + a;\n})(lib, ...arguments);\n}"
	if src != want {
		t.Errorf("Compose =\n%s\nwant\n%s", src, want)
	}
}
