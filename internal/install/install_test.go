package install

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRewrite(t *testing.T) {
	const bin = "/h/bin/cdpskill"
	cases := []struct{ in, want string }{
		{"```sh\ncdpskill '{\"steps\":[]}'\n```\n", "```sh\n/h/bin/cdpskill '{\"steps\":[]}'\n```\n"},
		{"```\n  $ cdpskill --help\necho '{}' | cdpskill\nx && cdpskill '{}'\n```\n",
			"```\n  $ /h/bin/cdpskill --help\necho '{}' | /h/bin/cdpskill\nx && /h/bin/cdpskill '{}'\n```\n"},
		{"```json\n{\"name\":\"cdpskill\"}\n```\n", "```json\n{\"name\":\"cdpskill\"}\n```\n"},
		{"Run `cdpskill --help`, not `cdpskill`.\n", "Run `/h/bin/cdpskill --help`, not `cdpskill`.\n"},
		{"cdpskill's code runs apart; cdpskill '{}' in prose stays.\n", "cdpskill's code runs apart; cdpskill '{}' in prose stays.\n"},
		{"---\nname: cdpskill\n---\n# cdpskill\n", "---\nname: cdpskill\n---\n# cdpskill\n"},
		{"```sh\ncdpskillx '{}'\nmycdpskill '{}'\n```\n", "```sh\ncdpskillx '{}'\nmycdpskill '{}'\n```\n"},
		{"```sh\r\ncdpskill '{}'\r\n```\r\n", "```sh\r\n/h/bin/cdpskill '{}'\r\n```\r\n"},
	}
	for _, c := range cases {
		if got := string(Rewrite([]byte(c.in), bin)); got != c.want {
			t.Errorf("Rewrite(%q) =\n%q, want\n%q", c.in, got, c.want)
		}
	}
	if got := string(Rewrite([]byte("```\ncdpskill '{}'\n```\n"), "/my home/it's/cdpskill")); got != "```\n'/my home/it'\\''s/cdpskill' '{}'\n```\n" {
		t.Errorf("quoting: %q", got)
	}
}

type fixture struct {
	home, bin, claude string
	o                 Options
}

func newFixture(t *testing.T) *fixture {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "cdpskill")
	os.WriteFile(bin, []byte("#!binary v1"), 0o755)
	f := &fixture{home: home, bin: bin, claude: filepath.Join(home, ".claude", "skills", SkillName)}
	f.o = Options{Home: home, Binary: bin, Version: "v1", Files: map[string][]byte{
		"SKILL.md":    []byte("# cdpskill\n```sh\ncdpskill '{\"steps\":[]}'\n```\n"),
		"EXAMPLES.md": []byte("`cdpskill '{}'`\n"),
	}}
	return f
}

func actions(t *testing.T, rep *Report) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, in := range rep.Installed {
		for _, f := range in.Files {
			m[filepath.Base(f.Path)] = f.Action
		}
	}
	return m
}

// tree lists every path under root, relative to it.
func tree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && p != root {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

func TestInstallReinstallUninstall(t *testing.T) {
	f := newFixture(t)
	rep, err := Install(f.o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Installed) != 1 || rep.Installed[0].Target != f.claude || len(rep.Skipped) != 1 ||
		!strings.Contains(rep.Skipped[0].Reason, ".codex does not exist") {
		t.Fatalf("report: %+v", rep)
	}
	if a := actions(t, rep); a["SKILL.md"] != "created" || a["EXAMPLES.md"] != "created" || a["cdpskill"] != "created" {
		t.Fatalf("actions: %v", a)
	}
	bin := BinaryPath(f.claude)
	skill, _ := os.ReadFile(filepath.Join(f.claude, "SKILL.md"))
	if !strings.Contains(string(skill), "\n"+bin+" '{") || !strings.HasPrefix(string(skill), "# cdpskill\n") {
		t.Errorf("SKILL.md not rewritten:\n%s", skill)
	}
	ex, _ := os.ReadFile(filepath.Join(f.claude, "EXAMPLES.md"))
	if string(ex) != "`"+bin+" '{}'`\n" {
		t.Errorf("EXAMPLES.md: %q", ex)
	}
	if st, err := os.Stat(bin); err != nil || st.Mode().Perm() != 0o755 {
		t.Fatalf("binary: %v %v", st, err)
	}

	// Again: nothing changes, nothing is rewritten.
	st1, _ := os.Stat(bin)
	rep, err = Install(f.o)
	if err != nil {
		t.Fatal(err)
	}
	for name, a := range actions(t, rep) {
		if a != "unchanged" {
			t.Errorf("reinstall: %s %s", name, a)
		}
	}
	if st2, _ := os.Stat(bin); !os.SameFile(st1, st2) {
		t.Error("reinstall replaced an identical binary")
	}
	// A new build replaces the binary.
	os.WriteFile(f.bin, []byte("#!binary v2"), 0o755)
	rep, _ = Install(f.o)
	if a := actions(t, rep); a["cdpskill"] != "updated" || a["SKILL.md"] != "unchanged" {
		t.Errorf("new binary: %v", a)
	}
	// A build without EXAMPLES.md takes the installed one away.
	delete(f.o.Files, "EXAMPLES.md")
	rep, _ = Install(f.o)
	if a := actions(t, rep); a["EXAMPLES.md"] != "removed" {
		t.Errorf("stale file: %v", a)
	}
	if leftovers := tree(t, f.claude); !slices.Equal(leftovers, []string{ManifestName, "SKILL.md", "bin", "bin/cdpskill"}) {
		t.Errorf("skill dir holds %v", leftovers)
	}

	rep, err = Uninstall(f.o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Uninstalled) != 1 || len(rep.Skipped) != 1 || len(rep.Uninstalled[0].Kept) != 0 {
		t.Fatalf("uninstall: %+v", rep)
	}
	// ~/.claude stays; skills/ was created by install and goes.
	if got := tree(t, f.home); !slices.Equal(got, []string{".claude"}) {
		t.Errorf("left behind: %v", got)
	}
	// Uninstalling again is a no-op.
	if rep, err = Uninstall(f.o); err != nil || len(rep.Uninstalled) != 0 || len(rep.Skipped) != 2 {
		t.Errorf("second uninstall: %+v %v", rep, err)
	}
}

func TestUninstallKeepsOtherFiles(t *testing.T) {
	f := newFixture(t)
	os.MkdirAll(filepath.Join(f.home, ".claude", "skills", "other"), 0o755)
	if _, err := Install(f.o); err != nil {
		t.Fatal(err)
	}
	note := filepath.Join(f.claude, "notes.md")
	os.WriteFile(note, []byte("mine"), 0o644)
	rep, err := Uninstall(f.o)
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Uninstalled[0]; !slices.Equal(r.Kept, []string{note}) {
		t.Errorf("kept %v", r.Kept)
	}
	if got := tree(t, f.home); !slices.Equal(got, []string{".claude", ".claude/skills", ".claude/skills/cdp-skill",
		".claude/skills/cdp-skill/notes.md", ".claude/skills/other"}) {
		t.Errorf("after uninstall: %v", got)
	}
}

func TestInstallRefusesForeignFiles(t *testing.T) {
	f := newFixture(t)
	os.MkdirAll(f.claude, 0o755)
	os.WriteFile(filepath.Join(f.claude, "SKILL.md"), []byte("someone else's"), 0o644)
	if _, err := Install(f.o); err == nil || !strings.Contains(err.Error(), "not installed by cdpskill") {
		t.Fatalf("got %v", err)
	}
	if got := tree(t, f.claude); !slices.Equal(got, []string{"SKILL.md"}) {
		t.Errorf("wrote %v", got)
	}
	// Uninstall leaves a directory without a manifest alone.
	rep, err := Uninstall(f.o)
	if err != nil || len(rep.Uninstalled) != 0 {
		t.Fatalf("%+v %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(f.claude, "SKILL.md")); err != nil {
		t.Error(err)
	}
	// An old install that symlinked the whole skill directory.
	os.RemoveAll(f.claude)
	os.Symlink(t.TempDir(), f.claude)
	if _, err := Install(f.o); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("got %v", err)
	}
}

func TestInstallNeedsATool(t *testing.T) {
	f := newFixture(t)
	f.o.Home = t.TempDir()
	if _, err := Install(f.o); err == nil || !strings.Contains(err.Error(), "--target") {
		t.Fatalf("got %v", err)
	}
}

func TestTargetAndLink(t *testing.T) {
	f := newFixture(t)
	dir := filepath.Join(t.TempDir(), "a b", "cdp-skill")
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "SKILL.md"), []byte("# source\n"), 0o644)
	f.o.Targets, f.o.Link, f.o.Source = []string{dir}, true, src
	rep, err := Install(f.o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Installed) != 1 || rep.Installed[0].Target != dir || len(rep.Skipped) != 0 || len(rep.Warnings) != 1 {
		t.Fatalf("report %+v", rep)
	}
	for rel, want := range map[string]string{"SKILL.md": filepath.Join(src, "SKILL.md"), "bin/cdpskill": f.bin} {
		if got, err := os.Readlink(filepath.Join(dir, rel)); err != nil || got != want {
			t.Errorf("%s links to %q (%v), want %q", rel, got, err, want)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "EXAMPLES.md")); err == nil {
		t.Error("linked an EXAMPLES.md the source lacks")
	}
	if a := actions(t, func() *Report { r, _ := Install(f.o); return r }()); a["SKILL.md"] != "unchanged" || a["cdpskill"] != "unchanged" {
		t.Errorf("relink: %v", a)
	}
	// Back to copies: the links are replaced.
	f.o.Link = false
	rep, err = Install(f.o)
	if err != nil {
		t.Fatal(err)
	}
	if a := actions(t, rep); a["SKILL.md"] != "updated" || a["cdpskill"] != "updated" || a["EXAMPLES.md"] != "created" {
		t.Errorf("copy over link: %v", a)
	}
	if st, _ := os.Lstat(filepath.Join(dir, "SKILL.md")); !st.Mode().IsRegular() {
		t.Error("SKILL.md is still a link")
	}
	if _, err := Uninstall(f.o); err != nil {
		t.Fatal(err)
	}
	// Everything install created, "a b" included, is gone; the source stays.
	if got := tree(t, filepath.Dir(filepath.Dir(dir))); len(got) != 0 {
		t.Errorf("left behind: %v", got)
	}
	if _, err := os.Stat(filepath.Join(src, "SKILL.md")); err != nil {
		t.Error(err)
	}
	// --link without a checkout.
	f.o.Link, f.o.Source = true, t.TempDir()
	if _, err := Install(f.o); err == nil || !strings.Contains(err.Error(), "--source") {
		t.Errorf("got %v", err)
	}
}

// CODEX_HOME and CLAUDE_CONFIG_DIR move the agents' directories, and with
// them where the skill goes and where uninstall looks.
func TestAgentDirectoriesFromEnvironment(t *testing.T) {
	f := newFixture(t)
	codex, claude := t.TempDir(), t.TempDir()
	env := map[string]string{"CODEX_HOME": codex, "CLAUDE_CONFIG_DIR": claude}
	f.o.Getenv = func(k string) string { return env[k] }
	rep, err := Install(f.o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(claude, "skills", SkillName), filepath.Join(codex, "skills", SkillName)}
	if len(rep.Installed) != 2 || rep.Installed[0].Target != want[0] || rep.Installed[1].Target != want[1] {
		t.Fatalf("installed into %+v, want %v", rep.Installed, want)
	}
	if _, err := os.Stat(f.claude); err == nil {
		t.Error("installed into ~/.claude although CLAUDE_CONFIG_DIR moved it")
	}
	if _, err := Uninstall(f.o); err != nil {
		t.Fatal(err)
	}
	for _, dir := range want {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s left behind (%v)", dir, err)
		}
	}
}
