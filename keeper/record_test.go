package keeper

import (
	"bytes"
	"context"
	"image/gif"
	"log"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// moving is a page that never stops moving: a screencast of it has frames
// to send.
const moving = `data:text/html,<body style="margin:0"><div id=b style="width:50px;height:50px;background:red;position:absolute"></div>` +
	`<script>let x=0;(function f(){x=(x+4)%25300;b.style.left=x+'px';requestAnimationFrame(f)})()</script>`

// inProcess is a keeper of the test browser in this process, for the
// tests that look inside it; its log goes to the test's.
func inProcess(t *testing.T) *keeper {
	t.Helper()
	b := browser.Get(t)
	temp := private.Temp(t.TempDir())
	cfg := Config{Endpoint: b.Endpoint, Temp: temp, Idle: time.Hour}
	k, err := newKeeper(t.Context(), cfg, Dir(temp, b.Endpoint), log.New(t.Output(), "keeper: ", 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.browser.Close() })
	return k
}

// movingTab is a tab of the test browser showing moving.
func movingTab(t *testing.T) string {
	t.Helper()
	s := browser.Get(t).NewTab(t)
	testbrowser.Navigate(t, s, moving)
	return s.TargetID
}

// startRecording asks k to record target as spec says, into a directory of its
// own, and fails the test if it does not.
func startRecording(t *testing.T, k *keeper, target string, spec RecordSpec) RecordSpec {
	t.Helper()
	spec.Dir = filepath.Join(k.cfg.Temp.Root(), target+".recording")
	if rep := k.recs.answer(t.Context(), request{Op: "record", Target: target, Record: &spec}); rep.Failure != nil {
		t.Fatalf("record: %s", rep.Failure.Message)
	}
	return spec
}

// ended waits until the recording of target ended on its own, and
// returns what it left, as the call that stops it reads it.
func ended(t *testing.T, k *keeper, target string, spec RecordSpec) *Recorded {
	t.Helper()
	k.recs.mu.Lock()
	rec := k.recs.tabs[target]
	k.recs.mu.Unlock()
	if rec == nil {
		t.Fatal("no recording runs")
	}
	select {
	case <-rec.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the recording did not end")
	}
	st, ok := readState(k.cfg.Temp, spec.Dir)
	if !ok || st.Result == nil {
		t.Fatalf("the recording's directory says nothing of its end: %+v", st)
	}
	return st.Result
}

// A recording ends on its own at its limit, and when its tab closes: its
// files are written then, and what it left says why it ended, and what
// went with the tab. Meanwhile the keeper holds it, and says so; Chrome's
// one trace is taken, and a second recording of a tab is refused.
func TestRecordingEndsOnItsOwn(t *testing.T) {
	k := inProcess(t)
	recordLimit = 2 * time.Second
	t.Cleanup(func() { recordLimit = RecordLimit })
	out := t.TempDir()
	first, second := movingTab(t), movingTab(t)
	spec := startRecording(t, k, first, RecordSpec{Trace: filepath.Join(out, "a.json"), Video: filepath.Join(out, "a.gif"), Label: "t1"})
	if labels := k.recs.labels(); len(labels) != 1 || !strings.HasPrefix(labels[0], "t1 (trace, video since ") {
		t.Errorf("status: %v", labels)
	}
	if k.tick(t.Context(), time.Now().Add(time.Hour)) != "" {
		t.Error("the keeper would end while it records")
	}
	for target, want := range map[string]string{
		first:  `the tab has been recording (trace, video) since `,
		second: `Chrome records one trace at a time, and tab t1 is recording one: stop it first ({"tab":"t1","steps":[{"record":"stop"}]})`,
	} {
		rep := k.recs.answer(t.Context(), request{Op: "record", Target: target, Record: &RecordSpec{Trace: filepath.Join(out, "b.json"), Dir: t.TempDir()}})
		if rep.Failure == nil || !strings.Contains(rep.Failure.Message, want) {
			t.Errorf("a second recording: %+v", rep.Failure)
		}
	}

	res := ended(t, k, first, spec)
	if len(res.Notes) != 1 || res.Notes[0] != "the recording ended before its stop: it reached its limit of 2s" {
		t.Errorf("notes: %q", res.Notes)
	}
	if res.Trace == nil || res.Trace.Seconds < 2 || res.Video == nil || res.Video.Frames < 2 {
		t.Errorf("it left %+v, %+v", res.Trace, res.Video)
	}
	if k.recs.running() {
		t.Error("the keeper still records")
	}

	spec = startRecording(t, k, second, RecordSpec{Trace: filepath.Join(out, "b.json"), Video: filepath.Join(out, "b.gif"), Label: "t2"})
	waitFrames(t, spec.Dir, 2)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := (proto.TargetCloseTarget{TargetID: second}).Do(ctx, k.browser.Conn.Browser()); err != nil {
		t.Fatal(err)
	}
	res = ended(t, k, second, spec)
	notes := strings.Join(res.Notes, "; ")
	if res.Trace != nil || !strings.Contains(notes, "the recording ended before its stop: the tab closed at ") ||
		!strings.Contains(notes, "the trace went with the tab: Chrome keeps a trace only for the session that started it") {
		t.Errorf("after its tab closed: %q, trace %+v", res.Notes, res.Trace)
	}
	if res.Video == nil || res.Video.Frames < 2 {
		t.Errorf("the video of a tab that closed: %+v", res.Video)
	}
}

// waitFrames waits, 20 s at most, until a recording in dir kept n frames.
func waitFrames(t *testing.T, dir string, n int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); len(keptFrames(framesDir(dir))) < n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d frames kept", n)
		}
	}
}

// A recording whose keeper died leaves its video, from the frames that
// keeper kept, to the call that stops it, which says the trace went with
// the keeper; a stop of a tab that records nothing says so.
func TestRecordingOutlivesItsKeeper(t *testing.T) {
	b := browser.Get(t)
	c := &Client{Exe: testExe, Temp: private.Temp(t.TempDir()), Idle: time.Hour}
	t.Cleanup(func() { Stop(context.Background(), c.Temp, b.Endpoint) })
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	target, out := movingTab(t), t.TempDir()
	dir := filepath.Join(c.Temp.Root(), "t1.recording")
	if _, err := c.StopRecording(ctx, b.Endpoint, "", target, dir); err != ErrNotRecording {
		t.Errorf("a stop before a start: %v", err)
	}
	spec := RecordSpec{Trace: filepath.Join(out, "t.json"), Video: filepath.Join(out, "v.gif"), Dir: dir, Label: "t1"}
	if note, err := c.Record(ctx, b.Endpoint, "", target, spec); err != nil || note != "" {
		t.Fatalf("record: %v %s", err, note)
	}
	if _, what, ok := c.Recording(dir, target); !ok || strings.Join(what, ",") != "trace,video" {
		t.Errorf("recording: %v %v", what, ok)
	}
	waitFrames(t, dir, 3)
	k := Look(ctx, c.Temp, b.Endpoint)
	if k == nil || len(k.Recording) != 1 {
		t.Fatalf("the keeper holds %+v", k)
	}
	if err := syscall.Kill(k.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	res, err := c.StopRecording(ctx, b.Endpoint, "", target, dir)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(res.Notes, "; ")
	for _, want := range []string{"cdpskill's keeper that held the recording (pid ", "stopped before it ended",
		"the trace was lost with it", "the video ends at its last frame"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	data, err := os.ReadFile(spec.Video)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil || len(g.Image) < 3 || res.Video.Frames != len(g.Image) {
		t.Errorf("the video: %v, %+v", err, res.Video)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the recording's directory stays: %v", err)
	}
}
