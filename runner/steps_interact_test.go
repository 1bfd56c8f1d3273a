package runner

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/dom"
)

// Every form of click decodes, and every contradiction is refused before
// Chrome is touched.
func TestDecodeClick(t *testing.T) {
	ok := []struct {
		in    string
		check func(p clickParams) bool
	}{
		{`"#go"`, func(p clickParams) bool { return p.Selector == "#go" }},
		{`"s1e4"`, func(p clickParams) bool { return p.Selector == "s1e4" }}, // dom routes refs by shape
		{`{"ref":"s1e4","force":true}`, func(p clickParams) bool { return p.Ref == "s1e4" && p.Force }},
		{`{"text":"Sign in","exact":true,"withinSelector":"#login"}`, func(p clickParams) bool { return p.Text == "Sign in" && p.Exact && p.WithinSelector == "#login" }},
		{`{"selectors":["#a","#b"]}`, func(p clickParams) bool { return len(p.Selectors) == 2 }},
		{`{"x":10,"y":20}`, func(p clickParams) bool { return *p.X == 10 && *p.Y == 20 }},
		{`{"selector":"#a","x":2,"y":3}`, func(p clickParams) bool { return p.Selector == "#a" && *p.X == 2 }},
		{`{"selector":"#a","waitAfter":true}`, func(p clickParams) bool { return p.settle != nil && *p.settle == dom.Settle{} }},
		{`{"selector":"#a","waitAfter":false}`, func(p clickParams) bool { return p.settle == nil }},
		{`{"selector":"#a","waitAfter":{"timeout":2000,"stable":100}}`, func(p clickParams) bool {
			return p.settle.Timeout == 2*time.Second && p.settle.Stable == 100*time.Millisecond
		}},
		{`{"text":"Item 9","scrollUntilVisible":true}`, func(p clickParams) bool { return p.scroll != nil }},
		{`{"selector":"#a","scrollUntilVisible":{"direction":"up","distance":300,"maxAttempts":5}}`, func(p clickParams) bool {
			return *p.scroll == dom.ScrollSearch{Direction: "up", Distance: 300, MaxAttempts: 5}
		}},
		{`{"selector":"#a","stable":true}`, func(p clickParams) bool { return p.stable == 3 }},
		{`{"selector":"#a","stable":5}`, func(p clickParams) bool { return p.stable == 5 }},
		{`{"selector":"#a","stable":false,"searchFrames":true}`, func(p clickParams) bool { return p.stable == 0 && p.SearchFrames }},
	}
	for _, c := range ok {
		p, err := decodeClick(json.RawMessage(c.in))
		if err != nil || !c.check(p) {
			t.Errorf("%s: %+v, %v", c.in, p, err)
		}
	}
	bad := []struct{ in, want string }{
		{`""`, "expected a CSS selector"},
		{`{}`, "say what to click"},
		{`{"selector":"#a","text":"A"}`, `not "selector" and "text"`},
		{`{"ref":"#a"}`, `"ref" must look like s1e4`},
		{`{"selector":"#a","exact":true}`, `go with "text"`},
		{`{"selectors":[]}`, `"selectors" is empty`},
		{`{"selectors":["#a",""]}`, `"selectors"[1] is empty`},
		{`{"selectors":"#a"}`, `"selectors" must be an array`},
		{`{"x":1}`, `give both "x" and "y"`},
		{`{"selector":"#a","jsClick":true,"nativeOnly":true}`, "contradict"},
		{`{"selector":"#a","button":"fourth"}`, `"button" must be`},
		{`{"selector":"#a","waitAfter":{"stabel":1}}`, `did you mean "stable"`},
		{`{"selector":"#a","waitAfter":"yes"}`, `"waitAfter" must be true`},
		{`{"selector":"#a","scrollUntilVisible":{"direction":"sideways"}}`, "down, up, right or left"},
		{`{"x":1,"y":2,"scrollUntilVisible":true}`, "needs an element"},
		{`{"selecter":"#a"}`, `did you mean "selector"`},
		{`{"selector":"#a","stable":0}`, `"stable" must be true or a number`},
		{`{"selector":"#a","stable":"yes"}`, `"stable" must be true or a number`},
	}
	for _, c := range bad {
		_, err := decodeClick(json.RawMessage(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestDecodeFill(t *testing.T) {
	p, err := decodeFill(json.RawMessage(`"hello"`))
	if err != nil || *p.Value != "hello" || p.Fields != nil {
		t.Errorf("focused: %+v, %v", p, err)
	}
	p, err = decodeFill(json.RawMessage(`{"label":"Email","value":"a@b.c","exact":true}`))
	if err != nil || p.Label != "Email" || *p.Value != "a@b.c" {
		t.Errorf("label: %+v, %v", p, err)
	}
	// The batch map keeps the agent's order.
	p, err = decodeFill(json.RawMessage(`{"#z":"1","s1e4":"2","#a":"3","input[name=q]":""}`))
	if err != nil || p.Fields == nil {
		t.Fatalf("batch: %+v, %v", p, err)
	}
	want := []dom.Field{{Target: "#z", Value: "1"}, {Target: "s1e4", Value: "2"}, {Target: "#a", Value: "3"}, {Target: "input[name=q]", Value: ""}}
	if got := p.Fields.fields(); len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("batch fields = %+v", got)
	}
	p, err = decodeFill(json.RawMessage(`{"fields":{"#b":"x","#a":"y"},"react":true,"clear":false}`))
	if err != nil || !p.React || *p.Clear || p.Fields.fields()[0].Target != "#b" {
		t.Errorf("fields form: %+v, %v", p, err)
	}
	// Numbers and booleans (a checkbox's state) are values too.
	p, err = decodeFill(json.RawMessage(`{"Age":42,"I agree":true}`))
	if got := p.Fields.fields(); err != nil || got[0].Value != "42" || got[1].Value != "true" {
		t.Errorf("number and boolean values: %+v, %v", got, err)
	}
	p, err = decodeFill(json.RawMessage(`{"label":"I agree","value":false}`))
	if err != nil || string(*p.Value) != "false" {
		t.Errorf("boolean value: %+v, %v", p, err)
	}
	bad := []struct{ in, want string }{
		{`{"selector":"#a"}`, `"value" is required`},
		{`{"selector":"#a","label":"A","value":"x"}`, `give one of`},
		{`{"vaule":"x"}`, `did you mean "value"`},
		{`{"selector":"#a","vaule":"x"}`, `did you mean "value"`},
		{`{"#a":[1]}`, "must be text, a number, or true or false"},
		{`{"selector":"#a","value":{}}`, "must be text, a number, or true or false"},
		{`{}`, "empty fill"},
		{`{"fields":{}}`, `"fields" is empty`},
		{`{"fields":{"#a":"x"},"selector":"#b"}`, `give it alone`},
		{`{"#a":"x","timeout":200}`, `put the fields in "fields"`},
		{`{"ref":"first","value":"x"}`, `"ref" must look like s1e4`},
		{`{"selector":"#a","value":"x","exact":true}`, `"exact" goes with "label"`},
		{`42`, "expected"},
	}
	for _, c := range bad {
		_, err := decodeFill(json.RawMessage(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.in, err, c.want)
		}
	}
}
