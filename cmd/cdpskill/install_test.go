package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/install"
)

// docsApp is where the docs say the agent's app runs (runner's
// docs_examples_test.go serves testdata/docs in its place).
const docsApp = "http://localhost:3000"

// installReport is what install and uninstall print.
type installReport struct {
	Status    string `json:"status"`
	Version   string `json:"version"`
	Installed []struct {
		Target, Binary, Mode string
		Files                []struct{ Path, Action, Link string }
	} `json:"installed"`
	Uninstalled []struct {
		Target        string
		Removed, Kept []string
	} `json:"uninstalled"`
	Skipped []struct{ Target, Reason string } `json:"skipped"`
	Error   *struct{ Type, Message string }   `json:"error"`
}

// cdpskillCmd runs bin with args in c's environment.
func (c *cli) cdpskillCmd(bin string, args ...string) (installReport, int) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = c.env()
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatalf("%v: %v", args, err)
	}
	var rep installReport
	if err := json.Unmarshal(out, &rep); err != nil || strings.Count(string(out), "\n") != 1 {
		c.t.Fatalf("%v: not one JSON line: %v\n%s", args, err, out)
	}
	return rep, code
}

// quickStart runs the installed SKILL.md's first example block through a
// shell, line by line, as an agent would (the openTab URL pointed at the
// fixture and the test browser), and checks each call succeeds.
func (c *cli) quickStart(skillMD, bin string) {
	c.t.Helper()
	md, err := os.ReadFile(skillMD)
	if err != nil {
		c.t.Fatal(err)
	}
	block := strings.SplitN(string(md), "```sh\n", 2)[1]
	block = block[:strings.Index(block, "```")]
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) != 3 {
		c.t.Fatalf("quick start is not open, read, close:\n%s", block)
	}
	open := fmt.Sprintf(`{"url":%q,"host":%q,"port":%d}`, fixture.URL+"/docs/", chromium(c.t).Endpoint.Host, chromium(c.t).Endpoint.Port)
	lines[0] = strings.Replace(lines[0], `"`+docsApp+`/"`, open, 1)
	for i, line := range lines {
		prefix := bin + " '"
		if strings.ContainsAny(bin, " '") {
			prefix = "'" + strings.ReplaceAll(bin, "'", `'\''`) + "' '"
		}
		if !strings.HasPrefix(line, prefix) {
			c.t.Fatalf("line %d does not run the installed binary %s: %s", i+1, bin, line)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, "sh", "-c", line)
		cmd.Env = c.env()
		out, err := cmd.Output()
		cancel()
		res := decode(c.t, out)
		if err != nil || res["status"] != "ok" {
			c.t.Fatalf("%s\n→ %v %s", line, err, out)
		}
		switch i {
		case 0:
			if res["tab"] != "t1" {
				c.t.Fatalf("openTab: %s", out)
			}
		case 1:
			if !strings.Contains(string(out), `"title":"Sign in · Acme"`) {
				c.t.Fatalf("getTitle: %s", out)
			}
		}
	}
}

// tree lists the paths under root, relative to it.
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

// Install into a HOME with Claude Code and without Codex, use the skill as
// SKILL.md says, reinstall, uninstall: nothing is left.
func TestInstallIntoHome(t *testing.T) {
	c := newCLI(t)
	home := c.tmp
	if err := os.Mkdir(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	rep, code := c.cdpskillCmd(binary, "install")
	dir := filepath.Join(home, ".claude", "skills", "cdp-skill")
	bin := install.BinaryPath(dir)
	if code != 0 || rep.Status != "ok" || len(rep.Installed) != 1 || rep.Installed[0].Target != dir ||
		rep.Installed[0].Binary != bin || rep.Installed[0].Mode != "copy" {
		t.Fatalf("install: %d %+v", code, rep)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Target != filepath.Join(home, ".codex", "skills", "cdp-skill") ||
		!strings.Contains(rep.Skipped[0].Reason, "does not exist") {
		t.Errorf("codex: %+v", rep.Skipped)
	}
	for _, f := range rep.Installed[0].Files {
		if f.Action != "created" {
			t.Errorf("%s: %s", f.Path, f.Action)
		}
	}
	if st, err := os.Lstat(bin); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("binary: %v", err)
	}
	want, _ := exec.Command(binary, "--version").Output()
	if got, _ := exec.Command(bin, "--version").Output(); string(got) != string(want) || rep.Version == "" {
		t.Errorf("installed --version %q, built %q, reported %q", got, want, rep.Version)
	}
	skill, _ := os.ReadFile(filepath.Join(dir, "SKILL.md"))
	if !strings.Contains(string(skill), "\nname: cdp-skill\n") {
		t.Errorf("front matter rewritten:\n%.200s", skill)
	}
	c.quickStart(filepath.Join(dir, "SKILL.md"), bin)

	// The installed binary reinstalls itself: nothing changes.
	again, code := c.cdpskillCmd(bin, "install")
	if code != 0 || len(again.Installed) != 1 || len(again.Installed[0].Files) != len(rep.Installed[0].Files) {
		t.Fatalf("reinstall: %+v", again)
	}
	for _, f := range again.Installed[0].Files {
		if f.Action != "unchanged" {
			t.Errorf("reinstall %s: %s", f.Path, f.Action)
		}
	}

	un, code := c.cdpskillCmd(bin, "uninstall")
	if code != 0 || len(un.Uninstalled) != 1 || un.Uninstalled[0].Target != dir || len(un.Uninstalled[0].Kept) != 0 {
		t.Fatalf("uninstall: %+v", un)
	}
	// The test's own TMPDIR lives in HOME too; .claude is back to empty.
	if got := tree(t, filepath.Join(home, ".claude")); len(got) != 0 {
		t.Errorf("left behind: %v", got)
	}
	if un, code = c.cdpskillCmd(binary, "uninstall"); code != 0 || len(un.Uninstalled) != 0 || len(un.Skipped) != 2 {
		t.Errorf("uninstall again: %+v", un)
	}
}

// --target picks the directory (a path with a space is quoted in
// SKILL.md); a user's own file there survives uninstall; --link links to
// the checkout and the binary.
func TestInstallTargetAndLink(t *testing.T) {
	c := newCLI(t)
	root := filepath.Join(t.TempDir(), "my skills")
	dir := filepath.Join(root, "cdp-skill")
	rep, code := c.cdpskillCmd(binary, "install", "--target", dir)
	if code != 0 || len(rep.Installed) != 1 || rep.Installed[0].Target != dir || len(rep.Skipped) != 0 {
		t.Fatalf("install --target: %+v", rep)
	}
	c.quickStart(filepath.Join(dir, "SKILL.md"), install.BinaryPath(dir))
	note := filepath.Join(dir, "notes.md")
	os.WriteFile(note, []byte("mine"), 0o644)
	un, code := c.cdpskillCmd(binary, "uninstall", "--target", dir)
	if code != 0 || len(un.Uninstalled) != 1 || !slices.Equal(un.Uninstalled[0].Kept, []string{note}) {
		t.Fatalf("uninstall: %+v", un)
	}
	if got := tree(t, root); !slices.Equal(got, []string{"cdp-skill", "cdp-skill/notes.md"}) {
		t.Errorf("after uninstall: %v", got)
	}

	checkout, _ := filepath.Abs("../..")
	linked := filepath.Join(t.TempDir(), "cdp-skill")
	rep, code = c.cdpskillCmd(binary, "install", "--link", "--source", checkout, "--target", linked)
	if code != 0 || len(rep.Installed) != 1 || rep.Installed[0].Mode != "link" {
		t.Fatalf("install --link: %+v", rep)
	}
	realBin, _ := filepath.EvalSymlinks(binary)
	for rel, want := range map[string]string{"SKILL.md": filepath.Join(checkout, "SKILL.md"), "bin/cdpskill": realBin} {
		if got, err := os.Readlink(filepath.Join(linked, rel)); err != nil || got != want {
			t.Errorf("%s → %q (%v), want %q", rel, got, err, want)
		}
	}
	if un, code = c.cdpskillCmd(binary, "uninstall", "--target", linked); code != 0 || len(un.Uninstalled) != 1 {
		t.Fatalf("uninstall --link: %+v", un)
	}
	if _, err := os.Lstat(linked); !os.IsNotExist(err) {
		t.Errorf("%s is still there: %v", linked, err)
	}
	if _, err := os.Stat(filepath.Join(checkout, "SKILL.md")); err != nil {
		t.Fatal("uninstall followed a link:", err)
	}
}

func TestInstallErrors(t *testing.T) {
	c := newCLI(t) // HOME without .claude or .codex
	cases := []struct {
		args []string
		typ  string
		says string
	}{
		{[]string{"install"}, "EXECUTION", "--target"},
		{[]string{"install", "--bogus"}, "VALIDATION", "bogus"},
		{[]string{"install", "extra"}, "VALIDATION", "extra"},
		{[]string{"uninstall", "--link"}, "VALIDATION", "--target"},
		{[]string{"install", "--link", "--source", c.tmp, "--target", filepath.Join(c.tmp, "x")}, "EXECUTION", "SKILL.md"},
	}
	for _, tc := range cases {
		rep, code := c.cdpskillCmd(binary, tc.args...)
		if code != 1 || rep.Status != "error" || rep.Error == nil || rep.Error.Type != tc.typ || !strings.Contains(rep.Error.Message, tc.says) {
			t.Errorf("%v: %d %+v", tc.args, code, rep.Error)
		}
	}
	if got := tree(t, c.tmp); len(got) != 0 {
		t.Errorf("errors wrote %v", got)
	}
}
