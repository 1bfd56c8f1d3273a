package capture

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFileName(t *testing.T) {
	cases := map[string]string{
		"report.csv":       "report.csv",
		"../../etc/passwd": ".._.._etc_passwd",
		`a\b.txt`:          "a_b.txt",
		"line\nbreak.txt":  "line_break.txt",
		"  spaced.txt ":    "spaced.txt",
		"":                 "download",
		".":                "download",
		"..":               "download",
	}
	for in, want := range cases {
		if got := FileName(in); got != want {
			t.Errorf("FileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNumbered(t *testing.T) {
	cases := []struct {
		name string
		n    int
		want string
	}{
		{"report.csv", 0, "report.csv"},
		{"report.csv", 1, "report (1).csv"},
		{"report.csv", 12, "report (12).csv"},
		{"archive.tar.gz", 2, "archive (2).tar.gz"},
		{"README", 1, "README (1)"},
		{".env", 1, ".env (1)"},
		{"v1.2.notes.txt", 1, "v1.2.notes (1).txt"},
	}
	for _, c := range cases {
		if got := numbered(c.name, c.n); got != c.want {
			t.Errorf("numbered(%q, %d) = %q, want %q", c.name, c.n, got, c.want)
		}
	}
}

func TestMoveUniqueNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "report.csv"), "old")
	write(filepath.Join(dir, "report (1).csv"), "older")
	src := filepath.Join(dir, "0b7e-guid")
	write(src, "new")
	got, err := moveUnique("", src, dir, "report.csv")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "report (2).csv"); got != want {
		t.Fatalf("moved to %s, want %s", got, want)
	}
	for name, body := range map[string]string{"report.csv": "old", "report (1).csv": "older", "report (2).csv": "new"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != body {
			t.Errorf("%s holds %q, want %q", name, b, body)
		}
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Errorf("the download id's file is still there: %v", err)
	}
	// A file Chrome saved elsewhere (its default, ~/Downloads) comes over.
	elsewhere := filepath.Join(t.TempDir(), "report.csv")
	write(elsewhere, "detour")
	if got, err := moveUnique("", elsewhere, dir, "report.csv"); err != nil || got != filepath.Join(dir, "report (3).csv") {
		t.Errorf("moved to %s (%v)", got, err)
	}
	if _, err := moveUnique("", filepath.Join(dir, "missing"), dir, "x.txt"); err == nil {
		t.Error("moving a missing file must fail")
	}
	if _, err := os.Stat(filepath.Join(dir, "x.txt")); !os.IsNotExist(err) {
		t.Error("a failed move must not leave its name claimed")
	}
}

func TestCopyOver(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src"), filepath.Join(dir, "dst")
	os.WriteFile(src, []byte("content"), 0o644)
	os.WriteFile(dst, nil, 0o644)
	if err := copyOver("", src, dst); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "content" {
		t.Errorf("dst holds %q", b)
	}
}
