// Package private is where cdpskill's files are made and read. They hold
// what a logged-in page shows (screenshots, snapshots, console and network
// listings, PDFs, downloads) and which tabs and browsers are open (the
// registry, its endpoints' tokens), so every file is created 0600 and
// every directory 0700. The shared temp directory is where another local
// user could get there first, so a directory or file that is a symbolic
// link, belongs to someone else or is not what it should be is refused,
// never followed or written into: $TMPDIR/cdp-skill (Root) and everything
// below it is checked on every use, and a 0755 directory of our own that
// an older cdpskill made is tightened to 0700. Files elsewhere in the temp
// directory (the tab registry, its lock) get the same file checks. Paths
// outside it are the user's own (~/.cdp-skill, a path the agent gave, the
// ./log of --debug): new files there are 0600 and new directories 0700,
// and what exists is used as it is.
package private

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Temp is a temporary directory, $TMPDIR as one call sees it: Root is
// below it, the tab registry and a launched Chrome's profile beside Root.
// The zero value is the process's, os.TempDir(). A process runs one call,
// but a test runs many at once, each with a directory of its own, so the
// directory is a value carried to where files are made, never read from
// the process's environment there.
type Temp string

// Path is the directory itself.
func (t Temp) Path() string {
	if t == "" {
		return os.TempDir()
	}
	return string(t)
}

// Root is Path()/cdp-skill, where every per-tab file goes.
func (t Temp) Root() string { return filepath.Join(t.Path(), "cdp-skill") }

// SessionDir is Root()/sessions/<name>, where a session's registry and
// files go; name is a session name (tabs.CheckSession), never a path.
func (t Temp) SessionDir(name string) string { return filepath.Join(t.Root(), "sessions", name) }

// Root is the process's $TMPDIR/cdp-skill (Temp("").Root()).
func Root() string { return Temp("").Root() }

// RefusedError is a path cdpskill will not write through or read from.
type RefusedError struct {
	Path string // the refused directory or file
	Why  string // "is a symbolic link", "belongs to another user (uid 1000)"
	For  string // the file being written or read, when Path is a directory above it
	temp Temp   // the temp directory the path was checked against
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s %s; cdpskill keeps what pages show private and will not use it: remove it, %s",
		e.Path, e.Why, e.temp.elsewhere(e.Path, "or set TMPDIR to a directory of your own", "or choose another path"))
}

// FileError is a file that could not be written: the disk is full, the
// file system is read-only, a directory on the way is a file.
type FileError struct {
	Path string
	Err  error // the system's error, e.g. syscall.ENOSPC
	temp Temp  // the temp directory the path was checked against
}

func (e *FileError) Error() string { return fmt.Sprintf("cannot write %s: %s", e.Path, e.Reason()) }

func (e *FileError) Unwrap() error { return e.Err }

// Reason is what went wrong and what to do, without the path.
func (e *FileError) Reason() string {
	fix := e.temp.elsewhere(e.Path, "or set TMPDIR to a writable directory", "or choose another path")
	switch {
	case errors.Is(e.Err, syscall.ENOSPC), errors.Is(e.Err, syscall.EDQUOT):
		fix = "free some space, " + e.temp.elsewhere(e.Path, "or set TMPDIR to another disk", "or choose another disk")
	case errors.Is(e.Err, syscall.EROFS), errors.Is(e.Err, syscall.EACCES), errors.Is(e.Err, syscall.EPERM),
		errors.Is(e.Err, syscall.ENOTDIR):
		fix = strings.TrimPrefix(fix, "or ")
	}
	return innermost(e.Err).Error() + " (" + fix + ")"
}

// File is the file an error from this package was about: the one that
// could not be written, or the one a refused directory was on the way to.
func File(err error) (string, bool) {
	var fe *FileError
	if errors.As(err, &fe) {
		return fe.Path, true
	}
	var re *RefusedError
	if errors.As(err, &re) {
		return cmpOr(re.For, re.Path), true
	}
	return "", false
}

// Dir makes dir a private directory: missing directories are created
// 0700, and dir, with every directory between Root and it, must be a
// directory of this user's, not a link; one readable by others is
// tightened to 0700.
func (t Temp) Dir(dir string) error {
	return t.mark(t.secureDir(filepath.Clean(dir), true))
}

// WriteFile replaces path with data, 0600, through a temporary file in
// the same directory and a rename, so a reader never sees half a file and
// a link at path is replaced, not followed. Missing directories are made
// 0700; under Root every directory is checked as Dir does. In the temp
// directory, an existing path that is a link, not a regular file or
// another user's is refused.
func (t Temp) WriteFile(path string, data []byte) error { return t.mark(t.write(path, data, false)) }

// WriteFileSync is WriteFile with the data on disk before the rename,
// for state a crash must not leave empty.
func (t Temp) WriteFileSync(path string, data []byte) error { return t.mark(t.write(path, data, true)) }

// WriteFrom is WriteFile for data too large to hold at once (a trace, a
// video): write writes it to the temporary file as it comes, and path is
// replaced only once write returned nil, so a reader never sees half of
// it; on an error nothing is left.
func (t Temp) WriteFrom(path string, write func(io.Writer) error) error {
	return t.mark(t.writeFrom(path, write, false))
}

func (t Temp) write(path string, data []byte, durable bool) error {
	return t.writeFrom(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, durable)
}

func (t Temp) writeFrom(path string, write func(io.Writer) error, durable bool) error {
	path = filepath.Clean(path)
	dir := filepath.Dir(path)
	if err := t.prepare(dir, path); err != nil {
		return err
	}
	if err := t.checkTarget(path); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return &FileError{Path: path, Err: err}
	}
	fw := &fileWriter{f: f}
	werr := write(fw)
	if werr != nil && fw.err == nil { // the writer's own failure, not the file's
		f.Close()
		os.Remove(f.Name())
		return werr
	}
	var serr error
	if durable && werr == nil {
		serr = f.Sync()
	}
	cerr := f.Close()
	if err := errors.Join(fw.err, serr, cerr); err != nil {
		os.Remove(f.Name())
		return &FileError{Path: path, Err: err}
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return &FileError{Path: path, Err: err}
	}
	return nil
}

// fileWriter is a file written through, which remembers its failure:
// that one is a FileError, the caller's own are its own.
type fileWriter struct {
	f   *os.File
	err error
}

func (w *fileWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

// OpenFile opens path with flag (os.O_CREATE, O_APPEND, O_EXCL, …), a new
// file 0600, refusing as WriteFile does; in the temp directory a file of
// this user's that others can read is tightened to 0600.
func (t Temp) OpenFile(path string, flag int) (*os.File, error) {
	path = filepath.Clean(path)
	if err := t.prepare(filepath.Dir(path), path); err != nil {
		return nil, t.mark(err)
	}
	f, err := t.open(path, flag)
	return f, t.mark(err)
}

// Open opens path for reading, refusing in the temp directory a link or
// another user's file, and a path through a directory under Root that is
// not private. A
// missing file is the fs.ErrNotExist error os.Open gives.
func (t Temp) Open(path string) (*os.File, error) {
	path = filepath.Clean(path)
	if dir := filepath.Dir(path); under(dir, t.Root()) {
		if err := t.secureDir(dir, false); err != nil {
			var re *RefusedError
			if errors.As(err, &re) {
				re.For = path
			}
			return nil, t.mark(err)
		}
	}
	f, err := t.open(path, os.O_RDONLY)
	return f, t.mark(err)
}

// ReadFile reads path as Open does, at most limit bytes and one more, so
// that a caller can tell a file over its limit.
func (t Temp) ReadFile(path string, limit int64) ([]byte, error) {
	f, err := t.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// Dir, WriteFile, WriteFileSync, OpenFile, Open and ReadFile are Temp's,
// for the process's temp directory.
func Dir(dir string) error                         { return Temp("").Dir(dir) }
func WriteFile(path string, data []byte) error     { return Temp("").WriteFile(path, data) }
func WriteFileSync(path string, data []byte) error { return Temp("").WriteFileSync(path, data) }
func OpenFile(path string, flag int) (*os.File, error) {
	return Temp("").OpenFile(path, flag)
}
func Open(path string) (*os.File, error) { return Temp("").Open(path) }
func ReadFile(path string, limit int64) ([]byte, error) {
	return Temp("").ReadFile(path, limit)
}

// mark records in err which temp directory its advice is about.
func (t Temp) mark(err error) error {
	var re *RefusedError
	if errors.As(err, &re) {
		re.temp = t
	}
	var fe *FileError
	if errors.As(err, &fe) {
		fe.temp = t
	}
	return err
}

func (t Temp) open(path string, flag int) (*os.File, error) {
	if t.shared(path) {
		flag |= noFollow
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		if isLoop(err) {
			return nil, &RefusedError{Path: path, Why: "is a symbolic link"}
		}
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) {
			return nil, err // the caller's to handle: a missing file, an exclusive create that lost
		}
		if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE) != 0 {
			return nil, &FileError{Path: path, Err: err}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && t.shared(path) {
		err = checkFile(path, fi, flag&(os.O_WRONLY|os.O_RDWR) != 0, f.Chmod)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// prepare readies the directory a file is written into: under Root it
// must be private (Dir); elsewhere (an agent's own path, ~/.cdp-skill)
// only missing directories are made, 0700.
func (t Temp) prepare(dir, file string) error {
	if under(dir, t.Root()) {
		err := t.secureDir(dir, true)
		var re *RefusedError
		if errors.As(err, &re) && re.For == "" {
			re.For = file
		}
		var fe *FileError
		if errors.As(err, &fe) {
			return &FileError{Path: file, Err: fe.Err}
		}
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &FileError{Path: file, Err: err}
	}
	return nil
}

// secureDir checks dir and, when it is under Root, each directory from
// Root down to it, top first, so nothing is created through a link. With
// create, missing ones are made 0700 and loose ones tightened.
func (t Temp) secureDir(dir string, create bool) error {
	root := t.Root()
	chain := []string{dir}
	if under(dir, root) {
		chain = nil
		for d := dir; ; d = filepath.Dir(d) {
			chain = append(chain, d)
			if d == root {
				break
			}
		}
		if create {
			if err := os.MkdirAll(filepath.Dir(root), 0o700); err != nil {
				return &FileError{Path: root, Err: err}
			}
		}
	} else if create {
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return &FileError{Path: dir, Err: err}
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		if err := checkDir(chain[i], create); err != nil {
			return err
		}
	}
	return nil
}

func checkDir(d string, create bool) error {
	fi, err := os.Lstat(d)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = os.Mkdir(d, 0o700); err == nil || errors.Is(err, fs.ErrExist) { // another process may win the race
			fi, err = os.Lstat(d)
		}
	}
	switch {
	case err != nil && create:
		return &FileError{Path: d, Err: err}
	case err != nil:
		return err // missing: whatever was to be read there is not
	case fi.Mode()&fs.ModeSymlink != 0:
		return &RefusedError{Path: d, Why: "is a symbolic link"}
	case !fi.IsDir():
		return &RefusedError{Path: d, Why: "is not a directory"}
	}
	if uid, ok := otherOwner(fi); ok {
		return &RefusedError{Path: d, Why: fmt.Sprintf("belongs to another user (uid %d)", uid)}
	}
	if fi.Mode().Perm()&0o077 != 0 && create {
		if err := os.Chmod(d, 0o700); err != nil {
			return &FileError{Path: d, Err: err}
		}
	}
	return nil
}

// checkTarget refuses to replace, in the shared temp directory, what is
// not this user's regular file.
func (t Temp) checkTarget(path string) error {
	if !t.shared(path) {
		return nil
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &FileError{Path: path, Err: err}
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return &RefusedError{Path: path, Why: "is a symbolic link"}
	}
	return checkFile(path, fi, false, nil)
}

// checkFile refuses what is not a regular file of this user's; with
// tighten, one that others can read is made 0600 through chmod.
func checkFile(path string, fi fs.FileInfo, tighten bool, chmod func(fs.FileMode) error) error {
	if !fi.Mode().IsRegular() {
		return &RefusedError{Path: path, Why: "is not a regular file"}
	}
	if uid, ok := otherOwner(fi); ok {
		return &RefusedError{Path: path, Why: fmt.Sprintf("belongs to another user (uid %d)", uid)}
	}
	if tighten && chmod != nil && fi.Mode().Perm()&0o077 != 0 {
		if err := chmod(0o600); err != nil {
			return &FileError{Path: path, Err: err}
		}
	}
	return nil
}

// shared: path is in the temp directory, where other users can create
// files too.
func (t Temp) shared(path string) bool { return under(path, t.Path()) }

// under reports whether path is dir or inside it.
func under(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// elsewhere is the way out: in the temp directory, set TMPDIR; for a path
// the agent gave, another path.
func (t Temp) elsewhere(path, inTemp, other string) string {
	if under(path, t.Path()) {
		return inTemp
	}
	return other
}

// innermost is the system's own error under Go's path and call wrappers:
// "no space left on device", not "write /tmp/x.123.tmp: no space left on
// device", whose temporary name means nothing to the agent.
func innermost(err error) error {
	for {
		var pe *fs.PathError
		var le *os.LinkError
		var se *os.SyscallError
		switch {
		case errors.As(err, &pe):
			err = pe.Err
		case errors.As(err, &le):
			err = le.Err
		case errors.As(err, &se):
			err = se.Err
		default:
			return err
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
