package capture

import (
	"encoding/json"
	"testing"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// The arguments are Runtime.consoleAPICalled args as Chrome sends them.
func TestRenderArgs(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"string raw", `[{"type":"string","value":"a 'b'"}]`, `a 'b'`},
		{"primitives", `[{"type":"number","value":1.5,"description":"1.5"},{"type":"boolean","value":false},{"type":"undefined"},{"type":"object","subtype":"null","value":null}]`, "1.5 false undefined null"},
		{"unserializable", `[{"type":"number","unserializableValue":"NaN","description":"NaN"},{"type":"number","unserializableValue":"-0","description":"-0"},{"type":"bigint","unserializableValue":"10n","description":"10n"},{"type":"symbol","description":"Symbol(s)"}]`, "NaN -0 10n Symbol(s)"},
		{"object", `[{"type":"object","className":"Object","description":"Object","preview":{"type":"object","description":"Object","overflow":false,"properties":[{"name":"userId","type":"number","value":"123"},{"name":"status","type":"string","value":"active"}]}}]`, "{userId: 123, status: 'active'}"},
		{"empty object", `[{"type":"object","className":"Object","description":"Object","preview":{"type":"object","description":"Object","overflow":false,"properties":[]}}]`, "{}"},
		{"overflow", `[{"type":"object","className":"Object","description":"Object","preview":{"type":"object","description":"Object","overflow":true,"properties":[{"name":"a","type":"number","value":"1"}]}}]`, "{a: 1, …}"},
		{"odd keys quoted", `[{"type":"object","description":"Object","preview":{"type":"object","description":"Object","properties":[{"name":"a-b","type":"number","value":"1"},{"name":"$ok","type":"number","value":"2"},{"name":"3","type":"number","value":"3"}]}}]`, "{'a-b': 1, $ok: 2, 3: 3}"},
		{"class instance", `[{"type":"object","className":"Point","description":"Point","preview":{"type":"object","description":"Point","overflow":false,"properties":[{"name":"x","type":"number","value":"1"}]}}]`, "Point {x: 1}"},
		{"nested value preview", `[{"type":"object","description":"Object","preview":{"type":"object","description":"Object","properties":[{"name":"u","type":"object","value":"Object","valuePreview":{"type":"object","description":"Object","properties":[{"name":"id","type":"number","value":"7"}]}}]}}]`, "{u: {id: 7}}"},
		{"nested without preview", `[{"type":"object","description":"Object","preview":{"type":"object","description":"Object","properties":[{"name":"u","type":"object","value":"Object"},{"name":"l","type":"object","subtype":"array","value":"Array(2)"},{"name":"p","type":"object","value":"Point"},{"name":"e","type":"object","subtype":"error","value":"Error: x\n    at f (a.js:1:1)"},{"name":"g","type":"accessor"}]}}]`, "{u: {…}, l: Array(2), p: Point, e: Error: x, g: (...)}"},
		{"array", `[{"type":"object","subtype":"array","className":"Array","description":"Array(3)","preview":{"type":"object","subtype":"array","description":"Array(3)","overflow":false,"properties":[{"name":"0","type":"number","value":"1"},{"name":"1","type":"string","value":"b"},{"name":"2","type":"object","subtype":"null","value":"null"}]}}]`, "[1, 'b', null]"},
		{"sparse array", `[{"type":"object","subtype":"array","description":"Array(8)","preview":{"type":"object","subtype":"array","description":"Array(8)","overflow":false,"properties":[{"name":"0","type":"number","value":"1"},{"name":"5","type":"number","value":"2"},{"name":"extra","type":"string","value":"x"}]}}]`, "[1, empty × 4, 2, empty × 2, extra: 'x']"},
		{"array overflow", `[{"type":"object","subtype":"array","description":"Array(200)","preview":{"type":"object","subtype":"array","description":"Array(200)","overflow":true,"properties":[{"name":"0","type":"number","value":"0"}]}}]`, "(200) [0, …]"},
		{"node list", `[{"type":"object","subtype":"array","className":"NodeList","description":"NodeList(1)","preview":{"type":"object","subtype":"array","description":"NodeList(1)","overflow":false,"properties":[{"name":"0","type":"object","value":"title","subtype":"node"}]}}]`, "NodeList(1) [title]"},
		{"typed array", `[{"type":"object","subtype":"typedarray","description":"Uint8Array(2)","preview":{"type":"object","subtype":"typedarray","description":"Uint8Array(2)","overflow":false,"properties":[{"name":"0","type":"number","value":"1"},{"name":"1","type":"number","value":"2"},{"name":"buffer","type":"object","value":"ArrayBuffer(2)","subtype":"arraybuffer"}]}}]`, "Uint8Array(2) [1, 2]"},
		{"promise", `[{"type":"object","subtype":"promise","description":"Promise","preview":{"type":"object","subtype":"promise","description":"Promise","overflow":false,"properties":[{"name":"[[PromiseState]]","type":"string","value":"fulfilled"},{"name":"[[PromiseResult]]","type":"number","value":"5"}]}}]`, "Promise {<fulfilled>: 5}"},
		{"pending promise", `[{"type":"object","subtype":"promise","description":"Promise","preview":{"type":"object","subtype":"promise","description":"Promise","properties":[{"name":"[[PromiseState]]","type":"string","value":"pending"},{"name":"[[PromiseResult]]","type":"undefined","value":"undefined"}]}}]`, "Promise {<pending>}"},
		{"error", `[{"type":"object","subtype":"error","className":"TypeError","description":"TypeError: x is null\n    at f (a.js:1:2)"}]`, "TypeError: x is null"},
		{"node", `[{"type":"object","subtype":"node","className":"HTMLDivElement","description":"div#main.big"}]`, "div#main.big"},
		{"no preview never Object", `[{"type":"object","className":"Object","description":"Object"},{"type":"object","subtype":"array","description":"Array(3)"},{"type":"object","className":"Point","description":"Point"}]`, "{…} Array(3) Point {…}"},
		{"functions", `[{"type":"function","description":"function namedFn(a) { return a; }"},{"type":"function","description":"async function () {}"},{"type":"function","description":"function* gen() {}"},{"type":"function","description":"class Foo extends Bar {}"},{"type":"function","description":"method(a) { return 1 }"},{"type":"function","description":"(a) => a + 1"},{"type":"function","description":"function push() { [native code] }"}]`, "ƒ namedFn() ƒ () ƒ gen() class Foo ƒ method() (a) => a + 1 ƒ push()"},
		{"printf", `[{"type":"string","value":"%s has %d items at %f %o"},{"type":"string","value":"cart"},{"type":"number","value":3,"description":"3"},{"type":"number","value":9.5,"description":"9.5"},{"type":"string","value":"q"}]`, "cart has 3 items at 9.5 'q'"},
		{"printf css and rest", `[{"type":"string","value":"%cred%c plain"},{"type":"string","value":"color:red"},{"type":"string","value":""},{"type":"number","value":1,"description":"1"}]`, "red plain 1"},
		{"printf missing args", `[{"type":"string","value":"%s and %d, 50%% off, %x"},{"type":"string","value":"one"}]`, "one and %d, 50% off, %x"},
		{"printf object", `[{"type":"string","value":"got %O"},{"type":"object","description":"Object","preview":{"type":"object","description":"Object","properties":[{"name":"a","type":"number","value":"1"}]}}]`, "got {a: 1}"},
		{"percent not first", `[{"type":"number","value":1,"description":"1"},{"type":"string","value":"%s"}]`, "1 %s"},
		{"map and set", `[{"type":"object","subtype":"map","description":"Map(1)","preview":{"type":"object","subtype":"map","description":"Map(1)","overflow":false,"properties":[{"name":"size","type":"number","value":"1"}],"entries":[{"key":{"type":"string","description":"a","overflow":false,"properties":[]},"value":{"type":"object","description":"Object","overflow":false,"properties":[{"name":"c","type":"number","value":"2"}]}}]}},{"type":"object","subtype":"set","description":"Set(3)","preview":{"type":"object","subtype":"set","description":"Set(3)","overflow":true,"properties":[],"entries":[{"value":{"type":"number","description":"1","properties":[]}}]}}]`, "Map(1) {'a' => {c: 2}} Set(3) {1, …}"},
		{"quotes and newlines", `[{"type":"object","description":"Object","preview":{"type":"object","description":"Object","properties":[{"name":"a","type":"string","value":"it's"},{"name":"b","type":"string","value":"say \"hi\" it's"},{"name":"c","type":"string","value":"two\nlines"}]}}]`, `{a: "it's", b: 'say "hi" it\'s', c: 'two\nlines'}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args []proto.RemoteObject
			if err := json.Unmarshal([]byte(tt.args), &args); err != nil {
				t.Fatal(err)
			}
			if got := renderArgs(args); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"eleven char", 10, "eleven ch…"},
		{"ééééééé", 4, "ééé…"},
	}
	for _, tt := range tests {
		if got := truncate(tt.s, tt.n); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestParseStack(t *testing.T) {
	desc := "Error: boom\n    at thrower (http://h/a.js:12:3)\n    at http://h/a.js:20:1\n    at new Foo (http://h:8080/b.js:1:9)\n    at <anonymous>"
	got := parseStack(desc)
	want := []Frame{
		{Function: "thrower", URL: "http://h/a.js", Line: 12, Column: 3},
		{URL: "http://h/a.js", Line: 20, Column: 1},
		{Function: "new Foo", URL: "http://h:8080/b.js", Line: 1, Column: 9},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("frame %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
