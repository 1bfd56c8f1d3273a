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

// EmulationSetUserAgentOverride overrides the user agent, from the next
// request on. An empty UserAgent ends the override.
type EmulationSetUserAgentOverride struct {
	UserAgent string `json:"userAgent"`
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
