package profiles

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestNormalize(t *testing.T) {
	good := map[string]string{
		"github.com":                   "github.com",
		"www.GitHub.com":               "github.com",
		"https://www.github.com/a/b?q": "github.com",
		"localhost:8080":               "localhost_8080",
		"http://127.0.0.1:3000/":       "127.0.0.1_3000",
		"xn--bcher-kva.example":        "xn--bcher-kva.example",
		"bücher.example":               "b_cher.example",
		" shop.example.co.uk ":         "shop.example.co.uk",
		"example.com.":                 "example.com",
		"www.www.example.com":          "example.com",
		"www.www.":                     "www", // the fuzzer's: once "www.", then ""
	}
	for in, want := range good {
		if got, err := Normalize(in); err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "  ", "../etc/passwd", "../../etc", "a/b", "..", ".", "/etc/passwd", `C:\x`, "a\x00b", "___", "@@@", ".hidden", "a..b", "a..", "http://", strings.Repeat("a", 201)} {
		var de *DomainError
		if got, err := Normalize(bad); !errors.As(err, &de) {
			t.Errorf("Normalize(%q) = %q, %v; want a DomainError", bad, got, err)
		}
	}
}

func TestDomainOf(t *testing.T) {
	cases := map[string]string{
		"https://www.example.com/x":     "example.com",
		"http://localhost:5173/":        "localhost_5173",
		"file:///tmp/a.html":            "",
		"data:text/html,hi":             "",
		"about:blank":                   "",
		"chrome-error://chromewebdata/": "",
	}
	for in, want := range cases {
		got, ok := DomainOf(in)
		if got != want || ok != (want != "") {
			t.Errorf("DomainOf(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestReadWrite(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "sites")}
	if _, found, err := s.Read("example.com"); found || err != nil {
		t.Fatalf("read before write: %v %v", found, err)
	}
	path, err := s.Write("example.com", "# example.com\n")
	if err != nil || path != filepath.Join(s.Dir, "example.com.md") {
		t.Fatalf("write: %q %v", path, err)
	}
	content, found, err := s.Read("example.com")
	if !found || err != nil || content != "# example.com\n" {
		t.Errorf("read: %q %v %v", content, found, err)
	}
	// Concurrent writers leave one whole profile and no temporary files.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Write("example.com", strings.Repeat(string(rune('a'+i)), 10000))
		}()
	}
	wg.Wait()
	content, _, _ = s.Read("example.com")
	if len(content) != 10000 || strings.Count(content, content[:1]) != 10000 {
		t.Errorf("a torn profile: %d bytes", len(content))
	}
	entries, _ := os.ReadDir(s.Dir)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestDefaultStoreNeedsAHome(t *testing.T) {
	if _, err := DefaultStore(func(string) string { return "" }); err == nil {
		t.Error("no home, yet a store")
	}
	if _, err := DefaultStore(func(k string) string { return map[string]string{"HOME": "relative"}[k] }); err == nil {
		t.Error("a relative home, yet a store")
	}
	s, err := DefaultStore(func(k string) string { return map[string]string{"USERPROFILE": "/home/ada"}[k] })
	if err != nil || s.Dir != filepath.Join("/home/ada", ".cdp-skill", "sites") {
		t.Errorf("%+v %v", s, err)
	}
}

func TestReadCutsAnOversizedProfile(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	if err := os.WriteFile(s.Path("big.example"), []byte(strings.Repeat("x", MaxSize+10)), 0o644); err != nil {
		t.Fatal(err)
	}
	content, found, err := s.Read("big.example")
	if !found || err != nil || len(content) > MaxSize+100 || !strings.Contains(content, "cut at") {
		t.Errorf("%d bytes, %v %v", len(content), found, err)
	}
}
