package page

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

// Emulation is what a tab has been told to pretend: a screen and network
// conditions. Chrome ends every override when the CDP session that set
// it detaches, and each cdpskill call is a session of its own, so the
// runner keeps the tab's Emulation and applies it again at each attach.
// The zero value is no emulation, what a fresh session has (SPEC 5).
type Emulation struct {
	Viewport *DeviceMetrics     `json:"viewport,omitempty"`
	Network  *NetworkConditions `json:"network,omitempty"`
}

// IsZero reports whether e emulates nothing.
func (e Emulation) IsZero() bool { return e.Viewport == nil && e.Network == nil }

// Apply sets everything e holds.
func (e Emulation) Apply(ctx context.Context, p *Page) error {
	if e.Viewport != nil {
		if _, err := SetViewport(ctx, p, *e.Viewport); err != nil {
			return err
		}
	}
	if e.Network != nil {
		return SetNetworkConditions(ctx, p, *e.Network)
	}
	return nil
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
	if m.DeviceScaleFactor == 0 {
		m.DeviceScaleFactor = 1
	}
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
	// Sent together: each is answered at once, and none needs another.
	err := waitAll(ctx, "set viewport",
		params.Send(ctx, p.S),
		touchParams(m.HasTouch).Send(ctx, p.S),
		userAgentParams(m.UserAgent, m.Mobile).Send(ctx, p.S))
	return m, err
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
