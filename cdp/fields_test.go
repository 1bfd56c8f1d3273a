package cdp

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestFieldsAreSlicesOfTheMessage(t *testing.T) {
	data := []byte(` {"id":7,"result":{"result":{"type":"object","value":{"yaml":"- a \"b\"\n"}}},"sessionId":"S\u00e9"}`)
	var keys []string
	var result json.RawMessage
	if !Fields(data, func(k string, v json.RawMessage) bool {
		keys = append(keys, k)
		if k == "result" {
			result = v
		}
		return true
	}) {
		t.Fatal("Fields: not an object")
	}
	if got := len(keys); got != 3 || keys[1] != "result" {
		t.Fatalf("keys %q", keys)
	}
	want := `{"result":{"type":"object","value":{"yaml":"- a \"b\"\n"}}}`
	if string(result) != want {
		t.Fatalf("result %s, want %s", result, want)
	}
	// No copy: the value is where it came.
	if i := bytes.Index(data, result); i < 0 || &data[i] != &result[0] {
		t.Fatal("the value was copied")
	}
	if Fields([]byte(`[1]`), func(string, json.RawMessage) bool { return true }) {
		t.Fatal("an array counted as an object")
	}
}

func TestParseMessage(t *testing.T) {
	m, ok := parseMessage([]byte(`{"method":"Page.loadEventFired","params":{"timestamp":1.5},"sessionId":"AB"}`))
	if !ok || m.Method != "Page.loadEventFired" || m.SessionID != "AB" || string(m.Params) != `{"timestamp":1.5}` {
		t.Fatalf("event: %+v %v", m, ok)
	}
	m, ok = parseMessage([]byte(`{"id":3,"error":{"code":-32000,"message":"No node","data":"x"}}`))
	if !ok || m.ID != 3 || m.Error == nil || m.Error.Code != -32000 || m.Error.Message != "No node" {
		t.Fatalf("error reply: %+v %v", m, ok)
	}
}

// FuzzParseMessage: whatever arrives on the socket, the envelope parser
// must not panic, and for a valid JSON object it must read the fields
// encoding/json reads (exact keys, the last of duplicates).
func FuzzParseMessage(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"result":{"result":{"type":"string","value":"a"}}}`,
		`{"method":"Runtime.consoleAPICalled","params":{"args":[{"type":"string","value":"\u00e9\ud800"}]},"sessionId":"X"}`,
		`{"id":2,"error":{"code":-32601,"message":"'X' wasn't found"}}`,
		`{"id":1,"id":2,"result":[],"result":{}}`,
		`{"\u0069d":5,"params":null}`,
		` {"id":1e2} `,
		`{"id":`,
		`[{"id":1}]`,
		`"id"`,
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, ok := parseMessage(data)
		var want map[string]json.RawMessage
		if !json.Valid(data) || json.Unmarshal(data, &want) != nil || want == nil {
			return
		}
		var env struct {
			ID        int64  `json:"id"`
			SessionID string `json:"sessionId"`
			Method    string `json:"method"`
		}
		for k, dst := range map[string]any{"id": &env.ID, "sessionId": &env.SessionID, "method": &env.Method} {
			if raw, has := want[k]; has && json.Unmarshal(raw, dst) != nil {
				if ok {
					t.Fatalf("%q: %s is no %T, yet the message was read", data, k, dst)
				}
				return
			}
		}
		if _, has := want["error"]; has && json.Unmarshal(want["error"], &m.Error) != nil {
			return
		}
		if !ok {
			t.Fatalf("%q: a valid message was not read", data)
		}
		if m.ID != env.ID || m.SessionID != env.SessionID || m.Method != env.Method {
			t.Fatalf("%q: got %d %q %q, want %d %q %q", data, m.ID, m.SessionID, m.Method, env.ID, env.SessionID, env.Method)
		}
		if !bytes.Equal(m.Params, want["params"]) || !bytes.Equal(m.Result, want["result"]) {
			t.Fatalf("%q: params %s result %s, want %s %s", data, m.Params, m.Result, want["params"], want["result"])
		}
	})
}
