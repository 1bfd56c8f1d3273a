package keeper

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"reflect"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/fleet"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/route"
	"github.com/cdpskill/cdpskill/tabs"
)

// keeper is the running keeper's state. mu orders the requests of calls
// and the ticks of its clock: each runs whole.
type keeper struct {
	cfg     Config
	dir     string
	browser *chrome.Browser
	log     *log.Logger
	started time.Time
	stop    chan struct{}

	// relay keeps the browser's download events for the calls; it has
	// its own lock, so that a call waiting for one holds up no other.
	relay *relay
	// recs are the tabs' recordings, under their own lock too.
	recs *recorder

	// mu orders the work on tabs and sessions: holds, and the clock's
	// ticks. It is held across CDP commands, each bounded.
	mu sync.Mutex
	// held are the tabs whose emulation it holds, by target id.
	held map[string]*heldTab
	// found is when the keeper first found each session's context.
	found map[string]time.Time
	// wanting is what the tabs' files said at the last sync.
	wanting map[string]wantedTab
	// exiting: the keeper is about to exit; it takes no more duties.
	exiting bool

	// clock guards what every request updates, so that none waits on mu
	// for it: lastCall is the last call's request; seen the last of each
	// session's.
	clock    sync.Mutex
	lastCall time.Time
	seen     map[string]time.Time

	// addr and token are how calls reach it (keeper.json).
	addr, token string

	// kept: the browser is a fleet's (fleet.Kept), which the keeper's
	// connection keeps between calls and its letting go releases;
	// released is why it let go, once it did (fleet.go).
	kept     bool
	released string
	letGoAt  time.Time
	// pinged is when the keeper last kept the browser alive at a
	// server that ends idle sessions (fleet.KeepAliver).
	pinged time.Time
}

// Main is the keeper process: it reads its Config from stdin, logs to
// logw, and returns the process's exit code. A keeper that finds another
// one holding its browser's lock leaves at once.
func Main(stdin io.Reader, logw io.Writer) int {
	lg := log.New(logw, fmt.Sprintf("keeper %d: ", os.Getpid()), log.LstdFlags)
	var cfg Config
	if err := json.NewDecoder(io.LimitReader(stdin, 1<<16)).Decode(&cfg); err != nil {
		lg.Printf("no configuration on stdin: %v", err)
		return 2
	}
	dir := Dir(cfg.Temp, cfg.Endpoint)
	if err := cfg.Temp.Dir(dir); err != nil {
		lg.Print(err)
		return 1
	}
	// The keeper it replaces may take a moment to let go of the lock.
	unlock, err := tabs.LockFile(cfg.Temp, lockPath(dir), lockWait)
	if err != nil {
		lg.Printf("another keeper holds this browser: %v", err)
		return 0
	}
	defer unlock()
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer cancel()
	k, err := newKeeper(ctx, cfg, dir, lg)
	if err != nil {
		lg.Print(err)
		noteFailure(cfg.Temp, dir, err)
		return 1
	}
	defer k.browser.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		lg.Print(err)
		return 1
	}
	defer ln.Close()
	if err := k.publish(ln.Addr().String()); err != nil {
		lg.Print(err)
		return 1
	}
	defer os.Remove(recordPath(dir))
	lg.Printf("holds Chrome at %s (idle %v, launched %v)", cdp.RedactURL(cfg.Endpoint.String()), k.cfg.Idle, k.cfg.Launched)
	go k.serve(ctx, ln)
	go func() { // the duties a keeper before it left, while calls are answered
		k.mu.Lock()
		defer k.mu.Unlock()
		sctx, cancel := context.WithTimeout(ctx, holdWait)
		defer cancel()
		k.sync(sctx)
	}()
	why := k.run(ctx)
	k.recs.endAll(why)
	k.releaseBrowser(why)
	lg.Printf("exits: %s", why)
	return 0
}

// lockWait is how long a keeper waits for its browser's lock: the one it
// replaces, killed, may not have let go of it yet.
const lockWait = 2 * time.Second

// connectWait bounds a keeper's reaching its browser: within the starting
// call's wait for it, so that a server that queues the connection is
// reported by the keeper (noteFailure) before that call gives up.
const connectWait = startWait - time.Second

func newKeeper(ctx context.Context, cfg Config, dir string, lg *log.Logger) (*keeper, error) {
	cctx, cancel := context.WithTimeout(ctx, connectWait)
	defer cancel()
	b, err := connect(cctx, cfg)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	k := &keeper{cfg: cfg, dir: dir, browser: b, log: lg, started: now, stop: make(chan struct{}),
		held: map[string]*heldTab{}, lastCall: now, seen: map[string]time.Time{}, found: map[string]time.Time{},
		kept: fleet.Kept(cfg.Endpoint)}
	// A keeper started again inherits its launched Chrome: the browser's
	// websocket URL names one run of it.
	if cfg.Launched {
		k.noteLaunched()
	} else if data, err := cfg.Temp.ReadFile(launchedPath(dir), 1<<12); err == nil && string(data) == k.browserURL() {
		k.cfg.Launched = true
	}
	k.relay = newRelay(b.Conn)
	k.recs = newRecorder(k)
	go k.followDetaches()
	return k, nil
}

func (k *keeper) browserURL() string {
	if v := k.browser.Version; v != nil {
		return v.WebSocketDebuggerURL
	}
	return ""
}

// publish writes keeper.json, which tells calls how to reach it and the
// token they must show.
func (k *keeper) publish(addr string) error {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	k.addr, k.token = addr, hex.EncodeToString(b)
	data, err := json.Marshal(record{Version: protocol, PID: os.Getpid(), Addr: k.addr, Token: k.token, Started: k.started})
	if err != nil {
		return err
	}
	return k.cfg.Temp.WriteFile(recordPath(k.dir), data)
}

// run ticks the keeper's clock until it has nothing to hold, its Chrome
// is gone, or it is told to stop; it says why it ends.
func (k *keeper) run(ctx context.Context) string {
	tick := time.NewTicker(k.tickEvery())
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return "signalled"
		case <-k.stop:
			return "asked to stop"
		case <-k.browser.Conn.Done():
			return k.connectionLost(time.Now())
		case <-tick.C:
			k.mu.Lock()
			why := k.tick(ctx, time.Now())
			k.exiting = why != ""
			k.mu.Unlock()
			if why != "" {
				return why
			}
		}
	}
}

// tickEvery is how often the keeper looks at its duties: a tenth of the
// idle time, within 100 ms and 30 s.
func (k *keeper) tickEvery() time.Duration {
	every := 30 * time.Second
	if k.cfg.Idle > 0 {
		every = min(max(k.cfg.Idle/10, 100*time.Millisecond), 30*time.Second)
	}
	if ping := fleet.KeepAliveEvery(k.cfg.Endpoint); k.kept && ping > 0 {
		every = min(every, max(ping/2, 100*time.Millisecond)) // twice within each ping's time
	}
	return every
}

// tick closes what has been idle too long and says why the keeper ends,
// if it does.
func (k *keeper) tick(ctx context.Context, now time.Time) string {
	if k.recs.running() { // nothing idle closes under a recording, and the keeper stays
		return ""
	}
	// Within a hold's time: a call's request waits for a tick, and one
	// that waits past askWait takes the keeper for hung.
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	k.clock.Lock()
	lastCall, launched := k.lastCall, k.cfg.Launched
	k.clock.Unlock()
	if k.cfg.Idle > 0 && launched && now.Sub(lastCall) >= k.cfg.Idle {
		k.exitChrome(tctx, now)
		return fmt.Sprintf("closed its Chrome after %v with no call", k.cfg.Idle)
	}
	if k.cfg.Idle > 0 && k.kept && now.Sub(lastCall) >= k.cfg.Idle {
		k.letGo(now, fmt.Sprintf("after %s with no call", Duration(k.cfg.Idle)))
		return fmt.Sprintf("released its browser after %v with no call", k.cfg.Idle)
	}
	k.keepAlive(ctx, now)
	sessions := k.sessions(tctx)
	k.closeIdleSessions(tctx, now, sessions)
	downloads := k.relay.watching() && now.Sub(lastCall) < watchIdle
	if len(k.held) == 0 && !downloads && !k.kept && !(k.cfg.Idle > 0 && (launched || len(sessions) > 0)) {
		return "nothing to hold"
	}
	return ""
}

// serve answers calls, one request per connection.
func (k *keeper) serve(ctx context.Context, ln net.Listener) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go k.answer(ctx, conn)
	}
}

func (k *keeper) answer(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(askWait))
	line, err := bufio.NewReader(io.LimitReader(conn, 1<<16)).ReadBytes('\n')
	if err != nil {
		return
	}
	var req request
	if json.Unmarshal(line, &req) != nil || subtle.ConstantTimeCompare([]byte(req.Token), []byte(k.token)) != 1 {
		return // not a call of this user's: it read no keeper.json
	}
	if req.Record != nil && req.Record.Stop { // it writes the recording's files first
		_ = conn.SetDeadline(time.Now().Add(time.Duration(req.Record.Wait)*time.Millisecond + askWait))
	}
	_ = json.NewEncoder(conn).Encode(k.handle(ctx, req))
}

// handle answers one request. Only holds, status and stop wait for mu:
// a call's visit and its downloads never wait on a tab's hold or a tick.
func (k *keeper) handle(ctx context.Context, req request) reply {
	if req.Version != protocol {
		return reply{Failure: &Failure{Message: fmt.Sprintf("keeper: protocol %d, asked %d", protocol, req.Version)}}
	}
	if req.Op != "events" && req.Op != "status" {
		k.visited(req)
	}
	switch req.Op {
	case "visit":
		return reply{}
	case "events":
		return k.events(ctx, req)
	case "record":
		return k.recs.answer(ctx, req)
	case "watch":
		wctx, cancel := context.WithTimeout(ctx, holdWait)
		defer cancel()
		seq, err := k.relay.watch(wctx, req.Context, req.Dir)
		rep := reply{Seq: seq}
		if err != nil {
			rep.Failure = failure(err)
		}
		return rep
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.exiting {
		return reply{Failure: &Failure{Message: "keeper: exiting", Exiting: true}}
	}
	switch req.Op {
	case "hold":
		return k.holdFor(ctx, req.Target)
	case "status":
		return reply{Status: k.status(ctx)}
	case "stop":
		k.exiting = true
		close(k.stop)
		return reply{}
	case "release":
		if k.kept {
			k.letGo(time.Now(), "when its last tab was closed")
		}
		k.exiting = true
		close(k.stop)
		return reply{}
	}
	return reply{Failure: &Failure{Message: fmt.Sprintf("keeper: no op %q", req.Op)}}
}

// visited notes a call's request: the idle clocks start again, and a
// call that launched the keeper's Chrome says so.
func (k *keeper) visited(req request) {
	now := time.Now()
	k.clock.Lock()
	defer k.clock.Unlock()
	k.lastCall = now
	if req.Session != "" {
		k.seen[req.Session] = now
	}
	if req.Launched && !k.cfg.Launched && req.Browser == k.browserURL() {
		k.cfg.Launched = true
		k.noteLaunched()
		k.log.Printf("closes its Chrome, which a call launched, after %v with no call", k.cfg.Idle)
	}
}

// noteLaunched keeps, beside the keeper, which run of Chrome cdpskill
// launched, for a keeper started after this one.
func (k *keeper) noteLaunched() {
	if err := k.cfg.Temp.WriteFile(launchedPath(k.dir), []byte(k.browserURL())); err != nil {
		k.log.Print(err)
	}
}

// holdFor syncs the tabs' emulation and answers for target: whether it
// holds it now, and held it so before.
func (k *keeper) holdFor(ctx context.Context, target string) reply {
	hctx, cancel := context.WithTimeout(ctx, holdWait)
	defer cancel()
	before := k.held[target]
	var was page.Emulation
	if before != nil {
		was = before.em
	}
	rep := reply{Failure: k.sync(hctx)[target]}
	h := k.held[target]
	if _, wanted := k.wanting[target]; wanted && rep.Failure == nil && h == nil {
		rep.Failure = &Failure{Message: "keeper: the tab is not among its browser's tabs"}
	}
	rep.Already = before != nil && h == before && reflect.DeepEqual(was, h.em)
	return rep
}

// events answers a call's ask for download events, within its wait.
func (k *keeper) events(ctx context.Context, req request) reply {
	wait := min(time.Duration(req.Wait)*time.Millisecond, holdWait)
	if req.Flush {
		wait = holdWait
	}
	ectx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	evs, seq := k.relay.since(ectx, req.Since, req.Flush)
	return reply{Events: evs, Seq: seq}
}

func (k *keeper) status(ctx context.Context) *Status {
	sctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	st := &Status{PID: os.Getpid(), Since: k.started.Local().Format(time.DateTime), Sessions: k.sessions(sctx),
		Downloads: k.relay.watching(), Recording: k.recs.labels(), KeepsBrowser: k.kept}
	if k.cfg.Idle > 0 {
		k.clock.Lock()
		st.IdleClose, st.ClosesChrome = Duration(k.cfg.Idle), k.cfg.Launched
		k.clock.Unlock()
	}
	for _, h := range k.held {
		if !h.em.IsZero() {
			st.Emulating = append(st.Emulating, h.label)
		}
		if h.routes != nil {
			st.Routing = append(st.Routing, h.label)
		}
	}
	slices.Sort(st.Emulating)
	slices.Sort(st.Routing)
	return st
}

// heldTab is a tab whose emulation or routes the keeper holds on a
// session of its own.
type heldTab struct {
	page *page.Page
	em   page.Emulation
	// routes serves rules, the tab's; nil while it has none.
	routes *route.Server
	rules  []route.Rule
	// traffic records its requests between calls.
	traffic *traffic
	// label names the tab for chromeStatus: its alias, a session's as
	// session/alias.
	label string
}
