package keeper

import (
	"encoding/json"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

var browser testbrowser.Shared

// beKeeper makes this test binary a keeper, as testExe starts it.
const beKeeper = "CDPSKILL_TEST_KEEPER"

func TestMain(m *testing.M) {
	if os.Getenv(beKeeper) == "1" {
		os.Exit(Main(os.Stdin, os.Stderr))
	}
	testbrowser.MainShared(m, &browser)
}

var testExe = &Exe{Path: os.Args[0], Env: []string{beKeeper + "=1"}}

func TestIdleFrom(t *testing.T) {
	for _, c := range []struct {
		v    string
		want time.Duration
		bad  bool
	}{
		{"", DefaultIdle, false}, {"2s", 2 * time.Second, false}, {"off", 0, false}, {"0", 0, false},
		{"soon", DefaultIdle, true}, {"-1m", DefaultIdle, true},
	} {
		got, err := IdleFrom(func(string) string { return c.v })
		if got != c.want || (err != nil) != c.bad {
			t.Errorf("IdleFrom(%q) = %v, %v", c.v, got, err)
		}
	}
}

// A remote endpoint's keeper directory is named by a digest: its token
// stays out of file names and listings.
func TestDir(t *testing.T) {
	temp := private.Temp(t.TempDir())
	if got := Dir(temp, chrome.Endpoint{Host: "127.0.0.1", Port: 9222}); !strings.HasSuffix(got, "/keepers/127.0.0.1-9222") {
		t.Errorf("local: %s", got)
	}
	remote := Dir(temp, chrome.Endpoint{URL: "wss://fleet.example/chromium?token=s3cret"})
	if strings.Contains(remote, "s3cret") || !strings.Contains(remote, "/keepers/remote-") {
		t.Errorf("remote: %s", remote)
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{30 * time.Minute: "30 minutes", time.Minute: "1 minute", 1500 * time.Millisecond: "1.5s"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

// A value Chrome refused reaches the call as the invalid option it was.
func TestFailureKeepsTheOption(t *testing.T) {
	f := failure(&invalid.Option{Field: "locale", Value: "xx", Reason: "Chrome does not know it"})
	if f.Field != "locale" || f.Value != "xx" || f.Reason != "Chrome does not know it" {
		t.Errorf("%+v", f)
	}
}

// Stop of a keeper that was exiting on its own as it was asked: the
// connection closes unanswered and the record goes, which is stopped; a
// record that stays with no keeper behind it is an error, soon.
func TestStopExiting(t *testing.T) {
	t.Parallel()
	temp := private.Temp(t.TempDir())
	ep := chrome.Endpoint{Host: "127.0.0.1", Port: 1}
	dir := Dir(temp, ep)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	data, _ := json.Marshal(record{Version: protocol, PID: os.Getpid(), Addr: ln.Addr().String(), Token: "t"})
	write := func() {
		if err := temp.WriteFile(recordPath(dir), data); err != nil {
			t.Fatal(err)
		}
	}
	write()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
			time.Sleep(50 * time.Millisecond)
			_ = os.Remove(recordPath(dir))
		}
	}()
	if err := Stop(t.Context(), temp, ep); err != nil {
		t.Errorf("an exiting keeper: %v", err)
	}

	ln.Close() // none behind the record now
	write()
	start := time.Now()
	if err := Stop(t.Context(), temp, ep); err == nil {
		t.Errorf("a record with no keeper behind it stopped")
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v", d)
	}
}
