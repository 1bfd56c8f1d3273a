package runner

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

func TestDecodeEnvSteps(t *testing.T) {
	runDecodeCases(t, []decodeCase{
		{"viewport", `"iphone-15"`, nil},
		{"viewport", `"iPad_Pro_11-landscape"`, nil},
		{"viewport", `"reset"`, nil},
		{"viewport", `false`, nil},
		{"viewport", `{"device":"pixel-7"}`, nil},
		{"viewport", `{"width":800,"height":600,"deviceScaleFactor":2,"mobile":true,"hasTouch":true}`, nil},
		{"viewport", `{"width":360,"height":640,"mobile":true,"hasTouch":true,"userAgent":"Mozilla/5.0 (Linux; Android 9; K)"}`, nil},
		{"viewport", `"iphone-16"`, []string{`unknown device "iphone-16"`, "did you mean", "iphone-se"}},
		{"viewport", `{"device":"pixel-7","width":300}`, []string{"not both"}},
		{"viewport", `{"width":800}`, []string{`"width" and "height"`}},
		{"viewport", `{"width":800,"height":20000}`, []string{"between 1 and"}},
		{"viewport", `{"widht":800,"height":600}`, []string{`did you mean "width"`}},
		{"viewport", `42`, []string{"device name"}},

		{"cookies", `true`, nil},
		{"cookies", `{"get":true,"name":"sid"}`, nil},
		{"cookies", `{"get":"https://a.test/"}`, nil},
		{"cookies", `{"get":["https://a.test/","https://b.test/"]}`, nil},
		{"cookies", `{"get":true,"domain":"a.test"}`, nil},
		{"cookies", `{"get":true,"all":true}`, nil},
		{"cookies", `{"set":[{"name":"a","value":"1","expires":"7d","sameSite":"lax","httpOnly":true}]}`, nil},
		{"cookies", `{"set":{"name":"a","value":"1","domain":"a.test","expires":1900000000}}`, nil},
		{"cookies", `{"delete":"sid"}`, nil},
		{"cookies", `{"delete":"sid","domain":"a.test"}`, nil},
		{"cookies", `{"clear":true}`, nil},
		{"cookies", `{"clear":true,"all":true}`, nil},
		{"cookies", `{}`, []string{"get, set, delete or clear"}},
		{"cookies", `{"get":true,"clear":true}`, []string{"get and clear"}},
		{"cookies", `{"clear":true,"domain":"a.test","all":true}`, []string{"one of"}},
		{"cookies", `{"set":[{"name":"a"}],"domain":"a.test"}`, []string{"names its own url or domain"}},
		{"cookies", `{"set":[{"value":"1"}]}`, []string{"cookie 1", `"name" is required`}},
		{"cookies", `{"set":[{"name":"a","value":"1","expires":"soon"}]}`, []string{"expires"}},
		{"cookies", `{"set":[{"name":"a","value":"1","expires":1900000000000}]}`, []string{"not milliseconds"}},
		{"cookies", `{"set":[{"name":"a","value":"1","sameSite":"loose"}]}`, []string{"Strict, Lax or None"}},
		{"cookies", `{"set":[{"name":"a","value":"1","url":"https://a.test","domain":"a.test"}]}`, []string{"not both"}},
		{"cookies", `{"set":[{"name":"a","vaule":"1"}]}`, []string{`did you mean "value"`}},
		{"cookies", `{"set":[]}`, []string{"list"}},
		{"cookies", `{"get":true,"url":"https://a.test/","domain":"a.test"}`, []string{"one of"}},
		{"cookies", `{"get":["https://a.test/"],"all":true}`, []string{"not both"}},
		{"cookies", `{"clear":true,"name":"x"}`, []string{`"name" filters a get`}},

		{"storage", `"local"`, nil},
		{"storage", `"session"`, nil},
		{"storage", `{"local":{"get":"k"}}`, nil},
		{"storage", `{"local":{"get":["a","b"],"set":{"x":"1","y":{"n":2}},"remove":"z","clear":true},"session":{"get":true}}`, nil},
		{"storage", `"cookies"`, []string{`"local", "session"`}},
		{"storage", `{}`, []string{"which storage"}},
		{"storage", `{"local":{}}`, []string{"local:", "get, set, remove or clear"}},
		{"storage", `{"local":{"gett":"k"}}`, []string{`did you mean "get"`}},
		{"storage", `{"locl":{"get":"k"}}`, []string{`did you mean "local"`}},
		{"storage", `{"local":{"get":5}}`, []string{`"get" takes`}},
	})
}

func TestDecodeStorageValues(t *testing.T) {
	p, err := decodeStorage(json.RawMessage(`{"local":{"set":{"s":"text","n":42,"o":{ "a" : [1, 2] }}}}`))
	if err != nil {
		t.Fatal(err)
	}
	set := p.areas[0].ops.Set
	if set["s"] != "text" || set["n"] != "42" || set["o"] != `{"a":[1,2]}` {
		t.Errorf("stored values: %q", set)
	}
}

func TestDecodeCookieExpiry(t *testing.T) {
	p, err := decodeCookies(json.RawMessage(`{"set":[{"name":"a","value":"1","expires":"1h"},{"name":"b","value":"2","expires":1900000000}]}`))
	if err != nil {
		t.Fatal(err)
	}
	inAnHour := time.Now().Add(time.Hour).Unix()
	if got := p.cookies[0].Expires; got < inAnHour-5 || got > inAnHour+5 {
		t.Errorf("1h expires at %d, want about %d", got, inAnHour)
	}
	if p.cookies[1].Expires != 1900000000 || p.cookies[0].SameSite != "" {
		t.Errorf("cookies: %+v", p.cookies)
	}
}

func TestDecodeViewportPreset(t *testing.T) {
	p, err := decodeViewport(json.RawMessage(`"Galaxy_S23-landscape"`))
	if err != nil || p.Width != 780 || p.Height != 360 || !p.IsLandscape || !p.Mobile {
		t.Errorf("%+v %v", p, err)
	}
	p, _ = decodeViewport(json.RawMessage(`"reset"`))
	if !p.reset {
		t.Error("reset not recognised")
	}
}

func TestConditionsOutput(t *testing.T) {
	slow, _ := page.ThrottlePreset("slow-3g")
	slow.Offline = true
	for _, tc := range []struct {
		in   page.NetworkConditions
		want string
	}{
		{page.NetworkConditions{}, `{"offline":false}`},
		{slow, `{"offline":true,"throttle":"slow-3g"}`},
		{page.NetworkConditions{Latency: 100, Download: 1000}, `{"offline":false,"throttle":{"download":1000,"latency":100,"upload":0}}`},
	} {
		data, _ := json.Marshal(conditionsOutput(tc.in))
		if string(data) != tc.want {
			t.Errorf("%+v: %s, want %s", tc.in, data, tc.want)
		}
	}
}
