//go:build unix

package tabs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/chrome"
)

// The registry holds endpoints' tokens and which tabs are open: its file
// and lock are 0600, and one that is a link or another user's is refused,
// never read or written through.
func TestRegistryIsPrivate(t *testing.T) {
	r, _ := newTestRegistry(t)
	mustRegister(t, r, idA, chrome.Endpoint{})
	for _, p := range []string{r.path, r.path + ".lock"} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v, want 0600", p, fi, err)
		}
	}

	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	linked := OpenRegistry(filepath.Join(t.TempDir(), "tabs.json"))
	os.Symlink(victim, linked.path)
	if _, err := linked.Register(idA, chrome.Endpoint{}); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("Register through a link: %v", err)
	}
	if _, _, _, err := linked.Resolve("t1"); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("Resolve through a link: %v", err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Errorf("the link's target became %q", data)
	}

	if os.Geteuid() != 0 {
		return // only root can give a file to another user
	}
	theirs := OpenRegistry(filepath.Join(t.TempDir(), "tabs.json"))
	os.WriteFile(theirs.path, []byte(`{"nextId":2,"tabs":{"t1":{"targetId":"`+idB+`","host":"evil.example","port":9222}}}`), 0o666)
	os.Chown(theirs.path, 65534, 65534)
	if _, _, _, err := theirs.Resolve("t1"); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Errorf("Resolve in another user's registry: %v", err)
	}
	lockOnly := OpenRegistry(filepath.Join(t.TempDir(), "tabs.json"))
	os.WriteFile(lockOnly.path+".lock", nil, 0o666)
	os.Chown(lockOnly.path+".lock", 65534, 65534)
	if _, err := lockOnly.Register(idA, chrome.Endpoint{}); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Errorf("Register under another user's lock: %v", err)
	}
}
