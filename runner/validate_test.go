package runner

import (
	"fmt"
	"github.com/cdpskill/cdpskill/capture"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/internal/suggest"
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
		{"state beside session", `{"session":"s","state":"login.json","steps":[{"openTab":"https://a.b"}]}`, Validation,
			[]string{`"state" is not a top-level field: a session starts from a state file with its first tab: {"session":"pr-42","steps":[{"openTab":{"url":"https://example.com","state":"login.json"}}]}`, `{"loadState":"login.json"}`}},
		{"storageState at top level", `{"storageState":"login.json","steps":[{"openTab":"https://a.b"}]}`, Validation,
			[]string{`"storageState" is not a top-level field: a session starts from a state file with its first tab`}},
		{"state in session", `{"session":{"name":"s","state":"login.json"},"steps":[{"openTab":"https://a.b"}]}`, Validation,
			[]string{`"session" must be a session name such as "review-42"; a session starts from a state file with its first tab`}},
		{"unknown step", `{"steps":[{"gotoo":"https://a.b"}]}`, Validation, []string{`step 1: unknown step "gotoo"`, `did you mean "goto"`}},
		{"case typo", `{"steps":[{"GetTitle":true}]}`, Validation, []string{`did you mean "getTitle"`}},
		{"no action", `{"steps":[{"optional":true}]}`, Validation, []string{"step 1: has no action"}},
		{"two actions", `{"steps":[{"sleep":1,"getUrl":true}]}`, Validation, []string{"step 1: has 2 actions (getUrl, sleep)"}},
		{"step not object", `{"steps":["goto"]}`, Validation, []string{"step 1: must be an object"}},
		{"bad timeout", `{"timeout":-5,"steps":[{"sleep":1}]}`, Validation, []string{`"timeout" must be a positive number`}},
		{"timeout string", `{"timeout":"5s","steps":[{"sleep":1}]}`, Validation, []string{`"timeout" must be a number of milliseconds`}},
		{"step timeout zero", `{"steps":[{"sleep":1,"timeout":0}]}`, Validation, []string{`step 1: "timeout" must be a positive`}},
		{"optional not bool", `{"steps":[{"sleep":1,"optional":"yes"}]}`, Validation, []string{`"optional" must be true or false`}},
		{"annotate not bool", `{"annotate":"yes","steps":[{"sleep":1}]}`, Validation, []string{`"annotate" must be true or false`}},
		{"annotate on a step", `{"steps":[{"click":"#a","annotate":true}]}`, Validation, []string{`step 1: "annotate" goes at the top level, beside "steps"`}},
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
			_, err := parseRequest([]byte(tc.input), capture.Files{})
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

// An unknown step is answered with what the agent meant: the step its
// loosely written name names, the step other tools' name stands for (in
// the form that does it, with the agent's value), or the nearest name.
func TestUnknownStepSuggestions(t *testing.T) {
	cases := []struct{ step, want string }{
		{`{"dblclick":"#row"}`, `unknown step "dblclick"; did you mean {"click":{"selector":"#row","doubleClick":true}}`},
		{`{"doubleClick":"s1e4"}`, `did you mean {"click":{"selector":"s1e4","doubleClick":true}}`},
		{`{"rightClick":"#row"}`, `did you mean {"click":{"selector":"#row","button":"right"}}`},
		{`{"emulateDevice":"iPhone 15"}`, `did you mean {"viewport":"iPhone 15"}`},
		{`{"setTimezone":"Europe/Berlin"}`, `did you mean {"emulate":{"timezone":"Europe/Berlin"}}`},
		{`{"emulateMedia":{"colorScheme":"dark"}}`, `did you mean {"emulate":{"colorScheme":"dark"}}`},
		{`{"setViewportSize":{"width":390,"height":844}}`, `did you mean {"viewport":{"width":390,"height":844}}`},
		{`{"evaluate":"() => a > b && c"}`, `did you mean {"pageFunction":"() => a > b && c"}`},
		{`{"eval":"document.title"}`, `did you mean {"pageFunction":"document.title"}`},
		{`{"navigate":"https://example.com"}`, `did you mean {"goto":"https://example.com"}`},
		{`{"open":"https://example.com"}`, `did you mean {"goto":"https://example.com"}`},
		{`{"visit":"https://example.com"}`, `did you mean {"goto":"https://example.com"}`},
		{`{"browser_navigate":{"url":"https://example.com"}}`, `did you mean {"goto":"…"}`},
		{`{"wait_for":"#done"}`, `did you mean {"wait":"#done"}`},
		{`{"waitForSelector":"#done"}`, `did you mean {"wait":"#done"}`},
		{`{"press_key":"Enter"}`, `did you mean {"press":"Enter"}`},
		{`{"check":"#terms"}`, `did you mean {"fill":{"selector":"#terms","value":true}}`},
		{`{"uncheck":"#terms"}`, `did you mean {"fill":{"selector":"#terms","value":false}}`},
		{`{"select":"#plan"}`, `did you mean {"selectOption":{"selector":"#plan","label":"Option"}}`},
		{`{"scrollTo":"#footer"}`, `did you mean {"scroll":"#footer"}`},
		{`{"getText":"h1"}`, `did you mean {"query":"h1"}`},
		{`{"mouseOver":"#menu"}`, `did you mean {"hover":"#menu"}`},
		{`{"takeScreenshot":true}`, `did you mean {"screenshot":true}`},
		{`{"refresh":true}`, `did you mean {"reload":true}`},
		{`{"typeText":"hello"}`, `did you mean {"type":"hello"}`},
		// A step's own name, written as other tools write names.
		{`{"browser_click":"#a"}`, `did you mean "click"?`},
		{`{"page.goto":"https://example.com"}`, `did you mean "goto"?`},
		{`{"keyboard.press":"Enter"}`, `did you mean "press"?`},
		{`{"get_title":true}`, `did you mean "getTitle"?`},
		{`{"browser_take_screenshot":true}`, `did you mean {"screenshot":true}`},
		// Typos still get the nearest name.
		{`{"clik":"#a"}`, `did you mean "click"?`},
		{`{"screnshot":true}`, `did you mean "screenshot"?`},
	}
	for _, tc := range cases {
		_, err := parseRequest([]byte(`{"steps":[`+tc.step+`]}`), capture.Files{})
		if err == nil || !strings.Contains(err.Message, tc.want) {
			t.Errorf("%s: got %v, want %q", tc.step, err, tc.want)
		}
	}
}

// Every alias's form is a step that validates, once its "…" is the
// agent's value; no alias hides a step or a modifier.
func TestAliasForms(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, s := range steps {
		for _, a := range s.aliases {
			seen++
			if stepByName(a.name) != nil || fieldAt(a.name, onStep|inParams) != nil {
				t.Errorf("alias %s of %s is a name the input already takes", a.name, s.name)
			}
			if !strings.HasPrefix(a.use, `{"`+s.name+`":`) {
				t.Errorf("alias %s of %s: form %s is not a %s step", a.name, s.name, a.use, s.name)
			}
			ok := false
			for _, v := range []string{"#a", "https://example.com/", "t1", "s1e4", "iphone-15", "de-DE", "Europe/Berlin", "camera"} {
				form := strings.Replace(a.use, `"…"`, `"`+v+`"`, 1)
				form = strings.Replace(form, "/path/file", file, 1)
				if _, err := parseRequest([]byte(`{"steps":[`+form+`]}`), capture.Files{}); err == nil {
					ok = true
					break
				}
			}
			if !ok {
				_, err := parseRequest([]byte(`{"steps":[`+a.use+`]}`), capture.Files{})
				t.Errorf("alias %s of %s: form %s does not validate: %v", a.name, s.name, a.use, err)
			}
		}
	}
	if seen < 50 {
		t.Errorf("%d aliases", seen)
	}
}

func TestParseRequestOK(t *testing.T) {
	req, err := parseRequest([]byte(`{"tab":"t3","timeout":999999,"steps":[
		{"goto":"https://example.com"},
		{"sleep":0,"optional":true,"timeout":100},
		{"getTitle":true}]}`), capture.Files{})
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
		req, perr := parseRequest([]byte(input), capture.Files{})
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
		if got := suggest.Nearest(in, names); got != want {
			t.Errorf("suggest.Nearest(%q) = %q, want %q", in, got, want)
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
		req, err := parseRequest(data, capture.Files{})
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

// Hooks and the dialog policy are taken out of the params before the
// step's decoder sees them; "dialog" beside an action is a modifier, not
// a second action.
func TestParseRequestHooksAndDialogs(t *testing.T) {
	req, err := parseRequest([]byte(`{"dialog":{"accept":false},"steps":[
		{"click":{"selector":"#a","readyWhen":"() => window.ready","settledWhen":"() => !document.querySelector('.spinner')","observe":"() => document.title"}},
		{"click":"#b","dialog":{"promptText":"Ada"}},
		{"fill":{"selector":"#c","value":"x","dialog":false}},
		{"pageFunction":"confirm('sure?')","dialog":true}]}`), capture.Files{})
	if err != nil {
		t.Fatal(err)
	}
	if req.dialog == nil || *req.dialog.Accept {
		t.Errorf("top-level dialog %+v", req.dialog)
	}
	s := req.steps
	if h := s[0].hooks; h.readyWhen != "() => window.ready" || h.settledWhen == "" || h.observe != "() => document.title" {
		t.Errorf("hooks %+v", h)
	}
	if p := s[0].params.(clickParams); p.Selector != "#a" {
		t.Errorf("click params %+v", p)
	}
	if d := s[1].dialog; d == nil || d.Accept != nil || *d.PromptText != "Ada" || s[1].def.name != "click" {
		t.Errorf("step 2: %+v %+v", s[1], d)
	}
	if d := s[2].dialog; d == nil || *d.Accept {
		t.Errorf("step 3 dialog inside params: %+v", d)
	}
	if d := s[3].dialog; d == nil || !*d.Accept || !s[3].hooks.empty() {
		t.Errorf("step 4: %+v", s[3])
	}
}

func TestParseRequestHookAndDialogErrors(t *testing.T) {
	cases := []struct {
		name  string
		input string
		want  []string
	}{
		{"hook on a step without hooks", `{"steps":[{"pageFunction":{"fn":"1","readyWhen":"() => true"}}]}`,
			[]string{"step 1: pageFunction:", "readyWhen: pageFunction takes no hooks", "click", "fill"}},
		{"hook beside the action", `{"steps":[{"click":"#a","settledWhen":"() => true"}]}`,
			[]string{`step 1: "settledWhen" goes inside the action's params`}},
		{"hook not a string", `{"steps":[{"click":{"selector":"#a","observe":42}}]}`,
			[]string{`"observe" must be JavaScript source`, "a number"}},
		{"hook empty", `{"steps":[{"fill":{"selector":"#a","value":"","settledWhen":" "}}]}`,
			[]string{`"settledWhen" must be JavaScript source`, "an empty string"}},
		{"hook misspelt", `{"steps":[{"click":{"selector":"#a","readyWhenn":"() => 1"}}]}`,
			[]string{`unknown parameter "readyWhenn"`}},
		{"dialog inside params of a plain step", `{"steps":[{"pageFunction":{"fn":"1","dialog":true}}]}`,
			[]string{`"dialog" inside params is for action steps`, "beside the action"}},
		{"dialog twice", `{"steps":[{"click":{"selector":"#a","dialog":true},"dialog":false}]}`,
			[]string{`"dialog" is given twice`}},
		{"dialog bad type", `{"steps":[{"click":"#a","dialog":"yes"}]}`,
			[]string{`step 1: "dialog" must be {"accept"`}},
		{"dialog unknown field", `{"dialog":{"acept":true},"steps":[{"sleep":1}]}`,
			[]string{`"dialog" unknown parameter "acept"`, `did you mean "accept"`}},
		{"promptText on a dismissal", `{"steps":[{"click":"#a","dialog":{"accept":false,"promptText":"x"}}]}`,
			[]string{`"promptText" answers a prompt that is accepted`}},
		{"dialog alone is no action", `{"steps":[{"dialog":true}]}`,
			[]string{"step 1: has no action"}},
		{"modifier typo", `{"steps":[{"click":"#a","dialogue":true}]}`,
			[]string{`unknown step "dialogue"`, `did you mean "dialog"`}},
		{"upload of a missing file", `{"steps":[{"upload":"/no/such/file.txt"}]}`,
			[]string{"step 1: upload:", `file "/no/such/file.txt" does not exist`}},
		{"upload of a relative missing file", `{"steps":[{"upload":{"selector":"#f","files":["nope.txt"]}}]}`,
			[]string{`file "nope.txt" does not exist (looked for /`, "relative to the working directory"}},
		{"upload without files", `{"steps":[{"upload":{"selector":"#f"}}]}`,
			[]string{`"files" is required`}},
		{"upload of a directory", `{"steps":[{"upload":["."]}]}`,
			[]string{`"." is a directory`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseRequest([]byte(tc.input), capture.Files{})
			if err == nil {
				t.Fatalf("no error for %s", tc.input)
			}
			if err.Type != Validation {
				t.Errorf("type %s (%s)", err.Type, err.Message)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Message, w) {
					t.Errorf("message %q lacks %q", err.Message, w)
				}
			}
		})
	}
}

func TestUploadPathsMadeAbsolute(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	req, err := parseRequest([]byte(`{"steps":[{"upload":["a.txt"]},{"upload":{"ref":"s1e2","files":["./a.txt"]}}]}`), capture.Files{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "a.txt")
	for _, s := range req.steps {
		if p := s.params.(uploadParams); len(p.Files) != 1 || p.Files[0] != want {
			t.Errorf("files %v, want [%s]", p.Files, want)
		}
	}
}

func TestHookSteps(t *testing.T) {
	got := strings.Join(hookSteps(), " ")
	for _, want := range []string{"click", "fill", "goto", "upload"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("%s takes no hooks: %s", want, got)
		}
	}
	for _, not := range []string{"pageFunction", "openTab", "sleep"} {
		if strings.Contains(" "+got+" ", " "+not+" ") {
			t.Errorf("%s takes hooks: %s", not, got)
		}
	}
}

// pageFunction and poll read {file} while the batch is validated: the
// script becomes the source, its path absolute; a file that cannot be
// the script stops the batch before anything runs.
func TestScriptFileParams(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.js", "\uFEFF// a script\ndocument.title\n")
	req, perr := parseRequest([]byte(fmt.Sprintf(`{"steps":[{"pageFunction":{"file":%q,"timeout":500}},{"poll":{"file":%q}}]}`, good, good)), capture.Files{})
	if perr != nil {
		t.Fatal(perr)
	}
	if p := req.steps[0].params.(pageFunctionParams); p.File != good || p.Fn != "// a script\ndocument.title\n" || p.Timeout != 500 {
		t.Errorf("pageFunction params %+v", p)
	}
	if p := req.steps[1].params.(pollParams); p.File != good || !strings.HasSuffix(p.Fn, "document.title\n") {
		t.Errorf("poll params %+v", p)
	}

	// A relative path is the call's working directory's.
	in := capture.Files{WorkDir: dir}
	if p, err := decodePageFunction([]byte(`{"file":"good.js"}`), in); err != nil || p.File != good {
		t.Errorf("a relative path: %+v %v", p, err)
	}

	empty := write("empty.js", " \n\n")
	binary := write("blob.js", "\xff\xfe\x00")
	cases := []struct{ input, want string }{
		{`{"pageFunction":{"file":"/no/such/dir/x.js"}}`, `step 1: pageFunction: script file "/no/such/dir/x.js" does not exist`},
		{`{"poll":{"file":"nope.js"}}`, `step 1: poll: script file "nope.js" does not exist (looked for ` + filepath.Join(dir, "nope.js")},
		{fmt.Sprintf(`{"pageFunction":{"file":%q}}`, dir), `is a directory`},
		{fmt.Sprintf(`{"pageFunction":{"file":%q}}`, empty), `script file "` + empty + `" is empty`},
		{fmt.Sprintf(`{"pageFunction":{"file":%q}}`, binary), `is not UTF-8 text`},
		{`{"pageFunction":{"file":""}}`, `"file" is empty`},
		{fmt.Sprintf(`{"pageFunction":{"fn":"1","file":%q}}`, good), `give one of "fn", "expression" or "file"`},
		{fmt.Sprintf(`{"poll":{"fn":"1","file":%q}}`, good), `give "fn" or "file", not both`},
		{`{"poll":{"interval":5}}`, `"fn" or "file" is required`},
	}
	for _, tc := range cases {
		_, err := parseRequest([]byte(`{"steps":[`+tc.input+`]}`), in)
		if err == nil || err.Type != Validation || !strings.Contains(err.Message, tc.want) {
			t.Errorf("%s: got %v, want a VALIDATION error with %q", tc.input, err, tc.want)
		}
	}
}

// The loose index, built on first use, holds every step and alias and
// no alias names another step or alias (looseIndex panics if one does).
func TestLooseIndex(t *testing.T) {
	looseIndex()
	if len(byLooseName) != len(steps) {
		t.Errorf("%d loose names for %d steps", len(byLooseName), len(steps))
	}
	if len(aliases) < 50 {
		t.Errorf("%d aliases", len(aliases))
	}
}
