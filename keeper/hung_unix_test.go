//go:build unix

package keeper

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/private"
)

// A keeper that stops answering (here: stopped by a signal) is killed by
// the next call that needs it, which starts another and says so.
func TestHungKeeperReplaced(t *testing.T) {
	b := browser.Get(t)
	c := &Client{Exe: testExe, Temp: private.Temp(t.TempDir()), Idle: time.Hour}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if note := c.Visit(ctx, b.Endpoint, "s", ""); note != "" {
		t.Fatalf("first visit: %s", note)
	}
	first := Look(ctx, c.Temp, b.Endpoint)
	if first == nil {
		t.Fatal("no keeper runs after a visit that needs one")
	}
	t.Cleanup(func() { Stop(context.Background(), c.Temp, b.Endpoint) })
	if err := syscall.Kill(first.PID, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitStopped(t, first.PID)
	note := c.Visit(ctx, b.Endpoint, "s", "")
	if !strings.Contains(note, "did not answer and was stopped") {
		t.Errorf("note: %q", note)
	}
	second := Look(ctx, c.Temp, b.Endpoint)
	if second == nil || second.PID == first.PID {
		t.Fatalf("the keeper after: %+v", second)
	}
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(first.PID, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the hung keeper %d still runs", first.PID)
		}
	}
}

// waitStopped waits until every thread of pid has stopped: a SIGSTOP takes
// each thread as it next runs, and one already running can still answer
// the call that follows it. Without /proc (not Linux) it cannot tell.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
	for deadline := time.Now().Add(10 * time.Second); len(tasks) > 0; time.Sleep(5 * time.Millisecond) {
		running := 0
		for _, f := range tasks {
			stat, err := os.ReadFile(f)
			// The state follows the command name, which is in parentheses.
			if i := bytes.LastIndexByte(stat, ')'); err == nil && i+2 < len(stat) && stat[i+2] != 'T' && stat[i+2] != 't' {
				running++
			}
		}
		if running == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("keeper %d: %d threads still run after SIGSTOP", pid, running)
		}
	}
}

// A keeper an older cdpskill started, which speaks another protocol (it
// would answer a download watch it does not know with nothing), is asked
// to stop and replaced.
func TestOlderKeeperReplaced(t *testing.T) {
	b := browser.Get(t)
	c := &Client{Exe: testExe, Temp: private.Temp(t.TempDir()), Idle: time.Hour}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	asked := make(chan string, 4)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			var req request
			if json.NewDecoder(conn).Decode(&req) == nil {
				asked <- req.Op
			}
			conn.Write([]byte("{}\n"))
			conn.Close()
		}
	}()
	dir := Dir(c.Temp, b.Endpoint)
	old, _ := json.Marshal(record{PID: 1 << 22, Addr: ln.Addr().String(), Token: "t", Started: time.Now()})
	if err := c.Temp.WriteFile(recordPath(dir), old); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	t.Cleanup(func() { Stop(context.Background(), c.Temp, b.Endpoint) })
	if note := c.Visit(ctx, b.Endpoint, "s", ""); note != "" {
		t.Errorf("note: %q", note)
	}
	if op := <-asked; op != "stop" {
		t.Errorf("the older keeper was asked %q", op)
	}
	if k := Look(ctx, c.Temp, b.Endpoint); k == nil || k.PID == 1<<22 {
		t.Errorf("the keeper after: %+v", k)
	}
}
