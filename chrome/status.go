package chrome

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome/cft"
)

// StatusOptions are the chromeStatus step's parameters (SPEC 4).
type StatusOptions struct {
	Endpoint Endpoint
	// Headless applies to a Chrome that gets launched; nil means
	// DefaultHeadless.
	Headless *bool
	// AutoLaunch starts Chrome when nothing answers. The step defaults it
	// to true; the zero value here is false.
	AutoLaunch bool
}

// Status is the chromeStatus step's result, field for field as SPEC 4
// names them, and which Chrome it is (Executable, ChromeForTesting).
type Status struct {
	Running  bool   `json:"running"`
	Launched bool   `json:"launched"`
	Version  string `json:"version,omitempty"`
	// Executable is which Chrome it is, on this machine: the browser
	// process serving the port, the one launched, or, when none runs, the
	// one a launch would start.
	Executable string `json:"executable,omitempty"`
	// ChromeForTesting is Executable's version when it is the Chrome for
	// Testing that `cdpskill install --browser` cached.
	ChromeForTesting string      `json:"chromeForTesting,omitempty"`
	Port             int         `json:"port"`
	Endpoint         string      `json:"endpoint,omitempty"` // a remote endpoint, redacted
	Tabs             []StatusTab `json:"tabs,omitempty"`
	CreatedTab       bool        `json:"createdTab"`
	Note             string      `json:"note,omitempty"`
	Error            string      `json:"error,omitempty"`
}

// StatusTab is one open page.
type StatusTab struct {
	TargetID string `json:"targetId"`
	URL      string `json:"url"`
	Title    string `json:"title"`
}

// Notes for the special actions chromeStatus takes.
const (
	noteCreatedTab = "Chrome had no tabs open. Created new tab."
	noteAlongside  = "Chrome was already running without remote debugging; launched a separate CDP-enabled instance with its own profile on port %d alongside it and left the running one alone."
	noteLaunched   = "Chrome was not running; launched a %s instance on port %d."
)

// Bounds on the side trips of a status check.
const (
	processListWait = 5 * time.Second
	firstTabWait    = 2 * time.Second
)

// statusDeps are what CheckStatus needs from the machine, so tests can
// stage a Chrome that runs without a debugging port.
type statusDeps struct {
	processes func(context.Context) ([]procInfo, error)
	launch    func(context.Context, Env, LaunchOptions) (*Version, int, error)
	find      func(Env) (string, error)
}

// CheckStatus is the chromeStatus step: it reports on the Chrome at
// opts.Endpoint and brings it into a usable state: launched when nothing answers (and AutoLaunch is set),
// alongside any Chrome running without a debugging port, and given a blank
// tab when it has none. It never fails: problems land in Status.Error.
func CheckStatus(ctx context.Context, getenv Env, opts StatusOptions) *Status {
	d := statusDeps{processes: listProcesses, launch: Launch, find: Find}
	return d.status(ctx, getenv, opts)
}

func (d statusDeps) status(ctx context.Context, getenv Env, opts StatusOptions) *Status {
	ep := opts.Endpoint.WithDefaults()
	if ep.Remote() {
		return remoteStatus(ctx, ep)
	}
	st := &Status{Port: ep.Port}
	v, err := GetVersion(ctx, ep)
	if err != nil {
		if v, st.Note, err = d.launchFor(ctx, getenv, opts, err); err != nil {
			st.Error = err.Error()
			if isLocal(ep.Host) {
				d.name(ctx, getenv, st)
			}
			return st
		}
		st.Launched = true
	}
	st.Running = true
	d.name(ctx, getenv, st)
	st.Version = v.Browser
	st.Tabs, st.CreatedTab, err = listOrCreateTabs(ctx, ep, st.Launched)
	if err != nil {
		st.Error = err.Error()
	}
	if st.CreatedTab {
		st.Note = strings.TrimSpace(st.Note + " " + noteCreatedTab)
	}
	return st
}

// launchFor starts Chrome after probeErr said nothing answers at the
// endpoint, when that is allowed and could help, and returns the new
// Chrome's version and a note saying what was done.
func (d statusDeps) launchFor(ctx context.Context, getenv Env, opts StatusOptions, probeErr error) (*Version, string, error) {
	ep := opts.Endpoint.WithDefaults()
	if !canLaunchFor(ctx, ep, probeErr) {
		return nil, "", whyNotLaunchable(ctx, ep, probeErr)
	}
	withoutCDP := d.chromeWithoutCDP(ctx)
	if !opts.AutoLaunch {
		if withoutCDP {
			return nil, "", fmt.Errorf("Chrome is running without remote debugging and nothing answers at %s; autoLaunch is off, so no CDP-enabled instance was started", ep)
		}
		return nil, "", fmt.Errorf("%w; autoLaunch is off, so Chrome was not started", probeErr)
	}
	headless := DefaultHeadless(getenv)
	if opts.Headless != nil {
		headless = *opts.Headless
	}
	v, _, err := d.launch(ctx, getenv, LaunchOptions{Endpoint: ep, Headless: headless})
	if err != nil {
		return nil, "", err
	}
	if withoutCDP {
		return v, fmt.Sprintf(noteAlongside, ep.Port), nil
	}
	mode := "headed"
	if headless {
		mode = "headless"
	}
	return v, fmt.Sprintf(noteLaunched, mode, ep.Port), nil
}

// name says which Chrome it is: a running one cdpskill did not just
// launch by the process serving its port, any other by what Find picks,
// which a launch starts. With none to launch, the note says so, and what
// to do, unless the error said it already.
func (d statusDeps) name(ctx context.Context, getenv Env, st *Status) {
	if st.Running && !st.Launched {
		st.Executable = d.serving(ctx, st.Port)
	} else if path, err := d.find(getenv); err == nil {
		st.Executable = path
	} else if !st.Running && !strings.Contains(st.Error, err.Error()) {
		st.Note = strings.TrimSpace(st.Note + " " + err.Error())
	}
	if b := cft.Owner(runtime.GOOS, getenv, st.Executable); b != nil {
		st.ChromeForTesting = b.Version
	}
}

// serving is the executable of this user's Chrome browser process whose
// debugging port is port, "" when none is listed (another user's, a
// failure to list).
func (d statusDeps) serving(ctx context.Context, port int) string {
	ctx, cancel := context.WithTimeout(ctx, processListWait)
	defer cancel()
	procs, err := d.processes(ctx)
	if err != nil {
		return ""
	}
	flag := "--remote-debugging-port=" + strconv.Itoa(port)
	for _, p := range procs {
		if isChromeBrowser(p) && slices.Contains(p.args, flag) {
			return p.exe
		}
	}
	return ""
}

// whyNotLaunchable explains a probe failure that launching cannot fix.
func whyNotLaunchable(ctx context.Context, ep Endpoint, probeErr error) error {
	var ce *cdp.ConnectError
	switch {
	case ctx.Err() != nil:
		return probeErr
	case !isLocal(ep.Host):
		return fmt.Errorf("%w; Chrome is only launched on this machine, not on %s", probeErr, ep.Host)
	case !errors.As(probeErr, &ce):
		return fmt.Errorf("something on port %d answers but is not a Chrome debugging endpoint (%v); use another port", ep.Port, probeErr)
	}
	return probeErr
}

// chromeWithoutCDP reports whether this user runs a Chrome browser process
// without a debugging port. A failure to list processes counts as no: the
// answer only shapes the note.
func (d statusDeps) chromeWithoutCDP(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, processListWait)
	defer cancel()
	procs, err := d.processes(ctx)
	if err != nil {
		return false
	}
	for _, p := range procs {
		if isChromeBrowser(p) && !hasArgPrefix(p.args, "--remote-debugging-port") {
			return true
		}
	}
	return false
}

// listOrCreateTabs lists the open pages, opening a blank one when there
// is none, and says whether it did.
func listOrCreateTabs(ctx context.Context, ep Endpoint, justLaunched bool) ([]StatusTab, bool, error) {
	pages, err := ListPages(ctx, ep)
	if err == nil && len(pages) == 0 && justLaunched {
		pages, err = awaitFirstTab(ctx, ep)
	}
	if err != nil {
		return nil, false, err
	}
	created := false
	if len(pages) == 0 {
		t, err := NewTarget(ctx, ep, "about:blank")
		if err != nil {
			return nil, false, fmt.Errorf("Chrome has no tabs and opening one failed: %w", err)
		}
		pages, created = []TargetInfo{*t}, true
	}
	tabs := make([]StatusTab, len(pages))
	for i, p := range pages {
		tabs[i] = StatusTab{TargetID: p.ID, URL: p.URL, Title: p.Title}
	}
	return tabs, created, nil
}

// awaitFirstTab gives a Chrome that has just come up a moment to open the
// about:blank tab it was started with, rather than adding a second one.
func awaitFirstTab(ctx context.Context, ep Endpoint) ([]TargetInfo, error) {
	wctx, cancel := context.WithTimeout(ctx, firstTabWait)
	defer cancel()
	tick := time.NewTicker(launchPoll)
	defer tick.Stop()
	for {
		select {
		case <-wctx.Done():
			return nil, ctx.Err() // nil when only our wait ran out
		case <-tick.C:
		}
		pages, err := ListPages(wctx, ep)
		if err == nil && len(pages) > 0 {
			return pages, nil
		}
	}
}

// procInfo is one running process as the platform lists it.
type procInfo struct {
	pid  int
	exe  string
	args []string
}

// chromeExeNames are the executables of Chrome's browser process,
// lower-cased, without ".exe".
var chromeExeNames = map[string]bool{
	"chrome": true, "chromium": true, "chromium-browser": true,
	"google-chrome": true, "google-chrome-stable": true,
	"google-chrome-beta": true, "google-chrome-unstable": true,
	"google chrome": true, "google chrome canary": true,
	"google chrome beta": true, "google chrome dev": true,
	"google chrome for testing": true,
}

// isChromeBrowser reports whether p is a Chrome browser process rather
// than one of its helpers, which all carry --type=.
func isChromeBrowser(p procInfo) bool {
	return chromeExeNames[exeName(p.exe)] && !hasArgPrefix(p.args, "--type=")
}

// exeName is the lower-cased base name of a Unix or Windows path.
func exeName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		path = path[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(path), ".exe")
}

func hasArgPrefix(args []string, prefix string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, prefix) {
			return true
		}
	}
	return false
}

// parseCommandLine splits a command line flattened into one string (ps,
// Windows CIM, Chrome's retitled helpers). The executable may contain
// spaces ("/Applications/Google Chrome.app/.../Google Chrome"), so each
// prefix before the first flag is tried: one ending in a Chrome name wins
// if it has no space or names an existing file. Arguments only need to be
// good enough to spot flags.
func parseCommandLine(line string, exists func(string) bool) (procInfo, bool) {
	line = strings.TrimSpace(line)
	if line == "" {
		return procInfo{}, false
	}
	if strings.HasPrefix(line, `"`) {
		if end := strings.Index(line[1:], `"`); end >= 0 {
			return procInfo{exe: line[1 : end+1], args: strings.Fields(line[end+2:])}, true
		}
	}
	limit := strings.Index(line, " -")
	if limit < 0 {
		limit = len(line)
	}
	for end := 1; end <= limit; end++ {
		if end < limit && line[end] != ' ' {
			continue
		}
		exe := line[:end]
		if chromeExeNames[exeName(exe)] && (!strings.Contains(exe, " ") || exists(exe)) {
			return procInfo{exe: exe, args: strings.Fields(line[end:])}, true
		}
	}
	exe, rest, _ := strings.Cut(line, " ")
	return procInfo{exe: exe, args: strings.Fields(rest)}, true
}

// parsePIDLine parses "<pid> <command line>", as ps and the Windows
// lister print it.
func parsePIDLine(line string, exists func(string) bool) (procInfo, bool) {
	field, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	pid, err := strconv.Atoi(field)
	if err != nil {
		return procInfo{}, false
	}
	p, ok := parseCommandLine(rest, exists)
	p.pid = pid
	return p, ok
}
