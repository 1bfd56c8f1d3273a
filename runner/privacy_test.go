package runner_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// Everything a call writes under the temp directory can hold what a
// logged-in page shows: 0600 files in 0700 directories, the caller's, the
// registry and the locks too. A directory an older cdpskill made 0755 is tightened.
func TestFilesArePrivate(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	root := filepath.Join(c.tmp, "cdp-skill")
	os.Mkdir(root, 0o755)
	os.Chmod(root, 0o755)
	tab := c.openTab(fixture.URL + "/query.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"screenshot":true},{"pdf":true},{"snapshot":{"inlineLimit":100}},{"console":true}]}`, tab))
	if code != 0 {
		t.Fatalf("%v", res)
	}
	checked := 0
	filepath.WalkDir(c.tmp, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(c.tmp, path)
		if !strings.HasPrefix(rel, "cdp-skill") {
			return nil // the launched browsers' profiles and the like are not this call's
		}
		fi, _ := d.Info()
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s is %o, want %o", rel, fi.Mode().Perm(), want)
		}
		if uid, ok := ownerOf(fi); ok && uid != os.Getuid() {
			t.Errorf("%s belongs to user %d, not to the caller %d", rel, uid, os.Getuid())
		}
		checked++
		return nil
	})
	if checked < 6 {
		t.Errorf("only %d files and directories checked", checked)
	}
}

// A temp directory that is another user's, or a link, is never written
// into: the call still returns what it did, with what it could not save
// named once; a step whose whole point is a file fails, naming it.
func TestArtifactDirectoryNotOursRefused(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab("about:blank")
	elsewhere := t.TempDir()
	root := filepath.Join(c.tmp, "cdp-skill")
	os.RemoveAll(root)
	if err := os.Symlink(elsewhere, root); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"goto":%q}]}`, tab, fixture.URL+"/query.html"))
	warnings := fmt.Sprint(res["warnings"])
	if code != 0 || res["screenshot"] != nil || res["context"] == nil ||
		!strings.Contains(warnings, "could not write ") || !strings.Contains(warnings, root+" is a symbolic link") ||
		!strings.Contains(warnings, "set TMPDIR") {
		t.Fatalf("%v", res)
	}
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"screenshot":true}]}`, tab))
	errs, _ := res["errors"].([]any)
	if code != 1 || len(errs) != 1 || errs[0].(map[string]any)["type"] != "EXECUTION" ||
		!strings.Contains(fmt.Sprint(errs[0]), root+" is a symbolic link") {
		t.Fatalf("%v", res)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("wrote %s through the link", entries[0].Name())
	}

	// An artifact file that is a link, in a directory of ours: refused
	// too, and what it points at is left as it was.
	os.Remove(root)
	os.Mkdir(root, 0o700)
	victim := filepath.Join(elsewhere, "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	// The call's screenshot is the tab's first in its history: the
	// calls before wrote none, and a link is none of the history's.
	shot := filepath.Join(root, tab+".history", "0001.after.png")
	os.Mkdir(filepath.Dir(shot), 0o700)
	if err := os.Symlink(victim, shot); err != nil {
		t.Fatal(err)
	}
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"scroll":"bottom"}]}`, tab))
	if code != 0 || res["screenshot"] != nil || !strings.Contains(fmt.Sprint(res["warnings"]), shot+" is a symbolic link") {
		t.Fatalf("a linked screenshot file: %v", res)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}

	if os.Geteuid() != 0 {
		return // only root can make a directory another user's
	}
	os.RemoveAll(root)
	os.Mkdir(root, 0o777)
	os.Chown(root, 65534, 65534)
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"scroll":"bottom"}]}`, tab))
	if code != 0 || !strings.Contains(fmt.Sprint(res["warnings"]), root+" belongs to another user (uid 65534)") {
		t.Fatalf("%v", res)
	}
	if entries, _ := os.ReadDir(root); len(entries) > 0 {
		t.Errorf("wrote %s into another user's directory", entries[0].Name())
	}
}

// mountTmpfs mounts a tmpfs at dir until the test ends; the test is
// skipped where mounting is not allowed.
func mountTmpfs(t *testing.T, dir, opts string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	os.MkdirAll(dir, 0o700)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
}

// remount changes a tmpfs mountTmpfs made to ro or rw.
func remount(t *testing.T, dir, mode string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+mode, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s: %v %s", mode, err, out)
	}
}

// A temp directory that became read-only (a full-disk guard, a sandbox)
// drops the captures, not the call; steps that must write fail, typed,
// at once. The tab lock is taken read-only, as flock allows.
func TestReadOnlyTempDirectory(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	mountTmpfs(t, c.tmp, "size=4m,mode=0700")
	tab := c.openTab(fixture.URL + "/query.html")
	remount(t, c.tmp, "ro")
	t.Cleanup(func() { remount(t, c.tmp, "rw") }) // before the tab's closeTab
	start := time.Now()
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#big"},{"snapshot":{"inlineLimit":100}}]}`, tab))
	warnings := fmt.Sprint(res["warnings"])
	if code != 0 || res["screenshot"] != nil || len(stepOutputs(t, res)) != 2 ||
		!strings.Contains(warnings, tab+".history/0002.after.png") || !strings.Contains(warnings, "read-only file system (set TMPDIR to a writable directory)") {
		t.Fatalf("%v", res)
	}
	if snap := outputOf(t, res, 1); snap["yaml"] == nil { // the file could not be written: inline
		t.Errorf("snapshot output: %v", snap)
	}
	for _, step := range []string{`{"screenshot":true}`, `{"pdf":"page.pdf"}`} {
		res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, step))
		errs, _ := res["errors"].([]any)
		if code != 1 || len(errs) != 1 || errs[0].(map[string]any)["type"] != "EXECUTION" ||
			!strings.Contains(fmt.Sprint(errs[0]), "cannot write "+filepath.Join(c.tmp, "cdp-skill")) ||
			!strings.Contains(fmt.Sprint(errs[0]), "read-only file system") {
			t.Errorf("%s: %v", step, res)
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
}

// A full disk: the screenshot is dropped and said so; a screenshot or a
// PDF asked for fails, typed, naming the file.
func TestDiskFull(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	mountTmpfs(t, filepath.Join(c.tmp, "cdp-skill"), "size=24k,mode=0700")
	tab := c.openTab("about:blank")
	start := time.Now()
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"goto":%q}]}`, tab, fixture.URL+"/query.html"))
	if code != 0 || res["screenshot"] != nil ||
		!strings.Contains(fmt.Sprint(res["warnings"]), "no space left on device (free some space, or set TMPDIR to another disk)") {
		t.Fatalf("%v", res)
	}
	for _, step := range []string{`{"screenshot":{"fullPage":true}}`, `{"pdf":true}`} {
		res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, step))
		errs, _ := res["errors"].([]any)
		if code != 1 || len(errs) != 1 || errs[0].(map[string]any)["type"] != "EXECUTION" ||
			!strings.Contains(fmt.Sprint(errs[0]), "no space left on device") {
			t.Errorf("%s: %v", step, res)
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
	if left, _ := filepath.Glob(filepath.Join(c.tmp, "cdp-skill", "*.tmp")); len(left) > 0 {
		t.Errorf("half-written files left: %v", left)
	}
}

// A registry that cannot be written fails the call that needs it, fast,
// as a CONNECTION error that says what to do, and leaves no tab open
// that no alias names.
func TestRegistryNotWritable(t *testing.T) {
	// Not parallel: it counts the shared browser's tabs, which the tests
	// beside it open and close.
	c := newCLI(t)
	mountTmpfs(t, c.tmp, "size=1m,mode=0700")
	remount(t, c.tmp, "ro")
	before := pageCount(t)
	start := time.Now()
	res, code := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":"about:blank","host":%q,"port":%d}}]}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	e := firstError(res)
	typ, msg := fmt.Sprint(e["type"]), fmt.Sprint(e["error"])
	if code != 1 || typ != "CONNECTION" || !strings.Contains(msg, filepath.Join(c.tmp, "cdp-skill-tabs.json")) ||
		!strings.Contains(msg, "read-only file system (set TMPDIR to a writable directory)") {
		t.Fatalf("%v", res)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	// Target.closeTarget answers before the tab is gone from the list.
	after := pageCount(t)
	for deadline := time.Now().Add(10 * time.Second); after > before && time.Now().Before(deadline); after = pageCount(t) {
		time.Sleep(50 * time.Millisecond)
	}
	if after > before {
		t.Errorf("a tab was left open: %d pages before, %d after: %v", before, after, res)
	}
}

// pageCount is how many tabs the shared browser has.
func pageCount(t *testing.T) int {
	t.Helper()
	res, err := proto.TargetGetTargets{}.Do(t.Context(), chromium(t).Conn.Browser())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ti := range res.TargetInfos {
		if ti.Type == "page" {
			n++
		}
	}
	return n
}

// A registry that is a link, or not JSON at all: the link is refused, the
// damage repaired and told, and a tab it lost is a typed error saying so.
func TestRegistryDamagedOrLinked(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	path := filepath.Join(c.tmp, "cdp-skill-tabs.json")
	victim := filepath.Join(t.TempDir(), "victim.json")
	os.WriteFile(victim, []byte(`{"nextId":1,"tabs":{}}`), 0o644)
	os.Symlink(victim, path)
	res, code := c.run(`{"tab":"t1","steps":[{"getUrl":true}]}`)
	if typ, msg := errorOf(res); code != 1 || typ != "CONNECTION" || !strings.Contains(msg, path+" is a symbolic link") {
		t.Fatalf("%v", res)
	}
	os.Remove(path)
	os.WriteFile(path, []byte("this is not JSON"), 0o600)
	start := time.Now()
	res, code = c.run(`{"tab":"t1","steps":[{"getUrl":true}]}`)
	if typ, msg := errorOf(res); code != 1 || typ != "CONNECTION" || !strings.Contains(msg, `unknown tab "t1"`) || !strings.Contains(msg, "damaged") {
		t.Fatalf("%v", res)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	if data, _ := os.ReadFile(victim); string(data) != `{"nextId":1,"tabs":{}}` {
		t.Errorf("the link's target was written: %s", data)
	}
}

// --debug writes the whole request and result to ./log: what went into a
// password field is masked there, everything else is kept.
func TestDebugLogMasksPasswords(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/query.html")
	work := t.TempDir()
	run := func(steps string) {
		c.runDebug(work, fmt.Sprintf(`{"tab":%q,"steps":%s}`, tab, steps))
	}
	run(`[{"fill":{"selector":"#user","value":"ada-lovelace"}},{"fill":{"selector":"#pass","value":"hunter2-secret"}},{"fill":{"#pass":"second-secret"}},{"type":{"selector":"#pass","text":"typed-secret"}}]`)
	run(`[{"fill":{"selector":"#nope","value":"unseen-secret","timeout":200}}]`)
	logs, _ := filepath.Glob(filepath.Join(work, "log", "*.json"))
	if len(logs) != 2 {
		t.Fatalf("logs: %v", logs)
	}
	var all string
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		all += string(data)
		if fi, _ := os.Stat(l); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s is %o, want 0600", l, fi.Mode().Perm())
		}
	}
	for _, secret := range []string{"hunter2-secret", "second-secret", "typed-secret", "unseen-secret"} {
		if strings.Contains(all, secret) {
			t.Errorf("the debug log shows %s", secret)
		}
	}
	if !strings.Contains(all, "ada-lovelace") || !strings.Contains(all, "********") {
		t.Errorf("the log lost what it should keep:\n%s", all)
	}
	if got := c.value(t, tab, "document.querySelector('#pass').value"); got != "second-secrettyped-secret" {
		t.Errorf("the field holds %v", got)
	}
}
