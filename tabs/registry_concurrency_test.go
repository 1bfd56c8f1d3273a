package tabs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"

	"github.com/cdpskill/cdpskill/chrome"
)

// checkAllRegistered fails unless every id got its own alias, the file holds
// all of them, and the counter sits just past the last.
func checkAllRegistered(t *testing.T, r *Registry, got map[string]string, total int) {
	t.Helper()
	if len(got) != total {
		t.Fatalf("%d registrations returned an alias, want %d", len(got), total)
	}
	owner := map[string]string{}
	for id, a := range got {
		if prev, dup := owner[a]; dup {
			t.Fatalf("alias %s handed to both %s and %s", a, prev, id)
		}
		owner[a] = id
	}
	st := readSound(t, r)
	if len(st.tabs) != total {
		t.Errorf("file holds %d entries, want %d", len(st.tabs), total)
	}
	for id, a := range got {
		if st.tabs[a].TargetID != id {
			t.Errorf("file maps %s to %q, want %q", a, st.tabs[a].TargetID, id)
		}
	}
	if st.nextID != int64(total)+1 {
		t.Errorf("nextId = %d, want %d", st.nextID, total+1)
	}
}

func TestRegistryConcurrentGoroutines(t *testing.T) {
	const workers, each = 20, 5
	for _, k := range lockKinds {
		t.Run(k.name, func(t *testing.T) {
			r, _ := newTestRegistry(t)
			var (
				mu      sync.Mutex
				got     = map[string]string{}
				reports int
				wg      sync.WaitGroup
			)
			for w := range workers {
				// A handle per goroutine, as separate processes would have.
				rw := OpenRegistry(r.path)
				rw.lock = k.lock
				rw.OnCorrupt = func(error) { mu.Lock(); reports++; mu.Unlock() }
				wg.Go(func() {
					for i := range each {
						id := fmt.Sprintf("G%02d-%d", w, i)
						a, err := rw.Register(id, chrome.Endpoint{})
						if err != nil {
							t.Error(err)
							return
						}
						// Lock-free readers must never see a partial file.
						if _, _, found, err := rw.Resolve(a); err != nil || !found {
							t.Errorf("Resolve(%s) right after Register: %v, %v", a, found, err)
						}
						mu.Lock()
						got[id] = a
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			if reports > 0 {
				t.Errorf("%d corruption reports under concurrency", reports)
			}
			checkAllRegistered(t, r, got, workers*each)
		})
	}
}

// registryChildEnv, when set, turns the test binary into a child that
// registers targets and exits. The check runs in init, before TestMain,
// so a child does not start the package's shared Chromium.
const registryChildEnv = "CDPSKILL_TEST_REGISTRY_CHILD"

type registryChildJob struct {
	Path   string `json:"path"`
	Prefix string `json:"prefix"`
	N      int    `json:"n"`
	Excl   bool   `json:"excl"`
}

func init() {
	if job := os.Getenv(registryChildEnv); job != "" {
		os.Exit(registryChild(job))
	}
}

// registryChild waits on stdin so all children start together, then
// registers its targets and prints "id alias" per line.
func registryChild(jobJSON string) int {
	var job registryChildJob
	if err := json.Unmarshal([]byte(jobJSON), &job); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	r := OpenRegistry(job.Path)
	if job.Excl {
		r.lock = exclLock
	}
	status := 0
	r.OnCorrupt = func(err error) { fmt.Fprintln(os.Stderr, err); status = 3 }
	io.ReadFull(os.Stdin, make([]byte, 1))
	for i := range job.N {
		id := job.Prefix + "-" + strconv.Itoa(i)
		a, err := r.Register(id, chrome.Endpoint{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(id, a)
	}
	return status
}

func TestRegistryConcurrentProcesses(t *testing.T) {
	const procs, each = 4, 25
	for _, k := range lockKinds {
		t.Run(k.name, func(t *testing.T) {
			r, _ := newTestRegistry(t)
			children := make([]*registryProc, procs)
			for i := range children {
				job := registryChildJob{Path: r.path, Prefix: fmt.Sprintf("P%d", i), N: each, Excl: k.name == "excl"}
				children[i] = startRegistryChild(t, job)
			}
			for _, c := range children {
				c.stdin.Write([]byte{'g'}) // the starting gun
				c.stdin.Close()
			}
			got := map[string]string{}
			for _, c := range children {
				c.collect(t, got)
			}
			checkAllRegistered(t, r, got, procs*each)
		})
	}
}

type registryProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.Reader
	stderr *lockedBuffer
}

func startRegistryChild(t *testing.T, job registryChildJob) *registryProc {
	t.Helper()
	spec, _ := json.Marshal(job)
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestRegistryConcurrentProcesses$")
	cmd.Env = append(os.Environ(), registryChildEnv+"="+string(spec))
	p := &registryProc{cmd: cmd, stderr: &lockedBuffer{}}
	cmd.Stderr = p.stderr
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if p.stdout, err = cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return p
}

// collect reads the child's "id alias" lines into got and waits for it.
func (p *registryProc) collect(t *testing.T, got map[string]string) {
	t.Helper()
	sc := bufio.NewScanner(p.stdout)
	for sc.Scan() {
		var id, alias string
		if _, err := fmt.Sscan(sc.Text(), &id, &alias); err != nil {
			t.Errorf("child wrote %q", sc.Text())
			continue
		}
		got[id] = alias
	}
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("child %v: %v\n%s", p.cmd.Env[len(p.cmd.Env)-1], err, p.stderr.String())
	}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
