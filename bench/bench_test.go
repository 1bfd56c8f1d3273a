package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The bench itself runs only under make bench; these check its pure
// logic.

func TestSummarize(t *testing.T) {
	d := func(ms ...int) []time.Duration {
		var ds []time.Duration
		for _, m := range ms {
			ds = append(ds, time.Duration(m)*time.Millisecond)
		}
		return ds
	}
	ms := time.Millisecond
	cases := []struct {
		in                 []time.Duration
		med, p90, min, max time.Duration
	}{
		{d(30, 10, 20), 20 * ms, 30 * ms, 10 * ms, 30 * ms},
		{d(40, 10, 20, 30), 25 * ms, 40 * ms, 10 * ms, 40 * ms},
		{d(7), 7 * ms, 7 * ms, 7 * ms, 7 * ms},
		{d(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), 5500 * time.Microsecond, 9 * ms, 1 * ms, 10 * ms},
		{d(11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1), 6 * ms, 10 * ms, 1 * ms, 11 * ms},
		{nil, 0, 0, 0, 0},
	}
	for _, c := range cases {
		s := summarize(c.in)
		if s.median != c.med || s.p90 != c.p90 || s.min != c.min || s.max != c.max || s.n != len(c.in) {
			t.Errorf("summarize(%v) = %+v, want median %v p90 %v min %v max %v", c.in, s, c.med, c.p90, c.min, c.max)
		}
	}
	if got := medianInt([]int{5, 1, 9, 3}); got != 3 {
		t.Errorf("medianInt = %d, want 3 (the lower middle)", got)
	}
}

func calls(ms ...int) []sample {
	var ss []sample
	for _, m := range ms {
		ss = append(ss, sample{dur: time.Duration(m) * time.Millisecond, bytes: 100, rssKB: 14000})
	}
	return ss
}

func TestJudge(t *testing.T) {
	all := target{ms: 80, xFloor: 1.5, noError: true, maxRSS: maxRSSKB}
	floor := []time.Duration{50 * time.Millisecond, 60 * time.Millisecond, 70 * time.Millisecond}

	r := judge("click", measured{calls: calls(70, 75, 90), floor: floor}, all, 0)
	if !r.Met || r.MedianMS != 75 || r.FloorMS != 60 || r.XFloor != 1.25 || r.Bytes != 100 {
		t.Errorf("a met target: %+v", r)
	}

	r = judge("click", measured{calls: calls(85, 95, 100), floor: floor}, all, 0)
	if r.Met || len(r.Misses) != 2 {
		t.Errorf("over 80 ms and 1.5× the floor should miss both: %+v", r.Misses)
	}

	m := measured{calls: calls(10, 10), floor: floor}
	m.calls = append(m.calls, sample{err: errors.New("EXECUTION: boom")})
	m.calls[0].rssKB = 40 * 1024
	r = judge("x", m, target{noError: true, maxRSS: maxRSSKB}, 0)
	if r.Met || r.Errors != 1 || r.Calls != 3 || r.FirstError != "EXECUTION: boom" || len(r.Misses) != 2 {
		t.Errorf("an error and 40 MB should miss: %+v", r)
	}

	r = judge("agents-8", measured{calls: calls(30, 31, 32)}, target{xLone: 1.5}, 20*time.Millisecond)
	if r.Met || r.XLone != 1.55 || r.LoneMS != 20 {
		t.Errorf("1.55× a lone agent's should miss 1.5×: %+v", r)
	}

	m = measured{calls: calls(10, 20, 30)}
	m.calls[1].cpu = 15 * time.Millisecond
	for i := range 25 {
		m.gatherChrome(time.Duration(40+i%10) * time.Millisecond) // 40..49: 44.5 a chunk
	}
	m.gatherChrome(900 * time.Millisecond) // a burst, in the short last chunk
	m.flushChrome()
	m.addChrome(700*time.Millisecond, 10) // a chunk of 10 calls: the median is (44.5+70)/2
	r = judge("click", m, target{}, 0)
	if r.CLICPUMS != 0 || r.ChromeCPUMS != 57.25 || len(m.chrome) != 4 || m.chrome[0] != 44500*time.Microsecond || r.P90MS != 30 {
		t.Errorf("CPU figures: %+v (chrome chunks %v)", r, m.chrome)
	}

	r = judge("floorless", measured{calls: calls(10), floorErr: errors.New("gone")}, target{xFloor: 2}, 0)
	if r.Met || r.FloorMS != 0 {
		t.Errorf("no floor cannot meet a floor target: %+v", r)
	}
}

func TestReport(t *testing.T) {
	rs := []result{
		judge("pageFunction", measured{calls: calls(12, 14, 13), floor: []time.Duration{time.Millisecond}}, target{ms: 15}, 0),
		judge("snapshot-1k", measured{calls: calls(60)}, target{ms: 50}, 0),
	}
	var b bytes.Buffer
	printTable(&b, rs)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "×floor") || !strings.Contains(lines[1], "13.0") ||
		!strings.Contains(lines[1], "13.00") || !strings.HasSuffix(strings.TrimSpace(lines[2]), "NO") {
		t.Errorf("table:\n%s", b.String())
	}
	b.Reset()
	if err := printJSON(&b, rs); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		var r result
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.Scenario == "" {
			t.Errorf("JSON line %q: %v", line, err)
		}
	}
	line, met := verdict(rs)
	if met || !strings.Contains(line, "snapshot-1k: median 60.0 ms > 50 ms") {
		t.Errorf("verdict: %q", line)
	}
	if line, met := verdict(rs[:1]); !met || !strings.HasPrefix(line, "every target met") {
		t.Errorf("verdict: %q", line)
	}
	if s := (target{ms: 80, xFloor: 1.5}).String(); s != "≤80ms, ≤1.5×floor" {
		t.Errorf("target: %q", s)
	}
}

func TestScenarioNames(t *testing.T) {
	names := strings.Join(scenarioNames(), ",")
	for _, want := range []string{"click-report", "agents-1 (lone)", "agents-8", "agents-1-click (lone)", "agents-4-click", "agents-8-click"} {
		if !strings.Contains(","+names+",", ","+want+",") {
			t.Errorf("no scenario %q in %s", want, names)
		}
	}
	if s := agentKinds[1].site(3); s != "agent-click-3" {
		t.Errorf("site %q", s)
	}
}

func TestFixturePages(t *testing.T) {
	if got := strings.Count(generatedBody(1000), "<") - strings.Count(generatedBody(1000), "</"); got < 950 || got > 1050 {
		t.Errorf("generated page of 1,000 has %d elements", got)
	}
	if got := strings.Count(buttonsBody(6000), "<button>"); got != 6001 {
		t.Errorf("buttons page has %d buttons, want 6,001", got)
	}
}

func TestSpawner(t *testing.T) {
	echo, err := exec.LookPath("echo")
	if err != nil {
		t.Skip("no echo")
	}
	in := `{"id":1,"argv":["` + echo + `","{\"status\":\"ok\"}"]}` + "\n" + `{"id":2,"argv":["/no/such/binary"]}` + "\n"
	var out bytes.Buffer
	if code := spawnerMain(strings.NewReader(in), &out); code != 0 {
		t.Fatalf("spawner exit %d", code)
	}
	got := map[int]spawnReply{}
	dec := json.NewDecoder(&out)
	for dec.More() {
		var r spawnReply
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		got[r.ID] = r
	}
	if r := got[1]; r.Err != "" || statusError(r.Stdout) != nil || r.NS <= 0 || runtime.GOOS == "linux" && r.SelfKB <= 0 {
		t.Errorf("echo: %+v", r)
	}
	if r := got[2]; r.Err == "" {
		t.Errorf("a missing binary must fail: %+v", r)
	}
}
