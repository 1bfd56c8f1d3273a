package runner

import (
	"encoding/json"
	"testing"

	"github.com/cdpskill/cdpskill/page"
)

func TestDecodeEmulateSteps(t *testing.T) {
	runDecodeCases(t, []decodeCase{
		{"viewport", `"iphone-15"`, nil},
		{"viewport", `"iPad_Pro_11-landscape"`, nil},
		{"viewport", `"reset"`, nil},
		{"viewport", `false`, nil},
		{"viewport", `{"device":"pixel-7"}`, nil},
		{"viewport", `{"width":800,"height":600,"deviceScaleFactor":2,"mobile":true,"hasTouch":true}`, nil},
		{"viewport", `{"width":360,"height":640,"mobile":true,"hasTouch":true,"userAgent":"Mozilla/5.0 (Linux; Android 9; K)"}`, nil},
		{"viewport", `{"device":"iphone-15","colorScheme":"dark"}`, nil},
		{"viewport", `{"colorScheme":"dark"}`, nil},
		{"viewport", `"iphone-16"`, []string{`unknown device "iphone-16"`, "did you mean", "iphone-se"}},
		{"viewport", `{"device":"pixel-7","width":300}`, []string{"not both"}},
		{"viewport", `{"width":800}`, []string{`"width" and "height"`}},
		{"viewport", `{"width":800,"height":20000}`, []string{"between 1 and"}},
		{"viewport", `{"widht":800,"height":600}`, []string{`did you mean "width"`}},
		{"viewport", `42`, []string{"device name"}},
		{"viewport", `{}`, []string{"say what to emulate"}},

		{"emulate", `"reset"`, nil},
		{"emulate", `false`, nil},
		{"emulate", `"iphone-15"`, nil},
		{"emulate", `{"colorScheme":"dark","reducedMotion":"reduce","forcedColors":"active","media":"print"}`, nil},
		{"emulate", `{"reducedMotion":true,"forcedColors":false}`, nil},
		{"emulate", `{"locale":"de-DE","timezone":"Europe/Berlin","geolocation":{"latitude":52.52,"longitude":13.405,"accuracy":50}}`, nil},
		{"emulate", `{"geolocation":"52.52, 13.405"}`, nil},
		{"emulate", `{"permissions":["camera","clipboard-read"]}`, nil},
		{"emulate", `{"permissions":{"notifications":"denied","camera":true,"microphone":"prompt"}}`, nil},
		{"emulate", `{"userAgent":"Bot/1.0","cpuThrottle":4,"cache":false}`, nil},
		{"emulate", `{"device":"pixel-7","userAgent":"Bot/1.0","colorScheme":"light"}`, nil},
		{"emulate", `{"width":390,"height":844,"timezone":"Asia/Tokyo"}`, nil},
		{"emulate", `{"colorScheme":"drak"}`, []string{`"colorScheme" takes light or dark, got "drak"`, `did you mean "dark"`}},
		{"emulate", `{"reducedMotion":"reduced"}`, []string{`did you mean "reduce"`}},
		{"emulate", `{"forcedColors":1}`, []string{"active or none, got a number"}},
		{"emulate", `{"media":"tv"}`, []string{"screen or print"}},
		{"emulate", `{"locale":"de_DE"}`, []string{`locale "de_DE"`, `did you mean "de-DE"`}},
		{"emulate", `{"timezone":"Berlin"}`, []string{`timezone "Berlin"`, `did you mean "Europe/Berlin"`}},
		{"emulate", `{"timezone":"Mars/Olympus"}`, []string{"IANA"}},
		{"emulate", `{"geolocation":{"latitude":95,"longitude":0}}`, []string{"latitude", "between -90 and 90"}},
		{"emulate", `{"geolocation":{"lat":52,"longitude":13}}`, []string{`did you mean "latitude"`}},
		{"emulate", `{"geolocation":{"latitude":52}}`, []string{`needs "latitude" and "longitude"`}},
		{"emulate", `{"geolocation":"Berlin"}`, []string{`"52.52,13.405"`}},
		{"emulate", `{"permissions":["camra"]}`, []string{`unknown permission "camra"`, `did you mean "camera"`}},
		{"emulate", `{"permissions":{"camera":"maybe"}}`, []string{`"camera" takes granted or denied or prompt`}},
		{"emulate", `{"permissions":"camera"}`, []string{"names to grant"}},
		{"emulate", `{"cpuThrottle":0.5}`, []string{"from 1 (full speed)"}},
		{"emulate", `{"colourScheme":"dark"}`, []string{`did you mean "colorScheme"`}},
		{"emulate", `{"timeZone":"UTC"}`, []string{`did you mean "timezone"`}},
		{"emulate", `42`, []string{`expected "reset"`}},
	})
}

func TestDecodeEmulation(t *testing.T) {
	p, err := decodeViewport(json.RawMessage(`"Galaxy_S23-landscape"`))
	if err != nil || p.screen == nil || p.screen.Width != 780 || p.screen.Height != 360 || !p.screen.IsLandscape || !p.screen.Mobile || p.device != "galaxy-s23-landscape" {
		t.Errorf("%+v %v", p, err)
	}
	p, _ = decodeViewport(json.RawMessage(`"reset"`))
	if !p.reset {
		t.Error("reset not recognised")
	}
	// A custom screen's user agent is the screen's; with a device or no
	// screen it is the environment's.
	p, _ = decodeEmulate(json.RawMessage(`{"width":360,"height":640,"userAgent":"A"}`))
	if p.screen.UserAgent != "A" || p.env.UserAgent != "" || p.screen.DeviceScaleFactor != 1 {
		t.Errorf("custom screen with a user agent: %+v", p)
	}
	p, _ = decodeEmulate(json.RawMessage(`{"device":"iphone-15","userAgent":"A"}`))
	if p.env.UserAgent != "A" || p.screen.UserAgent == "A" {
		t.Errorf("device with a user agent: %+v", p)
	}
	p, _ = decodeEmulate(json.RawMessage(`{"permissions":{"camera":true,"midi":"deny"},"geolocation":"52.52,13.405","reducedMotion":false}`))
	want := page.Environment{Permissions: map[string]string{"camera": "granted", "midi": "denied"},
		Geolocation: &page.Geolocation{Latitude: 52.52, Longitude: 13.405}, ReducedMotion: "no-preference"}
	if got := p.env.Summary(); len(got) != 4 || p.env.Permissions["midi"] != "denied" || *p.env.Geolocation != *want.Geolocation || p.env.ReducedMotion != want.ReducedMotion {
		t.Errorf("environment: %+v (%v)", p.env, got)
	}
}

func TestConditionsOutput(t *testing.T) {
	slow, _ := page.ThrottlePreset("slow-3g")
	slow.Offline = true
	for _, tc := range []struct {
		in   page.NetworkConditions
		want string
	}{
		{page.NetworkConditions{}, `{"offline":false}`},
		{slow, `{"offline":true,"throttle":"slow-3g"}`},
		{page.NetworkConditions{Latency: 100, Download: 1000}, `{"offline":false,"throttle":{"download":1000,"latency":100,"upload":0}}`},
	} {
		data, _ := json.Marshal(conditionsOutput(tc.in))
		if string(data) != tc.want {
			t.Errorf("%+v: %s, want %s", tc.in, data, tc.want)
		}
	}
}
