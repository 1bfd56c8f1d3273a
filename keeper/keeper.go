// Package keeper is the one process of cdpskill that outlives a call: a
// small background process per browser that holds what Chrome forgets
// when a call's connection closes, and does what must happen while no
// call runs. It holds each emulated tab's emulation on a session of its
// own, so the page's own reloads between calls load emulated; it holds
// the download settings and brings the calls the download events, which
// a call over its tab's own websocket would not hear (Relay); it holds a
// tab's recording, a trace or a video, from the call that starts it to
// the one that stops it (Client.Record); it closes a session no call used
// for the idle time (CDPSKILL_IDLE, 30 minutes), and asks a Chrome
// cdpskill launched to exit when no call reached it for as long. It holds those duties and nothing else: calls never go through it
// (each dials Chrome itself), so a keeper that hangs or dies cannot hang a
// call. The call that needs one starts it (Visit, Hold, Relay); the next
// call that finds it gone starts another, which takes its duties back from
// the files calls keep (a tab's emulation, a session's registry) and the
// calls' requests, and says so. It exits when it has nothing to hold, or
// its Chrome is gone.
//
// A keeper's files are in its browser's directory under the private temp
// directory (Dir): keeper.json, how calls reach it (its address and a
// token on loopback), its log, its lock, and the note it leaves when it
// shut its Chrome down.
package keeper

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/page"
)

// DefaultIdle is how long a session, or a Chrome cdpskill launched, may go
// without a call before the keeper closes it (REQ-BT-012).
const DefaultIdle = 30 * time.Minute

// Config is what a keeper is started with, on its standard input.
type Config struct {
	Endpoint chrome.Endpoint `json:"endpoint"`
	Temp     private.Temp    `json:"temp"`
	// Idle is how long a session or a launched Chrome may go without a
	// call; 0 never closes them.
	Idle time.Duration `json:"idle"`
	// Launched: cdpskill launched the Chrome, so it exits when idle.
	Launched bool `json:"launched,omitempty"`
	// Token is the fleet provider's token for the browser (Endpoint's is
	// never encoded): it comes on the keeper's standard input, and lives
	// in its memory only.
	Token string `json:"token,omitempty"`
}

// Exe is how a call starts a keeper: the binary and the arguments that
// make it one (cdpskill's "--keeper"), and any environment to add.
type Exe struct {
	Path string
	Args []string
	Env  []string
}

// IdleFrom reads CDPSKILL_IDLE: a Go duration ("30m", "2s"), or "0" or
// "off" for never; unset or unreadable is DefaultIdle.
func IdleFrom(getenv func(string) string) (time.Duration, error) {
	v := ""
	if getenv != nil {
		v = strings.TrimSpace(getenv("CDPSKILL_IDLE"))
	}
	switch v {
	case "":
		return DefaultIdle, nil
	case "0", "off", "never":
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return DefaultIdle, fmt.Errorf("CDPSKILL_IDLE=%q is not a duration such as 30m (or off); the default, %v, applies", v, DefaultIdle)
	}
	return d, nil
}

// Dir is the directory of the keeper of the browser at ep: by host and
// port for a local Chrome, by a digest of its URL for a remote one (its
// token stays out of file names).
func Dir(temp private.Temp, ep chrome.Endpoint) string {
	ep = ep.WithDefaults()
	name := fmt.Sprintf("%s-%d", strings.Trim(ep.Host, "[]"), ep.Port)
	if ep.Remote() {
		sum := sha256.Sum256([]byte(ep.URL))
		name = "remote-" + hex.EncodeToString(sum[:6])
	}
	name = strings.Map(func(r rune) rune {
		if r == ':' || r == '/' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	return filepath.Join(temp.Root(), "keepers", name)
}

// record is keeper.json: how calls reach the keeper. The keeper removes
// it when it exits on its own; one left behind by a keeper that is gone
// tells the next call that one died.
type record struct {
	// Version is the protocol the keeper speaks: a call replaces one
	// that speaks another (a keeper an older cdpskill started).
	Version int       `json:"version"`
	PID     int       `json:"pid"`
	Addr    string    `json:"addr"`
	Token   string    `json:"token"`
	Started time.Time `json:"started"`
}

func recordPath(dir string) string { return filepath.Join(dir, "keeper.json") }
func logPath(dir string) string    { return filepath.Join(dir, "keeper.log") }
func lockPath(dir string) string   { return filepath.Join(dir, "keeper.lock") }
func startPath(dir string) string  { return filepath.Join(dir, "start.lock") }
func exitPath(dir string) string   { return filepath.Join(dir, "exited.json") }
func failedPath(dir string) string { return filepath.Join(dir, "failed") }

// releasedPath is the note of a held browser's end (fleet.go).
func releasedPath(dir string) string { return filepath.Join(dir, "released.json") }

// launchedPath holds the websocket URL of the Chrome cdpskill launched.
func launchedPath(dir string) string { return filepath.Join(dir, "launched") }

func readRecord(temp private.Temp, dir string) (record, bool) {
	data, err := temp.ReadFile(recordPath(dir), 1<<16)
	if err != nil {
		return record{}, false
	}
	var r record
	if json.Unmarshal(data, &r) != nil || r.Addr == "" {
		return record{}, false
	}
	return r, true
}

// Stored is a tab's emulation as calls keep it between them, in the tab's
// <alias>.emulation.json (see tab.SaveEmulation): the keeper holds what
// it finds there. Target guards against an alias that a rebuilt registry
// gave to another tab.
type Stored struct {
	Target string `json:"target"`
	// Doc is the document the last call left the tab on (page.Context.Doc):
	// another one at the next attach loaded while nothing held the
	// emulation.
	Doc float64 `json:"doc,omitempty"`
	page.Emulation
}

// Held is the part of e a keeper holds: all of it but the network
// conditions, which each call applies to the tab and its service
// workers, as before keepers.
func Held(e page.Emulation) page.Emulation {
	e.Network = nil
	return e
}

// --- the keeper's protocol: one request, one reply, one JSON line each

// protocol is the version of the protocol below: 2 added "record", 3
// "release" and the token of a fleet's browser.
const protocol = 3

type request struct {
	Version int    `json:"version"`
	Token   string `json:"token"`
	// Op is "visit" (a call ran, in Session), "release" (let go of the
	// browser it holds, whose last tab was closed, and exit), "hold" (hold the emulation
	// the tabs' files say now, and answer for Target), "watch" (have the
	// downloads of browser context Context saved in Dir, and told),
	// "events" (the download events after Since: all so far with Flush,
	// else the next ones, waiting up to Wait ms), "record" (start or stop
	// recording Target, as Record says), "status" or "stop".
	Op      string `json:"op"`
	Session string `json:"session,omitempty"`
	Target  string `json:"target,omitempty"`
	Context string `json:"context,omitempty"`
	Dir     string `json:"dir,omitempty"`
	Since   int64  `json:"since,omitempty"`
	Flush   bool   `json:"flush,omitempty"`
	Wait    int    `json:"wait,omitempty"`
	// Launched: the call launched the Chrome whose websocket URL is
	// Browser, which the keeper then closes when idle.
	Launched bool   `json:"launched,omitempty"`
	Browser  string `json:"browser,omitempty"`
	// Record is a record request's.
	Record *RecordSpec `json:"record,omitempty"`
}

type reply struct {
	// Failure is why Target's emulation is not held as its file says.
	Failure *Failure `json:"failure,omitempty"`
	// Already: the keeper held Target's emulation, as it is, before the
	// request.
	Already bool `json:"already,omitempty"`
	// Events are the download events asked for, Seq the number of the
	// last one the keeper has.
	Events []relayed `json:"events,omitempty"`
	Seq    int64     `json:"seq,omitempty"`
	Status *Status   `json:"status,omitempty"`
	// Recorded is what a stopped recording left.
	Recorded *Recorded `json:"recorded,omitempty"`
}

// Failure is a keeper's failure to hold an emulation, carried whole to
// the call: a value Chrome refused is an invalid option there too.
type Failure struct {
	Message string `json:"message"`
	// Field, Value and Reason are an *invalid.Option's.
	Field  string `json:"field,omitempty"`
	Value  string `json:"value,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Exiting: the keeper is exiting, and takes no more duties.
	Exiting bool `json:"exiting,omitempty"`
}

// Status is what a keeper holds, for chromeStatus.
type Status struct {
	PID   int    `json:"pid"`
	Since string `json:"since"`
	// Emulating are the tabs whose emulation it holds: their aliases, a
	// session's as session/alias.
	Emulating []string `json:"emulating,omitempty"`
	// Routing are the tabs whose routes it serves, named so.
	Routing []string `json:"routing,omitempty"`
	// Sessions are those with a browser context here, which it closes
	// after IdleClose with no call.
	Sessions  []string `json:"sessions,omitempty"`
	IdleClose string   `json:"idleClose,omitempty"`
	// ClosesChrome: it asks the Chrome cdpskill launched to exit after
	// IdleClose with no call.
	ClosesChrome bool `json:"closesChrome,omitempty"`
	// Downloads: it holds the download settings of the browser contexts
	// calls work in, and brings the calls their events.
	Downloads bool `json:"downloads,omitempty"`
	// Recording are the tabs it records: their labels, what and since
	// when.
	Recording []string `json:"recording,omitempty"`
	// KeepsBrowser: the browser is a fleet's, which the keeper keeps
	// between calls and releases at the last closeTab, or after
	// IdleClose with no call.
	KeepsBrowser bool `json:"keepsBrowser,omitempty"`
}
