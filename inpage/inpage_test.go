package inpage

import "testing"

func TestCompose(t *testing.T) {
	src := Compose("function e(lib, a) {\n  return lib.m().x + a;\n}", Module{"m", "function m() { return { x: 1 }; }"})
	want := "function () {\n  const lib = {\n    m: (function m() { return { x: 1 }; })\n  };\n  return (function e(lib, a) {\n  return lib.m().x + a;\n})(lib, ...arguments);\n}"
	if src != want {
		t.Errorf("Compose =\n%s\nwant\n%s", src, want)
	}
}
