package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Why a spawner: a child's peak RSS (getrusage's ru_maxrss) is not its
// own on Linux. Go starts a child with vfork, sharing the parent's memory
// until exec, and exec records the high-water mark of that memory as the
// child's: a child of the bench, which holds snapshots of 50,000-element
// pages, would show the bench's peak instead of its own. So the calls are
// started by a process of their own, this binary again in spawner mode,
// whose high-water mark (some 10 MB, the binary's own pages) is under any
// cdpskill call's; each reply carries it, and a reading not above it is
// flagged (sample.rssUnsure). The spawner also times each call, from
// start to exit.
//
// The spawner reads one request per line on stdin, runs the requests
// concurrently and answers each with one line on stdout, in the order
// they end; it exits when stdin closes.

// spawnerMark in the environment makes this binary a spawner.
const spawnerMark = "CDPSKILL_BENCH_SPAWNER"

type spawnRequest struct {
	ID   int      `json:"id"`
	Argv []string `json:"argv"`
}

type spawnReply struct {
	ID     int    `json:"id"`
	NS     int64  `json:"ns"`
	Stdout []byte `json:"stdout"`
	Stderr string `json:"stderr,omitempty"`
	RSSKB  int64  `json:"rssKb"`
	// CPUNS is the process's user and system CPU time.
	CPUNS int64 `json:"cpuNs"`
	// SelfKB is the high-water mark of the spawner's memory: an RSSKB
	// not above it may be the spawner's, not the call's.
	SelfKB int64 `json:"selfKb"`
	// Err is why the process failed: it did not start, was killed at the
	// time limit, or exited non-zero.
	Err      string `json:"err,omitempty"`
	TimedOut bool   `json:"timedOut,omitempty"`
}

// spawnerMain serves requests until in closes.
func spawnerMain(in io.Reader, out io.Writer) int {
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, spawnerMark+"=") {
			env = append(env, kv)
		}
	}
	var mu sync.Mutex
	enc := json.NewEncoder(out)
	var wg sync.WaitGroup
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var req spawnRequest
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil || len(req.Argv) == 0 {
			fmt.Fprintf(os.Stderr, "spawner: bad request %.200q\n", sc.Text())
			return 1
		}
		wg.Go(func() {
			rep := spawnOne(req, env)
			mu.Lock()
			defer mu.Unlock()
			enc.Encode(rep)
		})
	}
	wg.Wait()
	return 0
}

func spawnOne(req spawnRequest, env []string) spawnReply {
	ctx, cancel := context.WithTimeout(context.Background(), callLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, req.Argv[0], req.Argv[1:]...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	rep := spawnReply{ID: req.ID, NS: int64(time.Since(start)), Stdout: stdout.Bytes(), Stderr: stderr.String()}
	if cmd.ProcessState != nil {
		rep.RSSKB = peakRSSKB(cmd.ProcessState)
		rep.CPUNS = int64(cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime())
	}
	rep.SelfKB = selfPeakRSSKB()
	if err != nil {
		rep.Err = err.Error()
	}
	rep.TimedOut = ctx.Err() != nil
	return rep
}

// spawner is the bench's side of a spawner process.
type spawner struct {
	cmd *exec.Cmd
	in  io.WriteCloser

	mu      sync.Mutex
	next    int
	pending map[int]chan spawnReply
	done    chan struct{} // closed when the spawner's output ends
}

// startSpawner starts this binary as a spawner whose children get env.
func startSpawner(env []string) (*spawner, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(env, spawnerMark+"=1")
	cmd.Stderr = os.Stderr
	dieWithParent(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &spawner{cmd: cmd, in: in, pending: map[int]chan spawnReply{}, done: make(chan struct{})}
	go s.read(outPipe)
	return s, nil
}

func (s *spawner) read(r io.Reader) {
	defer close(s.done)
	dec := json.NewDecoder(r)
	for {
		var rep spawnReply
		if err := dec.Decode(&rep); err != nil {
			return
		}
		s.mu.Lock()
		ch := s.pending[rep.ID]
		delete(s.pending, rep.ID)
		s.mu.Unlock()
		if ch != nil {
			ch <- rep
		}
	}
}

// run has the spawner run argv and waits for its reply.
func (s *spawner) run(ctx context.Context, argv []string) (spawnReply, error) {
	ch := make(chan spawnReply, 1)
	s.mu.Lock()
	s.next++
	id := s.next
	s.pending[id] = ch
	line, err := json.Marshal(spawnRequest{ID: id, Argv: argv})
	if err == nil {
		_, err = s.in.Write(append(line, '\n'))
	}
	s.mu.Unlock()
	if err != nil {
		return spawnReply{}, fmt.Errorf("spawner: %w", err)
	}
	select {
	case rep := <-ch:
		return rep, nil
	case <-s.done:
		return spawnReply{}, errors.New("spawner: ended before answering")
	case <-ctx.Done():
		return spawnReply{}, ctx.Err()
	}
}

// close ends the spawner once its calls have ended.
func (s *spawner) close() {
	s.in.Close()
	s.cmd.Wait()
}
