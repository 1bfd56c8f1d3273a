package inpage

import (
	"testing"

	"github.com/cdpskill/cdpskill/internal/jsfiles"
)

// Every file is one function expression, so that Compose can paste it
// between parentheses.
func TestOneFunctionPerFile(t *testing.T) {
	if files := jsfiles.CheckShape(t, 3, 450); len(files) != 5 {
		t.Fatalf("found %d .js files", len(files))
	}
}

func TestCompose(t *testing.T) {
	src := Compose("function e(lib, a) {\n  return lib.m().x + a;\n}", Module{"m", "function m() { return { x: 1 }; }"})
	want := "function () {\n  const lib = {\n    m: (function m() { return { x: 1 }; })\n  };\n  return (function e(lib, a) {\n  return lib.m().x + a;\n})(lib, ...arguments);\n}"
	if src != want {
		t.Errorf("Compose =\n%s\nwant\n%s", src, want)
	}
}
