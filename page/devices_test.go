package page_test

import (
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/page"
)

// Every preset is well-formed for its kind (SPEC 18.5).
func TestDevicePresetsWellFormed(t *testing.T) {
	names := page.DeviceNames()
	if len(names) < 40 {
		t.Fatalf("%d presets, want 40+", len(names))
	}
	kinds := map[string]int{}
	for _, name := range names {
		d, ok := page.Device(name)
		if !ok {
			t.Fatalf("listed preset %s does not resolve", name)
		}
		if name != page.NormalizeDeviceName(name) {
			t.Errorf("%s: not a normalised name", name)
		}
		if err := d.Validate(); err != nil || d.DeviceScaleFactor < 1 || d.DeviceScaleFactor > 4 {
			t.Errorf("%s: %+v %v", name, d, err)
		}
		landscape := strings.HasSuffix(name, "-landscape")
		if d.IsLandscape != landscape {
			t.Errorf("%s: isLandscape %v", name, d.IsLandscape)
		}
		kind := deviceKind(name)
		kinds[kind]++
		switch kind {
		case "desktop":
			if d.Mobile || d.HasTouch || d.Width < 1366 || d.Width > 3840 || d.Width <= d.Height || d.UserAgent != "" {
				t.Errorf("%s: not a desktop (whose user agent is the browser's own): %+v", name, d)
			}
		default:
			if !d.Mobile || !d.HasTouch {
				t.Errorf("%s: a %s without mobile and touch: %+v", name, kind, d)
			}
			if sys := map[string]string{"iphone": "(iPhone; CPU iPhone OS ", "ipad": "(iPad; CPU OS ", "android": "(Linux; Android ", "tablet": "(Linux; Android "}[kind]; !strings.HasPrefix(d.UserAgent, "Mozilla/5.0 "+sys) ||
				strings.Contains(d.UserAgent, " Mobile") != (kind != "tablet") {
				t.Errorf("%s: a %s's user agent: %q", name, kind, d.UserAgent)
			}
			short, long := min(d.Width, d.Height), max(d.Width, d.Height)
			if landscape != (d.Width > d.Height) {
				t.Errorf("%s: %dx%d does not match its orientation", name, d.Width, d.Height)
			}
			if lo, hi := phoneWidths(kind); short < lo || short > hi || long <= short {
				t.Errorf("%s: %dx%d outside a %s's %d-%d px", name, d.Width, d.Height, kind, lo, hi)
			}
		}
		if landscape {
			base, ok := page.Device(strings.TrimSuffix(name, "-landscape"))
			if !ok || base.Width != d.Height || base.Height != d.Width || base.DeviceScaleFactor != d.DeviceScaleFactor {
				t.Errorf("%s is not its portrait preset turned: %+v vs %+v", name, d, base)
			}
		}
	}
	for _, k := range []string{"iphone", "ipad", "android", "tablet", "desktop"} {
		if kinds[k] == 0 {
			t.Errorf("no %s presets", k)
		}
	}
	for _, name := range []string{"iphone-se", "iphone-15-pro-max", "pixel-5", "pixel-7", "galaxy-s21", "galaxy-s23",
		"galaxy-tab-s7", "ipad-mini", "ipad-pro-12.9", "desktop", "desktop-hd", "desktop-4k", "laptop", "macbook-pro-16"} {
		if _, ok := page.Device(name); !ok {
			t.Errorf("missing preset %s", name)
		}
	}
}

func deviceKind(name string) string {
	switch {
	case strings.HasPrefix(name, "iphone"):
		return "iphone"
	case strings.HasPrefix(name, "ipad"):
		return "ipad"
	case strings.HasPrefix(name, "galaxy-tab"):
		return "tablet"
	case strings.HasPrefix(name, "pixel"), strings.HasPrefix(name, "galaxy"):
		return "android"
	}
	return "desktop"
}

// phoneWidths is the range of a kind's short side in CSS pixels.
func phoneWidths(kind string) (int, int) {
	switch kind {
	case "iphone":
		return 375, 430
	case "ipad":
		return 768, 1024
	case "android":
		return 360, 412
	}
	return 800, 800
}

func TestDeviceNamesAreForgiving(t *testing.T) {
	want, _ := page.Device("iphone-15-pro-max")
	for _, name := range []string{"iPhone-15-Pro-Max", "IPHONE_15_PRO_MAX", " iphone 15 pro max "} {
		if d, ok := page.Device(name); !ok || d != want {
			t.Errorf("%q: %+v %v", name, d, ok)
		}
	}
	if _, ok := page.Device("iphone-99"); ok {
		t.Error("an unknown preset resolved")
	}
}
