package vitals

import "testing"

// Each figure is rated by web.dev's thresholds, both ends good and needs
// improvement included.
func TestRatings(t *testing.T) {
	for _, c := range []struct {
		v    float64
		l    limits
		want string
	}{
		{2500, lcpLimits, Good}, {2501, lcpLimits, NeedsImprovement}, {4000, lcpLimits, NeedsImprovement}, {4001, lcpLimits, Poor},
		{0.1, clsLimits, Good}, {0.11, clsLimits, NeedsImprovement}, {0.26, clsLimits, Poor},
		{200, inpLimits, Good}, {500, inpLimits, NeedsImprovement}, {501, inpLimits, Poor},
		{800, ttfbLimits, Good}, {1801, ttfbLimits, Poor},
		{1800, fcpLimits, Good}, {3000, fcpLimits, NeedsImprovement},
		{200, tbtLimits, Good}, {600, tbtLimits, NeedsImprovement}, {601, tbtLimits, Poor},
	} {
		if got := rate(c.v, c.l); got != c.want {
			t.Errorf("%v under %v: %s, want %s", c.v, c.l, got, c.want)
		}
	}
}

// Addresses on the page's origin are shown by their path; others whole,
// cut when long.
func TestShortURL(t *testing.T) {
	origin := originOf("http://app.test:3000/shop?x=1")
	for in, want := range map[string]string{
		"http://app.test:3000/app.js?v=2": "/app.js?v=2",
		"http://cdn.test/hero.png":        "http://cdn.test/hero.png",
		"http://app.test:30001/x.js":      "http://app.test:30001/x.js",
	} {
		if got := shortURL(in, origin); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	if got := shortURL("data:image/png;base64,"+string(make([]byte, 300)), origin); len(got) != 120+len("…") {
		t.Errorf("a data: URL is cut to %d bytes", len(got))
	}
}
