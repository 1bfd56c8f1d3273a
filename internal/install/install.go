// Package install puts cdpskill's skill into the agents' skill directories
// and takes it out again: the skill files (SKILL.md, EXAMPLES.md) with their
// commands pointing at a copy of the binary beside them, or, with Link,
// symlinks to a checkout and to the running binary. Each skill directory
// gets a manifest of what was created, so Uninstall removes exactly that.
package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
)

// SkillName is the skill directory's name in every tool's skills directory.
const SkillName = "cdp-skill"

// ManifestName is the file in a skill directory that lists what install
// created there.
const ManifestName = ".cdpskill-install.json"

// Options says what to install and where.
type Options struct {
	Home string // the user's home, for the default targets
	// Getenv reads the variables that move an agent's directory
	// (CLAUDE_CONFIG_DIR, CODEX_HOME); nil reads none.
	Getenv  func(string) string
	Targets []string // skill directories to use instead of the tools' (--target)
	Link    bool     // symlink instead of copying (--link)
	Source  string   // with Link: the checkout holding SKILL.md (--source)
	Binary  string   // the running executable, symlinks resolved
	Files   map[string][]byte
	Version string // recorded in the manifest
}

// Report is what install and uninstall print.
type Report struct {
	Status      string    `json:"status"`
	Version     string    `json:"version,omitempty"`
	Installed   []Target  `json:"installed,omitempty"`
	Uninstalled []Removed `json:"uninstalled,omitempty"`
	Skipped     []Skip    `json:"skipped,omitempty"`
	Warnings    []string  `json:"warnings,omitempty"`
}

// Target is one skill directory installed into.
type Target struct {
	Target string `json:"target"`
	Binary string `json:"binary"`
	Mode   string `json:"mode"` // copy or link
	Files  []File `json:"files"`
}

// File is one path install wrote, or found already right.
type File struct {
	Path   string `json:"path"`
	Action string `json:"action"` // created, updated, unchanged or removed
	Link   string `json:"link,omitempty"`
}

// Removed is one skill directory uninstalled from.
type Removed struct {
	Target  string   `json:"target"`
	Removed []string `json:"removed"`
	Kept    []string `json:"kept,omitempty"` // files install did not create, left alone
}

// Skip is a target left untouched, and why.
type Skip struct {
	Target string `json:"target"`
	Reason string `json:"reason"`
}

// manifest lists, relative to its skill directory, the files install
// created, and the directories it created (the skill directory, its bin,
// and any missing parents), so uninstall removes those and nothing else.
type manifest struct {
	Cdpskill string   `json:"cdpskill"`
	Mode     string   `json:"mode"`
	Binary   string   `json:"source"` // the binary copied or linked
	Files    []string `json:"files"`
	Dirs     []string `json:"dirs"`
}

// tools are the agents whose skill directories are the default targets,
// each under its own directory: where its variable says, else in the home
// directory. Install uses each only when that directory exists.
var tools = []struct{ env, dir string }{{"CLAUDE_CONFIG_DIR", ".claude"}, {"CODEX_HOME", ".codex"}}

// toolDirs are the agents' own directories.
func (o Options) toolDirs() []string {
	var dirs []string
	for _, tool := range tools {
		dir := ""
		if o.Getenv != nil {
			dir = o.Getenv(tool.env)
		}
		if dir == "" {
			dir = filepath.Join(o.Home, tool.dir)
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

func binName() string {
	if runtime.GOOS == "windows" {
		return "cdpskill.exe"
	}
	return "cdpskill"
}

// BinaryPath is where install puts the binary in a skill directory.
func BinaryPath(dir string) string { return filepath.Join(dir, "bin", binName()) }

// entry is one file to put in a skill directory.
type entry struct {
	rel  string
	data []byte      // a copy's content
	perm fs.FileMode // a copy's permissions
	link string      // a symlink's target, with Link
	doc  bool        // a skill file, whose commands Rewrite points at the binary
}

type plan struct {
	dir     string
	old     *manifest
	entries []entry
	mkdirs  []string // missing directories, outermost first
}

// Install installs into every target, or into none: every target is
// checked before anything is written.
func Install(o Options) (*Report, error) {
	rep := &Report{Status: "ok", Version: o.Version}
	dirs, skips, err := targets(o, true)
	if err != nil {
		return nil, err
	}
	rep.Skipped = skips
	if len(dirs) == 0 {
		tds := o.toolDirs()
		return nil, fmt.Errorf("neither %s nor %s exists, so there is no Claude Code or Codex to install into; pass --target DIR to pick a skill directory",
			tds[0], tds[1])
	}
	entries, warnings, err := o.entries()
	if err != nil {
		return nil, err
	}
	rep.Warnings = warnings
	var plans []*plan
	for _, dir := range dirs {
		p, err := newPlan(dir, entries)
		if err != nil {
			return nil, err
		}
		plans = append(plans, p)
	}
	mode := "copy"
	if o.Link {
		mode = "link"
	}
	for _, p := range plans {
		t, err := p.apply(mode, o.Binary, o.Version)
		if err != nil {
			return nil, err
		}
		rep.Installed = append(rep.Installed, *t)
	}
	return rep, nil
}

// Uninstall removes, from every target holding a manifest, the files and
// directories it lists; a directory still holding other files stays.
func Uninstall(o Options) (*Report, error) {
	rep := &Report{Status: "ok"}
	dirs, _, err := targets(o, false)
	if err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		m, err := readManifest(dir)
		if err != nil {
			return nil, err
		}
		if m == nil {
			rep.Skipped = append(rep.Skipped, Skip{Target: dir, Reason: "no cdpskill install here (no " + ManifestName + "); nothing removed"})
			continue
		}
		r, err := remove(dir, m)
		if err != nil {
			return nil, err
		}
		rep.Uninstalled = append(rep.Uninstalled, *r)
	}
	return rep, nil
}

// targets lists the skill directories: --target's, else each tool's
// skills/cdp-skill; for install, only where the tool's directory exists.
func targets(o Options, install bool) (dirs []string, skips []Skip, err error) {
	if len(o.Targets) > 0 {
		for _, t := range o.Targets {
			abs, err := filepath.Abs(t)
			if err != nil {
				return nil, nil, err
			}
			if !slices.Contains(dirs, abs) {
				dirs = append(dirs, abs)
			}
		}
		return dirs, nil, nil
	}
	if o.Home == "" {
		return nil, nil, errors.New("cannot tell the home directory (HOME is not set); pass --target DIR")
	}
	for _, parent := range o.toolDirs() {
		dir := filepath.Join(parent, "skills", SkillName)
		if install {
			if st, err := os.Stat(parent); err != nil || !st.IsDir() {
				skips = append(skips, Skip{Target: dir, Reason: parent + " does not exist"})
				continue
			}
		}
		dirs = append(dirs, dir)
	}
	return dirs, skips, nil
}

// entries are the files every target gets.
func (o Options) entries() ([]entry, []string, error) {
	if _, ok := o.Files["SKILL.md"]; !ok {
		return nil, nil, errors.New("this build has no SKILL.md embedded")
	}
	bin := filepath.Join("bin", binName())
	var names []string
	for name := range o.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	if !o.Link {
		data, err := os.ReadFile(o.Binary)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot read the running binary: %w", err)
		}
		var es []entry
		for _, name := range names {
			// The binary's absolute path is only known per target; see apply.
			es = append(es, entry{rel: name, data: o.Files[name], perm: 0o644, doc: true})
		}
		return append(es, entry{rel: bin, data: data, perm: 0o755}), nil, nil
	}
	if strings.Contains(filepath.ToSlash(o.Binary), "/go-build") {
		return nil, nil, fmt.Errorf("--link would point at %s, a temporary binary from go run; build one (make build) and run install --link with it", o.Binary)
	}
	src, err := filepath.Abs(o.Source)
	if err != nil {
		return nil, nil, err
	}
	var es []entry
	for _, name := range names {
		p := filepath.Join(src, name)
		if _, err := os.Stat(p); err != nil {
			if name == "SKILL.md" {
				return nil, nil, fmt.Errorf("--link needs a checkout: %s has no SKILL.md; run it from the repository's root or pass --source DIR", src)
			}
			continue
		}
		es = append(es, entry{rel: name, link: p})
	}
	es = append(es, entry{rel: bin, link: o.Binary})
	warn := "linked SKILL.md is the checkout's, whose commands say `cdpskill`: put " + filepath.Dir(o.Binary) + " on PATH, or install without --link"
	return es, []string{warn}, nil
}

func newPlan(dir string, entries []entry) (*plan, error) {
	p := &plan{dir: dir, entries: entries}
	if st, err := os.Lstat(dir); err == nil {
		if st.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symlink (an earlier install?); remove it and install again", dir)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s exists and is not a directory", dir)
		}
	}
	old, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	p.old = old
	for _, e := range entries {
		path := filepath.Join(dir, e.rel)
		st, err := os.Lstat(path)
		if err != nil {
			continue
		}
		if st.IsDir() {
			return nil, fmt.Errorf("%s is a directory; remove it and install again", path)
		}
		if old == nil || !slices.Contains(old.Files, e.rel) {
			return nil, fmt.Errorf("%s exists and was not installed by cdpskill; remove it, or pick another --target", path)
		}
	}
	// The directories to create, outermost first, from bin up to the
	// first that exists.
	for d := filepath.Join(dir, "bin"); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		p.mkdirs = append([]string{d}, p.mkdirs...)
	}
	return p, nil
}

func (p *plan) apply(mode, binary, version string) (*Target, error) {
	var created []string
	for _, d := range p.mkdirs {
		if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		} else if err == nil {
			created = append(created, d)
		}
	}
	m := &manifest{Cdpskill: version, Mode: mode, Binary: binary}
	var oldFiles []string
	if p.old != nil {
		oldFiles = p.old.Files
		m.Dirs = append(m.Dirs, p.old.Dirs...)
	}
	for _, d := range created {
		rel, err := filepath.Rel(p.dir, d)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(m.Dirs, rel) {
			m.Dirs = append(m.Dirs, rel)
		}
	}
	// First the manifest lists old and new files, so an install that
	// fails halfway can still be uninstalled; at the end, only the new.
	for _, e := range p.entries {
		m.Files = append(m.Files, e.rel)
	}
	final := m.Files
	for _, f := range oldFiles {
		if !slices.Contains(m.Files, f) {
			m.Files = append(m.Files, f)
		}
	}
	if err := writeManifest(p.dir, m); err != nil {
		return nil, err
	}
	binPath := BinaryPath(p.dir)
	t := &Target{Target: p.dir, Binary: binPath, Mode: mode}
	for _, e := range p.entries {
		path := filepath.Join(p.dir, e.rel)
		if e.doc {
			e.data = Rewrite(e.data, binPath)
		}
		action, err := put(path, e)
		if err != nil {
			return nil, err
		}
		t.Files = append(t.Files, File{Path: path, Action: action, Link: e.link})
	}
	for _, f := range oldFiles {
		if slices.Contains(final, f) || !filepath.IsLocal(f) {
			continue
		}
		path := filepath.Join(p.dir, f)
		if err := os.Remove(path); err == nil {
			t.Files = append(t.Files, File{Path: path, Action: "removed"})
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	m.Files = final
	if err := writeManifest(p.dir, m); err != nil {
		return nil, err
	}
	if mode == "link" {
		t.Binary = binary
	}
	return t, nil
}

// put makes path hold e, replacing what is there by a rename, and says
// whether it was created, updated or already so.
func put(path string, e entry) (string, error) {
	action := "created"
	if st, err := os.Lstat(path); err == nil {
		action = "updated"
		if e.link != "" {
			if cur, err := os.Readlink(path); err == nil && cur == e.link {
				return "unchanged", nil
			}
		} else if st.Mode().IsRegular() && st.Mode().Perm() == e.perm && st.Size() == int64(len(e.data)) {
			if cur, err := os.ReadFile(path); err == nil && bytes.Equal(cur, e.data) {
				return "unchanged", nil
			}
		}
	}
	if e.link != "" {
		return action, symlinkAtomic(e.link, path)
	}
	return action, writeAtomic(path, e.data, e.perm)
}

// writeAtomic writes a temporary file beside path and renames it over path,
// so path is always either the old file or the whole new one.
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func symlinkAtomic(target, path string) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	f.Close()
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

func readManifest(dir string) (*manifest, error) {
	path := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s is not a cdpskill manifest (%v); remove it by hand", path, err)
	}
	return &m, nil
}

func writeManifest(dir string, m *manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, ManifestName), append(b, '\n'), 0o644)
}

// remove deletes what m lists in dir: its files (only paths inside dir),
// the manifest, then its directories, innermost first, each only if empty
// and only if it is dir, inside it, or one of its parents.
func remove(dir string, m *manifest) (*Removed, error) {
	r := &Removed{Target: dir, Removed: []string{}}
	for _, f := range append(slices.Clone(m.Files), ManifestName) {
		if !filepath.IsLocal(f) {
			continue
		}
		path := filepath.Join(dir, f)
		if err := os.Remove(path); err == nil {
			r.Removed = append(r.Removed, path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	var dirs []string
	for _, d := range m.Dirs {
		abs := filepath.Clean(filepath.Join(dir, d))
		if filepath.IsLocal(d) || d == "." || isParent(abs, dir) {
			dirs = append(dirs, abs)
		}
	}
	// Innermost first: deeper paths are longer.
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, d := range dirs {
		if err := os.Remove(d); err == nil {
			r.Removed = append(r.Removed, d)
		}
	}
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			r.Kept = append(r.Kept, filepath.Join(dir, e.Name()))
		}
	}
	return r, nil
}

// isParent reports whether p is a parent directory of dir.
func isParent(p, dir string) bool {
	rel, err := filepath.Rel(p, dir)
	return err == nil && filepath.IsLocal(rel)
}
