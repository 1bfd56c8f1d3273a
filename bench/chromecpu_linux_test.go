package main

import (
	"os"
	"testing"
	"time"
)

func TestChromeMeter(t *testing.T) {
	procs, ok := readProcs()
	if !ok || procs[os.Getpid()].ppid != os.Getppid() {
		t.Fatalf("this process's entry: %+v (ok %v)", procs[os.Getpid()], ok)
	}
	// A meter rooted at this process counts its own CPU time.
	m := &chromeMeter{root: os.Getpid()}
	start, ok := m.read()
	if !ok {
		t.Fatal("no reading")
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if now, _ := m.read(); now > start {
			return
		}
	}
	t.Error("the meter did not see this process's CPU time grow")
}

func TestCPUNow(t *testing.T) {
	c := (*chromeMeter)(nil).cpuNow()
	if c.chromeOK || !c.machineOK || c.machine < c.own {
		t.Errorf("a reading without Chrome: %+v", c)
	}
	var m measured
	later := c
	later.at = c.at.Add(time.Second)
	later.machine += 1500 * time.Millisecond
	later.own += 500 * time.Millisecond
	m.addWindow(c, later)
	if r := judge("x", m, target{}, 0); r.OthersCores != 1 {
		t.Errorf("others: %v cores, want 1", r.OthersCores)
	}
}
