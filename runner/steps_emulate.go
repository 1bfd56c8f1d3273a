package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/cdpskill/cdpskill/internal/suggest"
	"github.com/cdpskill/cdpskill/page"
)

// emulateSteps make the tab pretend: a screen, a device, an environment.
// Both take every field of both, since agents guess either name; what
// they set is stored and applied again in each later call until reset.
var emulateSteps = []step{
	define("viewport", `"iphone-15" | "reset" | {width, height, deviceScaleFactor, mobile, hasTouch, isLandscape, userAgent}`,
		"a screen or device (iphone-15, pixel-7, ipad…: its user agent, touch) until \"reset\"",
		needsTab|visual, decodeViewport, runViewport).out(`{width, height, deviceScaleFactor, mobile} | {reset}`).did("Resized").
		also(`{"viewport":"…"}`, "emulateDevice", "device", "setDevice").
		also(`{"viewport":{"width":390,"height":844}}`, "setViewport", "setViewportSize", "resize", "resizeWindow", "windowSize"),
	define("emulate", `{colorScheme, reducedMotion, forcedColors, media, locale, timezone, geolocation, permissions, userAgent, cpuThrottle, cache: false}`,
		"held, reloads too, until \"reset\"",
		needsTab|visual, decodeEmulate, runEmulate).out(`{emulated} | {reset, emulated?}`).did("Emulated").
		also(`{"emulate":{"colorScheme":"dark"}}`, "emulateMedia", "emulateMediaFeatures", "colorScheme", "darkMode", "prefersColorScheme").
		also(`{"emulate":{"media":"print"}}`, "emulateMediaType", "printMedia").
		also(`{"emulate":{"locale":"…"}}`, "setLocale", "locale", "language", "setLanguage").
		also(`{"emulate":{"timezone":"…"}}`, "setTimezone", "emulateTimezone", "timezone", "timezoneId", "setTimezoneId").
		also(`{"emulate":{"geolocation":{"latitude":52.52,"longitude":13.405}}}`, "setGeolocation", "geolocation", "emulateGeolocation").
		also(`{"emulate":{"permissions":["…"]}}`, "grantPermissions", "setPermission", "setPermissions", "permissions").
		also(`{"emulate":{"userAgent":"…"}}`, "setUserAgent", "userAgent").
		also(`{"emulate":{"cpuThrottle":4}}`, "emulateCPUThrottling", "setCPUThrottlingRate", "cpuThrottling", "throttleCPU").
		also(`{"emulate":{"cache":false}}`, "setCacheEnabled", "setCacheDisabled", "disableCache"),
}

// emulateParams are the params of viewport and emulate: a screen, an
// environment or both, or a reset.
type emulateParams struct {
	// The screen.
	Device string `json:"device"`
	page.DeviceMetrics
	// The environment; UserAgent is the DeviceMetrics' field, the screen's
	// with a custom screen, else the environment's.
	ColorScheme   string          `json:"colorScheme"`
	ReducedMotion json.RawMessage `json:"reducedMotion"`
	ForcedColors  json.RawMessage `json:"forcedColors"`
	Media         string          `json:"media"`
	Locale        string          `json:"locale"`
	Timezone      string          `json:"timezone"`
	Geolocation   json.RawMessage `json:"geolocation"`
	Permissions   json.RawMessage `json:"permissions"`
	CPUThrottle   float64         `json:"cpuThrottle"`
	Cache         *bool           `json:"cache"`

	screen *page.DeviceMetrics // nil leaves the screen as it is
	device string              // the preset screen came from
	env    page.Environment    // what the step sets
	reset  bool
}

func decodeViewport(raw json.RawMessage) (emulateParams, error) {
	return decodeEmulation(raw, `expected a device name such as "iphone-15", "reset", or {width, height, …}`)
}

func decodeEmulate(raw json.RawMessage) (emulateParams, error) {
	return decodeEmulation(raw, `expected "reset", a device name such as "iphone-15", or {colorScheme, locale, timezone, …}`)
}

// decodeEmulation reads either step's params: false or a name ("reset",
// a device), or the object of any of both steps' fields.
func decodeEmulation(raw json.RawMessage, expected string) (emulateParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *emulateParams) error {
		if b, ok := asBool(raw); ok && !b {
			p.reset = true
			return nil
		}
		if s, ok := asString(raw); ok {
			p.Device = s
			return nil
		}
		return paramErrorf("%s, got %s", expected, jsonKind(raw))
	})
	if err != nil || p.reset {
		return p, err
	}
	if err := p.decodeScreen(); err != nil || p.reset {
		return p, err
	}
	if err := p.decodeEnvironment(); err != nil {
		return p, err
	}
	if p.screen == nil && p.env.IsZero() {
		return p, paramErrorf(`say what to emulate: a device, {width, height}, or colorScheme, locale, timezone, geolocation…`)
	}
	return p, nil
}

// decodeScreen reads the screen: a device preset, a custom one, or none.
func (p *emulateParams) decodeScreen() error {
	custom := p.DeviceMetrics
	custom.UserAgent = ""
	switch {
	case p.Device != "":
		if custom != (page.DeviceMetrics{}) {
			return paramErrorf(`give "device" or the custom fields (width, height, …), not both`)
		}
		if err := p.lookupDevice(); err != nil || p.reset {
			return err
		}
	case custom != (page.DeviceMetrics{}):
		if p.Width == 0 || p.Height == 0 {
			return paramErrorf(`a custom viewport needs "width" and "height"`)
		}
		if err := p.DeviceMetrics.Validate(); err != nil {
			return paramErrorf("%v", err)
		}
		m := p.DeviceMetrics.WithDefaults()
		p.screen = &m
		return nil
	}
	// Without a custom screen the user agent is the environment's: over
	// a device's, or on its own.
	p.env.UserAgent = p.UserAgent
	return nil
}

func (p *emulateParams) lookupDevice() error {
	name := page.NormalizeDeviceName(p.Device)
	if name == "reset" || name == "default" {
		p.reset = true
		return nil
	}
	d, ok := page.Device(name)
	if !ok {
		names := page.DeviceNames()
		msg := fmt.Sprintf("unknown device %q", p.Device)
		if s := suggest.Nearest(name, names); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return paramErrorf("%s (presets: %s)", msg, strings.Join(names, ", "))
	}
	d = d.WithDefaults()
	p.screen, p.device = &d, name
	return nil
}

// decodeEnvironment reads the environment's fields into env and checks
// them all.
func (p *emulateParams) decodeEnvironment() error {
	env := &p.env
	var err error
	if env.ColorScheme, err = oneOf("colorScheme", p.ColorScheme, page.ColorSchemes); err != nil {
		return err
	}
	if env.Media, err = oneOf("media", p.Media, page.MediaTypes); err != nil {
		return err
	}
	if env.ReducedMotion, err = feature("reducedMotion", p.ReducedMotion, page.ReducedMotions); err != nil {
		return err
	}
	if env.ForcedColors, err = feature("forcedColors", p.ForcedColors, page.ForcedColors); err != nil {
		return err
	}
	if env.Geolocation, err = decodeGeolocation(p.Geolocation); err != nil {
		return err
	}
	if env.Permissions, err = decodePermissions(p.Permissions); err != nil {
		return err
	}
	env.Locale, env.Timezone, env.CPUThrottle, env.Cache = p.Locale, p.Timezone, p.CPUThrottle, p.Cache
	if err := env.Validate(); err != nil {
		return paramErrorf("%v", err)
	}
	return nil
}

// oneOf checks that v, when given, is one of choices, offering the one
// meant.
func oneOf(field, v string, choices []string) (string, error) {
	if v == "" || slices.Contains(choices, v) {
		return v, nil
	}
	msg := fmt.Sprintf("%q takes %s, got %q", field, strings.Join(choices, " or "), v)
	if s := suggest.Nearest(v, choices); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return "", paramErrorf("%s", msg)
}

// feature reads a media feature given as its value or as true (its first
// choice) or false (its second).
func feature(field string, raw json.RawMessage, choices []string) (string, error) {
	if len(raw) == 0 {
		return "", nil
	}
	if b, ok := asBool(raw); ok {
		if b {
			return choices[0], nil
		}
		return choices[1], nil
	}
	s, ok := asString(raw)
	if !ok {
		return "", paramErrorf("%q takes %s, got %s", field, strings.Join(choices, " or "), jsonKind(raw))
	}
	return oneOf(field, s, choices)
}

// decodeGeolocation reads {latitude, longitude, accuracy} or
// "latitude,longitude".
func decodeGeolocation(raw json.RawMessage) (*page.Geolocation, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	const form = `"geolocation" takes {latitude, longitude, accuracy} or "52.52,13.405"`
	if s, ok := asString(raw); ok {
		lat, long, ok := strings.Cut(s, ",")
		la, err1 := strconv.ParseFloat(strings.TrimSpace(lat), 64)
		lo, err2 := strconv.ParseFloat(strings.TrimSpace(long), 64)
		if !ok || err1 != nil || err2 != nil {
			return nil, paramErrorf("%s, got %q", form, s)
		}
		return &page.Geolocation{Latitude: la, Longitude: lo}, nil
	}
	var g struct {
		Latitude  *float64 `json:"latitude"`
		Longitude *float64 `json:"longitude"`
		Accuracy  float64  `json:"accuracy"`
	}
	if !isObject(raw) {
		return nil, paramErrorf("%s, got %s", form, jsonKind(raw))
	}
	if err := decodeStrict(raw, &g); err != nil {
		return nil, paramErrorf("geolocation: %v", err)
	}
	if g.Latitude == nil || g.Longitude == nil {
		return nil, paramErrorf(`"geolocation" needs "latitude" and "longitude"`)
	}
	return &page.Geolocation{Latitude: *g.Latitude, Longitude: *g.Longitude, Accuracy: g.Accuracy}, nil
}

// decodePermissions reads names to grant, ["camera", …], or settings by
// name, {"camera": "granted", "notifications": "denied"} (or true, false).
func decodePermissions(raw json.RawMessage) (map[string]string, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	const form = `"permissions" takes names to grant, ["camera", …], or {"camera": "granted"|"denied"|"prompt"}`
	out := map[string]string{}
	var names []string
	var settings map[string]json.RawMessage
	switch {
	case json.Unmarshal(raw, &names) == nil && len(names) > 0:
		for _, n := range names {
			out[n] = "granted"
		}
	case isObject(raw) && json.Unmarshal(raw, &settings) == nil && len(settings) > 0:
		for n, v := range settings {
			s, err := permissionSetting(n, v)
			if err != nil {
				return nil, err
			}
			out[n] = s
		}
	default:
		return nil, paramErrorf("%s, got %s", form, jsonKind(raw))
	}
	for _, n := range slices.Sorted(maps.Keys(out)) {
		if !slices.Contains(page.PermissionNames, n) {
			msg := fmt.Sprintf("unknown permission %q", n)
			if s := suggest.Nearest(n, page.PermissionNames); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			return nil, paramErrorf("%s (known: %s)", msg, strings.Join(page.PermissionNames, ", "))
		}
	}
	return out, nil
}

// permissionSetting reads a permission's setting: granted, denied,
// prompt, or true and false for the first two.
func permissionSetting(name string, raw json.RawMessage) (string, error) {
	if b, ok := asBool(raw); ok {
		if b {
			return "granted", nil
		}
		return "denied", nil
	}
	s, _ := asString(raw)
	switch s {
	case "grant", "allow":
		return "granted", nil
	case "deny", "block":
		return "denied", nil
	}
	return oneOf(name, s, page.PermissionSettings)
}

// emulateOutput is what the steps report: viewport the screen it set or
// a reset, emulate the settings in force (the screen's too) and a reset.
// The result's context names the settings in force after every call.
type emulateOutput struct {
	*screenOutput
	Reset    bool   `json:"reset,omitempty"`
	Emulated string `json:"emulated,omitempty"`
}

type screenOutput struct {
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor"`
	Mobile            bool    `json:"mobile"`
}

// reloadNote is said when the step changed what a loaded page keeps
// until it loads again: its touch support, which its scripts detect on
// load, and the user agent and languages its server was sent.
const reloadNote = "the page loaded with another user agent, touch or language: reload it to load it with these"

func runViewport(ctx context.Context, e *env, p emulateParams) (output, error) {
	return e.emulate(ctx, p, false)
}

func runEmulate(ctx context.Context, e *env, p emulateParams) (output, error) {
	return e.emulate(ctx, p, true)
}

// emulate applies the step over what the tab emulates, and stores the
// result for later calls. A reset ends the screen, and with all the
// environment too; the network step's conditions are its own.
func (e *env) emulate(ctx context.Context, p emulateParams, all bool) (output, error) {
	from := e.tab.LoadEmulation()
	to := from
	switch {
	case p.reset && all:
		to = page.Emulation{Network: from.Network}
	case p.reset:
		to.Viewport, to.Device = nil, ""
	default:
		if p.screen != nil {
			to.Viewport, to.Device = p.screen, p.device
		}
		var env page.Environment
		if from.Environment != nil {
			env = *from.Environment
		}
		to = to.WithEnvironment(env.With(p.env))
	}
	if err := e.tab.ChangeEmulation(ctx, from, to); err != nil {
		return output{}, err
	}
	out := emulateOutput{Reset: p.reset}
	if s := p.screen; s != nil && !p.reset && !all {
		out.screenOutput = &screenOutput{Width: s.Width, Height: s.Height, DeviceScaleFactor: s.DeviceScaleFactor, Mobile: s.Mobile}
	}
	if all {
		out.Emulated = to.Summary()
	}
	var o output
	if out != (emulateOutput{}) {
		o.value = out // a viewport that set no screen has nothing the context does not say
	}
	if page.NeedsReload(from, to) {
		var blank bool
		if e.page().Top().CallJS(ctx, "() => location.href === 'about:blank'", &blank) == nil && !blank {
			o.warning = reloadNote
		}
	}
	return o, nil
}

// explainEmulation names the settings in force in the context, and notes
// why the page's viewport is wider than the phone the tab emulates:
// without a meta viewport, a mobile browser lays the page out 980 px
// wide and shows it zoomed out.
// The tab notes the document it leaves the emulation on.
func (c *Call) explainEmulation(pc *page.Context) {
	em := c.tab.Emulation
	pc.Emulated = em.Summary()
	c.tab.LeftOn(pc.Doc)
	if v := em.Viewport; v != nil && v.Mobile && !pc.MetaViewport && pc.LayoutWidth > v.Width {
		pc.Viewport.Note = fmt.Sprintf("layout width %d px: the page has no meta viewport", pc.LayoutWidth)
	}
}

// changeNetworkConditions applies a network step's offline or throttle
// change on top of what the tab already emulates, and stores the result.
func (e *env) changeNetworkConditions(ctx context.Context, ch conditionsChange) (any, error) {
	em := e.tab.LoadEmulation()
	var cur page.NetworkConditions
	if em.Network != nil {
		cur = *em.Network
	}
	if ch.throttle != nil {
		cur = page.NetworkConditions{Offline: cur.Offline, Throttle: ch.throttle.Throttle,
			Latency: ch.throttle.Latency, Download: ch.throttle.Download, Upload: ch.throttle.Upload}
	}
	if ch.offline != nil {
		cur.Offline = *ch.offline
	}
	if err := page.SetNetworkConditions(ctx, e.page(), cur); err != nil {
		return nil, err
	}
	e.tab.EmulateWorkers(ctx, cur) // what the tab's service workers fetch goes offline too
	em.Network = nil
	if !cur.IsZero() {
		em.Network = &cur
	}
	return conditionsOutput(cur), e.tab.SaveEmulation(em)
}

// conditionsOutput reports the emulated network: offline, and the
// throttle's preset name or numbers.
func conditionsOutput(n page.NetworkConditions) map[string]any {
	out := map[string]any{"offline": n.Offline}
	switch {
	case n.Throttle != "":
		out["throttle"] = n.Throttle
	case n.Throttled():
		out["throttle"] = map[string]float64{"latency": n.Latency, "download": n.Download, "upload": n.Upload}
	}
	return out
}
