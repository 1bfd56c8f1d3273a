package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/keeper"
	"github.com/cdpskill/cdpskill/runner"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// stdinGrace is how long to wait for piped input to start before treating
// stdin as empty, so an inherited pipe that never writes cannot hang us.
const stdinGrace = 100 * time.Millisecond

// proc is what the process gives run: its arguments, standard streams,
// environment and working directory. main passes the real ones; a test
// passes buffers, an environment of its own and a directory.
type proc struct {
	args           []string
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// dir is the working directory: relative paths in the batch, a
	// relative CDP_METRICS_FILE and --debug's ./log are taken from it.
	dir string
	// exiting: the process ends when run returns, so the browser's
	// websocket is left for the exit to close (runner.Options.Exiting).
	exiting bool
	// keeper is how a call starts a browser's keeper: this binary, as
	// "--keeper"; nil starts none.
	keeper *keeper.Exe
}

// keeperFlag makes the process a browser's keeper (package keeper): a
// call starts it so, never an agent.
const keeperFlag = "--keeper"

// statusBatch is --status: the browser, the call's session's tabs and
// the keeper, launching nothing.
const statusBatch = `{"steps":[{"chromeStatus":{"autoLaunch":false}}]}`

// run is the whole program minus os.Exit, so tests drive it with buffers.
func run(ctx context.Context, p proc) int {
	start := time.Now()
	args, stdout, getenv := p.args, p.stdout, p.getenv
	if len(args) > 0 && (args[0] == "install" || args[0] == "uninstall") {
		return runInstall(ctx, args[0], args[1:], stdout, p.stderr, getenv)
	}
	if len(args) == 1 && args[0] == keeperFlag {
		return keeper.Main(p.stdin, p.stderr)
	}
	var debug bool
	var positional []string
	for _, a := range args {
		switch a {
		case "--debug":
			debug = true
		case "--help", "-h":
			fmt.Fprint(stdout, usage())
			return 0
		case "--version":
			fmt.Fprintln(stdout, "cdpskill", versionString())
			return 0
		case "--status":
			positional = append(positional, statusBatch)
		default:
			positional = append(positional, a)
		}
	}
	var input []byte
	if len(positional) > 0 {
		input = []byte(positional[0])
	} else {
		input = readStdin(p.stdin)
	}
	res := runner.Run(ctx, input, runner.Options{Getenv: getenv, TempDir: getenv("TMPDIR"), Dir: p.dir,
		Trace: debug, Exiting: p.exiting, Keeper: p.keeper})
	out, err := runner.Encode(res)
	if err != nil { // cannot happen with the result types, but never print nothing
		out = []byte(`{"status":"error","error":{"type":"EXECUTION","message":"cannot encode result"}}` + "\n")
	}
	stdout.Write(out)
	if path := getenv("CDP_METRICS_FILE"); path != "" {
		runner.AppendMetrics(p.inDir(path), len(input), len(out), countSteps(input), time.Since(start))
	}
	if debug {
		runner.WriteDebugLog(p.inDir("log"), input, res, time.Since(start))
	}
	return res.ExitCode()
}

// inDir is path taken from the working directory.
func (p proc) inDir(path string) string {
	if filepath.IsAbs(path) || p.dir == "" {
		return path
	}
	return filepath.Join(p.dir, path)
}

// readStdin reads piped input; a terminal, or a pipe that stays silent
// past the grace period, counts as no input. Once data flows it is read
// to the end.
func readStdin(r io.Reader) []byte {
	if f, ok := r.(*os.File); ok {
		st, err := f.Stat()
		if err != nil || st.Mode()&os.ModeCharDevice != 0 {
			return nil
		}
	}
	chunks := make(chan []byte, 16)
	go func() {
		defer close(chunks)
		buf := make([]byte, 64<<10)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				chunks <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				return
			}
		}
	}()
	grace := time.NewTimer(stdinGrace)
	defer grace.Stop()
	var data []byte
	for {
		select {
		case c, ok := <-chunks:
			if !ok {
				return data
			}
			data = append(data, c...)
			grace.Stop()
		case <-grace.C:
			return nil
		}
	}
}

func countSteps(input []byte) int {
	var doc struct {
		Steps []json.RawMessage `json:"steps"`
	}
	if json.Unmarshal(input, &doc) != nil {
		return 0
	}
	return len(doc.Steps)
}

func usage() string {
	var b strings.Builder
	b.WriteString(`cdpskill — drive Chrome with one JSON batch of steps

usage:
  cdpskill '{"steps":[{"openTab":"https://example.com"}]}'
  cdpskill '{"tab":"t1","steps":[{"click":"#submit"},{"getTitle":true}]}'
  echo '{"tab":"t1","steps":[...]}' | cdpskill
  cdpskill install     (the binary and SKILL.md into ~/.claude and ~/.codex skills; install --help)
  cdpskill uninstall   (removes exactly what install created)
  cdpskill install --browser   (Chrome for Testing into the user's cache, for a machine without Chrome)

flags: --debug (write ./log/NNN-tab-actions.status.json), --help, --version
env: CDP_URL (default browser: ws(s):// websocket or http(s):// endpoint; never auto-launched),
     CDPSKILL_SESSION (default "session")
`)
	b.WriteString("\nfields (top: beside \"steps\"; step: beside a step's action key; params: inside an action's):\n")
	for _, f := range runner.Fields() {
		fmt.Fprintf(&b, "  %-16s %-19s %s\n  %-16s   %s\n", f.Name, "("+f.Where()+")", f.Usage, "", f.Summary)
	}
	b.WriteString("\nsteps:\n")
	for _, s := range runner.Steps() {
		fmt.Fprintf(&b, "  %-14s %s\n  %-14s   %s\n", s.Name, s.Usage, "", s.Does("", ""))
	}
	return b.String()
}
