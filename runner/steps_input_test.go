package runner

import (
	"github.com/cdpskill/cdpskill/capture"
	"strings"
	"testing"
)

// Each input step's accepted forms validate, and the request reaching
// dom is the one meant.
func TestInputStepsAccept(t *testing.T) {
	cases := []struct {
		name, step string
		check      func(t *testing.T, params any)
	}{
		{"type string", `{"type":"hello"}`, func(t *testing.T, p any) {
			if tp := p.(typeParams); *tp.Text != "hello" || tp.target() != "" {
				t.Errorf("%+v", tp)
			}
		}},
		{"type object", `{"type":{"ref":"s1e4","text":"a","delay":50}}`, func(t *testing.T, p any) {
			if tp := p.(typeParams); tp.target() != "s1e4" || tp.Delay != 50 {
				t.Errorf("%+v", tp)
			}
		}},
		{"press string", `{"press":"Control+a"}`, func(t *testing.T, p any) {
			if pp := p.(pressParams); pp.Key != "Control+a" {
				t.Errorf("%+v", pp)
			}
		}},
		// Unknown key names are warned about when the step runs.
		{"press unknown key", `{"press":"Entr"}`, nil},
		{"press object", `{"press":{"key":"Enter","selector":"#q"}}`, nil},
		{"hover string", `{"hover":"#menu"}`, nil},
		{"hover object", `{"hover":{"ref":"s1e4","duration":500,"captureResult":true}}`, nil},
		{"drag strings", `{"drag":{"source":"#a","target":"s1e2"}}`, func(t *testing.T, p any) {
			dp := p.(dragParams)
			if dp.from.Target != "#a" || dp.to.Target != "s1e2" {
				t.Errorf("%+v", dp)
			}
		}},
		{"drag objects", `{"drag":{"source":{"ref":"s1e4","offsetX":10,"offsetY":-5},"target":{"x":100,"y":200},"method":"html5","steps":5,"delay":10}}`, func(t *testing.T, p any) {
			dp := p.(dragParams)
			if dp.from.Target != "s1e4" || dp.from.OffsetY != -5 || *dp.to.X != 100 || *dp.to.Y != 200 || dp.Method != "html5" {
				t.Errorf("%+v", dp)
			}
		}},
		{"scroll direction", `{"scroll":"bottom"}`, func(t *testing.T, p any) {
			if sp := p.(scrollParams); sp.To != "bottom" || sp.target() != "" {
				t.Errorf("%+v", sp)
			}
		}},
		{"scroll selector", `{"scroll":"#footer"}`, func(t *testing.T, p any) {
			if sp := p.(scrollParams); sp.target() != "#footer" || sp.To != "" {
				t.Errorf("%+v", sp)
			}
		}},
		{"scroll delta", `{"scroll":{"deltaY":500}}`, nil},
		{"scroll to", `{"scroll":{"x":0,"y":1000}}`, nil},
		{"selectOption value", `{"selectOption":{"selector":"#c","value":"fr"}}`, nil},
		{"selectOption values", `{"selectOption":{"ref":"s1e4","values":["a","b"]}}`, nil},
		{"selectOption index 0", `{"selectOption":{"selector":"#c","index":0}}`, nil},
		{"selectText string", `{"selectText":"#name"}`, nil},
		{"selectText range", `{"selectText":{"selector":"#name","start":0,"end":3}}`, nil},
		{"hooks", `{"scroll":{"deltaY":500,"readyWhen":"() => true","settledWhen":"() => true","observe":"() => scrollY"}}`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := parseRequest([]byte(`{"steps":[`+tc.step+`]}`), capture.Files{})
			if err != nil {
				t.Fatalf("%s: %s", tc.step, err.Message)
			}
			if tc.check != nil {
				tc.check(t, req.steps[0].params)
			}
		})
	}
}

// Mistakes the agent can fix are refused before Chrome is touched.
func TestInputStepsReject(t *testing.T) {
	cases := []struct {
		name, step string
		want       []string
	}{
		{"type empty", `{"type":""}`, []string{`"text" is required`}},
		{"type no text", `{"type":{"selector":"#q"}}`, []string{`"text" is required`}},
		{"type both targets", `{"type":{"selector":"#q","ref":"s1e1","text":"x"}}`, []string{`not both`}},
		{"type negative delay", `{"type":{"text":"x","delay":-1}}`, []string{`"delay" must be 0 or more`}},
		{"type typo", `{"type":{"txt":"x"}}`, []string{`unknown parameter "txt"`, `did you mean "text"`}},
		{"press empty", `{"press":""}`, []string{"empty key"}},
		{"press empty part", `{"press":"Control+"}`, []string{"empty part"}},
		{"press number", `{"press":13}`, []string{`expected a key`}},
		{"hover nothing", `{"hover":{"duration":100}}`, []string{`"selector" or "ref"`}},
		{"hover bool", `{"hover":true}`, []string{"expected a CSS selector"}},
		{"drag no target", `{"drag":{"source":"#a"}}`, []string{`"target" is required`}},
		{"drag half point", `{"drag":{"source":"#a","target":{"x":1}}}`, []string{`"target"`, `both "x" and "y"`}},
		{"drag point and element", `{"drag":{"source":{"selector":"#a","x":1,"y":2},"target":"#b"}}`, []string{`not both`}},
		{"drag method", `{"drag":{"source":"#a","target":"#b","method":"drop"}}`, []string{`"method" must be auto, mouse or html5`}},
		{"drag string", `{"drag":"#a"}`, []string{"expected an object"}},
		{"drag endpoint typo", `{"drag":{"source":{"selectr":"#a"},"target":"#b"}}`, []string{`"source"`, `did you mean "selector"`}},
		{"scroll two forms", `{"scroll":{"selector":"#a","deltaY":5}}`, []string{"give one of"}},
		{"scroll nothing", `{"scroll":{}}`, []string{"give one of"}},
		{"scroll bad to", `{"scroll":{"to":"middle"}}`, []string{`"to" must be top, bottom, up or down`}},
		{"selectOption no choice", `{"selectOption":{"selector":"#c"}}`, []string{`exactly one of "value", "label", "index" or "values"`}},
		{"selectOption two choices", `{"selectOption":{"selector":"#c","value":"a","label":"A"}}`, []string{"exactly one of"}},
		{"selectOption no select", `{"selectOption":{"value":"a"}}`, []string{`"selector" or "ref"`}},
		{"selectOption empty values", `{"selectOption":{"selector":"#c","values":[]}}`, []string{`"values" is empty`}},
		{"selectOption negative index", `{"selectOption":{"selector":"#c","index":-1}}`, []string{`"index" must be 0 or more`}},
		{"selectOption number value", `{"selectOption":{"selector":"#c","value":3}}`, []string{`"value" must be a string`}},
		{"selectText end before start", `{"selectText":{"selector":"#a","start":5,"end":2}}`, []string{`before "start"`}},
		{"selectText end alone", `{"selectText":{"selector":"#a","end":2}}`, []string{`"start" with "end"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseRequest([]byte(`{"steps":[`+tc.step+`]}`), capture.Files{})
			if err == nil {
				t.Fatalf("%s: accepted", tc.step)
			}
			if err.Type != Validation {
				t.Errorf("type %s, want VALIDATION", err.Type)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Message, w) {
					t.Errorf("message %q lacks %q", err.Message, w)
				}
			}
		})
	}
}

// The input steps act on the page: they need a tab, end with a
// screenshot and take hooks.
func TestInputStepsFlags(t *testing.T) {
	for _, name := range []string{"type", "press", "hover", "drag", "scroll", "selectOption", "selectText"} {
		s := stepByName(name)
		if s == nil {
			t.Fatalf("%s is not registered", name)
		}
		if !s.has(needsTab) || !s.has(visual) || !s.has(hooks) {
			t.Errorf("%s: flags %b", name, s.flags)
		}
	}
}
