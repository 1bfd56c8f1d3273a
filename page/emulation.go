package page

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

// Emulation is what a tab has been told to pretend: a screen, an
// environment and network conditions. Chrome ends every override when
// the CDP session that set it detaches, and each cdpskill call is a
// session of its own, so the runner keeps the tab's Emulation and applies
// it again at each attach. The zero value is no emulation, what a fresh
// session has (SPEC 5).
type Emulation struct {
	Viewport *DeviceMetrics `json:"viewport,omitempty"`
	// Device is the preset Viewport came from; empty for a custom one.
	Device      string             `json:"device,omitempty"`
	Environment *Environment       `json:"environment,omitempty"`
	Network     *NetworkConditions `json:"network,omitempty"`
}

// IsZero reports whether e emulates nothing.
func (e Emulation) IsZero() bool {
	return e.Viewport == nil && e.Network == nil && e.env().IsZero()
}

// env is e's environment; the zero one when it has none.
func (e Emulation) env() Environment {
	if e.Environment == nil {
		return Environment{}
	}
	return *e.Environment
}

// WithEnvironment is e with its environment set to env; none when env
// is the browser's own.
func (e Emulation) WithEnvironment(env Environment) Emulation {
	e.Environment = nil
	if !env.IsZero() {
		e.Environment = &env
	}
	return e
}

// Summary names the settings in force in a few words, for the report:
// "iphone-15, dark, de-DE, Europe/Berlin, 52.52,13.405, offline"; a
// custom screen is its size, "800x600". Empty when e emulates nothing.
func (e Emulation) Summary() string {
	var parts []string
	switch v := e.Viewport; {
	case v != nil && e.Device != "":
		parts = append(parts, e.Device)
	case v != nil:
		parts = append(parts, fmt.Sprintf("%dx%d", v.Width, v.Height))
	}
	parts = append(parts, e.env().Summary()...)
	if n := e.Network; n != nil {
		if n.Offline {
			parts = append(parts, "offline")
		}
		switch {
		case n.Throttle != "":
			parts = append(parts, n.Throttle)
		case n.Throttled():
			parts = append(parts, "throttled")
		}
	}
	return strings.Join(parts, ", ")
}

// Apply sets everything e holds, in a session that emulates nothing yet.
func (e Emulation) Apply(ctx context.Context, p *Page) error {
	return Change(ctx, p, Emulation{}, e)
}

// NeedsReload reports whether going from one emulation to the other
// changes what a loaded page keeps until it loads again: its touch
// support, which its scripts detect on load, and the user agent and
// languages its server was sent.
func NeedsReload(from, to Emulation) bool {
	touch := func(e Emulation) bool { return e.Viewport != nil && e.Viewport.HasTouch }
	ua, was := uaParams(to), uaParams(from)
	return touch(from) != touch(to) || ua.UserAgent != was.UserAgent || ua.AcceptLanguage != was.AcceptLanguage
}

// Change moves the tab from the emulation from, which its session has,
// to to, sending only what differs, all at once; in a new session from is
// the zero Emulation. Every part is tried; the first failure is returned,
// a value Chrome refused as an *invalid.Option. The page's scripts see
// the media, locale, time zone, position, permissions and user agent at
// once; its server sees the user agent and languages from its next
// request, and its scripts touch from its next document.
func Change(ctx context.Context, p *Page, from, to Emulation) error {
	if err := to.env().Validate(); err != nil {
		return err
	}
	if to.Viewport != nil {
		if err := to.Viewport.Validate(); err != nil {
			return err
		}
	}
	s := p.S
	fe, te := from.env(), to.env()
	var w replies
	if !reflect.DeepEqual(from.Viewport, to.Viewport) {
		if m := to.Viewport; m != nil {
			w.add("viewport", nil, metricsParams(*m).Send(ctx, s), touchParams(m.HasTouch).Send(ctx, s))
		} else {
			w.add("viewport", nil, proto.EmulationClearDeviceMetricsOverride{}.Send(ctx, s), touchParams(false).Send(ctx, s))
		}
	}
	if ua := uaParams(to); !reflect.DeepEqual(ua, uaParams(from)) {
		w.add("userAgent", nil, ua.Send(ctx, s))
	}
	if m := mediaParams(te); !reflect.DeepEqual(m, mediaParams(fe)) {
		w.add("media", nil, m.Send(ctx, s))
	}
	if te.Locale != fe.Locale {
		w.add("locale", refusedAs("locale", te.Locale, "Invalid locale"), proto.EmulationSetLocaleOverride{Locale: te.Locale}.Send(ctx, s))
	}
	if te.Timezone != fe.Timezone {
		w.add("timezone", refusedAs("timezone", te.Timezone, "Invalid timezone"), proto.EmulationSetTimezoneOverride{TimezoneID: te.Timezone}.Send(ctx, s))
	}
	if !reflect.DeepEqual(te.Geolocation, fe.Geolocation) {
		if g := te.Geolocation; g != nil {
			w.add("geolocation", nil, proto.EmulationSetGeolocationOverride{Latitude: g.Latitude, Longitude: g.Longitude, Accuracy: g.Accuracy}.Send(ctx, s))
		} else {
			w.add("geolocation", nil, proto.EmulationClearGeolocationOverride{}.Send(ctx, s))
		}
	}
	if te.CPUThrottle != fe.CPUThrottle {
		w.add("cpuThrottle", nil, proto.EmulationSetCPUThrottlingRate{Rate: max(1, te.CPUThrottle)}.Send(ctx, s))
	}
	if off := te.Cache != nil; off != (fe.Cache != nil) {
		// Needs the Network domain; enabling it again is harmless.
		w.add("cache", nil, proto.NetworkEnable{}.Send(ctx, s), proto.NetworkSetCacheDisabled{CacheDisabled: off}.Send(ctx, s))
	}
	if !reflect.DeepEqual(from.Network, to.Network) {
		var n NetworkConditions
		if to.Network != nil {
			n = *to.Network
		}
		w.add("network conditions", nil, SendNetworkConditions(ctx, s, n)...)
	}
	if was, now := fe.permissions(), te.permissions(); !maps.Equal(was, now) {
		w.err(setPermissions(ctx, p, len(was) > 0, now))
	}
	return w.wait(ctx)
}

// permissions are the permission settings e makes: its own, and
// geolocation granted with a position.
func (e Environment) permissions() map[string]string {
	out := maps.Clone(e.Permissions)
	if e.Geolocation != nil {
		if out == nil {
			out = map[string]string{}
		}
		if _, ok := out["geolocation"]; !ok {
			out["geolocation"] = "granted"
		}
	}
	return out
}

// setPermissions sets the tab's permissions to want, for every origin in
// the tab's browser context, so that they hold across navigations; reset
// ends those set before first. Chrome keeps them per browser context, not
// per tab (see proto.BrowserSetPermission).
func setPermissions(ctx context.Context, p *Page, reset bool, want map[string]string) error {
	info, err := proto.TargetGetTargetInfo{TargetID: p.S.TargetID}.Do(ctx, p.S.Conn().Browser())
	if err != nil {
		return fmt.Errorf("page: permissions: %w", err)
	}
	bc := info.TargetInfo.BrowserContextID
	if reset {
		if err := (proto.BrowserResetPermissions{BrowserContextID: bc}).Do(ctx, p.S); err != nil {
			return fmt.Errorf("page: permissions: %w", err)
		}
	}
	var w replies
	for _, name := range slices.Sorted(maps.Keys(want)) {
		d := proto.PermissionDescriptor{Name: name, UserVisibleOnly: name == "push", AllowWithoutGesture: name == "fullscreen"}
		w.add("permission "+name, refusedAs("permission", name, "Invalid PermissionDescriptor"),
			proto.BrowserSetPermission{Permission: d, Setting: want[name], BrowserContextID: bc}.Send(ctx, p.S))
	}
	return w.wait(ctx)
}

// uaParams override the user agent with e's, else its device's, and the
// languages with its locale's.
func uaParams(e Emulation) proto.EmulationSetUserAgentOverride {
	var ua string
	var mobile bool
	if v := e.Viewport; v != nil {
		ua, mobile = v.UserAgent, v.Mobile
	}
	env := e.env()
	if env.UserAgent != "" {
		ua = env.UserAgent
	}
	params := userAgentParams(ua, mobile)
	params.AcceptLanguage = env.Locale
	return params
}

// mediaParams emulate e's media type and features; none is the page's
// own.
func mediaParams(e Environment) proto.EmulationSetEmulatedMedia {
	params := proto.EmulationSetEmulatedMedia{Media: e.Media, Features: []proto.MediaFeature{}}
	for _, f := range []proto.MediaFeature{
		{Name: "prefers-color-scheme", Value: e.ColorScheme},
		{Name: "prefers-reduced-motion", Value: e.ReducedMotion},
		{Name: "forced-colors", Value: e.ForcedColors},
	} {
		if f.Value != "" {
			params.Features = append(params.Features, f)
		}
	}
	return params
}

// replies are the commands a change sent, waited for together.
type replies struct {
	sent  []reply
	first error
}

type reply struct {
	what    string
	refused func(error) error // the error as the agent reads it; nil keeps it
	s       *cdp.Sent
}

func (r *replies) add(what string, refused func(error) error, sent ...*cdp.Sent) {
	for _, s := range sent {
		r.sent = append(r.sent, reply{what, refused, s})
	}
}

// err notes a failure of a part done on its own.
func (r *replies) err(err error) {
	if err != nil && r.first == nil {
		r.first = err
	}
}

// wait waits for every reply, and returns the first failure.
func (r *replies) wait(ctx context.Context) error {
	for _, s := range r.sent {
		err := s.s.Wait(ctx, nil)
		if err == nil {
			continue
		}
		if s.refused != nil {
			err = s.refused(err)
		} else {
			err = fmt.Errorf("page: emulate %s: %w", s.what, err)
		}
		r.err(err)
	}
	return r.first
}

// refusedAs reads Chrome's refusal of field's value: an invalid value
// (its message starts with invalid) is an *invalid.Option; another tab's
// override in the same renderer process, which Chrome keeps one of for a
// locale and a time zone, says so.
func refusedAs(field, value, invalidMsg string) func(error) error {
	return func(err error) error {
		var pe *cdp.ProtocolError
		switch {
		case !errors.As(err, &pe):
		case strings.HasPrefix(pe.Message, invalidMsg):
			return &invalid.Option{Field: field, Value: value, Reason: "this Chrome does not know it"}
		case strings.Contains(pe.Message, "already in effect"):
			return fmt.Errorf("another tab in this tab's renderer process (one it opened, or its opener) emulates its own %s, and Chrome keeps one per process: %w", field, err)
		}
		return fmt.Errorf("page: emulate %s: %w", field, err)
	}
}

// Limits of a custom viewport. Chrome takes more, but past them the page
// is larger than any screen and screenshots of it fail.
const (
	maxViewportSide = 10000
	maxScaleFactor  = 10
)

// Validate checks a custom viewport without a browser.
func (m DeviceMetrics) Validate() error {
	switch {
	case m.Width <= 0 || m.Height <= 0 || m.Width > maxViewportSide || m.Height > maxViewportSide:
		return &invalid.Option{Field: "viewport", Value: fmt.Sprintf("%dx%d", m.Width, m.Height),
			Reason: fmt.Sprintf("width and height must be between 1 and %d", maxViewportSide)}
	case m.DeviceScaleFactor < 0 || m.DeviceScaleFactor > maxScaleFactor:
		return &invalid.Option{Field: "deviceScaleFactor", Value: fmt.Sprint(m.DeviceScaleFactor),
			Reason: fmt.Sprintf("must be between 0 and %d", maxScaleFactor)}
	}
	return nil
}

// WithDefaults is m with its scale factor filled in: 0 is 1.
func (m DeviceMetrics) WithDefaults() DeviceMetrics {
	if m.DeviceScaleFactor == 0 {
		m.DeviceScaleFactor = 1
	}
	return m
}

// metricsParams emulate m's screen.
func metricsParams(m DeviceMetrics) proto.EmulationSetDeviceMetricsOverride {
	m = m.WithDefaults()
	params := proto.EmulationSetDeviceMetricsOverride{
		Width: m.Width, Height: m.Height,
		DeviceScaleFactor: m.DeviceScaleFactor, Mobile: m.Mobile,
	}
	if m.Mobile {
		params.ScreenOrientation = &proto.ScreenOrientation{Type: "portraitPrimary", Angle: 0}
		if m.IsLandscape {
			params.ScreenOrientation = &proto.ScreenOrientation{Type: "landscapePrimary", Angle: 90}
		}
	}
	return params
}

// SetViewport emulates m's screen, touch and user agent, and returns it
// with its scale factor filled in. An empty UserAgent ends an override an
// earlier viewport of the session set. The page's scripts see touch
// support ('ontouchstart' in window) from its next document on, and its
// server the user agent from the next request on: a page loaded before
// is as it was loaded, until a reload.
func SetViewport(ctx context.Context, p *Page, m DeviceMetrics) (DeviceMetrics, error) {
	if err := m.Validate(); err != nil {
		return m, err
	}
	// Sent together: each is answered at once, and none needs another.
	err := waitAll(ctx, "set viewport",
		metricsParams(m).Send(ctx, p.S),
		touchParams(m.HasTouch).Send(ctx, p.S),
		userAgentParams(m.UserAgent, m.Mobile).Send(ctx, p.S))
	return m.WithDefaults(), err
}

// ClearViewport ends screen, touch and user agent emulation in this
// session.
func ClearViewport(ctx context.Context, p *Page) error {
	return waitAll(ctx, "clear viewport",
		proto.EmulationClearDeviceMetricsOverride{}.Send(ctx, p.S),
		touchParams(false).Send(ctx, p.S),
		userAgentParams("", false).Send(ctx, p.S))
}

// waitAll waits for every reply, and returns the first error.
func waitAll(ctx context.Context, what string, sent ...*cdp.Sent) error {
	var first error
	for _, s := range sent {
		if err := s.Wait(ctx, nil); err != nil && first == nil {
			first = fmt.Errorf("page: %s: %w", what, err)
		}
	}
	return first
}

func touchParams(on bool) proto.EmulationSetTouchEmulationEnabled {
	params := proto.EmulationSetTouchEmulationEnabled{Enabled: on}
	if on {
		params.MaxTouchPoints = 5
	}
	return params
}

// userAgentParams override the user agent with ua, and the client hints
// (navigator.userAgentData, Sec-CH-UA-*) with what ua says of its system,
// as Playwright does; an empty ua ends the override.
func userAgentParams(ua string, mobile bool) proto.EmulationSetUserAgentOverride {
	params := proto.EmulationSetUserAgentOverride{UserAgent: ua}
	if ua == "" {
		return params
	}
	meta := &proto.UserAgentMetadata{Mobile: mobile, Architecture: "x86"}
	version := func(re func() *regexp.Regexp) string {
		if m := re().FindStringSubmatch(ua); m != nil {
			return strings.ReplaceAll(m[1], "_", ".")
		}
		return ""
	}
	switch {
	case strings.Contains(ua, "Android"):
		meta.Platform, meta.PlatformVersion, meta.Architecture = "Android", version(androidRE), "arm"
		if m := androidModelRE().FindStringSubmatch(ua); m != nil {
			meta.Model = m[1]
		}
		params.Platform = "Linux armv8l"
	case strings.Contains(ua, "iPhone"), strings.Contains(ua, "iPad"):
		meta.Platform, meta.PlatformVersion, meta.Architecture = "iOS", version(iosRE), "arm"
		params.Platform = "iPhone"
		if strings.Contains(ua, "iPad") {
			params.Platform = "iPad"
		}
	case strings.Contains(ua, "Windows"):
		meta.Platform, meta.PlatformVersion = "Windows", version(windowsRE)
		params.Platform = "Win32"
	case strings.Contains(ua, "Mac OS X"):
		meta.Platform, meta.PlatformVersion, meta.Architecture = "macOS", version(macRE), "arm"
		params.Platform = "MacIntel"
	case strings.Contains(ua, "Linux"):
		meta.Platform = "Linux"
		params.Platform = "Linux x86_64"
	default:
		return params
	}
	params.UserAgentMetadata = meta
	return params
}

// The user agent's patterns are compiled on first use: only calls that
// emulate a device read them.
var (
	androidRE      = lazyRE(`Android (\d+(?:\.\d+)*)`)
	androidModelRE = lazyRE(`Android [\d.]+; ([^;)]+)\)`)
	iosRE          = lazyRE(`OS (\d+(?:_\d+)*) like Mac OS X`)
	macRE          = lazyRE(`Mac OS X (\d+(?:[._]\d+)*)`)
	windowsRE      = lazyRE(`Windows NT (\d+(?:\.\d+)*)`)
)

// lazyRE compiles expr on its first use.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// NetworkConditions are emulated network conditions. Throughputs are in
// bytes per second, latency in milliseconds; 0 means no limit.
type NetworkConditions struct {
	Offline bool `json:"offline,omitempty"`
	// Throttle names the preset the numbers came from, for reporting.
	Throttle string  `json:"throttle,omitempty"`
	Latency  float64 `json:"latency,omitempty"`
	Download float64 `json:"download,omitempty"`
	Upload   float64 `json:"upload,omitempty"`
}

// IsZero reports whether n leaves the network as it is.
func (n NetworkConditions) IsZero() bool {
	return !n.Offline && n.Latency == 0 && n.Download == 0 && n.Upload == 0
}

// Throttled reports whether n slows the network down.
func (n NetworkConditions) Throttled() bool {
	return n.Latency != 0 || n.Download != 0 || n.Upload != 0
}

// throttlePresets are DevTools' presets of the same names.
var throttlePresets = map[string]NetworkConditions{
	"slow-3g": {Latency: 2000, Download: 50000, Upload: 50000},
	"fast-3g": {Latency: 562.5, Download: 180000, Upload: 84375},
	"slow-4g": {Latency: 562.5, Download: 180000, Upload: 84375},
	"fast-4g": {Latency: 165, Download: 1012500, Upload: 168750},
}

// ThrottlePresetNames lists the throttle presets.
var ThrottlePresetNames = []string{"slow-3g", "fast-3g", "slow-4g", "fast-4g"}

// ThrottlePreset returns the preset called name, in any case and with
// "_" for "-".
func ThrottlePreset(name string) (NetworkConditions, bool) {
	name = NormalizeDeviceName(name)
	n, ok := throttlePresets[name]
	n.Throttle = name
	return n, ok
}

// SetNetworkConditions emulates n in the tab; the zero value ends the
// emulation. The tab's service workers need it too (EmulateNetwork on
// their sessions): what a worker fetches goes through its own target.
func SetNetworkConditions(ctx context.Context, p *Page, n NetworkConditions) error {
	return EmulateNetwork(ctx, p.S, n)
}

// EmulateNetwork emulates n on the target of s: a tab or a worker.
func EmulateNetwork(ctx context.Context, s *cdp.Session, n NetworkConditions) error {
	if n.Latency < 0 || n.Download < 0 || n.Upload < 0 {
		return &invalid.Option{Field: "throttle", Value: fmt.Sprintf("%+v", n), Reason: "latency, download and upload must be at least 0"}
	}
	for _, sent := range SendNetworkConditions(ctx, s, n) {
		if err := sent.Wait(ctx, nil); err != nil {
			return fmt.Errorf("page: network conditions: %w", err)
		}
	}
	return nil
}

// SendNetworkConditions sends what emulates n on the target of s without
// waiting for the replies: a worker paused at its start answers them only
// once it is resumed, and must be resumed after them.
func SendNetworkConditions(ctx context.Context, s *cdp.Session, n NetworkConditions) []*cdp.Sent {
	unlimited := func(v float64) float64 {
		if v == 0 {
			return -1 // CDP's "no limit"
		}
		return v
	}
	return []*cdp.Sent{
		// Emulation needs the Network domain; enabling it again is harmless.
		proto.NetworkEnable{}.Send(ctx, s),
		proto.NetworkEmulateNetworkConditions{
			Offline:            n.Offline,
			Latency:            n.Latency,
			DownloadThroughput: unlimited(n.Download),
			UploadThroughput:   unlimited(n.Upload),
		}.Send(ctx, s),
	}
}
