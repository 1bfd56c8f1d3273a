package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/cdpskill/cdpskill"
	"github.com/cdpskill/cdpskill/internal/install"
	"github.com/cdpskill/cdpskill/runner"
)

const installUsage = `usage:
  cdpskill install [--target DIR]... [--link [--source DIR]]
  cdpskill uninstall [--target DIR]...

install copies this binary and the skill files into ~/.claude/skills/cdp-skill/
and ~/.codex/skills/cdp-skill/ (each only when ~/.claude or ~/.codex exists;
CLAUDE_CONFIG_DIR and CODEX_HOME move them),
SKILL.md's commands pointing at the copy; --target DIR installs into DIR
instead (repeatable); --link symlinks the binary and the checkout's SKILL.md
(--source DIR, default the current directory) instead of copying, for
development. uninstall removes exactly what install created. Both print one
JSON line.
`

// targetList collects repeated --target flags.
type targetList []string

func (t *targetList) String() string     { return strings.Join(*t, ",") }
func (t *targetList) Set(s string) error { *t = append(*t, s); return nil }

// runInstall answers `cdpskill install …` and `cdpskill uninstall …`.
func runInstall(cmd string, args []string, stdout io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var targets targetList
	fs.Var(&targets, "target", "skill directory to use instead of the tools'")
	link := fs.Bool("link", false, "symlink instead of copying")
	source := fs.String("source", ".", "with --link, the checkout holding SKILL.md")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, installUsage)
			return 0
		}
		return printError(stdout, "VALIDATION", cmd+": "+err.Error()+"; see cdpskill install --help")
	}
	if fs.NArg() > 0 {
		return printError(stdout, "VALIDATION", fmt.Sprintf("%s: unexpected argument %q; see cdpskill install --help", cmd, fs.Arg(0)))
	}
	if cmd == "uninstall" && (*link || *source != ".") {
		return printError(stdout, "VALIDATION", "uninstall takes only --target")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	o := install.Options{Home: home, Getenv: getenv, Targets: targets, Link: *link, Source: *source, Version: versionString()}
	var rep *install.Report
	var err error
	if cmd == "install" {
		o.Files = cdpskill.Files()
		if o.Binary, err = executable(); err == nil {
			rep, err = install.Install(o)
		}
	} else {
		rep, err = install.Uninstall(o)
	}
	if err != nil {
		return printError(stdout, "EXECUTION", err.Error())
	}
	out, err := runner.Encode(rep)
	if err != nil {
		return printError(stdout, "EXECUTION", "cannot encode result")
	}
	stdout.Write(out)
	return 0
}

// executable is the running binary's path, symlinks resolved.
func executable() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find the running binary: %w", err)
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return filepath.Abs(p)
}

func printError(stdout io.Writer, typ, msg string) int {
	type errJSON struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	out, _ := runner.Encode(struct {
		Status string  `json:"status"`
		Error  errJSON `json:"error"`
	}{"error", errJSON{typ, msg}})
	stdout.Write(out)
	return 1
}

// versionString is the -ldflags version (make build: git describe), else
// what the go command recorded: the module version for go install
// …@version, or the commit a checkout was built from.
func versionString() string {
	if version != "dev" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		return "dev-" + rev + dirty
	}
	return version
}
