package page

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/cdpskill/cdpskill/internal/invalid"
)

// Environment is the world a tab's page is told it runs in, beside its
// screen: the CSS media it matches, its language and time zone, where it
// is, what it may do, the browser it talks to, how fast its CPU is and
// whether it has a cache. The zero value is the browser's own; each field
// left empty leaves that part so.
type Environment struct {
	// ColorScheme is light or dark (prefers-color-scheme).
	ColorScheme string `json:"colorScheme,omitempty"`
	// ReducedMotion is reduce or no-preference (prefers-reduced-motion).
	ReducedMotion string `json:"reducedMotion,omitempty"`
	// ForcedColors is active or none (forced-colors).
	ForcedColors string `json:"forcedColors,omitempty"`
	// Media is the CSS media type: screen or print.
	Media string `json:"media,omitempty"`
	// Locale is a BCP 47 tag (de-DE): Intl's default, navigator.language
	// and the Accept-Language header.
	Locale string `json:"locale,omitempty"`
	// Timezone is an IANA name (Europe/Berlin), for Date and Intl.
	Timezone    string       `json:"timezone,omitempty"`
	Geolocation *Geolocation `json:"geolocation,omitempty"`
	// Permissions are settings by permission name (the Permissions API's:
	// camera, notifications…): granted, denied or prompt. Geolocation
	// is granted with a Geolocation, unless this says otherwise.
	Permissions map[string]string `json:"permissions,omitempty"`
	// UserAgent replaces the browser's, and a device preset's.
	UserAgent string `json:"userAgent,omitempty"`
	// CPUThrottle is how many times slower the page's CPU runs; 0 is
	// full speed.
	CPUThrottle float64 `json:"cpuThrottle,omitempty"`
	// Cache false makes every request bypass the HTTP cache; nil is the
	// browser's own.
	Cache *bool `json:"cache,omitempty"`
}

// Geolocation is an emulated position, in degrees; Accuracy is in
// metres.
type Geolocation struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	Accuracy  float64 `json:"accuracy,omitempty"`
}

// The values each media feature takes.
var (
	ColorSchemes   = []string{"light", "dark"}
	ReducedMotions = []string{"reduce", "no-preference"}
	ForcedColors   = []string{"active", "none"}
	MediaTypes     = []string{"screen", "print"}
	// PermissionSettings are what a permission may be set to.
	PermissionSettings = []string{"granted", "denied", "prompt"}
)

// PermissionNames are the Permissions API's names Chrome lets DevTools
// set (Browser.setPermission).
var PermissionNames = []string{
	"accelerometer", "ambient-light-sensor", "background-fetch", "background-sync", "camera",
	"captured-surface-control", "clipboard-read", "clipboard-write", "display-capture", "fullscreen",
	"geolocation", "gyroscope", "idle-detection", "keyboard-lock", "local-fonts", "local-network-access",
	"magnetometer", "microphone", "midi", "nfc", "notifications", "payment-handler",
	"periodic-background-sync", "persistent-storage", "pointer-lock", "push", "screen-wake-lock",
	"speaker-selection", "storage-access", "system-wake-lock", "top-level-storage-access",
	"web-app-installation", "window-management",
}

// maxCPUThrottle bounds the slowdown: past it a page takes minutes to
// load, which no call waits for.
const maxCPUThrottle = 100

// IsZero reports whether e leaves everything the browser's own.
func (e Environment) IsZero() bool {
	return e.ColorScheme == "" && e.ReducedMotion == "" && e.ForcedColors == "" && e.Media == "" &&
		e.Locale == "" && e.Timezone == "" && e.Geolocation == nil && len(e.Permissions) == 0 &&
		e.UserAgent == "" && e.CPUThrottle == 0 && e.Cache == nil
}

// With is e with what o sets put over it: o's fields that are set
// replace e's, o's permissions join e's. A CPUThrottle of 1 and a Cache
// of true are the browser's own, so they end e's.
func (e Environment) With(o Environment) Environment {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&e.ColorScheme, o.ColorScheme)
	set(&e.ReducedMotion, o.ReducedMotion)
	set(&e.ForcedColors, o.ForcedColors)
	set(&e.Media, o.Media)
	set(&e.Locale, o.Locale)
	set(&e.Timezone, o.Timezone)
	set(&e.UserAgent, o.UserAgent)
	if o.Geolocation != nil {
		g := *o.Geolocation
		e.Geolocation = &g
	}
	if len(o.Permissions) > 0 {
		e.Permissions = maps.Clone(e.Permissions)
		if e.Permissions == nil {
			e.Permissions = map[string]string{}
		}
		maps.Copy(e.Permissions, o.Permissions)
	}
	if o.CPUThrottle != 0 {
		e.CPUThrottle = o.CPUThrottle
	}
	if e.CPUThrottle == 1 {
		e.CPUThrottle = 0
	}
	if o.Cache != nil {
		e.Cache = o.Cache
	}
	if e.Cache != nil && *e.Cache {
		e.Cache = nil
	}
	return e
}

// Validate checks e without a browser, for what Chrome would refuse or,
// worse, take and get wrong (a color scheme it does not know, an unknown
// time zone over another).
func (e Environment) Validate() error {
	for _, f := range []struct {
		field, value string
		choices      []string
	}{
		{"colorScheme", e.ColorScheme, ColorSchemes},
		{"reducedMotion", e.ReducedMotion, ReducedMotions},
		{"forcedColors", e.ForcedColors, ForcedColors},
		{"media", e.Media, MediaTypes},
	} {
		if f.value != "" && !slices.Contains(f.choices, f.value) {
			return &invalid.Option{Field: f.field, Value: f.value, Reason: "must be " + orList(f.choices)}
		}
	}
	if err := ValidateLocale(e.Locale); err != nil {
		return err
	}
	if err := ValidateTimezone(e.Timezone); err != nil {
		return err
	}
	if g := e.Geolocation; g != nil {
		switch {
		case g.Latitude < -90 || g.Latitude > 90:
			return &invalid.Option{Field: "latitude", Value: fmt.Sprint(g.Latitude), Reason: "must be between -90 and 90"}
		case g.Longitude < -180 || g.Longitude > 180:
			return &invalid.Option{Field: "longitude", Value: fmt.Sprint(g.Longitude), Reason: "must be between -180 and 180"}
		case g.Accuracy < 0:
			return &invalid.Option{Field: "accuracy", Value: fmt.Sprint(g.Accuracy), Reason: "must be at least 0 (metres)"}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(e.Permissions)) {
		if !slices.Contains(PermissionNames, name) {
			return &invalid.Option{Field: "permission", Value: name, Reason: "Chrome knows " + strings.Join(PermissionNames, ", ")}
		}
		if s := e.Permissions[name]; !slices.Contains(PermissionSettings, s) {
			return &invalid.Option{Field: name, Value: s, Reason: "must be " + orList(PermissionSettings)}
		}
	}
	if strings.ContainsAny(e.UserAgent, "\r\n") {
		return &invalid.Option{Field: "userAgent", Value: e.UserAgent, Reason: "must be one line"}
	}
	if e.CPUThrottle != 0 && (e.CPUThrottle < 1 || e.CPUThrottle > maxCPUThrottle) {
		return &invalid.Option{Field: "cpuThrottle", Value: fmt.Sprint(e.CPUThrottle),
			Reason: fmt.Sprintf("is how many times slower, from 1 (full speed) to %d", maxCPUThrottle)}
	}
	return nil
}

// orList is "a, b or c".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// localeRE is a BCP 47 tag's shape: a language, then subtags.
var localeRE = lazyRE(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$`)

// ValidateLocale checks a locale's shape; "" is none. The tag goes into
// the Accept-Language header too, so "de_DE" is refused for "de-DE".
func ValidateLocale(tag string) error {
	if tag == "" || localeRE().MatchString(tag) {
		return nil
	}
	reason := `must be a BCP 47 language tag such as "de-DE", "en" or "zh-Hant-TW"`
	if fixed := strings.ReplaceAll(tag, "_", "-"); localeRE().MatchString(fixed) {
		reason = fmt.Sprintf("did you mean %q?", fixed)
	}
	return &invalid.Option{Field: "locale", Value: tag, Reason: reason}
}

// zoneDatabase reports whether this machine's time zone database can be
// read (time.LoadLocation): without it no name can be checked here, and
// Chrome's refusal is the check.
var zoneDatabase = sync.OnceValue(func() bool {
	_, err := time.LoadLocation("Europe/Berlin")
	return err == nil
})

// ValidateTimezone checks an IANA time zone name against this machine's
// database, when it has one; "" is none. Chrome refuses an unknown name
// only while no other is in force: over one it answers yes and keeps the
// old zone. So names are checked here, and the one meant is offered when
// it is near ("Berlin" for Europe/Berlin).
func ValidateTimezone(name string) error {
	if name == "" || !zoneDatabase() {
		return nil
	}
	if name != "Local" {
		if _, err := time.LoadLocation(name); err == nil {
			return nil
		}
	}
	reason := `must be an IANA time zone name such as "Europe/Berlin", "America/New_York" or "UTC"`
	if near := nearZone(name); near != "" {
		reason = fmt.Sprintf("did you mean %q?", near)
	}
	return &invalid.Option{Field: "timezone", Value: name, Reason: reason}
}

// zoneAreas are the IANA areas a city's zone is found in.
var zoneAreas = []string{"", "Europe/", "America/", "Asia/", "Africa/", "Australia/", "Pacific/", "Atlantic/", "Indian/"}

// nearZone is the zone name written differently: its words capitalised
// and joined by "_" ("new york" is America/New_York), an abbreviation in
// capitals ("utc"), or a city without its area ("Berlin" is
// Europe/Berlin); "" when there is none.
func nearZone(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool { return r == ' ' || r == '_' })
	for i, w := range words {
		parts := strings.Split(w, "/")
		for j, p := range parts {
			if r := []rune(strings.ToLower(p)); len(r) > 0 {
				r[0] = unicode.ToUpper(r[0])
				parts[j] = string(r)
			}
		}
		words[i] = strings.Join(parts, "/")
	}
	for _, city := range []string{strings.Join(words, "_"), strings.ToUpper(name)} {
		if city == "" || strings.Contains(city, "..") {
			continue
		}
		for _, area := range zoneAreas {
			if area != "" && strings.Contains(city, "/") {
				break
			}
			if _, err := time.LoadLocation(area + city); err == nil && area+city != name {
				return area + city
			}
		}
	}
	return ""
}

// Summary names in a few words what e sets, in the order of its fields:
// "dark, de-DE, Europe/Berlin, 52.52,13.4". Empty for none.
func (e Environment) Summary() []string {
	var out []string
	add := func(s ...string) {
		for _, v := range s {
			if v != "" {
				out = append(out, v)
			}
		}
	}
	add(e.ColorScheme)
	switch e.ReducedMotion {
	case "reduce":
		add("reduced motion")
	case "no-preference":
		add("motion")
	}
	switch e.ForcedColors {
	case "active":
		add("forced colors")
	case "none":
		add("no forced colors")
	}
	add(e.Media, e.Locale, e.Timezone)
	if g := e.Geolocation; g != nil {
		add(strconv.FormatFloat(g.Latitude, 'f', -1, 64) + "," + strconv.FormatFloat(g.Longitude, 'f', -1, 64))
	}
	for _, name := range slices.Sorted(maps.Keys(e.Permissions)) {
		add(name + " " + e.Permissions[name])
	}
	if e.UserAgent != "" {
		add("userAgent")
	}
	if e.CPUThrottle > 1 {
		add(fmt.Sprintf("CPU %gx slower", e.CPUThrottle))
	}
	if e.Cache != nil && !*e.Cache {
		add("no cache")
	}
	return out
}
