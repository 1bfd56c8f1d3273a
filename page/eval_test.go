package page_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/cdpskill/cdpskill/internal/pagetest"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// evalPage opens fixture in a fresh tab and returns the page and its URL.
func evalPage(t testing.TB, fixture string) (*page.Page, string) {
	t.Helper()
	s := browser.NewTab(t)
	url := testbrowser.Serve(t, "testdata").URL + "/" + fixture
	testbrowser.Navigate(t, s, url)
	return page.New(s), url
}

// evalJSON runs req and returns the result as the compact JSON it marshals to.
func evalJSON(t *testing.T, p *page.Page, req page.FuncRequest) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	v, err := page.PageFunction(ctx, p, req)
	if err != nil {
		t.Fatalf("PageFunction(%q): %v", req.Source, err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func evalErr(t *testing.T, p *page.Page, req page.FuncRequest) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	v, err := page.PageFunction(ctx, p, req)
	if err == nil {
		t.Fatalf("PageFunction(%q) = %+v, want an error", req.Source, v)
	}
	return err
}

func ptr[T any](v T) *T { return &v }

// TestPageFunctionTypes covers every type of SPEC 17.7 and AC3, checking
// the exact JSON an agent would read.
func TestPageFunctionTypes(t *testing.T) {
	p, url := evalPage(t, "eval-types.html")
	const epoch = `{"type":"date","value":{"iso":"1970-01-01T00:00:00.000Z","time":0}}`
	tests := []struct{ name, src, want string }{
		{"string", `'hi'`, `{"type":"string","value":"hi"}`},
		{"number", `6 * 7`, `{"type":"number","value":42}`},
		{"float", `1.5`, `{"type":"number","value":1.5}`},
		{"boolean", `1 > 2`, `{"type":"boolean","value":false}`},
		{"null", `null`, `{"type":"null","value":null}`},
		{"undefined", `undefined`, `{"type":"undefined"}`},
		{"NaN", `0 / 0`, `{"type":"number","value":"NaN"}`},
		{"Infinity", `1 / 0`, `{"type":"number","value":"Infinity"}`},
		{"-Infinity", `-1 / 0`, `{"type":"number","value":"-Infinity"}`},
		{"negative zero", `-0`, `{"type":"number","value":"-0"}`},
		{"bigint", `10n ** 20n`, `{"type":"bigint","value":"100000000000000000000"}`},
		{"symbol", `Symbol('s')`, `{"type":"symbol","value":"Symbol(s)"}`},
		{"function", `const f = function add(a, b) { return a + b }; f`, `{"type":"function","value":"function add(a, b) { return a + b }"}`},
		{"object", `({a: 1, b: [1, 'x', null], c: {d: true}})`, `{"type":"object","value":{"a":1,"b":[1,"x",null],"c":{"d":true}}}`},
		{"array", `[1, 'two', [3]]`, `{"type":"array","value":[1,"two",[3]]}`},
		{"date", `new Date(0)`, epoch},
		{"invalid date", `new Date('nope')`, `{"type":"date","value":{"iso":null,"time":null}}`},
		{"map", `new Map([['a', 1], [{k: 2}, new Date(0)]])`, `{"type":"map","value":[["a",1],[{"k":2},` + epoch + `]]}`},
		{"set", `new Set([1, 'a', undefined])`, `{"type":"set","value":[1,"a",{"type":"undefined"}]}`},
		{"regexp", `/ab+c/gi`, `{"type":"regexp","value":"/ab+c/gi"}`},
		{"element", `document.querySelector('#title')`, `{"type":"element","value":{"tag":"h1","id":"title","class":"big main",` +
			`"attributes":{"data-x":"1","aria-label":"Greeting"},"text":"Hello world","isConnected":true,"childCount":1}}`},
		{"input element", `document.querySelector('#name')`, `{"type":"element","value":{"tag":"input","id":"name",` +
			`"attributes":{"name":"name","value":"Ada"},"value":"Ada","isConnected":true,"childCount":0}}`},
		{"detached element", `document.createElement('p')`, `{"type":"element","value":{"tag":"p","isConnected":false,"childCount":0}}`},
		{"text node", `document.querySelector('#go').firstChild`, `{"type":"node","value":{"name":"#text","text":"Go"}}`},
		{"document", `document`, `{"type":"document","value":{"title":"Eval fixture","url":"` + url + `","readyState":"complete"}}`},
		{"nested specials", `({n: NaN, u: undefined, d: new Date(0), big: 1n, ok: 'plain'})`,
			`{"type":"object","value":{"n":{"type":"number","value":"NaN"},"u":{"type":"undefined"},"d":` + epoch +
				`,"big":{"type":"bigint","value":"1"},"ok":"plain"}}`},
		{"nested element", `[document.querySelector('#go')]`,
			`{"type":"array","value":[{"type":"element","value":{"tag":"button","id":"go","text":"Go","isConnected":true,"childCount":0}}]}`},
		{"circular", `const o = {name: 'o'}; o.self = o; o.list = [o]; o`,
			`{"type":"object","value":{"name":"o","self":{"type":"circular"},"list":[{"type":"circular"}]}}`},
		{"shared is not circular", `const s = {v: 1}; [s, s]`, `{"type":"array","value":[{"v":1},{"v":1}]}`},
		{"toJSON", `new URL('https://example.com/a?b=1')`, `{"type":"string","value":"https://example.com/a?b=1"}`},
		{"typed array", `new Uint8Array([1, 2])`, `{"type":"array","value":[1,2]}`},
		{"promise not awaited", `({p: Promise.resolve(1)})`, `{"type":"object","value":{"p":{"type":"promise"}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := evalJSON(t, p, page.FuncRequest{Source: tc.src}); got != tc.want {
				t.Errorf("%s\n got %s\nwant %s", tc.src, got, tc.want)
			}
		})
	}
}

// TestPageFunctionTypesLoose covers the types whose JSON holds values that
// vary (stacks, viewport sizes) or is long.
func TestPageFunctionTypesLoose(t *testing.T) {
	p, url := evalPage(t, "eval-types.html")
	decode := func(t *testing.T, src string) (page.Value, map[string]any) {
		var v page.Value
		if err := json.Unmarshal([]byte(evalJSON(t, p, page.FuncRequest{Source: src})), &v); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.Unmarshal(v.Value, &m) // not every value is an object
		return v, m
	}
	t.Run("error", func(t *testing.T) {
		v, m := decode(t, `new TypeError('bad')`)
		if v.Type != "error" || m["name"] != "TypeError" || m["message"] != "bad" ||
			!strings.HasPrefix(m["stack"].(string), "TypeError: bad\n    at ") {
			t.Errorf("got %s %s", v.Type, v.Value)
		}
	})
	t.Run("window", func(t *testing.T) {
		v, m := decode(t, `window`)
		if v.Type != "window" || m["location"] != url || m["innerWidth"].(float64) <= 0 || m["innerHeight"].(float64) <= 0 {
			t.Errorf("got %s %s", v.Type, v.Value)
		}
	})
	t.Run("nodelist", func(t *testing.T) {
		v, _ := decode(t, `document.querySelectorAll('li')`)
		var items []map[string]any
		if err := json.Unmarshal(v.Value, &items); err != nil {
			t.Fatal(err)
		}
		if v.Type != "nodelist" || !v.Truncated || v.Total != 25 || len(items) != 20 || items[0]["text"] != "item 1" {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("htmlcollection", func(t *testing.T) {
		v, _ := decode(t, `document.getElementById('list').children`)
		if v.Type != "nodelist" || v.Total != 25 {
			t.Errorf("got type %s total %d", v.Type, v.Total)
		}
	})
	t.Run("long array", func(t *testing.T) {
		v, _ := decode(t, `Array.from({length: 150}, (_, i) => i)`)
		var items []int
		if err := json.Unmarshal(v.Value, &items); err != nil {
			t.Fatal(err)
		}
		if v.Type != "array" || !v.Truncated || v.Total != 150 || len(items) != 100 || items[99] != 99 {
			t.Errorf("got %s truncated=%v total=%d len=%d", v.Type, v.Truncated, v.Total, len(items))
		}
	})
	t.Run("many keys", func(t *testing.T) {
		v, m := decode(t, `Object.fromEntries(Array.from({length: 60}, (_, i) => ['k' + i, i]))`)
		if v.Type != "object" || !v.Truncated || v.Total != 60 || len(m) != 50 || m["k49"] != 49.0 {
			t.Errorf("got %s truncated=%v total=%d keys=%d", v.Type, v.Truncated, v.Total, len(m))
		}
	})
	t.Run("nested truncation", func(t *testing.T) {
		_, m := decode(t, `({list: Array.from({length: 101}, () => 0)})`)
		list, _ := m["list"].(map[string]any)
		if list["type"] != "array" || list["truncated"] != true || list["total"] != 101.0 {
			t.Errorf("nested cut array: %v", m["list"])
		}
	})
	t.Run("function source cut", func(t *testing.T) {
		v, _ := decode(t, `const f = function () { return '`+strings.Repeat("x", 300)+`' }; f`)
		var s string
		_ = json.Unmarshal(v.Value, &s)
		if v.Type != "function" || !v.Truncated || !strings.HasSuffix(s, "…") {
			t.Errorf("got %s truncated=%v %q", v.Type, v.Truncated, s)
		}
	})
	t.Run("throwing getter", func(t *testing.T) {
		_, m := decode(t, `({get bad() { throw new Error('nope') }, ok: 1})`)
		bad, _ := m["bad"].(map[string]any)
		if bad["type"] != "error" || m["ok"] != 1.0 {
			t.Errorf("got %v", m)
		}
	})
}

// TestPageFunctionHugeGraphs checks that deep, wide and circular graphs
// come back cut, not hung or blown up.
func TestPageFunctionHugeGraphs(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	for name, src := range map[string]string{
		"deep":     `let d = {}; const root = d; for (let i = 0; i < 1000; i++) { d.next = {}; d = d.next } root`,
		"wide":     `Array.from({length: 100}, () => Array.from({length: 100}, () => ({x: [1, 2, 3]})))`,
		"cyclic":   `const a = {}; const b = {a}; a.b = b; a.arr = Array.from({length: 100}, () => ({a, b})); a`,
		"deepList": `let l = []; const top = l; for (let i = 0; i < 1000; i++) { const n = []; l.push(n); l = n } top`,
	} {
		t.Run(name, func(t *testing.T) {
			got := evalJSON(t, p, page.FuncRequest{Source: src})
			if name != "cyclic" && !strings.Contains(got, `"truncated":true`) {
				t.Errorf("no truncation in %.200s", got)
			}
			if len(got) > 1<<20 {
				t.Errorf("result is %d bytes", len(got))
			}
		})
	}
}

func TestPageFunctionModes(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	// What an ARIA snapshot leaves behind in the helper world: ref -> element.
	pagetest.EvalHelper[any](t, p, `window.__ariaRefs = new Map([["s1e1", document.getElementById("go")]])`)
	tests := []struct {
		name string
		req  page.FuncRequest
		want string
	}{
		{"arrow", page.FuncRequest{Source: `() => { return 2 + 2; }`}, `{"type":"number","value":4}`},
		{"async arrow", page.FuncRequest{Source: `async () => document.title`}, `{"type":"string","value":"Eval fixture"}`},
		{"function keyword", page.FuncRequest{Source: `function () { return this === window }`}, `{"type":"boolean","value":true}`},
		{"param without refs", page.FuncRequest{Source: `x => x === undefined`}, `{"type":"boolean","value":true}`},
		{"refs", page.FuncRequest{Source: `(refs) => refs.get('s1e1').textContent`, Refs: true}, `{"type":"string","value":"Go"}`},
		{"iife", page.FuncRequest{Source: `(() => 5)()`}, `{"type":"number","value":5}`},
		{"iife with semicolon", page.FuncRequest{Source: "(function () { return 'x' })();\n"}, `{"type":"string","value":"x"}`},
		{"parenthesised expression", page.FuncRequest{Source: `(document.title)`}, `{"type":"string","value":"Eval fixture"}`},
		{"arithmetic in parens", page.FuncRequest{Source: `(1 + 2) * 3`}, `{"type":"number","value":9}`},
		{"statements", page.FuncRequest{Source: "const a = 2;\nconst b = 3;\na * b"}, `{"type":"number","value":6}`},
		{"trailing comment", page.FuncRequest{Source: `document.title // the title`}, `{"type":"string","value":"Eval fixture"}`},
		{"AC5 promise awaited", page.FuncRequest{Source: `new Promise(r => setTimeout(() => r('done'), 100))`}, `{"type":"string","value":"done"}`},
		{"top-level await", page.FuncRequest{Source: `const r = await Promise.resolve(3); r * 2`}, `{"type":"number","value":6}`},
		{"await off", page.FuncRequest{Source: `Promise.resolve(1)`, Await: ptr(false)}, `{"type":"promise"}`},
		{"serialize off object", page.FuncRequest{Source: `({a: 1, b: [2]})`, Serialize: ptr(false)}, `{"type":"object","value":{"a":1,"b":[2]}}`},
		{"serialize off array", page.FuncRequest{Source: `[1, 'x']`, Serialize: ptr(false)}, `{"type":"array","value":[1,"x"]}`},
		{"serialize off NaN", page.FuncRequest{Source: `NaN`, Serialize: ptr(false)}, `{"type":"number","value":"NaN"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := evalJSON(t, p, tc.req); got != tc.want {
				t.Errorf("%s\n got %s\nwant %s", tc.req.Source, got, tc.want)
			}
		})
	}
}

// TestPageFunctionScope is AC17: let/const die with each call, var lives on.
func TestPageFunctionScope(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	if got := evalJSON(t, p, page.FuncRequest{Source: `let x = 1`}); got != `{"type":"undefined"}` {
		t.Errorf("let x = 1: %s", got)
	}
	if got := evalJSON(t, p, page.FuncRequest{Source: `let x = 2; x`}); got != `{"type":"number","value":2}` {
		t.Errorf("let x = 2; x: %s", got)
	}
	if got := evalJSON(t, p, page.FuncRequest{Source: `const x = 3; x`}); got != `{"type":"number","value":3}` {
		t.Errorf("const x = 3; x: %s", got)
	}
	evalJSON(t, p, page.FuncRequest{Source: `var kept = 7`})
	if got := evalJSON(t, p, page.FuncRequest{Source: `kept`}); got != `{"type":"number","value":7}` {
		t.Errorf("var kept: %s", got)
	}
}

// TestPageFunctionExceptions is AC11 and AC12.
func TestPageFunctionExceptions(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	tests := []struct{ src, message string }{
		{`throw new Error('test error')`, "Error: test error"},
		{`nonExistentVariable`, "ReferenceError: nonExistentVariable is not defined"},
		{`() => { null.x }`, "TypeError: Cannot read properties of null"},
		{`async () => { throw new RangeError('later') }`, "RangeError: later"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			err := evalErr(t, p, page.FuncRequest{Source: tc.src})
			var je *page.JSError
			if !errors.As(err, &je) {
				t.Fatalf("%T %v, want *page.JSError", err, err)
			}
			if !strings.HasPrefix(je.Message, tc.message) {
				t.Errorf("message %q, want prefix %q", je.Message, tc.message)
			}
			if !strings.Contains(je.Stack, "at ") || !strings.Contains(je.Stack, "pageFunction") {
				t.Errorf("stack %q lacks frames in pageFunction", je.Stack)
			}
		})
	}
	t.Run("source preview", func(t *testing.T) {
		err := evalErr(t, p, page.FuncRequest{Source: "const list = [1, 2];\n  list.missing.length"})
		if !strings.Contains(err.Error(), "(source: const list = [1, 2]; list.missing.length)") {
			t.Errorf("no source preview: %v", err)
		}
	})
}

// A source read from a file keeps its own line numbers: errors name the
// file and the line in it, the wrapper's columns on line 1 taken off, and
// no shell tip (no shell was involved). Leading comments do not hide a
// function.
func TestPageFunctionFileSource(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	const file = "/work/scripts/fill form.js"
	tests := []struct{ src, message string }{
		{"// fills it\n\nif (x {\n}", "SyntaxError: Unexpected token '{' (at " + file + ":3:7)"},
		{"\n  const n = null;\n  n.length", "TypeError: Cannot read properties of null (reading 'length') (at " + file + ":3:5)"},
		{"missing()", "ReferenceError: missing is not defined (at " + file + ":1:1)"},
		{"/* a function */ () => {\n  return [].at(0).x;\n}", "TypeError: Cannot read properties of undefined (reading 'x') (at " + file + ":2:18)"},
		{"() => document.title.length.foo.bar", "TypeError: Cannot read properties of undefined (reading 'bar') (at " + file + ":1:33)"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			err := evalErr(t, p, page.FuncRequest{Source: tc.src, File: file})
			if err.Error() != tc.message {
				t.Errorf("got  %q\nwant %q", err, tc.message)
			}
			var je *page.JSError
			if errors.As(err, &je) && len(je.Stack) > 0 && !strings.Contains(je.Stack, "file:///work/scripts/fill%20form.js:") {
				t.Errorf("stack does not name the file: %q", je.Stack)
			}
		})
	}
	got := evalJSON(t, p, page.FuncRequest{Source: "// the title's length\n\n(t = document.title) => t.length;\n", File: file})
	if got != `{"type":"number","value":12}` {
		t.Errorf("a function after a comment: %s", got)
	}
}

// TestPageFunctionShellTip checks the diagnostic for sources a shell mangled.
func TestPageFunctionShellTip(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	for src, damage := range map[string]string{
		`document.querySelector('div`:        "an unterminated ' string",
		`document.querySelector("div)`:       `an unterminated " string`,
		`(() => { return 1; )()`:             "an unmatched ')'",
		`[1, 2`:                              "an unclosed '['",
		`if (true) { document.title`:         "an unclosed '{'",
		"`multi\nline /* ` + (1 + ) // x {(": "",
	} {
		t.Run(src, func(t *testing.T) {
			msg := evalErr(t, p, page.FuncRequest{Source: src}).Error()
			if !strings.HasPrefix(msg, "SyntaxError") {
				t.Fatalf("not a SyntaxError: %s", msg)
			}
			if damage == "" {
				if strings.Contains(msg, "Tip") {
					t.Errorf("false alarm: %s", msg)
				}
				return
			}
			if !strings.Contains(msg, "Tip: the source has "+damage) {
				t.Errorf("got %q, want a tip about %s", msg, damage)
			}
		})
	}
}

// TestPageFunctionTimeout is AC7: a never-settling promise and a busy loop
// both end as timeouts, and the tab answers the next call.
func TestPageFunctionTimeout(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	for _, src := range []string{`new Promise(() => {})`, `while (true) {}`, `() => { for (;;) {} }`} {
		t.Run(src, func(t *testing.T) {
			err := evalErr(t, p, page.FuncRequest{Source: src, Timeout: 300 * time.Millisecond})
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timed out") {
				t.Errorf("got %v, want a timeout wrapping context.DeadlineExceeded", err)
			}
			if got := evalJSON(t, p, page.FuncRequest{Source: `1 + 1`}); got != `{"type":"number","value":2}` {
				t.Errorf("tab after timeout: %s", got)
			}
		})
	}
	t.Run("ctx deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		if _, err := page.PageFunction(ctx, p, page.FuncRequest{Source: `while (true) {}`}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("cancelled busy loop", func(t *testing.T) {
		// No deadline: only Runtime.terminateExecution can stop the loop.
		ctx, cancel := context.WithCancel(t.Context())
		stop := time.AfterFunc(300*time.Millisecond, cancel)
		defer stop.Stop()
		if _, err := page.PageFunction(ctx, p, page.FuncRequest{Source: `while (true) {}`}); !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
		if got := evalJSON(t, p, page.FuncRequest{Source: `2 + 2`}); got != `{"type":"number","value":4}` {
			t.Errorf("tab after cancel: %s", got)
		}
	})
}

func TestPageFunctionSerializeOffCircular(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	err := evalErr(t, p, page.FuncRequest{Source: `const o = {}; o.o = o; o`, Serialize: ptr(false)})
	if !strings.Contains(err.Error(), "serialize:true") {
		t.Errorf("no hint: %v", err)
	}
}

func TestPageFunctionEmpty(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	if _, err := page.PageFunction(t.Context(), p, page.FuncRequest{Source: "  "}); err == nil {
		t.Error("empty source accepted")
	}
}

func BenchmarkPageFunctionTitle(b *testing.B) {
	p, _ := evalPage(b, "eval-types.html")
	ctx := b.Context()
	for b.Loop() {
		if _, err := page.PageFunction(ctx, p, page.FuncRequest{Source: "document.title"}); err != nil {
			b.Fatal(err)
		}
	}
}

// A large function is kept in the document's helper world after its first
// call: later calls send only the call, a new document gets it again, and
// the page's own world, which the page could tamper with, never keeps one.
func TestCallJSKeepsLargeFunctions(t *testing.T) {
	p, url := evalPage(t, "eval-types.html")
	ctx := t.Context()
	// Over the size kept; counts its calls in the world's globals.
	fn := "function (n) { /*" + strings.Repeat(" ", 4096) + "*/ globalThis.calls = (globalThis.calls || 0) + 1; return [n * 2, globalThis.calls]; }"
	call := func(p *page.Page, n int) [2]int {
		t.Helper()
		var got [2]int
		if err := p.CallJS(ctx, fn, &got, n); err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := call(p, 1); got != [2]int{2, 1} {
		t.Errorf("first call: %v", got)
	}
	if got := call(p, 2); got != [2]int{4, 2} {
		t.Errorf("second call: %v", got)
	}
	var kept int
	if err := p.CallJS(ctx, "() => Object.keys(globalThis.__cdpskillFns || {}).length", &kept); err != nil || kept != 1 {
		t.Errorf("kept %d functions (%v), want 1", kept, err)
	}
	testbrowser.Navigate(t, p.S, url+"?again")
	if got := call(p, 3); got != [2]int{6, 1} {
		t.Errorf("in a new document: %v", got)
	}
	var inMain bool
	call(p.Main(), 4)
	if err := p.Main().CallJS(ctx, "() => '__cdpskillFns' in globalThis", &inMain); err != nil || inMain {
		t.Errorf("the main world keeps functions: %v (%v)", inMain, err)
	}
}
