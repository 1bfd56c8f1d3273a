// Command bench measures cdpskill as agents use it: the real binary, one
// process per call with a pause between calls, against a headless
// Chromium and fixture pages of its own. Scenarios take turns round by
// round; each is also done the cheapest way (its floor: bare CDP over one
// open websocket), so every figure is shown as a multiple of what the
// browser itself needs. Beside its time, a call's CPU time is shown: the
// CLI process's (its rusage) and Chrome's (its processes' in /proc,
// chromeMeter). It prints a table, one JSON line per scenario and
// whether every target was met. `make bench` builds the binary and runs
// it; it is a development tool, never shipped.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/internal/xcontext"
)

func main() {
	if os.Getenv(spawnerMark) != "" {
		os.Exit(spawnerMain(os.Stdin, os.Stdout))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes: a miss is not a failure of the bench unless -strict.
const (
	exitOK     = 0
	exitMissed = 1
	exitFailed = 2
)

type config struct {
	bin        string
	rounds     int
	warmup     int
	pause      time.Duration
	agentCalls int
	only       *regexp.Regexp
	jsonOnly   bool
	strict     bool
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &config{}
	fs.StringVar(&c.bin, "bin", "bin/cdpskill", "the cdpskill binary to measure")
	fs.IntVar(&c.rounds, "rounds", 20, "measured calls per scenario (the rounds all scenarios take turns in)")
	fs.IntVar(&c.warmup, "warmup", 2, "unmeasured rounds first")
	fs.DurationVar(&c.pause, "pause", 75*time.Millisecond, "an agent's pause before each call")
	fs.IntVar(&c.agentCalls, "agent-calls", 50, "calls per agent in the parallel scenarios")
	run := fs.String("run", "", "regular expression choosing the scenarios by name (default all): "+strings.Join(scenarioNames(), ", "))
	fs.BoolVar(&c.jsonOnly, "json", false, "print only the JSON lines (the verdict goes to stderr)")
	fs.BoolVar(&c.strict, "strict", false, "exit 1 when a target is missed")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q: every option is a flag (-help lists them)", fs.Arg(0))
	}
	if c.rounds < 1 || c.warmup < 0 || c.agentCalls < 1 || c.pause < 0 {
		return nil, errors.New("-rounds and -agent-calls must be at least 1, -warmup and -pause not negative")
	}
	var err error
	if c.only, err = regexp.Compile(*run); err != nil {
		return nil, fmt.Errorf("-run: %v", err)
	}
	return c, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitFailed
	}
	rs, err := measure(ctx, c, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitFailed
	}
	if !c.jsonOnly {
		printTable(stdout, rs)
		fmt.Fprintln(stdout)
	}
	if err := printJSON(stdout, rs); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitFailed
	}
	line, met := verdict(rs)
	if c.jsonOnly {
		fmt.Fprintln(stderr, line)
	} else {
		fmt.Fprintln(stdout, line)
	}
	if !met && c.strict {
		return exitMissed
	}
	return exitOK
}

func scenarioNames() []string {
	var names []string
	for _, s := range scenarios() {
		names = append(names, s.name)
	}
	for _, k := range agentKinds {
		for _, n := range agentCounts {
			names = append(names, k.name(n))
		}
	}
	return names
}

// harness is what the scenarios run against.
type harness struct {
	cli   *cli
	addr  browserAddr
	conn  *cdp.Conn // the floors' websocket
	port  int       // the fixture server's
	pause time.Duration
	log   io.Writer
	// chrome reads Chrome's CPU time; nil where it cannot.
	chrome *chromeMeter
}

// measure starts the browser and the fixture server, runs the chosen
// scenarios and returns their lines.
func measure(ctx context.Context, c *config, stderr io.Writer) ([]result, error) {
	bin, err := filepath.Abs(c.bin)
	if err == nil {
		_, err = os.Stat(bin)
	}
	if err != nil {
		return nil, fmt.Errorf("no cdpskill binary at %s (make build, or -bin): %v", c.bin, err)
	}
	var chosen []scenario
	for _, s := range scenarios() {
		if c.only.MatchString(s.name) {
			chosen = append(chosen, s)
		}
	}
	// counts[i] are the agent counts of agentKinds[i] chosen.
	counts := make([][]int, len(agentKinds))
	anyAgents := false
	for i, k := range agentKinds {
		for _, n := range agentCounts {
			if c.only.MatchString(k.name(n)) {
				counts[i] = append(counts[i], n)
			}
		}
		if len(counts[i]) > 0 && counts[i][0] != 1 {
			counts[i] = append([]int{1}, counts[i]...) // the baseline
		}
		anyAgents = anyAgents || len(counts[i]) > 0
	}
	if len(chosen) == 0 && !anyAgents {
		return nil, fmt.Errorf("-run %q matches no scenario", c.only)
	}

	tmp, err := os.MkdirTemp("", "cdpskill-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	srv := httptest.NewServer(fixtures())
	defer srv.Close()
	br, err := testbrowser.Start()
	if err != nil {
		return nil, fmt.Errorf("starting Chromium: %w", err)
	}
	defer br.Stop()
	sp, err := startSpawner(cliEnv(tmp))
	if err != nil {
		return nil, fmt.Errorf("starting the spawner: %w", err)
	}
	defer sp.close()
	h := &harness{
		cli:   &cli{bin: bin, sp: sp},
		addr:  browserAddr{host: br.Endpoint.Host, port: br.Endpoint.Port},
		conn:  br.Conn,
		port:  srv.Listener.Addr().(*net.TCPAddr).Port,
		pause: c.pause,
		log:   stderr,
	}
	if h.chrome = newChromeMeter(sp.cmd.Process.Pid); h.chrome == nil {
		h.progress("Chrome's processes cannot be told: no Chrome CPU figures")
	}

	var rs []result
	if len(chosen) > 0 {
		got, err := h.runRounds(ctx, chosen, c.warmup, c.rounds)
		if err != nil {
			return nil, err
		}
		rs = append(rs, got...)
	}
	for i, k := range agentKinds {
		if len(counts[i]) == 0 {
			continue
		}
		got, err := h.runAgents(ctx, k, counts[i], c.agentCalls)
		if err != nil {
			return nil, err
		}
		rs = append(rs, got...)
	}
	return rs, nil
}

// prepared is a scenario with its two tabs ready.
type prepared struct {
	scenario
	tab string    // the CLI's
	ft  *floorTab // the floor's
	m   measured
}

// runRounds prepares every scenario, then runs warmup unmeasured rounds
// and rounds measured ones, each scenario's call and its floor in turn.
func (h *harness) runRounds(ctx context.Context, chosen []scenario, warmup, rounds int) ([]result, error) {
	ps := make([]*prepared, 0, len(chosen))
	defer func() {
		for _, p := range ps {
			if p.ft != nil {
				p.ft.close()
			}
		}
	}()
	for _, s := range chosen {
		h.progress("preparing %s", s.name)
		p := &prepared{scenario: s}
		ps = append(ps, p)
		if err := h.prepare(ctx, p); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	if !h.restChrome(ctx) {
		return nil, ctx.Err()
	}
	for r := -warmup; r < rounds; r++ {
		if r < 0 {
			h.progress("warm-up round %d of %d", warmup+r+1, warmup)
		} else {
			h.progress("round %d of %d", r+1, rounds)
		}
		for _, p := range ps {
			if !h.settle(ctx) {
				return nil, ctx.Err()
			}
			c0 := h.chrome.cpuNow()
			s, err := h.once(ctx, p)
			if err != nil {
				return nil, err
			}
			end := h.chrome.cpuNow() // the others' share: while the call ran
			// Chrome's CPU time from the call's start to the machine's
			// quiet after it: its work for the call, and what the call
			// left it (a detached session's teardown).
			if !h.settle(ctx) {
				return nil, ctx.Err()
			}
			c1 := h.chrome.cpuNow()
			d, ferr := h.timeFloor(ctx, p.floor, p.ft)
			if r >= 0 {
				p.m.calls = append(p.m.calls, s)
				p.m.addFloor(d, ferr)
				p.m.addWindow(c0, end)
				if c0.chromeOK && c1.chromeOK && !p.open { // open's closes its tab too
					p.m.gatherChrome(c1.chrome - c0.chrome)
				}
			}
		}
	}
	rs := make([]result, 0, len(ps))
	for _, p := range ps {
		if p.m.chromeN > 0 {
			p.m.flushChrome()
		}
		t := p.target
		t.noError, t.maxRSS = true, maxRSSKB
		rs = append(rs, judge(p.name, p.m, t, 0))
	}
	return rs, nil
}

// prepare opens the scenario's CLI tab (but for open, whose calls open
// their own) and its floor tab, and runs their setups.
func (h *harness) prepare(ctx context.Context, p *prepared) error {
	if !p.open {
		var err error
		if p.tab, err = h.cli.openTab(ctx, h.addr, h.url(p.name, p.path)); err != nil {
			return err
		}
		if p.setup != "" {
			if _, err := h.cli.must(ctx, onTab(p.tab, p.setup)); err != nil {
				return err
			}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, floorLimit)
	defer cancel()
	ft, err := newFloorTab(ctx, h.conn, h.url("floor-"+p.name, p.path))
	if err != nil {
		return fmt.Errorf("floor tab: %w", err)
	}
	p.ft = ft
	if p.floor.setup != nil {
		if err := p.floor.setup(ctx, ft); err != nil {
			return fmt.Errorf("floor setup: %w", err)
		}
	}
	return nil
}

// once makes the scenario's call. An open call's tab is closed again,
// untimed.
func (h *harness) once(ctx context.Context, p *prepared) (sample, error) {
	if !p.open {
		s, _ := h.cli.call(ctx, onTab(p.tab, p.steps))
		return s, nil
	}
	s, out := h.cli.call(ctx, openTabInput(h.addr, h.url(p.name, p.path)))
	if s.err == nil {
		var res struct {
			Tab string `json:"tab"`
		}
		if err := json.Unmarshal(out, &res); err == nil && res.Tab != "" {
			if _, err := h.cli.must(ctx, fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, res.Tab)); err != nil {
				return s, err
			}
		}
	}
	return s, nil
}

// timeFloor times one run of a floor.
func (h *harness) timeFloor(ctx context.Context, f floor, t *floorTab) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, floorLimit)
	defer cancel()
	start := time.Now()
	err := f.do(ctx, t)
	return time.Since(start), err
}

// url is path on the fixture server under a site of its own,
// {site}.localhost, which Chrome resolves to the loopback itself. Each
// scenario's tab, and each floor's, is its own site, so site isolation
// gives it a renderer of its own: the work one leaves behind (a session's
// teardown, a collection of garbage) never lands on another's
// measurement.
func (h *harness) url(site, path string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(site) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return fmt.Sprintf("http://%s.localhost:%d%s", b.String(), h.port, path)
}

// Chrome at rest: at most restShare of one core over a restWindow, and
// the longest wait for it.
const (
	restWindow = 500 * time.Millisecond
	restShare  = 0.1
	restMax    = 15 * time.Second
)

// restChrome waits, up to restMax, until Chrome is at rest. Opening tabs
// leaves it seconds of work (their windows' first frames, their
// renderers' start), which would otherwise fall on the first calls
// measured and on Chrome's CPU figures. False when the run is being
// stopped.
func (h *harness) restChrome(ctx context.Context) bool {
	deadline := time.Now().Add(restMax)
	last, ok := h.chrome.read()
	for ok && time.Now().Before(deadline) {
		if xcontext.Sleep(ctx, restWindow) != nil {
			return false
		}
		now, got := h.chrome.read()
		if !got || now-last <= time.Duration(restShare*float64(restWindow)) {
			break
		}
		last = now
	}
	return ctx.Err() == nil
}

// think is an agent's pause; false when the run is being stopped.
func (h *harness) think(ctx context.Context) bool { return xcontext.Sleep(ctx, h.pause) == nil }

// settle is an agent's pause, then the machine's quiet (awaitQuiet):
// each single-call scenario is measured on its own work.
func (h *harness) settle(ctx context.Context) bool { return h.think(ctx) && awaitQuiet(ctx) }

func (h *harness) progress(format string, a ...any) {
	fmt.Fprintf(h.log, "bench: "+format+"\n", a...)
}
