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
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/private"
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
// and the call leaves it something to hold: need (a session's context, a
// Chrome the call launched, as launched says). What it returns is for the
// agent: a keeper that had died and was started again.
func (c *Client) Visit(ctx context.Context, ep chrome.Endpoint, session string, launched, need bool) string {
	if c == nil {
		return ""
	}
	_, note, _, err := c.do(ctx, ep, request{Op: "visit", Session: session}, launched, need)
	if err != nil {
		return strings.TrimPrefix(note+"; "+c.cannot(err, "closing the session when idle"), "; ")
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
		return false, "", errors.New("no keeper can be started in this process")
	}
	rep, note, started, err := c.do(ctx, ep, request{Op: "hold", Target: target}, false, true)
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

// Look is what the keeper of the browser at ep holds; nil when none
// runs there.
func Look(ctx context.Context, temp private.Temp, ep chrome.Endpoint) *Status {
	rec, ok := readRecord(temp, Dir(temp, ep))
	if !ok {
		return nil
	}
	rep, err := ask(ctx, rec, request{Op: "status"})
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
	if _, err := ask(ctx, rec, request{Op: "stop"}); err != nil {
		return err
	}
	for ctx.Err() == nil {
		if _, ok := readRecord(temp, dir); !ok {
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return ctx.Err()
}

// cannot says what a call went without when no keeper could be reached.
func (c *Client) cannot(err error, what string) string {
	if c.Exe == nil {
		return ""
	}
	return fmt.Sprintf("no keeper runs for this browser (%v): nothing is %s between calls", err, what)
}

// do sends req to the keeper of the browser at ep, starting one first
// (started) when none answers and need says the call leaves it
// something, or one died, whose duties are the next one's.
func (c *Client) do(ctx context.Context, ep chrome.Endpoint, req request, launched, need bool) (rep reply, note string, started bool, err error) {
	dir := Dir(c.Temp, ep)
	if rec, ok := readRecord(c.Temp, dir); ok {
		rep, err := ask(ctx, rec, req)
		if err == nil {
			return rep, "", false, nil
		}
		// Gone, or hung: a keeper that does not answer holds nothing.
		need = true
		note = died(rec, dir, err)
	}
	if !need || c.Exe == nil {
		return reply{}, note, false, nil
	}
	rec, err := c.start(ctx, ep, dir, launched)
	if err != nil {
		return reply{}, note, false, err
	}
	rep, err = ask(ctx, rec, req)
	return rep, note, true, err
}

// died is the agent's word on a keeper that did not answer. One that
// hung is killed: it still holds the browser's sessions, and another
// cannot take its lock.
func died(rec record, dir string, err error) string {
	what := "had stopped"
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		what = "did not answer and was stopped"
		if p, ferr := os.FindProcess(rec.PID); ferr == nil {
			_ = p.Kill()
		}
	}
	return fmt.Sprintf("cdpskill's keeper of this browser %s (pid %d, started %s; its log: %s); a new one holds its duties again, but while none did, emulation did not hold and idle sessions stayed open",
		what, rec.PID, rec.Started.Local().Format("15:04:05"), logPath(dir))
}

// start starts a keeper for the browser at ep and returns its record once
// it answers. Starts are one at a time per browser: a call that waited
// for another's finds that one's keeper.
func (c *Client) start(ctx context.Context, ep chrome.Endpoint, dir string, launched bool) (record, error) {
	unlock, err := tabs.LockFile(c.Temp, startPath(dir), startWait)
	if err != nil {
		return record{}, fmt.Errorf("keeper: %w", err)
	}
	defer unlock()
	if rec, ok := readRecord(c.Temp, dir); ok {
		if _, err := ask(ctx, rec, request{Op: "status"}); err == nil {
			return rec, nil
		}
	}
	cfg, err := json.Marshal(Config{Endpoint: ep.WithDefaults(), Temp: c.Temp, Idle: c.Idle, Launched: launched})
	if err != nil {
		return record{}, err
	}
	pid, err := c.spawn(dir, cfg)
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
		case <-wctx.Done():
			return record{}, fmt.Errorf("keeper (pid %d) did not start within %v; its log: %s", pid, startWait, logPath(dir))
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// spawn starts the keeper process, detached from the call (its own
// session, no terminal), its output to its log, its Config on its
// standard input; the call does not wait for it.
func (c *Client) spawn(dir string, cfg []byte) (int, error) {
	if err := c.Temp.Dir(dir); err != nil {
		return 0, err
	}
	if fi, err := os.Stat(logPath(dir)); err == nil && fi.Size() > 1<<20 {
		_ = os.Remove(logPath(dir)) // a log is for the last few keepers
	}
	log, err := c.Temp.OpenFile(logPath(dir), os.O_CREATE|os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return 0, err
	}
	defer log.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	cmd := exec.Command(c.Exe.Path, c.Exe.Args...)
	cmd.Env = append(os.Environ(), c.Exe.Env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, log, log
	chrome.Detach(cmd)
	if err := cmd.Start(); err != nil {
		w.Close()
		return 0, err
	}
	go func() { _ = cmd.Wait() }() // reaps it if it exits while the call lives
	_, err = w.Write(cfg)
	w.Close()
	return cmd.Process.Pid, err
}

// ask sends req to the keeper rec names and reads its reply, bounded by
// askWait.
func ask(ctx context.Context, rec record, req request) (reply, error) {
	ctx, cancel := context.WithTimeout(ctx, askWait)
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
