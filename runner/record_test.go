package runner_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// A recording spans calls: started in one call, it holds that call's
// navigation and a later call's click, while the browser's keeper says
// it holds it; the stop writes a trace DevTools and Perfetto open (Chrome's
// JSON trace) and a GIF that plays the page's animation, privately, and
// says what it wrote.
//
// Chrome records one trace at a time: the other behaviour tests that
// trace (vitals_test.go) are not parallel, so they never meet this one.
func TestRecordAcrossCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t).withKeeper()
	tab := c.openTab(fixture.URL + "/hello.html")
	dir := t.TempDir()
	trace, video := filepath.Join(dir, "t.json"), filepath.Join(dir, "v.gif")
	started := c.call(t, tab, fmt.Sprintf(`{"record":{"trace":%q,"video":%q}},{"goto":%q}`, trace, video, fixture.URL+"/record.html"))[0]
	info, _ := stepInfo("record")
	if jsonText(started) != fmt.Sprintf(`{"limit":"10 minutes","recording":["trace","video"],"trace":%q,"video":%q}`, trace, video) ||
		matchShape(info.Output, started) != "" {
		t.Errorf("record: %v", started)
	}
	c.call(t, tab, `{"click":"#go"},{"poll":"() => window.done"}`)

	b := chromium(t)
	status := c.call(t, tab, fmt.Sprintf(`{"chromeStatus":{"host":%q,"port":%d}}`, b.Endpoint.Host, b.Endpoint.Port))[0]
	if rec := jsonText(field(status, "keeper", "recording")); !strings.Contains(rec, tab+" (trace, video since ") {
		t.Errorf("chromeStatus while recording: %v", field(status, "keeper"))
	}

	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"record":"stop"}]}`, tab))
	if code != 0 {
		t.Fatalf("stop: %v", res)
	}
	step := stepOutputs(t, res)[0]
	if step["warning"] != nil {
		t.Errorf("stop warns: %v", step["warning"])
	}
	out := step["output"].(map[string]any)
	if why := matchShape(info.Output, out); why != "" {
		t.Errorf("SKILL.md says record → %s; got %v: %s", info.Output, out, why)
	}
	for _, f := range []struct{ key, path string }{{"trace", trace}, {"video", video}} {
		fi, err := os.Stat(f.path)
		if err != nil {
			t.Fatalf("%s: %v", f.key, err)
		}
		if field(out, f.key, "path") != f.path || field(out, f.key, "size") != float64(fi.Size()) || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, the file is %d bytes, %v", f.key, field(out, f.key), fi.Size(), fi.Mode())
		}
		if s, _ := field(out, f.key, "seconds").(float64); s <= 0 {
			t.Errorf("%s covers %v seconds", f.key, s)
		}
	}
	checkTrace(t, trace)
	data, err := os.ReadFile(video)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the video does not play: %v", err)
	}
	if n := len(g.Image); n < 2 || field(out, "video", "frames") != float64(n) {
		t.Errorf("the video shows %d frames; the stop says %v", n, field(out, "video", "frames"))
	}

	res, _ = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"record":"stop"}]}`, tab))
	if msg := fmt.Sprint(field(firstError(res), "error")); !strings.Contains(msg, "is not recording") {
		t.Errorf("a second stop: %v", res)
	}
}

// checkTrace reads the trace as DevTools does: Chrome's JSON trace, whose
// events hold the navigation (its document's start and load) and the
// click.
func checkTrace(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		TraceEvents []struct {
			Name string `json:"name"`
			Args struct {
				Data struct {
					Type string `json:"type"`
				} `json:"data"`
			} `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatalf("the trace is not JSON: %v", err)
	}
	names := map[string]bool{}
	for _, ev := range tr.TraceEvents {
		names[ev.Name] = true
		if ev.Name == "EventDispatch" && ev.Args.Data.Type == "click" {
			names["click"] = true
		}
	}
	for _, want := range []string{"navigationStart", "MarkLoad", "ResourceSendRequest", "Screenshot", "click"} {
		if !names[want] {
			t.Errorf("the trace's %d events have no %s", len(tr.TraceEvents), want)
		}
	}
}

// closeTab stops the tab's recording first and says what it left: a
// recording's trace would go with its tab.
func TestCloseTabStopsRecording(t *testing.T) {
	t.Parallel()
	c := newCLI(t).withKeeper()
	tab := c.openTab(fixture.URL + "/record.html")
	c.call(t, tab, `{"record":{"video":"v.gif"}},{"click":"#go"},{"poll":"() => window.done"}`)
	closed := c.call(t, tab, fmt.Sprintf(`{"closeTab":%q}`, tab))[0]
	path, _ := field(closed, "recorded", "video", "path").(string)
	if filepath.Base(path) != "v.gif" || !strings.HasPrefix(path, c.tmp) {
		t.Fatalf("closeTab: %v", closed)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := gif.DecodeAll(bytes.NewReader(data)); err != nil || len(g.Image) < 2 {
		t.Errorf("the video: %v", err)
	}
}

// A tab that closes while it records takes its trace with it; the
// keeper writes its video, and the next call on the tab, which finds it
// gone, says where, and why there is no trace.
func TestRecordingOfATabThatClosed(t *testing.T) {
	t.Parallel()
	c := newCLI(t).withKeeper()
	tab := c.openTab(fixture.URL + "/record.html")
	c.call(t, tab, `{"record":{"video":"v.gif"}},{"click":"#go"},{"poll":"() => window.done"}`)
	id := c.registry(t)[tab]["targetId"].(string)
	if err := (proto.TargetCloseTarget{TargetID: id}).Do(t.Context(), chromium(t).Conn.Browser()); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(c.tmp, "cdp-skill", tab+".recording", "recording.json")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) { // the keeper writes it
		if data, _ := os.ReadFile(state); bytes.Contains(data, []byte(`"result"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the keeper did not end the recording of the tab that closed")
		}
	}
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"getTitle":true}]}`, tab))
	_, msg := errorOf(res)
	video := filepath.Join(c.tmp, "cdp-skill", "v.gif")
	if !strings.Contains(msg, "; its recording wrote "+video+" (") || !strings.Contains(msg, "the recording ended before its stop: the tab closed at ") {
		t.Errorf("the next call: %s", msg)
	}
	if _, err := os.Stat(video); err != nil {
		t.Error(err)
	}
}

// A stop with nothing recording says so and how to start; without a
// keeper, which holds a recording between calls, record says it cannot.
func TestRecordNeedsAStartAndAKeeper(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	for step, want := range map[string]string{
		`{"record":"stop"}`:         `tab ` + tab + ` is not recording: start one with {"record":{"trace":"trace.json"}} or {"record":{"video":"video.gif"}}`,
		`{"record":{"video":true}}`: "record needs cdpskill's keeper, which holds the recording between calls, and this process cannot start one",
	} {
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, step))
		if e := firstError(res); code != 1 || e == nil || e["type"] != "EXECUTION" || e["error"] != want {
			t.Errorf("%s: %v", step, res)
		}
	}
}

// A record step written wrong fails the call before anything runs,
// saying what it takes.
func TestRecordValidation(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	checkValidation(t, c, map[string]string{
		`{"record":true}`:                      `takes {"record":{"trace":"trace.json"}}, {"record":{"video":"video.gif"}}, both, or {"record":"stop"}`,
		`{"record":"start"}`:                   `takes {"record":{"trace":"trace.json"}}`,
		`{"record":{}}`:                        `say what to record: {"record":{"trace":"trace.json"}}`,
		`{"record":{"trace":false}}`:           `say what to record`,
		`{"record":{"video":"v.mp4"}}`:         `the video is an animated GIF, which browsers and image viewers play: name it .gif, not .mp4`,
		`{"record":{"trace":"t.pftrace"}}`:     `the trace is Chrome's JSON trace, which DevTools and Perfetto open: name it .json, not .pftrace`,
		`{"record":{"trace":5}}`:               `"trace" is a file's path or true, got a number`,
		`{"record":{"audio":"a.mp3"}}`:         `unknown parameter "audio"`,
		`{"startTracing":true}`:                `did you mean {"record":{"trace":"trace.json"}}?`,
		`{"stopScreencast":true}`:              `did you mean {"record":"stop"}?`,
		`{"record":{"video":"v","trace":"t"}}`: "",
	})
}
