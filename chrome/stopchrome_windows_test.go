package chrome

import (
	"os"
	"testing"
)

// stopChrome ends a Chrome that Launch started.
func stopChrome(t *testing.T, pid int) {
	t.Helper()
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
		_, _ = p.Wait()
	}
}
