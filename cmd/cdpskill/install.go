package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/cdpskill/cdpskill"
	"github.com/cdpskill/cdpskill/chrome/cft"
	"github.com/cdpskill/cdpskill/internal/install"
	"github.com/cdpskill/cdpskill/runner"
)

const installUsage = `usage:
  cdpskill install [--target DIR]... [--link [--source DIR]]
  cdpskill uninstall [--target DIR]...
  cdpskill install --browser [--channel stable|beta|dev|canary]
  cdpskill uninstall --browser

install copies this binary and the skill files into ~/.claude/skills/cdp-skill/
and ~/.codex/skills/cdp-skill/ (each only when ~/.claude or ~/.codex exists;
CLAUDE_CONFIG_DIR and CODEX_HOME move them),
SKILL.md's commands pointing at the copy; --target DIR installs into DIR
instead (repeatable); --link symlinks the binary and the checkout's SKILL.md
(--source DIR, default the current directory) instead of copying, for
development. uninstall removes exactly what install created.

install --browser downloads Chrome for Testing (the channel's newest build,
stable by default) from Google's official index, checks it, and caches it in
the user's cache directory (~/.cache/cdpskill/chrome on Linux), where cdpskill
finds it when the machine has no Chrome of its own; already cached, it says so.
Progress goes to stderr. CDPSKILL_CFT_INDEX names another index of the same
shape (a mirror, or a test's stand-in). uninstall --browser removes what
install --browser cached.

Each prints one JSON line.
`

// targetList collects repeated --target flags.
type targetList []string

func (t *targetList) String() string     { return strings.Join(*t, ",") }
func (t *targetList) Set(s string) error { *t = append(*t, s); return nil }

// runInstall answers `cdpskill install …` and `cdpskill uninstall …`;
// stderr gets a download's progress.
func runInstall(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var targets targetList
	fs.Var(&targets, "target", "skill directory to use instead of the tools'")
	link := fs.Bool("link", false, "symlink instead of copying")
	source := fs.String("source", ".", "with --link, the checkout holding SKILL.md")
	browser := fs.Bool("browser", false, "Chrome for Testing into the user's cache directory")
	channel := fs.String("channel", "", "with --browser, the channel: stable, beta, dev or canary")
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
	if msg := checkBrowserFlags(cmd, *browser, *channel, len(targets) > 0 || *link || *source != "."); msg != "" {
		return printError(stdout, "VALIDATION", msg)
	}
	if *browser {
		return runBrowser(ctx, cmd, *channel, stdout, stderr, getenv)
	}
	if cmd == "uninstall" && (*link || *source != ".") {
		return printError(stdout, "VALIDATION", "uninstall takes only --target (or --browser)")
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
	if cmd == "uninstall" {
		// The browser is not the skill's: it stays, and the agent is told
		// how to remove it too.
		return printJSON(stdout, struct {
			*install.Report
			Notes []string `json:"notes,omitempty"`
		}{rep, cachedBrowserNotes(getenv)})
	}
	return printJSON(stdout, rep)
}

// checkBrowserFlags refuses --channel without --browser, and --browser
// beside the skill's flags: the browser and the skill are installed apart.
func checkBrowserFlags(cmd string, browser bool, channel string, skillFlags bool) string {
	switch {
	case !browser && channel != "":
		return cmd + ": --channel goes with --browser; see cdpskill install --help"
	case browser && skillFlags:
		return cmd + " --browser installs Chrome for Testing only: it takes no --target, --link or --source; run them apart"
	case browser && cmd == "uninstall" && channel != "":
		return "uninstall --browser removes every cached build: it takes no --channel"
	case browser && channel != "" && !slices.Contains(cft.Channels, strings.ToLower(channel)):
		return fmt.Sprintf("install --browser: unknown channel %q: use one of %s", channel, strings.Join(cft.Channels, ", "))
	}
	return ""
}

// runBrowser is install --browser and uninstall --browser.
func runBrowser(ctx context.Context, cmd, channel string, stdout, stderr io.Writer, getenv func(string) string) int {
	if cmd == "uninstall" {
		r, err := cft.Remove(runtime.GOOS, getenv)
		if err != nil {
			return printError(stdout, "EXECUTION", err.Error())
		}
		return printJSON(stdout, struct {
			Status  string       `json:"status"`
			Browser *cft.Removed `json:"browser"`
		}{"ok", r})
	}
	r, err := cft.Install(ctx, cft.Options{Getenv: getenv, Channel: channel, Progress: stderr})
	if err != nil {
		return printError(stdout, "EXECUTION", err.Error())
	}
	return printJSON(stdout, struct {
		Status  string      `json:"status"`
		Browser *cft.Result `json:"browser"`
		Note    string      `json:"note"`
	}{"ok", r, "cdpskill launches it when this machine has no Chrome of its own (CHROME_PATH picks another); cdpskill uninstall --browser removes it"})
}

// cachedBrowserNotes says what install --browser cached, which uninstall
// leaves, and how to remove it.
func cachedBrowserNotes(getenv func(string) string) []string {
	builds := cft.List(runtime.GOOS, getenv)
	if len(builds) == 0 {
		return nil
	}
	var size int64
	var versions []string
	for _, b := range builds {
		size += cft.Size(b.Dir)
		versions = append(versions, b.Version)
	}
	return []string{fmt.Sprintf("Chrome for Testing %s, which install --browser cached in %s (%d MB), stays: cdpskill uninstall --browser removes it",
		strings.Join(versions, ", "), filepath.Dir(builds[0].Dir), size>>20)}
}

func printJSON(stdout io.Writer, v any) int {
	out, err := runner.Encode(v)
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
