package runner

import (
	"encoding/json"
	"testing"
	"time"
)

func TestDecodeEnvSteps(t *testing.T) {
	runDecodeCases(t, []decodeCase{
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
