package proto

import (
	"context"

	"github.com/cdpskill/cdpskill/cdp"
)

// Chrome ends every Emulation override when the session that set it
// detaches. Each command is answered at once, and none needs another:
// callers send them together (Send) and then wait for the replies.

// ScreenOrientation is an emulated screen's orientation
// (Emulation.ScreenOrientation).
type ScreenOrientation struct {
	// Type is portraitPrimary, landscapePrimary…
	Type  string `json:"type"`
	Angle int    `json:"angle"`
}

// UserAgentMetadata is what the client hints (navigator.userAgentData,
// Sec-CH-UA-*) say of the browser's system (Emulation.UserAgentMetadata).
// Its fields are all sent, empty or not: Chrome requires them.
type UserAgentMetadata struct {
	Platform        string `json:"platform"`
	PlatformVersion string `json:"platformVersion"`
	Architecture    string `json:"architecture"`
	Model           string `json:"model"`
	Mobile          bool   `json:"mobile"`
}

// EmulationSetDeviceMetricsOverride emulates a screen.
type EmulationSetDeviceMetricsOverride struct {
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor"`
	Mobile            bool    `json:"mobile"`
	// ScreenOrientation is set for a phone or tablet only.
	ScreenOrientation *ScreenOrientation `json:"screenOrientation,omitempty"`
}

func (p EmulationSetDeviceMetricsOverride) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.setDeviceMetricsOverride", p)
}

func (p EmulationSetDeviceMetricsOverride) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Emulation.setDeviceMetricsOverride", p)
}

// EmulationClearDeviceMetricsOverride ends the screen's emulation.
type EmulationClearDeviceMetricsOverride struct{}

func (p EmulationClearDeviceMetricsOverride) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.clearDeviceMetricsOverride", p)
}

func (p EmulationClearDeviceMetricsOverride) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Emulation.clearDeviceMetricsOverride", p)
}

// EmulationSetTouchEmulationEnabled emulates a touch screen. The page's
// scripts see it ('ontouchstart' in window) from its next document on.
type EmulationSetTouchEmulationEnabled struct {
	Enabled        bool `json:"enabled"`
	MaxTouchPoints int  `json:"maxTouchPoints,omitempty"`
}

func (p EmulationSetTouchEmulationEnabled) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.setTouchEmulationEnabled", p)
}

func (p EmulationSetTouchEmulationEnabled) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Emulation.setTouchEmulationEnabled", p)
}

// EmulationSetUserAgentOverride overrides the user agent and the
// languages, from the next request on; the page's scripts see them at
// once (navigator.userAgent, navigator.language). An empty UserAgent
// keeps the browser's own, an empty AcceptLanguage the browser's
// languages: both empty end the override.
type EmulationSetUserAgentOverride struct {
	UserAgent string `json:"userAgent"`
	// AcceptLanguage is the Accept-Language header and
	// navigator.languages: "de-DE".
	AcceptLanguage string `json:"acceptLanguage,omitempty"`
	// Platform is navigator.platform.
	Platform          string             `json:"platform,omitempty"`
	UserAgentMetadata *UserAgentMetadata `json:"userAgentMetadata,omitempty"`
}

func (p EmulationSetUserAgentOverride) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.setUserAgentOverride", p)
}

func (p EmulationSetUserAgentOverride) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Emulation.setUserAgentOverride", p)
}

// EmulationSetDefaultBackgroundColorOverride sets the color painted where
// the page paints none (white): transparent for a screenshot without
// background. No Color ends the override: back to the page's own.
type EmulationSetDefaultBackgroundColorOverride struct {
	Color *RGBA `json:"color,omitempty"`
}

func (p EmulationSetDefaultBackgroundColorOverride) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.setDefaultBackgroundColorOverride", p)
}

// MediaFeature is a CSS media feature and the value a page's media
// queries see (Emulation.MediaFeature): prefers-color-scheme: dark.
type MediaFeature struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// EmulationSetEmulatedMedia sets the CSS media type and features the
// page's stylesheets and matchMedia see, at once. Each call replaces the
// last: an empty Media and no Features are the page's own.
type EmulationSetEmulatedMedia struct {
	// Media is screen or print; empty is the page's own.
	Media string `json:"media"`
	// Features are sent even when empty, which ends those set before.
	Features []MediaFeature `json:"features"`
}

func (p EmulationSetEmulatedMedia) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.setEmulatedMedia", p)
}

func (p EmulationSetEmulatedMedia) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Emulation.setEmulatedMedia", p)
}

// EmulationSetLocaleOverride sets the ICU locale: Intl's default and the
// formats of toLocaleString. An empty Locale ends the override. Chrome
// keeps one per renderer process: a second tab's session in the same
// process is refused while the first one's lasts.
type EmulationSetLocaleOverride struct {
	Locale string `json:"locale"`
}

func (p EmulationSetLocaleOverride) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.setLocaleOverride", p)
}

func (p EmulationSetLocaleOverride) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Emulation.setLocaleOverride", p)
}

// EmulationSetTimezoneOverride sets the time zone Date and Intl use, at
// once. An empty TimezoneID ends the override; an unknown one is
// refused. Chrome keeps one per renderer process, as it does a locale.
type EmulationSetTimezoneOverride struct {
	// TimezoneID is an IANA name: Europe/Berlin.
	TimezoneID string `json:"timezoneId"`
}

func (p EmulationSetTimezoneOverride) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.setTimezoneOverride", p)
}

func (p EmulationSetTimezoneOverride) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Emulation.setTimezoneOverride", p)
}

// EmulationSetGeolocationOverride is the position navigator.geolocation
// reports; the page needs the geolocation permission to read it. All
// fields are sent: with none Chrome would report the position
// unavailable.
type EmulationSetGeolocationOverride struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	// Accuracy is in metres.
	Accuracy float64 `json:"accuracy"`
}

func (p EmulationSetGeolocationOverride) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.setGeolocationOverride", p)
}

func (p EmulationSetGeolocationOverride) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Emulation.setGeolocationOverride", p)
}

// EmulationClearGeolocationOverride ends the emulated position.
type EmulationClearGeolocationOverride struct{}

func (p EmulationClearGeolocationOverride) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.clearGeolocationOverride", p)
}

func (p EmulationClearGeolocationOverride) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Emulation.clearGeolocationOverride", p)
}

// EmulationSetCPUThrottlingRate slows the page's CPU down Rate times; 1
// is full speed.
type EmulationSetCPUThrottlingRate struct {
	Rate float64 `json:"rate"`
}

func (p EmulationSetCPUThrottlingRate) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Emulation.setCPUThrottlingRate", p)
}

func (p EmulationSetCPUThrottlingRate) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Emulation.setCPUThrottlingRate", p)
}
