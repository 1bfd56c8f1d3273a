package cdp

import (
	"errors"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	cases := map[string]string{
		"ws://h:1/devtools/browser/x":                      "ws://h:1/devtools/browser/x",
		"wss://h/chrome?token=abc&stealth=true":            "wss://h/chrome?token=***&stealth=***",
		"wss://h/chrome?abc":                               "wss://h/chrome?***",
		"https://user:pw@h/x?k=v#frag":                     "https://user:***@h/x?k=***#frag",
		"http://user:p%zz@h:1/x":                           "http://user:***@h:1/x",
		"http://user:p@w@h:1/x?k=v":                        "http://user:***@h:1/x?k=***",
		"cannot reach Chrome at ws://h:1/?token=abc: EOF":  "cannot reach Chrome at ws://h:1/?token=***: EOF",
		`Get "http://h:2/json/version?token=abc": refused`: `Get "http://h:2/json/version?token=***": refused`,
	}
	for in, want := range cases {
		got := RedactText(in)
		if got != want {
			t.Errorf("RedactText(%q) = %q, want %q", in, got, want)
		}
	}
	e := &ConnectError{Endpoint: "x", Err: errors.New(`dial "wss://h/?token=abc"`)}
	if strings.Contains(e.Error(), "abc") {
		t.Errorf("ConnectError shows the token: %v", e)
	}
}
