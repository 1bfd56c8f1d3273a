package tab

import (
	"os"
	"testing"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/page"
)

// A tab's emulation waits in a file between calls, for that tab only.
func TestEmulationStoredPerTab(t *testing.T) {
	files := capture.Files{Temp: private.Temp(t.TempDir())}
	t1 := &Tab{Alias: "t7", Session: &cdp.Session{TargetID: "TARGET-A"}, opts: Options{Files: files}}
	if e := t1.LoadEmulation(); !e.IsZero() {
		t.Fatalf("nothing stored, loaded %+v", e)
	}
	phone, _ := page.Device("iphone-se")
	e := page.Emulation{Viewport: &phone, Network: &page.NetworkConditions{Offline: true}}
	if err := t1.SaveEmulation(e); err != nil {
		t.Fatal(err)
	}
	got := t1.LoadEmulation()
	if got.Viewport == nil || *got.Viewport != phone || got.Network == nil || !got.Network.Offline {
		t.Errorf("loaded %+v", got)
	}
	// An alias that now names another tab does not inherit it.
	other := &Tab{Alias: "t7", Session: &cdp.Session{TargetID: "TARGET-B"}, opts: Options{Files: files}}
	if e := other.LoadEmulation(); !e.IsZero() {
		t.Errorf("another target loaded %+v", e)
	}
	if err := t1.SaveEmulation(page.Emulation{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(t1.emulationPath()); !os.IsNotExist(err) {
		t.Errorf("no emulation left a file: %v", err)
	}
}
