package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of the CPU times in /proc/<pid>/stat: USER_HZ,
// 100 on every Linux.
const userHZ = 100

// chromeMeter reads the CPU time Chrome has spent: user and system time
// of the browser process and of every process under it (zygotes,
// renderers, the GPU and utility processes), read from /proc. A process
// that ended was reaped by one of them, which counts its time as its
// children's (cutime, cstime), so the sum only grows.
type chromeMeter struct{ root int }

// newChromeMeter finds the browser among the bench's children: the one
// that is not the spawner. Nil when it cannot be told.
func newChromeMeter(spawner int) *chromeMeter {
	procs, ok := readProcs()
	if !ok {
		return nil
	}
	root := 0
	for pid, p := range procs {
		if p.ppid == os.Getpid() && pid != spawner {
			if root != 0 {
				return nil // two candidates: neither is sure
			}
			root = pid
		}
	}
	if root == 0 {
		return nil
	}
	return &chromeMeter{root: root}
}

// read is the CPU time of the browser and its descendants so far.
func (m *chromeMeter) read() (time.Duration, bool) {
	if m == nil {
		return 0, false
	}
	procs, ok := readProcs()
	if !ok {
		return 0, false
	}
	return treeCPU(procs, m.root)
}

// cpuNow reads the CPU time spent so far by Chrome (m), by the bench's
// own processes (this one and all under it: Chrome, the spawner and the
// calls it reaped) and by the whole machine, all from one reading.
func (m *chromeMeter) cpuNow() cpuMark {
	c := cpuMark{at: time.Now()}
	procs, ok := readProcs()
	if !ok {
		return c
	}
	if m != nil {
		c.chrome, c.chromeOK = treeCPU(procs, m.root)
	}
	own, ok := treeCPU(procs, os.Getpid())
	idle, total, got := cpuTimes()
	if ok && got {
		c.own, c.machine, c.machineOK = own, time.Duration(total-idle)*time.Second/userHZ, true
	}
	return c
}

// treeCPU is the CPU time of root and its descendants; false when root
// is gone.
func treeCPU(procs map[int]procCPU, root int) (time.Duration, bool) {
	if procs[root].ppid == 0 {
		return 0, false
	}
	kids := map[int][]int{}
	for pid, p := range procs {
		kids[p.ppid] = append(kids[p.ppid], pid)
	}
	var ticks uint64
	todo := []int{root}
	for len(todo) > 0 {
		pid := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		ticks += procs[pid].ticks
		todo = append(todo, kids[pid]...)
	}
	return time.Duration(ticks) * time.Second / userHZ, true
}

type procCPU struct {
	ppid  int
	ticks uint64 // utime + stime + cutime + cstime
}

// readProcs reads every process's parent and CPU time.
func readProcs() (map[int]procCPU, bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	procs := make(map[int]procCPU, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // it ended
		}
		// The name, in parentheses, may hold spaces and parentheses:
		// the fields start after the last ')'. From there, field 0 is
		// the state, 1 ppid, 11-14 utime, stime, cutime, cstime.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 15 {
			continue
		}
		p := procCPU{}
		p.ppid, _ = strconv.Atoi(f[1])
		for _, v := range f[11:15] {
			n, _ := strconv.ParseInt(v, 10, 64)
			if n > 0 {
				p.ticks += uint64(n)
			}
		}
		procs[pid] = p
	}
	return procs, true
}
