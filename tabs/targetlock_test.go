package tabs

import (
	"errors"
	"testing"
	"time"
)

// A free tab is taken at once; one held by another call is taken when it
// is released, saying how long the wait was; one held past the wait is a
// TargetBusyError. A closed tab's lock file goes with ForgetTarget.
func TestLockTarget(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	unlock, waited, err := LockTarget("", "T1", time.Second)
	if err != nil || waited != 0 {
		t.Fatalf("a free tab: waited %v, %v", waited, err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		unlock()
	}()
	unlock2, waited, err := LockTarget("", "T1", 10*time.Second)
	if err != nil || waited <= 0 {
		t.Fatalf("a tab released during the wait: waited %v, %v", waited, err)
	}
	_, _, err = LockTarget("", "T1", 50*time.Millisecond)
	var busy *TargetBusyError
	if !errors.As(err, &busy) || busy.TargetID != "T1" {
		t.Fatalf("a tab held past the wait: %v", err)
	}
	unlock2()
	ForgetTarget("", "T1")
	unlock3, waited, err := LockTarget("", "T1", time.Second)
	if err != nil || waited != 0 {
		t.Fatalf("a forgotten tab: waited %v, %v", waited, err)
	}
	unlock3()
}
