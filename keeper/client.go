package keeper

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/fleet"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/tabs"
)

// Client is a call's way to its browsers' keepers: it tells one that the
// call ran, asks one to hold a tab's emulation, and starts one when the
// call leaves it something to hold or finds it gone. A nil *Client, or
// one without an Exe, never starts one: the call does without.
type Client struct {
	Exe  *Exe
	Temp private.Temp
	// Idle is what a keeper it starts is given (IdleFrom).
	Idle time.Duration
}

// Bounds on talking to a keeper. It answers from memory, or after a few
// CDP commands for a hold, so one that has not answered in these is hung.
const (
	askWait   = 3 * time.Second
	holdWait  = 2 * time.Second // within askWait: a slow hold is not taken for a hung keeper
	startWait = 5 * time.Second
)

// Visit tells the keeper of the browser at ep that a call ran there, in
// session (the idle clocks start again), and starts one when none runs
// and the call leaves it something to hold: a session's context, or the
// Chrome the call launched, whose websocket URL launched is ("" for
// none). What it returns is for the agent: a keeper that had died, or
// could not be had.
func (c *Client) Visit(ctx context.Context, ep chrome.Endpoint, session, launched string) string {
	if c == nil {
		return ""
	}
	req := request{Op: "visit", Session: session, Launched: launched != "", Browser: launched}
	_, _, note, _, err := c.do(ctx, ep, req, session != "" || launched != "" || fleet.Kept(ep))
	if err != nil && ctx.Err() == nil { // a call cut short has its own news
		what := "this session is not closed when idle"
		switch {
		case fleet.Kept(ep):
			what = "nothing keeps this browser between calls (browserless closes it when this call ends) nor releases it"
		case session == "":
			what = "the Chrome cdpskill launched is not closed when idle"
		}
		return page.JoinNotes(note, fmt.Sprintf("no keeper runs for this browser (%v): %s", err, what))
	}
	return note
}

// Hold asks the keeper of the browser at ep to hold the emulation target's
// file now says (Stored), starting one if none runs; nil means it is in
// force on the tab, for this call and while no call runs. already says
// the keeper held it so before the call asked: the page had it while no
// call ran. A value Chrome refused is an *invalid.Option, as
// page.Change's.
func (c *Client) Hold(ctx context.Context, ep chrome.Endpoint, target string) (already bool, note string, err error) {
	if c == nil || c.Exe == nil {
		return false, "", errNoExe
	}
	rep, _, note, started, err := c.do(ctx, ep, request{Op: "hold", Target: target}, true)
	if err != nil {
		return false, note, err
	}
	if f := rep.Failure; f != nil {
		if f.Field != "" {
			return false, note, &invalid.Option{Field: f.Field, Value: f.Value, Reason: f.Reason}
		}
		return false, note, errors.New(f.Message)
	}
	return rep.Already && !started, note, nil
}

var errNoExe = errors.New("no keeper can be started in this process")

// Look is what the keeper of the browser at ep holds; nil when none
// runs there.
func Look(ctx context.Context, temp private.Temp, ep chrome.Endpoint) *Status {
	rec, ok := readRecord(temp, Dir(temp, ep))
	if !ok {
		return nil
	}
	rep, err := ask(ctx, rec, request{Version: protocol, Op: "status"})
	if err != nil {
		return nil
	}
	return rep.Status
}

// Stop asks the keeper of the browser at ep to exit, and waits until it
// has; its duties go with it.
func Stop(ctx context.Context, temp private.Temp, ep chrome.Endpoint) error {
	dir := Dir(temp, ep)
	rec, ok := readRecord(temp, dir)
	if !ok {
		return nil
	}
	if _, err := ask(ctx, rec, request{Version: protocol, Op: "stop"}); err != nil {
		// One exiting on its own as it was asked closes the connection
		// unanswered, and takes its record away as it goes.
		wctx, cancel := context.WithTimeout(ctx, exitingWait)
		defer cancel()
		if recordGone(wctx, temp, dir) {
			return nil
		}
		return err
	}
	if recordGone(ctx, temp, dir) {
		return nil
	}
	return ctx.Err()
}

// exitingWait bounds waiting for a keeper that did not answer to be
// seen going.
const exitingWait = 2 * time.Second

// recordGone waits, within ctx, until the record of the keeper in dir
// is gone, as a keeper's that exited.
func recordGone(ctx context.Context, temp private.Temp, dir string) bool {
	for ctx.Err() == nil {
		if _, ok := readRecord(temp, dir); !ok {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

// do sends req to the keeper of the browser at ep and returns its reply
// and record. It starts one first (started) when none answers and need
// says the call leaves it something, or one that had duties died, was
// hung, or is exiting or speaks another protocol. A call whose own time
// ran out blames no keeper.
func (c *Client) do(ctx context.Context, ep chrome.Endpoint, req request, need bool) (rep reply, rec record, note string, started bool, err error) {
	req.Version = protocol
	dir := Dir(c.Temp, ep)
	var gone *record
	var goneErr error
	if old, ok := readRecord(c.Temp, dir); ok {
		if old.Version != protocol {
			_, _ = ask(ctx, old, request{Version: protocol, Op: "stop"}) // an older cdpskill's: replaced on the quiet
			need = true
		} else {
			rep, err := ask(ctx, old, req)
			switch {
			case err == nil && (rep.Failure == nil || !rep.Failure.Exiting):
				return rep, old, "", false, nil
			case ctx.Err() != nil:
				return reply{}, old, "", false, err
			case err == nil: // exiting: its successor takes over
				need = true
			default: // gone, or hung: it holds nothing now
				need, gone, goneErr = true, &old, err
			}
		}
	}
	if !need || c.Exe == nil {
		if gone != nil {
			note = died(c.Temp, *gone, dir, goneErr) + "; no new one could be started in this process"
		}
		return reply{}, rec, note, false, nil
	}
	what := ""
	if gone != nil {
		what = died(c.Temp, *gone, dir, goneErr)
	}
	rec, err = c.start(ctx, ep, dir, req.Launched)
	if err == nil {
		rep, err = ask(ctx, rec, req)
	}
	switch {
	case what != "" && err == nil:
		note = what + "; a new one holds its duties again, but while none ran, emulation and download settings did not hold between calls, nor were idle sessions closed"
	case what != "":
		note = what + ", and no new one could be had"
	}
	return rep, rec, note, err == nil, err
}

// died says what became of a keeper that did not answer. One that hung
// (its ask timed out while it held the browser's keeper lock) is killed:
// it still holds the browser's sessions, and another cannot take its
// lock.
func died(temp private.Temp, rec record, dir string, err error) string {
	what := "had stopped"
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		what = "did not answer"
		if unlock, lerr := tabs.LockFile(temp, lockPath(dir), 0); lerr == nil {
			unlock() // no keeper holds the lock: the pid is not a keeper's now
		} else if p, ferr := os.FindProcess(rec.PID); ferr == nil && p.Kill() == nil {
			what = "did not answer and was stopped"
		}
	}
	return fmt.Sprintf("cdpskill's keeper of this browser %s (pid %d, started %s; its log: %s)",
		what, rec.PID, rec.Started.Local().Format("15:04:05"), logPath(dir))
}

// start starts a keeper for the browser at ep and returns its record once
// it answers. Starts are one at a time per browser: a call that waited
// for another's finds that one's keeper.
func (c *Client) start(ctx context.Context, ep chrome.Endpoint, dir string, launched bool) (record, error) {
	unlock, err := tabs.LockFile(c.Temp, startPath(dir), startWait)
	if err != nil {
		return record{}, fmt.Errorf("another call was starting a keeper for %v and did not finish", startWait)
	}
	defer unlock()
	if rec, ok := readRecord(c.Temp, dir); ok && rec.Version == protocol {
		if rep, err := ask(ctx, rec, request{Version: protocol, Op: "visit"}); err == nil && rep.Failure == nil {
			return rec, nil // another call's, started while this one waited
		}
	}
	cfg, err := json.Marshal(Config{Endpoint: ep.WithDefaults(), Temp: c.Temp, Idle: c.Idle, Launched: launched, Token: ep.Token})
	if err != nil {
		return record{}, err
	}
	_ = takeFailure(c.Temp, dir) // an earlier keeper's
	pid, exited, err := c.spawn(dir, cfg)
	if err != nil {
		return record{}, fmt.Errorf("keeper: cannot start %s: %w", c.Exe.Path, err)
	}
	wctx, cancel := context.WithTimeout(ctx, startWait)
	defer cancel()
	for {
		if rec, ok := readRecord(c.Temp, dir); ok && rec.PID == pid {
			return rec, nil
		}
		select {
		case <-exited:
			if why := takeFailure(c.Temp, dir); why != "" {
				return record{}, fmt.Errorf("keeper could not hold the browser: %s", why)
			}
			exited = nil // it left for another keeper of the browser, which the loop finds
		case <-wctx.Done():
			return record{}, fmt.Errorf("keeper (pid %d) did not start within %v; its log: %s", pid, startWait, logPath(dir))
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// spawn starts the keeper process, detached from the call (its own
// session, no terminal), its output to its log, its Config on its
// standard input; the call does not wait for it, but exited is closed
// if it ends while the call lives.
func (c *Client) spawn(dir string, cfg []byte) (int, <-chan struct{}, error) {
	if err := c.Temp.Dir(dir); err != nil {
		return 0, nil, err
	}
	if fi, err := os.Stat(logPath(dir)); err == nil && fi.Size() > 1<<20 {
		_ = os.Remove(logPath(dir)) // a log is for the last few keepers
	}
	log, err := c.Temp.OpenFile(logPath(dir), os.O_CREATE|os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return 0, nil, err
	}
	defer log.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return 0, nil, err
	}
	defer r.Close()
	cmd := exec.Command(c.Exe.Path, c.Exe.Args...)
	cmd.Env = append(os.Environ(), c.Exe.Env...)
	cmd.Dir = dir // not the agent's project, which it would keep busy
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, log, log
	chrome.Detach(cmd)
	if err := cmd.Start(); err != nil {
		w.Close()
		return 0, nil, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }() // reaps it if it exits while the call lives
	_, err = w.Write(cfg)
	w.Close()
	return cmd.Process.Pid, exited, err
}

// ask sends req to the keeper rec names and reads its reply, bounded by
// askWait.
func ask(ctx context.Context, rec record, req request) (reply, error) {
	return askWithin(ctx, rec, req, askWait)
}

// askWithin is ask bounded by wait.
func askWithin(ctx context.Context, rec record, req request, wait time.Duration) (reply, error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", rec.Addr)
	if err != nil {
		return reply{}, err
	}
	defer conn.Close()
	defer context.AfterFunc(ctx, func() { conn.Close() })() // a read ends with ctx too
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	req.Token = rec.Token
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return reply{}, err
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		if ctx.Err() != nil { // the read ended with ctx (AfterFunc)
			return reply{}, fmt.Errorf("keeper did not answer: %w", ctx.Err())
		}
		return reply{}, err
	}
	var rep reply
	if err := json.Unmarshal(line, &rep); err != nil {
		return reply{}, fmt.Errorf("keeper: unreadable reply: %w", err)
	}
	return rep, nil
}

// exitNote is what a keeper leaves when it asked its Chrome to exit.
type exitNote struct {
	At   time.Time     `json:"at"`
	Idle time.Duration `json:"idle"`
}

// ExitedWhy says why the Chrome at ep is gone when its keeper shut it
// down for being idle; "" otherwise.
func ExitedWhy(temp private.Temp, ep chrome.Endpoint) string {
	data, err := temp.ReadFile(exitPath(Dir(temp, ep)), 1<<12)
	if err != nil {
		return ""
	}
	var n exitNote
	if json.Unmarshal(data, &n) != nil {
		return ""
	}
	return fmt.Sprintf("cdpskill closed Chrome at %s after %s with no call", n.At.Local().Format("15:04:05"), Duration(n.Idle))
}

// TakeExitNote is ExitedWhy, for the call that launched a new Chrome at
// ep: the note is said once.
func TakeExitNote(temp private.Temp, ep chrome.Endpoint) string {
	why := ExitedWhy(temp, ep)
	_ = os.Remove(exitPath(Dir(temp, ep)))
	return why
}

// Duration is d as the agent reads it: "30 minutes", else Go's "1.5s".
func Duration(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0 && d/time.Minute == 1:
		return "1 minute"
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.String()
}
