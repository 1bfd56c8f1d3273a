package runner

import (
	"strings"
	"testing"
)

func TestParseRequestErrors(t *testing.T) {
	cases := []struct {
		name  string
		input string
		typ   ErrType
		want  []string // substrings the message must contain
	}{
		{"empty", "", Parse, []string{"empty input"}},
		{"blank", "  \n ", Parse, []string{"empty input"}},
		{"not json", "{steps:", Parse, []string{"invalid JSON", "line 1", "^"}},
		{"array", `[{"goto":"x"}]`, Parse, []string{"must be a JSON object", "an array"}},
		{"string", `"hello"`, Parse, []string{"a string"}},
		{"missing steps", `{"tab":"t1"}`, Validation, []string{`missing "steps"`}},
		{"steps not array", `{"steps":{"goto":"x"}}`, Validation, []string{`"steps" must be an array`}},
		{"empty steps", `{"steps":[]}`, Validation, []string{`"steps" is empty`}},
		{"legacy config", `{"config":{"port":9222},"steps":[{"sleep":1}]}`, Validation, []string{`"config" is no longer supported`, "openTab"}},
		{"unknown top-level", `{"tabb":"t1","steps":[{"sleep":1}]}`, Validation, []string{`unknown top-level field "tabb"`, `did you mean "tab"`}},
		{"step at top level", `{"goto":"x","steps":[{"sleep":1}]}`, Validation, []string{`steps go inside "steps"`}},
		{"unknown step", `{"steps":[{"gotoo":"https://a.b"}]}`, Validation, []string{`step 1: unknown step "gotoo"`, `did you mean "goto"`}},
		{"case typo", `{"steps":[{"GetTitle":true}]}`, Validation, []string{`did you mean "getTitle"`}},
		{"no action", `{"steps":[{"optional":true}]}`, Validation, []string{"step 1: has no action"}},
		{"two actions", `{"steps":[{"sleep":1,"getUrl":true}]}`, Validation, []string{"step 1: has 2 actions (getUrl, sleep)"}},
		{"step not object", `{"steps":["goto"]}`, Validation, []string{"step 1: must be an object"}},
		{"bad timeout", `{"timeout":-5,"steps":[{"sleep":1}]}`, Validation, []string{`"timeout" must be a positive number`}},
		{"timeout string", `{"timeout":"5s","steps":[{"sleep":1}]}`, Validation, []string{`"timeout" must be a number of milliseconds`}},
		{"step timeout zero", `{"steps":[{"sleep":1,"timeout":0}]}`, Validation, []string{`step 1: "timeout" must be a positive`}},
		{"optional not bool", `{"steps":[{"sleep":1,"optional":"yes"}]}`, Validation, []string{`"optional" must be true or false`}},
		{"tab not string", `{"tab":1,"steps":[{"sleep":1}]}`, Validation, []string{`"tab" must be a tab alias`}},
		{"sleep too long", `{"steps":[{"sleep":60001}]}`, Validation, []string{"sleep", "60000"}},
		{"goto wrong type", `{"steps":[{"goto":42}]}`, Validation, []string{"step 1: goto:"}},
		{"goto bad waitUntil", `{"steps":[{"goto":{"url":"https://a.b","waitUntil":"idle"}}]}`, Validation, []string{"waitUntil", "networkidle"}},
		{"unknown param", `{"steps":[{"goto":{"url":"https://a.b","waitUnti":"load"}}]}`, Validation, []string{`unknown parameter "waitUnti"`, `did you mean "waitUntil"`}},
		{"param type", `{"steps":[{"poll":{"fn":"() => 1","interval":"fast"}}]}`, Validation, []string{`"interval" must be a number, got a string`}},
		{"several problems reported at once", `{"steps":[{"gotoo":"x"},{"sleep":-1},{"getUrl":false}]}`, Validation,
			[]string{"step 1:", "step 2:", "step 3:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseRequest([]byte(tc.input))
			if err == nil {
				t.Fatalf("no error for %s", tc.input)
			}
			if err.Type != tc.typ {
				t.Errorf("type %s, want %s (%s)", err.Type, tc.typ, err.Message)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Message, w) {
					t.Errorf("message %q lacks %q", err.Message, w)
				}
			}
		})
	}
}

func TestParseRequestOK(t *testing.T) {
	req, err := parseRequest([]byte(`{"tab":"t3","timeout":999999,"steps":[
		{"goto":"https://example.com"},
		{"sleep":0,"optional":true,"timeout":100},
		{"getTitle":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.tab != "t3" || req.timeout != maxTimeout || len(req.steps) != 3 {
		t.Fatalf("got %+v", req)
	}
	s := req.steps[1]
	if s.n != 2 || s.def.name != "sleep" || !s.optional || s.timeout.Milliseconds() != 100 {
		t.Fatalf("step 2: %+v", s)
	}
}

func TestCheckTabPlan(t *testing.T) {
	for input, wantErr := range map[string]bool{
		`{"steps":[{"getTitle":true}]}`:                       true,
		`{"steps":[{"sleep":1},{"goto":"https://a.b"}]}`:      true,
		`{"steps":[{"openTab":true},{"getTitle":true}]}`:      false,
		`{"steps":[{"listTabs":true},{"connectTab":"t1"}]}`:   false,
		`{"tab":"t1","steps":[{"getTitle":true}]}`:            false,
		`{"steps":[{"chromeStatus":true},{"closeTab":"t2"}]}`: false,
	} {
		req, perr := parseRequest([]byte(input))
		if perr != nil {
			t.Fatalf("%s: %v", input, perr)
		}
		if got := checkTabPlan(req) != nil; got != wantErr {
			t.Errorf("%s: error %v, want %v", input, got, wantErr)
		}
	}
}

func TestSuggest(t *testing.T) {
	names := stepNames()
	for in, want := range map[string]string{
		"goto": "goto", "gto": "goto", "pagefunction": "pageFunction",
		"openTabb": "openTab", "xyzzy": "", "getTitel": "getTitle",
	} {
		if got := suggest(in, names); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParse: no input may panic the parser or validator, and every input
// is either accepted or rejected with PARSE or VALIDATION.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `[]`, `null`, `{"steps":[]}`, `{"steps":[{}]}`,
		`{"tab":"t1","steps":[{"goto":"https://example.com"}]}`,
		`{"steps":[{"openTab":{"url":"x","port":9333,"headless":true}}]}`,
		`{"steps":[{"wait":{"selector":"#a","minCount":2}},{"sleep":10}]}`,
		`{"steps":[{"pageFunction":{"fn":"() => 1","timeout":5}}],"timeout":1e9}`,
		`{"config":{},"steps":[{"poll":"() => true"}]}`,
		`{"steps":[{"connectTab":{"url":"(["}}]}`,
		"{\"steps\":[{\"goto\":\"\\u0000\"}]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := parseRequest(data)
		if err != nil {
			if err.Type != Parse && err.Type != Validation {
				t.Fatalf("error type %s", err.Type)
			}
			if err.Message == "" {
				t.Fatal("empty message")
			}
			return
		}
		if len(req.steps) == 0 {
			t.Fatal("accepted a request without steps")
		}
		_ = checkTabPlan(req)
	})
}
