package page

import (
	"sort"
	"strings"
)

// DeviceMetrics is an emulated screen: a device preset or a custom one.
// Sizes are CSS pixels.
type DeviceMetrics struct {
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor,omitempty"` // 0 is 1
	Mobile            bool    `json:"mobile,omitempty"`
	HasTouch          bool    `json:"hasTouch,omitempty"`
	IsLandscape       bool    `json:"isLandscape,omitempty"`
}

// The kinds of device, for the presets table.
func phone(w, h int, dpr float64) DeviceMetrics {
	return DeviceMetrics{Width: w, Height: h, DeviceScaleFactor: dpr, Mobile: true, HasTouch: true}
}

func desktop(w, h int, dpr float64) DeviceMetrics {
	return DeviceMetrics{Width: w, Height: h, DeviceScaleFactor: dpr}
}

// portraitDevices are the presets in their natural orientation (SPEC
// 18.5), with the sizes and pixel ratios the real devices report.
var portraitDevices = map[string]DeviceMetrics{
	"iphone-se":         phone(375, 667, 2),
	"iphone-8":          phone(375, 667, 2),
	"iphone-8-plus":     phone(414, 736, 3),
	"iphone-x":          phone(375, 812, 3),
	"iphone-xr":         phone(414, 896, 2),
	"iphone-11":         phone(414, 896, 2),
	"iphone-11-pro":     phone(375, 812, 3),
	"iphone-11-pro-max": phone(414, 896, 3),
	"iphone-12-mini":    phone(375, 812, 3),
	"iphone-12":         phone(390, 844, 3),
	"iphone-12-pro":     phone(390, 844, 3),
	"iphone-12-pro-max": phone(428, 926, 3),
	"iphone-13-mini":    phone(375, 812, 3),
	"iphone-13":         phone(390, 844, 3),
	"iphone-13-pro":     phone(390, 844, 3),
	"iphone-13-pro-max": phone(428, 926, 3),
	"iphone-14":         phone(390, 844, 3),
	"iphone-14-plus":    phone(428, 926, 3),
	"iphone-14-pro":     phone(393, 852, 3),
	"iphone-14-pro-max": phone(430, 932, 3),
	"iphone-15":         phone(393, 852, 3),
	"iphone-15-plus":    phone(430, 932, 3),
	"iphone-15-pro":     phone(393, 852, 3),
	"iphone-15-pro-max": phone(430, 932, 3),

	"ipad-mini":     phone(768, 1024, 2),
	"ipad":          phone(810, 1080, 2),
	"ipad-air":      phone(820, 1180, 2),
	"ipad-pro-11":   phone(834, 1194, 2),
	"ipad-pro-12.9": phone(1024, 1366, 2),

	"pixel-5":       phone(393, 851, 2.75),
	"pixel-6":       phone(412, 915, 2.625),
	"pixel-6-pro":   phone(412, 892, 3.5),
	"pixel-7":       phone(412, 915, 2.625),
	"pixel-7-pro":   phone(412, 892, 3.5),
	"galaxy-s21":    phone(360, 800, 3),
	"galaxy-s22":    phone(360, 780, 3),
	"galaxy-s23":    phone(360, 780, 3),
	"galaxy-tab-s7": phone(800, 1280, 2),

	"desktop":        desktop(1366, 768, 1),
	"desktop-hd":     desktop(1920, 1080, 1),
	"desktop-4k":     desktop(3840, 2160, 1),
	"laptop":         desktop(1440, 900, 1),
	"laptop-hidpi":   desktop(1440, 900, 2),
	"macbook-air":    desktop(1470, 956, 2),
	"macbook-pro-14": desktop(1512, 982, 2),
	"macbook-pro-16": desktop(1728, 1117, 2),
}

// landscapeOf names the presets that also come turned, as
// "<name>-landscape".
var landscapeOf = []string{
	"iphone-se", "iphone-14", "iphone-15", "iphone-15-pro", "iphone-15-pro-max",
	"ipad-mini", "ipad", "ipad-air", "ipad-pro-11", "ipad-pro-12.9",
	"pixel-7", "galaxy-s23", "galaxy-tab-s7",
}

var devices = func() map[string]DeviceMetrics {
	all := make(map[string]DeviceMetrics, len(portraitDevices)+len(landscapeOf))
	for name, d := range portraitDevices {
		all[name] = d
	}
	for _, name := range landscapeOf {
		d := portraitDevices[name]
		d.Width, d.Height, d.IsLandscape = d.Height, d.Width, true
		all[name+"-landscape"] = d
	}
	return all
}()

// NormalizeDeviceName is how preset names are compared: case-insensitive,
// with "_" and spaces read as "-" ("iPhone_15" is "iphone-15").
func NormalizeDeviceName(name string) string {
	return strings.NewReplacer("_", "-", " ", "-").Replace(strings.ToLower(strings.TrimSpace(name)))
}

// Device returns the preset called name.
func Device(name string) (DeviceMetrics, bool) {
	d, ok := devices[NormalizeDeviceName(name)]
	return d, ok
}

// DeviceNames lists the presets, sorted.
func DeviceNames() []string {
	names := make([]string, 0, len(devices))
	for name := range devices {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
