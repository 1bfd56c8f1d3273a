package jsfiles

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// root is the module's directory, from this package's.
const root = "../.."

// Every .js file of every directory whose JavaScript a package embeds is
// one commented function expression, so that composition can paste it
// between parentheses, and stays readable in size.
func TestEmbeddedJavaScriptShape(t *testing.T) {
	dirs, err := Dirs(root)
	if err != nil {
		t.Fatal(err)
	}
	// The walk must at least find the directories there are today.
	for _, want := range []string{"aria/js", "bench/js", "capture/js", "dom/js", "inpage", "page/js", "query/js"} {
		if !slices.Contains(dirs, want) {
			t.Errorf("Dirs(%q) = %v, missing %s", root, dirs, want)
		}
	}
	for _, d := range dirs {
		t.Run(d, func(t *testing.T) { CheckShape(t, filepath.Join(root, filepath.FromSlash(d)), MaxLines) })
	}
}

func TestProblems(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"good.js":   "// Says hello.\nfunction hello(name) {\n  return 'hello ' + name;\n}\n",
		"async.js":  "// Waits.\nasync function wait(ms) {\n  await new Promise((r) => setTimeout(r, ms));\n}\n",
		"arrow.js":  "// An arrow.\n(ref) => !!ref\n",
		"anon.js":   "// Anonymous.\nfunction (h, a) {\n  return a;\n}\n",
		"bare.js":   "function bare() {\n  return 1;\n}\n",
		"jsdoc.js":  "/**\n * A block comment.\n */\nfunction doc() {\n  return 1;\n}\n",
		"long.js":   "// Long.\nfunction long() {\n" + strings.Repeat("  x();\n", 9) + "}\n",
		"trails.js": "// Trails.\nfunction trails() {\n  return 1;\n}\nfoo();\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	found, problems, err := Problems(dir, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != len(files) {
		t.Errorf("found %d files, want %d", len(found), len(files))
	}
	var got []string
	for _, p := range problems {
		got = append(got, strings.TrimPrefix(p, dir+string(filepath.Separator)))
	}
	want := []string{
		"anon.js: not a commented function expression",
		"arrow.js: not a commented function expression",
		"bare.js: not a commented function expression",
		"jsdoc.js: not a commented function expression",
		"long.js: 12 lines; split it",
		"trails.js: not a commented function expression",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Problems =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Dirs reads the //go:embed lines: a file pattern, a directory pattern and
// a test file's pattern (which does not count), and skips testdata.
func TestDirs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("a/a.go", "package a\n\nimport _ \"embed\"\n\n//go:embed js/one.js\nvar one string\n")
	write("a/js/one.js", "")
	write("b/b.go", "package b\n\nimport \"embed\"\n\n//go:embed scripts\nvar scripts embed.FS\n")
	write("b/scripts/deep/two.js", "")
	write("c/c_test.go", "package c\n\nimport _ \"embed\"\n\n//go:embed fixture.js\nvar fixture string\n")
	write("c/c.go", "package c\n")
	write("c/fixture.js", "")
	write("d/testdata/t.go", "package t\n\nimport _ \"embed\"\n\n//go:embed x.js\nvar x string\n")
	write("d/testdata/x.js", "")
	write("e/e.go", "package e\n\nimport _ \"embed\"\n\n//go:embed page.html\nvar page string\n")
	write("e/page.html", "")
	got, err := Dirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a/js", "b/scripts/deep"}; !slices.Equal(got, want) {
		t.Errorf("Dirs = %v, want %v", got, want)
	}
}
