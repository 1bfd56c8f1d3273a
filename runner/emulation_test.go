package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/keeper"
)

// A phone preset is the phone, in this call and the next ones: its user
// agent and touch (which the page's scripts see once it loads again, as
// the step says), its mobile screen. A page without a meta viewport lays
// out 980 px wide on it, and the context says why its viewport is not
// the phone's.
func TestPhonePresetEndToEnd(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res := c.act(t, tab, `{"viewport":"iphone-15"}`)
	out := outputOf(t, res, 0)
	if out["width"] != 393.0 || out["height"] != 852.0 || out["deviceScaleFactor"] != 3.0 || out["mobile"] != true ||
		!strings.Contains(fmt.Sprint(stepOutputs(t, res)[0]["warning"]), "reload") {
		t.Errorf("viewport step: %v", stepOutputs(t, res)[0])
	}
	if vp := field(res, "context", "viewport"); jsonText(field(vp, "width")) != "980" || field(vp, "note") != "layout width 980 px: the page has no meta viewport" {
		t.Errorf("context.viewport of a page without a meta viewport: %v", vp)
	}

	const look = `{"pageFunction":"[navigator.userAgent, 'ontouchstart' in window, navigator.maxTouchPoints, matchMedia('(pointer: coarse)').matches, innerWidth]"}`
	iphone := "[Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1 true 5 true 980]"
	// The next call's session applies it all again; the reloaded page
	// loads as the phone.
	if got := fmt.Sprint(c.call(t, tab, `{"reload":true},`+look)[1]["value"]); got != iphone {
		t.Errorf("reloaded in the next call:\n got %s\nwant %s", got, iphone)
	}
	if got := fmt.Sprint(c.call(t, tab, look)[0]["value"]); got != iphone {
		t.Errorf("a later call:\n got %s\nwant %s", got, iphone)
	}

	// A page made for phones lays out at the phone's width: nothing to
	// explain. Setting the same phone again needs no reload.
	res = c.act(t, tab, fmt.Sprintf(`{"goto":%q},{"viewport":"iphone-15"}`, fixture.URL+"/phone.html"))
	if vp := field(res, "context", "viewport"); jsonText(vp) != `{"height":852,"width":393}` {
		t.Errorf("context.viewport of a page with a meta viewport: %v", vp)
	}
	if step := stepOutputs(t, res)[1]; step["warning"] != nil {
		t.Errorf("the same phone again: %v", step)
	}

	// Reset: the page loaded as the phone until it loads again.
	res = c.act(t, tab, `{"viewport":"reset"}`)
	if step := stepOutputs(t, res)[0]; field(step, "output", "reset") != true || !strings.Contains(fmt.Sprint(step["warning"]), "reload") {
		t.Errorf("reset: %v", step)
	}
	got := fmt.Sprint(c.call(t, tab, `{"reload":true},`+look)[1]["value"])
	if strings.Contains(got, "iPhone") || !strings.Contains(got, " false 0 false ") {
		t.Errorf("after reset and a reload: %s", got)
	}
}

// world is what testdata/emulate.html's scripts see of their world.
type world struct {
	Dark     bool    `json:"dark"`
	Language string  `json:"language"`
	Number   string  `json:"number"`
	TimeZone string  `json:"timeZone"`
	Offset   float64 `json:"offset"`
	Where    string  `json:"where"`
}

func worldOf(t *testing.T, v any) world {
	t.Helper()
	var w world
	if err := json.Unmarshal([]byte(jsonText(v)), &w); err != nil {
		t.Fatalf("not a world: %v", v)
	}
	return w
}

// A dark, German, Berlin world at the Brandenburg Gate is the page's in
// the call that sets it and in every later one: its CSS (matchMedia),
// Intl, Date and navigator.geolocation see it, a reload in a call loads
// in it, and the result's context names it. A reload the page makes on
// its own between two calls loads in it too: the browser's keeper holds
// it. A keeper killed between calls holds nothing: the page's reload then
// loads without it, and the next call starts another, which holds it
// again, and warns of both. "reset" gives the browser's own back.
//
// The only behaviour test that sets a locale and a time zone: Chrome
// keeps one of each per renderer process, which tabs of one site may
// share.
func TestEmulatedWorldAcrossCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t).withKeeper()
	key, line := newPageLine(t)
	tab := c.openTab(fixture.URL + "/emulate.html?key=" + key)
	const look = `{"pageFunction":"world()"}`
	own := worldOf(t, c.call(t, tab, look)[0]["value"])
	if own.Dark || !strings.HasPrefix(own.Where, "error") {
		t.Fatalf("the browser's own world: %+v", own)
	}
	berlin := world{Dark: true, Language: "de-DE", Number: "1.234,5", TimeZone: "Europe/Berlin", Offset: -60, Where: "52.516,13.378"}
	const settings = "dark, de-DE, Europe/Berlin, 52.516,13.378"

	res := c.act(t, tab, `{"emulate":{"colorScheme":"dark","locale":"de-DE","timezone":"Europe/Berlin","geolocation":{"latitude":52.516,"longitude":13.378}}},`+look)
	step := stepOutputs(t, res)[0]
	if field(step, "output", "emulated") != settings || !strings.Contains(fmt.Sprint(step["warning"]), "reload") {
		t.Errorf("emulate: %v", step)
	}
	if got := worldOf(t, field(stepOutputs(t, res)[1], "output", "value")); got != berlin {
		t.Errorf("in the call that set it:\n got %+v\nwant %+v", got, berlin)
	}
	if got := field(res, "context", "emulated"); got != settings {
		t.Errorf("context.emulated: %v", got)
	}
	if got := worldOf(t, c.call(t, tab, look)[0]["value"]); got != berlin {
		t.Errorf("a later call:\n got %+v\nwant %+v", got, berlin)
	}
	loaded := `{"poll":"() => window.loaded"}`
	if got := worldOf(t, field(c.call(t, tab, `{"reload":true},`+loaded)[1], "value", "value")); got != berlin {
		t.Errorf("the page's own look on a reload in a call:\n got %+v\nwant %+v", got, berlin)
	}

	// The page reloads itself while no call runs: the keeper holds the
	// emulation then.
	reloadBetweenCalls := func(meanwhile func()) map[string]any {
		t.Helper()
		doc := fmt.Sprint(c.value(t, tab, "reloadWhenTold()"))
		meanwhile()
		line.release <- struct{}{}
		line.loadedAfter(t, doc)
		return c.act(t, tab, `{"pageFunction":"async () => ({loaded: window.loaded, now: await world()})"}`)
	}
	res = reloadBetweenCalls(func() {})
	v := field(stepOutputs(t, res)[0], "output", "value")
	if got := worldOf(t, field(v, "loaded")); got != berlin {
		t.Errorf("the page's own look on its reload between calls:\n got %+v\nwant %+v", got, berlin)
	}
	if res["warnings"] != nil {
		t.Errorf("warnings: %s", jsonText(res["warnings"]))
	}

	// The keeper dies: the page's next reload between calls loads without
	// the emulation (nothing else holds it: not the calls' sessions), and
	// the next call starts another keeper, which holds it again, and says
	// what happened.
	k := keeper.Look(t.Context(), private.Temp(c.tmp), chromium(t).Endpoint)
	if k == nil || !slices.Equal(k.Emulating, []string{tab}) {
		t.Fatalf("the keeper's status: %+v", k)
	}
	res = reloadBetweenCalls(func() {
		p, err := os.FindProcess(k.PID)
		if err == nil {
			err = p.Kill()
		}
		if err != nil {
			t.Fatal(err)
		}
	})
	v = field(stepOutputs(t, res)[0], "output", "value")
	if got := worldOf(t, field(v, "loaded")); got != own {
		t.Errorf("the page's own look on its reload with no keeper:\n got %+v\nwant %+v", got, own)
	}
	if got := worldOf(t, field(v, "now")); got != berlin {
		t.Errorf("the next call, with a new keeper:\n got %+v\nwant %+v", got, berlin)
	}
	w := jsonText(res["warnings"])
	for _, want := range []string{"keeper of this browser had stopped (pid " + fmt.Sprint(k.PID), "loaded a new document between calls", settings} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q: %s", want, w)
		}
	}
	if got := field(res, "context", "emulated"); got != settings {
		t.Errorf("context.emulated: %v", got)
	}
	// As the warning says, a reload in a call loads it emulated; told once.
	res = c.act(t, tab, `{"reload":true},`+loaded)
	if got := worldOf(t, field(stepOutputs(t, res)[1], "output", "value", "value")); got != berlin || res["warnings"] != nil {
		t.Errorf("reloaded in a call: %+v, warnings %v", got, res["warnings"])
	}

	res = c.act(t, tab, `{"emulate":"reset"},`+look)
	if out := jsonText(field(stepOutputs(t, res)[0], "output")); out != `{"reset":true}` || res["warnings"] != nil {
		t.Errorf("reset: %s, warnings %s", out, jsonText(res["warnings"]))
	}
	if got := worldOf(t, field(stepOutputs(t, res)[1], "output", "value")); got != own {
		t.Errorf("after reset:\n got %+v\nwant %+v", got, own)
	}
	if got := field(res, "context", "emulated"); got != nil {
		t.Errorf("context.emulated after reset: %v", got)
	}
}

// viewport takes emulate's fields, and emulate viewport's; viewport's
// reset ends the screen, emulate's everything but the network step's.
func TestEmulateAndViewportShareFields(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/phone.html")
	res := c.act(t, tab, `{"viewport":{"device":"iphone-15","colorScheme":"dark","reducedMotion":true}}`)
	if got := field(res, "context", "emulated"); got != "iphone-15, dark, reduced motion" {
		t.Errorf("context.emulated: %v", got)
	}
	if out := jsonText(field(stepOutputs(t, res)[0], "output")); out != `{"deviceScaleFactor":3,"height":852,"mobile":true,"width":393}` {
		t.Errorf("viewport with emulate's fields: %s", out)
	}
	const look = `{"pageFunction":"[innerWidth, matchMedia('(prefers-color-scheme: dark)').matches, matchMedia('(prefers-reduced-motion: reduce)').matches, navigator.userAgent.includes('Bot/1')]"}`
	if got := jsonText(c.call(t, tab, look)[0]["value"]); got != `[393,true,true,false]` {
		t.Errorf("a later call: %s", got)
	}
	res = c.act(t, tab, `{"viewport":"reset"},{"network":{"offline":true}},{"emulate":{"userAgent":"Bot/1.0","width":800,"height":600}},`+look)
	if out := jsonText(field(stepOutputs(t, res)[0], "output")); out != `{"reset":true}` {
		t.Errorf("viewport reset: %s", out)
	}
	if out := jsonText(field(stepOutputs(t, res)[2], "output")); out != `{"emulated":"800x600, dark, reduced motion, offline"}` {
		t.Errorf("emulate with viewport's fields: %s", out)
	}
	if got := jsonText(field(stepOutputs(t, res)[3], "output", "value")); got != `[800,true,true,true]` {
		t.Errorf("after: %s", got)
	}
	res = c.act(t, tab, `{"emulate":"reset"},`+look)
	if out := jsonText(field(stepOutputs(t, res)[0], "output")); out != `{"emulated":"offline","reset":true}` {
		t.Errorf("emulate reset leaves the network step's: %s", out)
	}
	if got := jsonText(field(stepOutputs(t, res)[1], "output", "value")); got != `[1280,false,false,false]` {
		t.Errorf("after reset: %s", got)
	}
	if got := field(res, "context", "emulated"); got != "offline" {
		t.Errorf("context.emulated: %v", got)
	}
}

// A value the browser would refuse, or take wrong, fails the call before
// anything runs, naming what to write.
func TestEmulateValidation(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	res, code := c.run(`{"tab":"t1","steps":[{"getTitle":true},{"emulate":{"timezone":"Berlin","colorScheme":"dark"}},{"emulate":{"geolocation":{"lat":52,"lng":13}}},{"setLocale":"de-DE"}]}`)
	typ, msg := errorOf(res)
	for _, want := range []string{`did you mean "Europe/Berlin"?`, `did you mean "latitude"?`, `did you mean {"emulate":{"locale":"de-DE"}}?`} {
		if code != 1 || typ != "VALIDATION" || !strings.Contains(msg, want) {
			t.Errorf("exit %d, %s: %s lacks %s", code, typ, msg, want)
		}
	}
}

// waitDetached waits until Chrome says no session is attached to tab:
// the calls' ends are done with it.
// Without a keeper (a process that cannot start one) the emulation is
// the calls' own: a reload the page makes between two calls loads without
// it, and the next call applies it again before its first step and says
// the page loaded without it.
func TestEmulationWithoutKeeper(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	key, line := newPageLine(t)
	tab := c.openTab(fixture.URL + "/emulate.html?key=" + key)
	c.act(t, tab, `{"emulate":{"colorScheme":"dark"}}`)
	doc := fmt.Sprint(c.value(t, tab, "reloadWhenTold()"))
	c.waitDetached(t, tab) // Chrome has let the call's session go
	line.release <- struct{}{}
	line.loadedAfter(t, doc)
	res := c.act(t, tab, `{"pageFunction":"async () => [window.loaded.dark, (await world()).dark]"}`)
	if got := jsonText(field(stepOutputs(t, res)[0], "output", "value")); got != "[false,true]" {
		t.Errorf("dark on the page's own reload, and in the next call: %s", got)
	}
	if w := jsonText(res["warnings"]); !strings.Contains(w, "loaded a new document between calls, when no call held its emulation (dark)") {
		t.Errorf("warnings: %s", w)
	}
}

func (c *cli) waitDetached(t *testing.T, tab string) {
	t.Helper()
	id := c.registry(t)[tab]["targetId"].(string)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		res, err := proto.TargetGetTargetInfo{TargetID: id}.Do(ctx, chromium(t).Conn.Browser())
		if err == nil && !res.TargetInfo.Attached {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("tab %s stayed attached", tab)
}
