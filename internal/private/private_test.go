//go:build unix

package private

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// useTemp points TMPDIR, and so Root, at a fresh directory.
func useTemp(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// nobody is a uid that is not this process's, for files another user
// made; only root can hand files to it.
func nobody(t *testing.T) int {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	return 65534
}

func refused(t *testing.T, err error, want string) {
	t.Helper()
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want a refusal saying %q", err, want)
	}
}

func TestWriteFileIsPrivate(t *testing.T) {
	useTemp(t)
	path := filepath.Join(Root(), "downloads", "t1.after.png")
	if err := WriteFile(path, []byte("png")); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]fs.FileMode{Root(): 0o700, filepath.Dir(path): 0o700, path: 0o600} {
		if got := mode(t, p); got != want {
			t.Errorf("%s is %o, want %o", p, got, want)
		}
	}
	if err := WriteFile(path, []byte("png2")); err != nil { // replacing our own file
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A file written as it comes lands whole, 0600, or not at all: a
// writer's own failure is returned as it is, and leaves nothing.
func TestWriteFromIsWholeOrNothing(t *testing.T) {
	temp := Temp(t.TempDir())
	path := filepath.Join(temp.Root(), "t1.recording", "trace.json")
	err := temp.WriteFrom(path, func(w io.Writer) error {
		for _, part := range []string{`{"traceEvents":[`, `]}`} {
			if _, err := io.WriteString(w, part); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"traceEvents":[]}` || mode(t, path) != 0o600 {
		t.Errorf("%s: %q, %o", path, data, mode(t, path))
	}
	lost := errors.New("the stream ended")
	err = temp.WriteFrom(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return lost
	})
	if err != lost {
		t.Errorf("the writer's failure came back as %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"traceEvents":[]}` {
		t.Errorf("a failed write replaced the file: %q", data)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A directory an older cdpskill made 0755 is ours: it is tightened.
func TestLooseDirectoryTightened(t *testing.T) {
	useTemp(t)
	if err := os.Mkdir(Root(), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(Root(), 0o755) // past the umask
	if err := WriteFile(filepath.Join(Root(), "t1.after.yaml"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if got := mode(t, Root()); got != 0o700 {
		t.Errorf("root is %o, want 0700", got)
	}
}

func TestOtherUsersDirectoryRefused(t *testing.T) {
	uid := nobody(t)
	useTemp(t)
	if err := os.Mkdir(Root(), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(Root(), uid, uid); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(Root(), "t1.after.png")
	err := WriteFile(path, []byte("secret"))
	refused(t, err, "belongs to another user (uid 65534)")
	if !strings.Contains(err.Error(), "set TMPDIR") {
		t.Errorf("%v: does not say what to do", err)
	}
	if f, _ := File(err); f != path {
		t.Errorf("File(err) = %q, want %q", f, path)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("wrote into another user's directory: %v", err)
	}
	if _, err := OpenFile(filepath.Join(Root(), "locks", "x.lock"), os.O_CREATE|os.O_RDWR); err == nil {
		t.Error("a lock was created under another user's directory")
	}
	if _, err := Open(filepath.Join(Root(), "t1.emulation.json")); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("reading under another user's directory: %v, want a refusal", err)
	}
}

func TestSymlinkedDirectoryRefused(t *testing.T) {
	useTemp(t)
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, Root()); err != nil {
		t.Fatal(err)
	}
	refused(t, WriteFile(filepath.Join(Root(), "locks", "t.lock"), []byte("x")), "is a symbolic link")
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("created %s through the link", entries[0].Name())
	}
	refused(t, Dir(filepath.Join(Root(), "downloads")), "is a symbolic link")
}

func TestSymlinkedFileRefused(t *testing.T) {
	tmp := useTemp(t)
	target := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(target, []byte("keep"), 0o644)
	registry := filepath.Join(tmp, "cdp-skill-tabs.json")
	if err := os.Symlink(target, registry); err != nil {
		t.Fatal(err)
	}
	refused(t, WriteFile(registry, []byte("{}")), "is a symbolic link")
	_, err := OpenFile(registry, os.O_CREATE|os.O_RDWR)
	refused(t, err, "is a symbolic link")
	_, err = ReadFile(registry, 100)
	refused(t, err, "is a symbolic link")
	if data, _ := os.ReadFile(target); string(data) != "keep" {
		t.Errorf("the link's target was written: %q", data)
	}
}

func TestOtherUsersFileRefused(t *testing.T) {
	uid := nobody(t)
	tmp := useTemp(t)
	registry := filepath.Join(tmp, "cdp-skill-tabs.json")
	os.WriteFile(registry, []byte(`{"tabs":{}}`), 0o666)
	os.Chown(registry, uid, uid)
	refused(t, WriteFile(registry, []byte("{}")), "belongs to another user")
	_, err := ReadFile(registry, 100)
	refused(t, err, "belongs to another user")
	_, err = OpenFile(registry+".lock", os.O_CREATE|os.O_RDWR)
	if err != nil {
		t.Fatal(err) // a lock of our own beside it is fine
	}
}

func TestOpenFileTightensAndCreatesPrivate(t *testing.T) {
	tmp := useTemp(t)
	loose := filepath.Join(tmp, "metrics.jsonl")
	os.WriteFile(loose, nil, 0o644)
	os.Chmod(loose, 0o644)
	f, err := OpenFile(loose, os.O_APPEND|os.O_CREATE|os.O_WRONLY)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got := mode(t, loose); got != 0o600 {
		t.Errorf("%o, want 0600", got)
	}
	fresh := filepath.Join(tmp, "log", "001-t1.ok.json")
	f, err = OpenFile(fresh, os.O_CREATE|os.O_EXCL|os.O_WRONLY)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if mode(t, fresh) != 0o600 || mode(t, filepath.Dir(fresh)) != 0o700 {
		t.Errorf("file %o, directory %o", mode(t, fresh), mode(t, filepath.Dir(fresh)))
	}
	if _, err := OpenFile(fresh, os.O_CREATE|os.O_EXCL|os.O_WRONLY); !errors.Is(err, fs.ErrExist) {
		t.Errorf("exclusive create of an existing file: %v, want fs.ErrExist", err)
	}
}

// A directory of the agent's own (not under Root) is used as it is.
func TestAgentsDirectoryLeftAlone(t *testing.T) {
	useTemp(t)
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	if err := WriteFile(filepath.Join(dir, "page.pdf"), []byte("%PDF")); err != nil {
		t.Fatal(err)
	}
	if got := mode(t, dir); got != 0o755 {
		t.Errorf("the agent's directory became %o", got)
	}
	if got := mode(t, filepath.Join(dir, "page.pdf")); got != 0o600 {
		t.Errorf("file %o, want 0600", got)
	}
}

func TestMissingFileReadsAsNotExist(t *testing.T) {
	useTemp(t)
	if _, err := ReadFile(filepath.Join(Root(), "t1.network.jsonl"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v, want fs.ErrNotExist", err)
	}
	if _, err := os.Lstat(Root()); !errors.Is(err, fs.ErrNotExist) {
		t.Error("reading created the directory")
	}
}

// mountTmpfs mounts a tmpfs of size at dir for the test, skipping where
// mounting is not allowed.
func mountTmpfs(t *testing.T, dir, opts string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
}

func TestDiskFull(t *testing.T) {
	tmp := useTemp(t)
	mountTmpfs(t, tmp, "size=64k,mode=0700")
	path := filepath.Join(Root(), "t1.after.png")
	err := WriteFile(path, make([]byte, 256<<10))
	var fe *FileError
	if !errors.As(err, &fe) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("%v, want a FileError for ENOSPC", err)
	}
	want := "cannot write " + path + ": no space left on device (free some space, or set TMPDIR to another disk)"
	if err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}
	if entries, _ := os.ReadDir(Root()); len(entries) > 0 {
		t.Errorf("left behind: %s", entries[0].Name())
	}
}

func TestReadOnlyFileSystem(t *testing.T) {
	tmp := useTemp(t)
	mountTmpfs(t, tmp, "size=1m,mode=0700")
	if err := Dir(Root()); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", tmp).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only: %v %s", err, out)
	}
	err := WriteFile(filepath.Join(Root(), "t1.after.png"), []byte("png"))
	if !errors.Is(err, syscall.EROFS) || !strings.Contains(err.Error(), "read-only file system (set TMPDIR to a writable directory)") {
		t.Fatalf("%v", err)
	}
}

// Outside the temp directory a link is the user's own (a dotfiles
// checkout): a read follows it.
func TestUsersOwnLinksOutsideTemp(t *testing.T) {
	useTemp(t)
	home := t.TempDir()
	t.Setenv("TMPDIR", filepath.Join(home, "tmp")) // home is no longer under the temp directory
	real := filepath.Join(home, "dotfiles", "example.com.md")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte("# notes"), 0o600)
	link := filepath.Join(home, "sites", "example.com.md")
	os.MkdirAll(filepath.Dir(link), 0o700)
	os.Symlink(real, link)
	data, err := ReadFile(link, 100)
	if err != nil || string(data) != "# notes" {
		t.Fatalf("%q %v", data, err)
	}
}

// A Temp is checked as the process's temp directory is, whatever TMPDIR
// says: each of the calls a test runs at once has its own, and its
// advice names TMPDIR.
func TestTempOtherThanTheProcesss(t *testing.T) {
	useTemp(t) // the process's, which the calls below do not use
	tmp := Temp(t.TempDir())
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, tmp.Root()); err != nil {
		t.Fatal(err)
	}
	err := tmp.WriteFile(filepath.Join(tmp.Root(), "t1.after.png"), []byte("x"))
	refused(t, err, "is a symbolic link")
	refused(t, err, "set TMPDIR to a directory of your own")
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("created %s through the link", entries[0].Name())
	}
	registry := filepath.Join(tmp.Path(), "cdp-skill-tabs.json")
	if err := os.Symlink(filepath.Join(elsewhere, "victim"), registry); err != nil {
		t.Fatal(err)
	}
	refused(t, tmp.WriteFileSync(registry, []byte("{}")), "is a symbolic link")
	_, err = tmp.Open(registry)
	refused(t, err, "is a symbolic link")
}
