package capture

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// feed hands c events as the connection would, without a browser.
func feed(t *testing.T, c *Console, method string, params any) {
	t.Helper()
	data, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := decode(method, data); ok {
		c.apply(&e)
	}
}

func logEvent(text string, ms float64) map[string]any {
	return map[string]any{
		"type":      "log",
		"args":      []any{map[string]any{"type": "string", "value": text}},
		"timestamp": ms,
	}
}

func TestBufferKeepsNewestMaxMessages(t *testing.T) {
	c := &Console{}
	const total = 2*MaxMessages + 123 // crosses the compaction point
	for i := range total {
		feed(t, c, proto.EventRuntimeConsoleAPICalled, logEvent(fmt.Sprint(i), float64(i)))
	}
	v := c.view()
	if len(v) != MaxMessages {
		t.Fatalf("kept %d, want %d", len(v), MaxMessages)
	}
	if first, last := v[0].Text, v[len(v)-1].Text; first != fmt.Sprint(total-MaxMessages) || last != fmt.Sprint(total-1) {
		t.Errorf("kept %s..%s", first, last)
	}
	if len(c.buf) >= 2*MaxMessages {
		t.Errorf("buffer grew to %d", len(c.buf))
	}
}

func TestTimestampFromCDP(t *testing.T) {
	c := &Console{}
	feed(t, c, proto.EventRuntimeConsoleAPICalled, logEvent("x", 1795316070665.263))
	want := time.UnixMicro(1795316070665263)
	if got := c.view()[0].Timestamp; !got.Equal(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// A rejection handled a moment late is withdrawn by Chrome, as DevTools
// withdraws it from its console.
func TestRevokedRejectionIsWithdrawn(t *testing.T) {
	c := &Console{}
	thrown := func(id int, text string) map[string]any {
		return map[string]any{
			"timestamp": 1.0,
			"exceptionDetails": map[string]any{
				"exceptionId": id, "text": "Uncaught (in promise)", "lineNumber": 4, "url": "http://h/a.js",
				"exception": map[string]any{"type": "object", "subtype": "error", "description": "Error: " + text + "\n    at f (http://h/a.js:5:9)"},
			},
		}
	}
	feed(t, c, proto.EventRuntimeExceptionThrown, thrown(1, "late"))
	feed(t, c, proto.EventRuntimeExceptionThrown, thrown(2, "real"))
	feed(t, c, proto.EventRuntimeExceptionRevoked, map[string]any{"exceptionId": 1, "reason": "Handler added to rejected promise"})
	v := c.view()
	if len(v) != 1 || v[0].Text != "Uncaught (in promise) Error: real" {
		t.Fatalf("got %+v", v)
	}
	m := v[0]
	if m.URL != "http://h/a.js" || m.Line != 5 || len(m.Stack) != 1 || m.Stack[0].Function != "f" {
		t.Errorf("source: %+v", m)
	}
}

func TestGroupEndIsDropped(t *testing.T) {
	c := &Console{}
	feed(t, c, proto.EventRuntimeConsoleAPICalled, map[string]any{"type": "endGroup", "args": []any{map[string]any{"type": "string", "value": "console.groupEnd"}}})
	feed(t, c, proto.EventRuntimeConsoleAPICalled, map[string]any{"type": "startGroup", "args": []any{map[string]any{"type": "string", "value": "grp"}}})
	if v := c.view(); len(v) != 1 || v[0].Text != "grp" || v[0].Level != "log" {
		t.Errorf("got %+v", v)
	}
}
