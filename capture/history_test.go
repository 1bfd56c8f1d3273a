package capture

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/internal/private"
)

// record writes call n's files of tab t1, size bytes each, and records
// it, as a call's report does.
func record(t *testing.T, f Files, n, size int) HistoryEntry {
	t.Helper()
	e := HistoryEntry{N: n, At: "2025-01-02T03:04:05Z", URL: "https://x.test/", Summary: "Clicked"}
	for _, s := range []string{AfterShot, AfterYAML} {
		if err := f.Temp.WriteFile(f.CallFile("t1", n, s), make([]byte, size)); err != nil {
			t.Fatal(err)
		}
	}
	e.Screenshot, e.Snapshot = callName(n, AfterShot), callName(n, AfterYAML)
	got, err := f.RecordCall("t1", e)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// numbers are the calls of t1's history, by its index and by its files.
func numbers(t *testing.T, f Files) (indexed, filed []int) {
	t.Helper()
	entries, err := f.ReadHistory("t1")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		indexed = append(indexed, e.N)
	}
	files, _ := os.ReadDir(f.HistoryDir("t1"))
	for _, d := range files {
		if n, ok := callNumber(d.Name()); ok && !slices.Contains(filed, n) {
			filed = append(filed, n)
		}
	}
	return indexed, filed
}

// Calls are numbered from the index and the files, so from process to
// process; the bound drops the oldest calls and their files.
func TestHistoryNumbersAndBound(t *testing.T) {
	f := Files{Temp: private.Temp(t.TempDir()), History: HistoryBound{Calls: 3}}
	if n := f.NextCall("t1"); n != 1 {
		t.Fatalf("an empty history's first call is %d", n)
	}
	for i := 0; i < 5; i++ {
		n := f.NextCall("t1")
		if e := record(t, f, n, 10); e.Bytes != 20 {
			t.Errorf("call %d's bytes: %d", n, e.Bytes)
		}
	}
	indexed, filed := numbers(t, f)
	if !slices.Equal(indexed, []int{3, 4, 5}) || !slices.Equal(filed, []int{3, 4, 5}) {
		t.Errorf("kept calls %v, files %v; want the last 3", indexed, filed)
	}
	if n := f.NextCall("t1"); n != 6 {
		t.Errorf("next call %d after 5", n)
	}
	// A call that wrote a file and ended before it was recorded numbers
	// the next one after it, and goes when that one is recorded.
	f.Temp.WriteFile(f.CallFile("t1", 6, AfterShot), []byte("x"))
	if n := f.NextCall("t1"); n != 7 {
		t.Errorf("next call %d after an unrecorded 6", n)
	}
	record(t, f, 7, 10)
	if _, filed := numbers(t, f); !slices.Equal(filed, []int{4, 5, 7}) {
		t.Errorf("files %v after an unrecorded call", filed)
	}
	// A link is none of the history's: the next call's file is refused
	// where it stands, not numbered past.
	os.Symlink(filepath.Join(t.TempDir(), "x"), f.CallFile("t1", 8, AfterShot))
	if n := f.NextCall("t1"); n != 8 {
		t.Errorf("next call %d beside a link numbered 8", n)
	}
}

// Over the bytes bound the oldest calls go, but never the newest: the
// result names its files.
func TestHistoryBytesBound(t *testing.T) {
	f := Files{Temp: private.Temp(t.TempDir()), History: HistoryBound{Bytes: 50}}
	record(t, f, 1, 10) // 20 bytes a call
	record(t, f, 2, 10)
	if indexed, _ := numbers(t, f); !slices.Equal(indexed, []int{1, 2}) {
		t.Errorf("40 bytes of 50: kept %v", indexed)
	}
	record(t, f, 3, 10)
	if indexed, filed := numbers(t, f); !slices.Equal(indexed, []int{2, 3}) || !slices.Equal(filed, []int{2, 3}) {
		t.Errorf("60 bytes of 50: kept %v, files %v", indexed, filed)
	}
	record(t, f, 4, 100)
	if indexed, filed := numbers(t, f); !slices.Equal(indexed, []int{4}) || !slices.Equal(filed, []int{4}) {
		t.Errorf("a call over the bound alone: kept %v, files %v", indexed, filed)
	}
}

// The index is one JSON line a call; a damaged line is left out, not the
// history, and a long summary is cut.
func TestHistoryIndex(t *testing.T) {
	f := Files{Temp: private.Temp(t.TempDir())}
	record(t, f, 1, 1)
	index := filepath.Join(f.HistoryDir("t1"), historyIndex)
	data, _ := os.ReadFile(index)
	os.WriteFile(index, append(data, "{oops\n"...), 0o600)
	e := HistoryEntry{N: 2, Summary: strings.Repeat("a", 500), Error: "step 1 (click): no"}
	if got, err := f.RecordCall("t1", e); err != nil || len([]rune(got.Summary)) != historyLine {
		t.Fatalf("recorded %+v, %v", got, err)
	}
	entries, err := f.ReadHistory("t1")
	if err != nil || len(entries) != 2 || entries[1].Error != "step 1 (click): no" {
		t.Fatalf("%+v, %v", entries, err)
	}
	data, _ = os.ReadFile(index)
	if lines := strings.Count(string(data), "\n"); lines != 2 || strings.Contains(string(data), "oops") {
		t.Errorf("index:\n%s", data)
	}
	if fi, _ := os.Stat(index); fi.Mode().Perm() != 0o600 {
		t.Errorf("index is %o", fi.Mode().Perm())
	}
}

// KeepHistory copies the files and the index; ForgetHistory says what
// it removed.
func TestHistoryKeepAndForget(t *testing.T) {
	f := Files{Temp: private.Temp(t.TempDir())}
	record(t, f, 1, 1000)
	record(t, f, 2, 1000)
	os.Remove(f.CallFile("t1", 2, AfterYAML)) // lost since: left out
	dir := filepath.Join(t.TempDir(), "kept", "t1")
	kept, err := f.KeepHistory("t1", dir)
	if err != nil || kept != (Kept{Dir: dir, Calls: 2, Files: 3, Bytes: 3000}) {
		t.Fatalf("kept %+v, %v", kept, err)
	}
	for _, name := range []string{"0001.after.png", "0001.after.yaml", "0002.after.png", historyIndex} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, historyIndex)); strings.Contains(string(data), "0002.after.yaml") {
		t.Errorf("the copied index names a file not copied:\n%s", data)
	}
	var inside *InsideHistoryError
	if _, err := f.KeepHistory("t1", filepath.Join(f.HistoryDir("t1"), "x")); !errors.As(err, &inside) {
		t.Errorf("keeping the history inside itself: %v", err)
	}
	if got := f.ForgetHistory("t1"); !strings.HasPrefix(got, "2 screenshots, 1 snapshot, 3.") || !strings.HasSuffix(got, "KB") {
		t.Errorf("removed %q", got) // 3000 bytes of files, and the index
	}
	if _, err := os.Stat(f.HistoryDir("t1")); !os.IsNotExist(err) {
		t.Errorf("history left: %v", err)
	}
	if got := f.ForgetHistory("t1"); got != "" {
		t.Errorf("removed %q from no history", got)
	}
}
