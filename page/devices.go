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
	// UserAgent is the device's browser's, sent with every request and
	// read by the page's scripts; empty keeps the browser's own.
	UserAgent string `json:"userAgent,omitempty"`
}

// The kinds of device, for the presets table. A phone or tablet is a
// mobile screen with touch and its browser's user agent, as Playwright's
// device descriptors have them.
func phone(w, h int, dpr float64, ua string) DeviceMetrics {
	return DeviceMetrics{Width: w, Height: h, DeviceScaleFactor: dpr, Mobile: true, HasTouch: true, UserAgent: ua}
}

func desktop(w, h int, dpr float64) DeviceMetrics {
	return DeviceMetrics{Width: w, Height: h, DeviceScaleFactor: dpr}
}

// Mobile browsers' user agents, in the form Playwright's device
// descriptors give them. Safari says which iOS it runs ("17_5"), and its
// Version is that release; Chrome on Android names the Android release
// and the model.
func safari(device, ios string) string {
	return "Mozilla/5.0 (" + device + " OS " + ios + " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/" +
		strings.Join(strings.Split(ios, "_")[:2], ".") + " Mobile/15E148 Safari/604.1"
}

func iphone(ios string) string { return safari("iPhone; CPU iPhone", ios) }
func ipad(ios string) string   { return safari("iPad; CPU", ios) }

// androidChrome is the Chrome the Android presets claim to run.
const androidChrome = "Chrome/131.0.0.0"

func android(release, model string) string {
	return "Mozilla/5.0 (Linux; Android " + release + "; " + model + ") AppleWebKit/537.36 (KHTML, like Gecko) " + androidChrome + " Mobile Safari/537.36"
}

// androidTablet: Chrome on a tablet leaves "Mobile" out.
func androidTablet(release, model string) string {
	return strings.Replace(android(release, model), " Mobile ", " ", 1)
}

// portraitDevices are the presets in their natural orientation (SPEC
// 18.5), with the sizes and pixel ratios the real devices report, and
// the system each shipped with (Playwright's descriptors for the iPhone 8
// to 15, the iPads, the Pixel 5 and 7).
var portraitDevices = map[string]DeviceMetrics{
	"iphone-se":         phone(375, 667, 2, iphone("15_4")),
	"iphone-8":          phone(375, 667, 2, iphone("11_0")),
	"iphone-8-plus":     phone(414, 736, 3, iphone("11_0")),
	"iphone-x":          phone(375, 812, 3, iphone("11_0")),
	"iphone-xr":         phone(414, 896, 2, iphone("12_0")),
	"iphone-11":         phone(414, 896, 2, iphone("12_2")),
	"iphone-11-pro":     phone(375, 812, 3, iphone("12_2")),
	"iphone-11-pro-max": phone(414, 896, 3, iphone("12_2")),
	"iphone-12-mini":    phone(375, 812, 3, iphone("14_4")),
	"iphone-12":         phone(390, 844, 3, iphone("14_4")),
	"iphone-12-pro":     phone(390, 844, 3, iphone("14_4")),
	"iphone-12-pro-max": phone(428, 926, 3, iphone("14_4")),
	"iphone-13-mini":    phone(375, 812, 3, iphone("15_0")),
	"iphone-13":         phone(390, 844, 3, iphone("15_0")),
	"iphone-13-pro":     phone(390, 844, 3, iphone("15_0")),
	"iphone-13-pro-max": phone(428, 926, 3, iphone("15_0")),
	"iphone-14":         phone(390, 844, 3, iphone("16_0")),
	"iphone-14-plus":    phone(428, 926, 3, iphone("16_0")),
	"iphone-14-pro":     phone(393, 852, 3, iphone("16_0")),
	"iphone-14-pro-max": phone(430, 932, 3, iphone("16_0")),
	"iphone-15":         phone(393, 852, 3, iphone("17_5")),
	"iphone-15-plus":    phone(430, 932, 3, iphone("17_5")),
	"iphone-15-pro":     phone(393, 852, 3, iphone("17_5")),
	"iphone-15-pro-max": phone(430, 932, 3, iphone("17_5")),

	"ipad-mini":     phone(768, 1024, 2, ipad("12_2")),
	"ipad":          phone(810, 1080, 2, ipad("12_2")),
	"ipad-air":      phone(820, 1180, 2, ipad("14_0")),
	"ipad-pro-11":   phone(834, 1194, 2, ipad("12_2")),
	"ipad-pro-12.9": phone(1024, 1366, 2, ipad("12_2")),

	"pixel-5":       phone(393, 851, 2.75, android("11", "Pixel 5")),
	"pixel-6":       phone(412, 915, 2.625, android("12", "Pixel 6")),
	"pixel-6-pro":   phone(412, 892, 3.5, android("12", "Pixel 6 Pro")),
	"pixel-7":       phone(412, 915, 2.625, android("14", "Pixel 7")),
	"pixel-7-pro":   phone(412, 892, 3.5, android("14", "Pixel 7 Pro")),
	"galaxy-s21":    phone(360, 800, 3, android("11", "SM-G991B")),
	"galaxy-s22":    phone(360, 780, 3, android("12", "SM-S901B")),
	"galaxy-s23":    phone(360, 780, 3, android("13", "SM-S911B")),
	"galaxy-tab-s7": phone(800, 1280, 2, androidTablet("10", "SM-T870")),

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
