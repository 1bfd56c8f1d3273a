package runner

import (
	"encoding/json"
	"github.com/cdpskill/cdpskill/capture"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/query"
)

// Every mistake an agent can fix is caught by the decoders, before Chrome
// is touched, with the field and the fix named.
func TestQueryStepsRejectBadParams(t *testing.T) {
	cases := []struct {
		step string
		want string
	}{
		{`{"queryAll":{}}`, "at least one labelled query"},
		{`{"queryAll":{"a":"div >"}}`, `"a": invalid CSS selector "div >"`},
		{`{"queryAll":{"a":{"selector":"a","limt":3}}}`, `did you mean "limit"`},
		{`{"queryAll":{"a":{"selector":"a","output":"txt"}}}`, `"output" takes text, html`},
		{`{"queryAll":{"a":7}}`, "expected a CSS selector"},
		{`{"queryAll":{"a":{"limit":3}}}`, "role"},
		{`{"queryAll":["a"]}`, "expected {label"},
		{`{"inspect":{"selectors":["a["]}}`, "selectors[0]"},
		{`{"inspect":false}`, "expected true or an object"},
		{`{"extract":{"selector":"table","type":"grid"}}`, `"type" must be "table" or "list"`},
		{`{"extract":""}`, "empty"},
		{`{"getDom":false}`, "expected true (the whole page)"},
		{`{"getDom":{"selector":"a","outerr":false}}`, `did you mean "outer"`},
		{`{"getBox":"#ok"}`, `"#ok" is not a ref`},
		{`{"getBox":[]}`, "at least one ref"},
		{`{"getBox":{"ref":"s1e1","refs":["s1e2"]}}`, "not both"},
		{`{"elementsAt":{"x":5}}`, `give "x" and "y"`},
		{`{"elementsAt":{"x":-1,"y":5}}`, "outside the viewport"},
		{`{"elementsAt":[]}`, "give 1 to 100 points"},
		{`{"elementsAt":[{"x":1,"y":2},{"x":1}]}`, "point 1"},
		{`{"elementsAt":{"x":1,"y":2,"radius":0}}`, `"radius" and "limit" must be positive`},
		{`{"formState":42}`, "expected the selector of a form"},
		{`{"validate":{"selector":"a","ref":"s1e1"}}`, "not both"},
		{`{"submit":{"selector":"form ("}}`, "invalid CSS selector"},
		{`{"assert":"x"}`, "expected an object"},
		{`{"assert":{"url":{"contain":"x"}}}`, `unknown url condition "contain"`},
		{`{"assert":{"url":{}}}`, `"url" needs a condition`},
		{`{"assert":{"selector":"h1"}}`, "say what to assert"},
		{`{"assert":{"text":"x","selectr":"h1"}}`, `did you mean "selector"`},
		{`{"pipeline":[]}`, "no operations"},
		{`{"pipeline":[{"find":"#a","fil":"x"}]}`, `pipeline[0]: unknown parameter "fil"; did you mean "fill"?`},
		{`{"pipeline":{"steps":[{"sleep":1},{"find":"#a"}]}}`, "pipeline[1]: needs exactly one of"},
		{`{"pipeline":{"steps":[{"sleep":1}],"timeout":-1}}`, `"timeout" must be a positive`},
		{`{"pipeline":"x"}`, "expected [{find, fill}"},
	}
	for _, tc := range cases {
		_, err := parseRequest([]byte(`{"tab":"t1","steps":[`+tc.step+`]}`), capture.Files{})
		if err == nil {
			t.Errorf("%s: accepted", tc.step)
			continue
		}
		if err.Type != Validation || !strings.Contains(err.Message, tc.want) {
			t.Errorf("%s: got %s %q, want %q", tc.step, err.Type, err.Message, tc.want)
		}
	}
}

// plan decodes one step and returns its typed params.
func plan(t *testing.T, stepJSON string) any {
	t.Helper()
	req, err := parseRequest([]byte(`{"tab":"t1","steps":[`+stepJSON+`]}`), capture.Files{})
	if err != nil {
		t.Fatalf("%s: %s", stepJSON, err.Message)
	}
	return req.steps[0].params
}

func TestQueryStepForms(t *testing.T) {
	if p := plan(t, `{"getBox":"s1e4"}`).(getBoxParams); !p.single || p.Refs[0] != "s1e4" {
		t.Errorf("getBox string: %+v", p)
	}
	if p := plan(t, `{"getBox":["s1e4"]}`).(getBoxParams); p.single {
		t.Errorf("an array of one is still keyed: %+v", p)
	}
	if p := plan(t, `{"getBox":{"refs":["s1e4","s2e1"]}}`).(getBoxParams); p.single || len(p.Refs) != 2 {
		t.Errorf("getBox refs: %+v", p)
	}
	if p := plan(t, `{"elementsAt":[{"x":1,"y":2},{"x":3.5,"y":4}]}`).(elementsAtParams); len(p.batch) != 2 || p.batch[1].X != 3.5 {
		t.Errorf("batch: %+v", p)
	}
	if p := plan(t, `{"elementsAt":{"x":1,"y":2,"limit":3}}`).(elementsAtParams); p.batch != nil || *p.Limit != 3 {
		t.Errorf("nearby: %+v", p)
	}
	if p := plan(t, `{"submit":{"ref":"s1e2"}}`).(formTarget); p.Selector != "s1e2" {
		t.Errorf("submit ref: %+v", p)
	}
	if p := plan(t, `{"getDom":true}`).(query.DOMRequest); p.Selector != "" {
		t.Errorf("getDom true: %+v", p)
	}
	p := plan(t, `{"pipeline":{"steps":[{"find":"#a","fill":"x"},{"waitFor":"() => 1","timeout":50}],"timeout":2000}}`).(page.PipelineRequest)
	if len(p.Steps) != 2 || p.Timeout.Milliseconds() != 2000 || *p.Steps[0].Fill != "x" || p.Steps[1].Timeout != 50 {
		t.Errorf("pipeline: %+v", p)
	}
	entries := plan(t, `{"queryAll":{"z":"a","a":{"selector":"b","output":["text","data-id"]},"m":{"role":"button"}}}`).([]queryAllEntry)
	if len(entries) != 3 || entries[0].label != "z" || entries[1].query.css.Output.Fields[1].Attr != "data-id" || entries[2].query.role == nil {
		t.Errorf("queryAll: %+v", entries)
	}
}

func TestIsQueryCSS(t *testing.T) {
	for raw, want := range map[string]bool{
		`"a.b"`: true, `{"selector":"a"}`: true, `{"role":"button"}`: false, `{"roles":["link"]}`: false, `true`: false,
	} {
		if got := isQueryCSS(json.RawMessage(raw)); got != want {
			t.Errorf("%s: got %v", raw, got)
		}
	}
	q, err := decodeQueryCSS(json.RawMessage(`{"selector":" li ","limit":3,"output":{"attribute":"href"},"clean":true}`))
	if err != nil || q.Selector != "li" || q.Limit != 3 || q.Output.Attribute != "href" || !q.Clean {
		t.Errorf("decodeQueryCSS: %+v %v", q, err)
	}
}

// labeled keeps the agent's order and does not escape HTML.
func TestLabeledOrder(t *testing.T) {
	data, err := Encode(labeled{keys: []string{"z", "a<b"}, values: []any{1, map[string]string{"x": "=>"}}})
	if err != nil || string(data) != "{\"z\":1,\"a<b\":{\"x\":\"=>\"}}\n" {
		t.Errorf("got %s %v", data, err)
	}
}
