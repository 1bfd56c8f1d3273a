package cft

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/cdpskill/cdpskill/internal/private"
)

// unzip unpacks archive into dir. Every entry must lie in the platform's
// one top directory (chrome-linux64/…), by a plain relative name; a link
// may only point down from where it is (the Mac build's frameworks link
// Versions/Current and the like), nothing is written through a link, and
// no name comes twice. Files are 0600, 0700 when the archive marks them
// executable, directories 0700 (internal/private). The size unpacked and
// the number of entries are bounded, and each file's CRC-32 is checked as
// it is read. The platform's Chrome must be there, a regular file.
func unzip(archive, dir, platform string) error {
	zr, err := zip.OpenReader(archive)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // names are checked below, whatever GODEBUG says
		return fmt.Errorf("not a whole zip archive (%v)", err)
	}
	defer zr.Close()
	if len(zr.File) > maxEntries {
		return fmt.Errorf("it holds %d entries, more than the %d a Chrome build can", len(zr.File), maxEntries)
	}
	u := &unzipper{dir: dir, top: "chrome-" + platform, links: map[string]bool{}, budget: maxUnpacked}
	for _, f := range zr.File {
		if err := u.entry(f); err != nil {
			return fmt.Errorf("%q: %w", f.Name, err)
		}
	}
	exe := filepath.Join(dir, filepath.FromSlash(executableIn(platform)))
	st, err := os.Lstat(exe)
	if err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("it has no %s", executableIn(platform))
	}
	return os.Chmod(exe, 0o700) // an archive made without modes still runs
}

type unzipper struct {
	dir, top string
	links    map[string]bool // the links made so far, by name
	budget   int64           // bytes still allowed
}

func (u *unzipper) entry(f *zip.File) error {
	name, err := u.check(f.Name)
	if err != nil {
		return err
	}
	p := filepath.Join(u.dir, filepath.FromSlash(name))
	mode := f.Mode()
	switch {
	case mode.IsDir():
		return private.Dir(p)
	case mode&fs.ModeSymlink != 0:
		return u.link(f, name, p)
	case mode.IsRegular():
		return u.file(f, p, mode)
	}
	return fmt.Errorf("a special file (%s), which no Chrome build holds", mode.Type())
}

// check is an entry's name, cleaned of a directory's trailing slash,
// when it is a plain relative name in the top directory that passes
// through no link.
func (u *unzipper) check(raw string) (string, error) {
	name := strings.TrimSuffix(raw, "/")
	switch {
	case strings.ContainsAny(name, "\\\x00") || name == "" || path.Clean(name) != name:
		return "", errors.New("not a plain name")
	case !filepath.IsLocal(filepath.FromSlash(name)) || strings.HasPrefix(name, "/"):
		return "", errors.New("a path out of the archive's directory")
	case name != u.top && !strings.HasPrefix(name, u.top+"/"):
		return "", fmt.Errorf("outside the %s directory a Chrome for Testing archive has", u.top)
	}
	for d := path.Dir(name); d != "."; d = path.Dir(d) {
		if u.links[d] {
			return "", fmt.Errorf("written through the link %s", d)
		}
	}
	return name, nil
}

// link makes a symbolic link whose target stays below the link's own
// directory: relative, with no "..", so neither it nor any chain of such
// links leads out of the build.
func (u *unzipper) link(f *zip.File, name, p string) error {
	if runtime.GOOS == "windows" {
		return errors.New("a symbolic link, which a Windows build has none of")
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(rc, 4096))
	rc.Close()
	if err != nil {
		return err
	}
	target := string(data)
	if target == "" || strings.ContainsAny(target, "\\\x00") || path.IsAbs(target) ||
		strings.Contains("/"+target+"/", "/../") {
		return fmt.Errorf("a link to %q, out of its directory", target)
	}
	if err := private.Dir(filepath.Dir(p)); err != nil {
		return err
	}
	if err := os.Symlink(target, p); err != nil {
		return err
	}
	u.links[name] = true
	return nil
}

// file writes a regular file, new (a name twice fails), within the
// budget; reading it to its end checks its CRC-32.
func (u *unzipper) file(f *zip.File, p string, mode fs.FileMode) error {
	if f.CRC32 == 0 && f.UncompressedSize64 > 0 {
		return errors.New("it records no checksum")
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	out, err := private.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY)
	if errors.Is(err, fs.ErrExist) {
		return errors.New("it comes twice")
	}
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(rc, u.budget+1))
	if err == nil && mode&0o111 != 0 {
		err = out.Chmod(0o700)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(err, zip.ErrChecksum), errors.Is(err, zip.ErrFormat), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("corrupted (%v)", err)
	case err != nil:
		return err
	case n > u.budget:
		return fmt.Errorf("the archive unpacks to more than %d MB, more than a Chrome build does", maxUnpacked>>20)
	}
	u.budget -= n
	return nil
}
