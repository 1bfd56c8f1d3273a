package tabs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
)

// newTestRegistry opens a registry in a fresh directory and records every
// corruption report it makes.
func newTestRegistry(t *testing.T) (*Registry, *[]error) {
	t.Helper()
	r := OpenRegistry(filepath.Join(t.TempDir(), "tabs.json"))
	var reports []error
	r.OnCorrupt = func(err error) { reports = append(reports, err) }
	return r, &reports
}

func mustRegister(t *testing.T, r *Registry, id string, ep chrome.Endpoint) string {
	t.Helper()
	a, err := r.Register(id, ep)
	if err != nil {
		t.Fatalf("Register(%q): %v", id, err)
	}
	return a
}

func writeRegistryFile(t *testing.T, r *Registry, content string) {
	t.Helper()
	if err := os.WriteFile(r.path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// readSound reads the file back and fails unless it parses cleanly.
func readSound(t *testing.T, r *Registry) *registryState {
	t.Helper()
	data, err := os.ReadFile(r.path)
	if err != nil {
		t.Fatal(err)
	}
	st, problems := parseRegistry(data)
	if len(problems) > 0 {
		t.Fatalf("file left damaged: %v\n%s", problems, data)
	}
	return st
}

const (
	idA = "A1B2C3D4E5F60718293A4B5C6D7E8F90"
	idB = "B1B2C3D4E5F60718293A4B5C6D7E8F90"
	idC = "C1B2C3D4E5F60718293A4B5C6D7E8F90"
)

var remoteEP = chrome.Endpoint{Host: "10.0.0.5", Port: 9333}

func TestRegistryRegisterResolveRemove(t *testing.T) {
	r, reports := newTestRegistry(t)
	if a := mustRegister(t, r, idA, chrome.Endpoint{}); a != "t1" {
		t.Fatalf("first alias %q, want t1", a)
	}
	if a := mustRegister(t, r, idB, remoteEP); a != "t2" {
		t.Fatalf("second alias %q, want t2", a)
	}
	local := Entry{TargetID: idA, Host: "localhost", Port: 9222}
	remote := Entry{TargetID: idB, Host: "10.0.0.5", Port: 9333}
	for _, tc := range []struct {
		in        string
		wantAlias string
		want      Entry
		wantFound bool
	}{
		{"t1", "t1", local, true},
		{"t2", "t2", remote, true},
		{idA, "t1", local, true}, // a registered target id finds its alias
		{idB, "t2", remote, true},
		{"t3", "", Entry{}, false}, // unknown alias
		{idC, "", Entry{}, false},  // raw target id: caller uses it as is
		{"T1", "", Entry{}, false}, // aliases are case-sensitive
		{"", "", Entry{}, false},
	} {
		a, e, found, err := r.Resolve(tc.in)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", tc.in, err)
		}
		if a != tc.wantAlias || found != tc.wantFound || e != tc.want {
			t.Errorf("Resolve(%q) = %q, %+v, %v; want %q, %+v, %v", tc.in, a, e, found, tc.wantAlias, tc.want, tc.wantFound)
		}
	}
	if err := r.Remove("t1"); err != nil {
		t.Fatal(err)
	}
	if _, _, found, _ := r.Resolve("t1"); found {
		t.Error("t1 still resolves after Remove")
	}
	if _, _, found, _ := r.Resolve(idA); found {
		t.Error("removed target id still resolves")
	}
	if err := r.Remove("t1"); err != nil {
		t.Errorf("removing a missing alias: %v", err)
	}
	list, err := r.List()
	if err != nil || len(list) != 1 || list["t2"] != remote {
		t.Errorf("List = %v, %v; want only t2", list, err)
	}
	if len(*reports) > 0 {
		t.Errorf("sound file reported as corrupt: %v", *reports)
	}
}

func TestRegistryAliasesNeverReused(t *testing.T) {
	r, _ := newTestRegistry(t)
	mustRegister(t, r, idA, chrome.Endpoint{})
	mustRegister(t, r, idB, chrome.Endpoint{})
	for _, a := range []string{"t2", "t1"} {
		if err := r.Remove(a); err != nil {
			t.Fatal(err)
		}
	}
	// A fresh handle stands for a later process: the counter is in the file.
	r2 := OpenRegistry(r.path)
	if a := mustRegister(t, r2, idC, chrome.Endpoint{}); a != "t3" {
		t.Errorf("after removing t1 and t2 got %q, want t3", a)
	}
	// Re-registering a removed target is a new tab as far as aliases go.
	if a := mustRegister(t, r2, idA, chrome.Endpoint{}); a != "t4" {
		t.Errorf("re-registered target got %q, want t4", a)
	}
}

func TestRegistryExistingTargetKeepsAlias(t *testing.T) {
	r, _ := newTestRegistry(t)
	for _, tc := range []struct {
		name string
		id   string
		ep   chrome.Endpoint
		want string
	}{
		{"first", idA, chrome.Endpoint{}, "t1"},
		{"same target, default endpoint spelled out", idA, chrome.Endpoint{Host: "localhost", Port: 9222}, "t1"},
		{"same target, host in other case", idA, chrome.Endpoint{Host: "LOCALHOST"}, "t1"},
		{"same target on another Chrome", idA, remoteEP, "t2"},
		{"that one again", idA, remoteEP, "t2"},
		{"new target", idB, chrome.Endpoint{}, "t3"},
	} {
		if a := mustRegister(t, r, tc.id, tc.ep); a != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, a, tc.want)
		}
	}
	// With the id on two endpoints, lookup by id takes the lowest alias.
	if a, _, _, _ := r.Resolve(idA); a != "t1" {
		t.Errorf("Resolve(id on two endpoints) = %q, want t1", a)
	}
	if _, err := r.Register("", chrome.Endpoint{}); err == nil {
		t.Error("registering an empty target id succeeded")
	}
}

func TestRegistryLegacyStringEntries(t *testing.T) {
	r, reports := newTestRegistry(t)
	writeRegistryFile(t, r, `{"nextId": 3, "tabs": {"t1": "`+idA+`", "t2": {"targetId": "`+idB+`", "host": "10.0.0.5", "port": 9333}}}`)
	_, e, found, err := r.Resolve("t1")
	if err != nil || !found || e != (Entry{TargetID: idA, Host: "localhost", Port: 9222}) {
		t.Fatalf("legacy t1 = %+v, %v, %v", e, found, err)
	}
	if a := mustRegister(t, r, idA, chrome.Endpoint{}); a != "t1" {
		t.Errorf("legacy target re-registered as %q, want t1", a)
	}
	if a := mustRegister(t, r, idC, chrome.Endpoint{}); a != "t3" {
		t.Errorf("new target got %q, want t3", a)
	}
	// The rewrite turned the string into the object form.
	var raw struct{ Tabs map[string]any }
	data, _ := os.ReadFile(r.path)
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := raw.Tabs["t1"].(map[string]any); !ok {
		t.Errorf("t1 still stored as %T after a rewrite", raw.Tabs["t1"])
	}
	if len(*reports) > 0 {
		t.Errorf("legacy file reported as corrupt: %v", *reports)
	}
}

func TestRegistryDamagedFileRebuilt(t *testing.T) {
	entry := func(id string) string { return `{"targetId": "` + id + `", "host": "localhost", "port": 9222}` }
	for _, tc := range []struct {
		name      string
		content   string
		wantAlias string   // what the next Register gets
		wantKept  []string // aliases that survive
	}{
		{"garbage", "\x00\xff not json at all", "t1", nil},
		{"empty", "", "t1", nil},
		{"null", "null", "t1", nil},
		{"array", `[1, 2]`, "t1", nil},
		{"tabs not an object", `{"nextId": 4, "tabs": []}`, "t4", nil},
		{"nextId not a number", `{"nextId": "7", "tabs": {"t2": ` + entry(idA) + `}}`, "t3", []string{"t2"}},
		{"nextId below an alias", `{"nextId": 2, "tabs": {"t5": ` + entry(idA) + `, "bogus": 1}}`, "t6", []string{"t5"}},
		{"bad entries among good", `{"nextId": 9, "tabs": {"t1": 42, "t2": {"targetId": ""}, "t3": {"targetId": "X", "port": 70000}, "t4": ` + entry(idA) + `, "x7": "Y"}}`, "t9", []string{"t4"}},
		{"trailing garbage", `{"nextId": 3, "tabs": {"t2": ` + entry(idA) + `}} }}`, "t3", []string{"t2"}},
		{"cut inside an entry", `{"nextId": 12, "tabs": {"t10": ` + entry(idA) + `, "t11": {"targetId": "AB`, "t12", []string{"t10"}},
		{"damage before nextId", `{"tabs": {"t10": ` + entry(idA) + `, "t11": {"targ` + "\x00" + `, "nextId": 30}`, "t30", []string{"t10"}},
		{"only an alias left", `xx "t41": {"targetId"`, "t42", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, reports := newTestRegistry(t)
			writeRegistryFile(t, r, tc.content)
			if a := mustRegister(t, r, idC, chrome.Endpoint{}); a != tc.wantAlias {
				t.Errorf("Register got %q, want %q", a, tc.wantAlias)
			}
			checkOneReport(t, *reports)
			st := readSound(t, r)
			for _, a := range tc.wantKept {
				if _, ok := st.tabs[a]; !ok {
					t.Errorf("%s did not survive the rebuild", a)
				}
			}
			if got := len(st.tabs); got != len(tc.wantKept)+1 {
				t.Errorf("rebuilt file has %d entries, want %d", got, len(tc.wantKept)+1)
			}
		})
	}
}

func checkOneReport(t *testing.T, reports []error) {
	t.Helper()
	if len(reports) != 1 {
		t.Fatalf("got %d corruption reports, want 1: %v", len(reports), reports)
	}
	var ce *CorruptRegistryError
	if !errors.As(reports[0], &ce) || len(ce.Problems) == 0 {
		t.Fatalf("report %v is not a *CorruptRegistryError with problems", reports[0])
	}
}

// TestRegistryTruncatedAnywhere cuts a real file at every byte after its
// nextId and checks the rebuild keeps numbering and every whole entry.
func TestRegistryTruncatedAnywhere(t *testing.T) {
	r, _ := newTestRegistry(t)
	for _, id := range []string{idA, idB, idC, "D1", "E1"} {
		mustRegister(t, r, id, chrome.Endpoint{})
	}
	full, err := os.ReadFile(r.path)
	if err != nil {
		t.Fatal(err)
	}
	orig := readSound(t, r)
	start := strings.Index(string(full), `"nextId": 6`) + len(`"nextId": 6`)
	for cut := start; cut < len(full)-1; cut++ {
		r2, reports := newTestRegistry(t)
		writeRegistryFile(t, r2, string(full[:cut]))
		list, err := r2.List()
		if err != nil {
			t.Fatalf("cut %d: List: %v", cut, err)
		}
		checkOneReport(t, *reports)
		for a, e := range list {
			if e != orig.tabs[a] {
				t.Fatalf("cut %d: %s = %+v, was %+v", cut, a, e, orig.tabs[a])
			}
		}
		if a := mustRegister(t, r2, "NEW", chrome.Endpoint{}); a != "t6" {
			t.Fatalf("cut %d: next alias %q, want t6", cut, a)
		}
		if len(*reports) != 1 {
			t.Fatalf("cut %d: the rebuilt file was reported again", cut)
		}
	}
}

func TestRegistryReadersRebuildOnce(t *testing.T) {
	r, reports := newTestRegistry(t)
	writeRegistryFile(t, r, `{"nextId": 5, "tabs": {"t4": "`+idA)
	for range 3 {
		if _, _, _, err := r.Resolve("t4"); err != nil {
			t.Fatal(err)
		}
	}
	checkOneReport(t, *reports)
	readSound(t, r)
}

func TestRegistryPrune(t *testing.T) {
	r, _ := newTestRegistry(t)
	mustRegister(t, r, idA, chrome.Endpoint{})                  // t1, live
	mustRegister(t, r, idB, chrome.Endpoint{})                  // t2, gone
	mustRegister(t, r, idC, chrome.Endpoint{Host: "localhost"}) // t3, gone
	mustRegister(t, r, idB, remoteEP)                           // t4, other Chrome
	removed, err := r.Prune(chrome.Endpoint{}, listed(map[string]bool{idA: true}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{"t2", "t3"}) {
		t.Errorf("Prune removed %v, want [t2 t3]", removed)
	}
	list, _ := r.List()
	if _, ok := list["t4"]; !ok || len(list) != 2 {
		t.Errorf("after Prune: %v; want t1 and t4", list)
	}
	if removed, _ := r.Prune(chrome.Endpoint{}, listed(map[string]bool{idA: true})); len(removed) != 0 {
		t.Errorf("second Prune removed %v", removed)
	}
	// A tab registered while the list is taken is not in it, but alive.
	removed, _ = r.Prune(chrome.Endpoint{}, func() (map[string]bool, error) {
		mustRegister(t, r, "LATE", chrome.Endpoint{})
		return map[string]bool{idA: true}, nil
	})
	if list, _ := r.List(); len(removed) != 0 || list["t5"].TargetID != "LATE" {
		t.Errorf("Prune removed %v, a tab registered during its listing: %v", removed, list)
	}
	if a := mustRegister(t, r, "NEW", chrome.Endpoint{}); a != "t6" {
		t.Errorf("after Prune next alias %q, want t6", a)
	}
}

// listed is a Prune listing that finds live.
func listed(live map[string]bool) func() (map[string]bool, error) {
	return func() (map[string]bool, error) { return live, nil }
}

func TestRegistryUpdate(t *testing.T) {
	r, _ := newTestRegistry(t)
	mustRegister(t, r, idA, chrome.Endpoint{})
	if err := r.Update("t1", func(e *Entry) { e.Port = 9333 }); err != nil {
		t.Fatal(err)
	}
	if _, e, _, _ := r.Resolve("t1"); e.Port != 9333 {
		t.Errorf("port after Update = %d", e.Port)
	}
	var unknown *UnknownAliasError
	if err := r.Update("t9", func(*Entry) {}); !errors.As(err, &unknown) || unknown.Alias != "t9" {
		t.Errorf("Update of unknown alias: %v", err)
	}
	if err := r.Update("t1", func(e *Entry) { e.TargetID = "" }); err == nil {
		t.Error("Update emptying the target id succeeded")
	}
	if _, e, _, _ := r.Resolve("t1"); e.TargetID != idA {
		t.Errorf("a failed Update changed the entry: %+v", e)
	}
}

func TestRegistryKeepsUnknownEntryFields(t *testing.T) {
	r, reports := newTestRegistry(t)
	writeRegistryFile(t, r, `{"nextId": 2, "tabs": {"t1": {"targetId": "`+idA+`", "host": "localhost", "port": 9222, "snapshotSeq": 4, "future": {"id": "F1"}}}}`)
	if err := r.Update("t1", func(e *Entry) { e.Port = 9333 }); err != nil {
		t.Fatal(err)
	}
	mustRegister(t, r, idB, chrome.Endpoint{})
	var raw struct {
		Tabs map[string]map[string]json.RawMessage
	}
	data, _ := os.ReadFile(r.path)
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	t1 := raw.Tabs["t1"]
	future, _ := json.Marshal(t1["future"]) // compacts the indented file's text
	if string(t1["snapshotSeq"]) != "4" || string(future) != `{"id":"F1"}` || string(t1["port"]) != "9333" {
		t.Errorf("t1 after two rewrites: %s", data)
	}
	if _, ok := raw.Tabs["t2"]["snapshotSeq"]; ok {
		t.Error("another entry's field leaked into t2")
	}
	if len(*reports) > 0 {
		t.Errorf("unknown fields reported as corruption: %v", *reports)
	}
}

func TestRegistryFileErrors(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o600)
	for _, tc := range []struct {
		name string
		path string
	}{
		// A missing directory is made (0700), as for every file cdpskill
		// writes; one that is a file cannot be.
		{"directory is a file", filepath.Join(notDir, "tabs.json")},
		{"path is a directory", dir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := OpenRegistry(tc.path)
			if _, err := r.Register(idA, chrome.Endpoint{}); err == nil {
				t.Error("Register succeeded")
			}
			if _, err := r.List(); tc.name == "path is a directory" && err == nil {
				t.Error("List succeeded")
			}
		})
	}
}

func TestRegistryLeavesNoTempFiles(t *testing.T) {
	r, _ := newTestRegistry(t)
	for _, id := range []string{idA, idB, idC} {
		mustRegister(t, r, id, chrome.Endpoint{})
	}
	r.Remove("t2")
	entries, err := os.ReadDir(filepath.Dir(r.path))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"tabs.json", "tabs.json.lock"}) {
		t.Errorf("directory holds %v", names)
	}
}

func TestDefaultRegistryPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	if got, want := DefaultRegistryPath(), filepath.Join(dir, "cdp-skill-tabs.json"); got != want {
		t.Errorf("DefaultRegistryPath() = %q, want %q", got, want)
	}
	if got := OpenRegistry("").path; got != DefaultRegistryPath() {
		t.Errorf("OpenRegistry(\"\").path = %q", got)
	}
}

// lockKinds are the lock implementations every platform test runs with.
var lockKinds = []struct {
	name string
	lock lockFunc
}{
	{"platform", platformLock},
	{"excl", exclLock},
}

func TestRegistryLockTimeout(t *testing.T) {
	for _, k := range lockKinds {
		t.Run(k.name, func(t *testing.T) {
			r, _ := newTestRegistry(t)
			r.lock, r.LockTimeout = k.lock, 30*time.Millisecond
			unlock, err := k.lock("", r.path+".lock", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Register(idA, chrome.Endpoint{})
			var le *RegistryLockError
			if !errors.As(err, &le) {
				t.Fatalf("Register under a held lock: %v, want *RegistryLockError", err)
			}
			unlock()
			if _, err := r.Register(idA, chrome.Endpoint{}); err != nil {
				t.Errorf("Register after unlock: %v", err)
			}
		})
	}
}

func TestExclLockBreaksStaleLock(t *testing.T) {
	lockPath := filepath.Join(t.TempDir(), "tabs.json.lock")
	if err := os.WriteFile(lockPath, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := exclLock("", lockPath, 20*time.Millisecond); err == nil {
		t.Fatal("took a fresh lock held by someone else")
	}
	old := time.Now().Add(-2 * exclLockStaleAfter)
	if err := os.Chtimes(lockPath, old, old); err != nil {
		t.Fatal(err)
	}
	unlock, err := exclLock("", lockPath, time.Second)
	if err != nil {
		t.Fatalf("stale lock not broken: %v", err)
	}
	unlock()
	if _, err := os.Stat(lockPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("unlock left the lock file: %v", err)
	}
}

// BenchmarkRegistryResolve is the per-invocation cost of `tab: "tN"` on a
// registry of 50 tabs.
func BenchmarkRegistryResolve(b *testing.B) {
	r := OpenRegistry(filepath.Join(b.TempDir(), "tabs.json"))
	for i := range 50 {
		if _, err := r.Register(fmt.Sprintf("T%02d", i), chrome.Endpoint{}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if _, _, found, err := r.Resolve("t25"); err != nil || !found {
			b.Fatal(found, err)
		}
	}
}

// BenchmarkRegistryRegister is a locked read-modify-write with its fsync.
func BenchmarkRegistryRegister(b *testing.B) {
	r := OpenRegistry(filepath.Join(b.TempDir(), "tabs.json"))
	for i := 0; b.Loop(); i++ {
		if _, err := r.Register(strconv.Itoa(i), chrome.Endpoint{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRegistryKeepsRemoteEndpoint(t *testing.T) {
	r := OpenRegistry(filepath.Join(t.TempDir(), "tabs.json"))
	a, _ := chrome.ParseEndpoint("wss://gw.example.com/chrome?token=abc")
	b, _ := chrome.ParseEndpoint("ws://127.0.0.1:9333/devtools/browser/y")
	ta, err := r.Register("SAME", a)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := r.Register("SAME", b)
	tl, _ := r.Register("SAME", chrome.Endpoint{})
	if ta == tb || tb == tl || ta == tl {
		t.Fatalf("one target id on three browsers needs three aliases: %s %s %s", ta, tb, tl)
	}
	_, e, found, err := r.Resolve(ta)
	if err != nil || !found || e.Endpoint() != a || e.Host != "gw.example.com" || e.Port != 443 {
		t.Fatalf("resolve %s: %+v %v", ta, e, err)
	}
	if removed, _ := r.Prune(a, listed(nil)); len(removed) != 1 || removed[0] != ta {
		t.Fatalf("prune on a must drop only %s: %v", ta, removed)
	}
	if _, _, found, _ := r.Resolve(tb); !found {
		t.Fatal("prune dropped another browser's tab")
	}
}
