package capture_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

func view(t *testing.T, msgs []capture.Message, q capture.ConsoleQuery) *capture.ConsoleView {
	t.Helper()
	v, err := capture.NewConsoleView(msgs, q, filepath.Join(t.TempDir(), "t1.console.json"))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func viewTexts(v *capture.ConsoleView) []string {
	var out []string
	for _, m := range v.Messages {
		out = append(out, m.Text)
	}
	return out
}

// The console step filters by level, type, time and count, newest last.
func TestConsoleViewFilters(t *testing.T) {
	s, ctx := openPage(t, "logs.html")
	c := startConsole(t, ctx, s)
	eval(t, ctx, s, "mixed()")
	msgs := waitMessages(t, ctx, c, 6)

	all := view(t, msgs, capture.ConsoleQuery{})
	if all.Total != 6 || all.Showing != 6 {
		t.Fatalf("total %d showing %d: %q", all.Total, all.Showing, viewTexts(all))
	}
	want := []string{"plain log", "{userId: 123, tags: Array(2)}", "careful [1, 2, 3]",
		"Error: logged error", "debugging", "Uncaught TypeError: thrown later"}
	if got := viewTexts(all); !slices.Equal(got, want) {
		t.Errorf("all:\n got %q\nwant %q", got, want)
	}
	for _, m := range all.Messages {
		// An exception shows where it came from; console calls only on request.
		if (m.Stack != nil) != (m.Type == "exception") {
			t.Errorf("stack without stackTrace: %+v", m)
		}
		if m.Timestamp == 0 || m.URL == "" || m.Line == 0 {
			t.Errorf("missing timestamp or source: %+v", m)
		}
	}

	levels, _ := capture.ParseLevels("warn,error")
	cases := []struct {
		name string
		q    capture.ConsoleQuery
		want []string
	}{
		{"level", capture.ConsoleQuery{Levels: []string{"error"}}, []string{"Error: logged error", "Uncaught TypeError: thrown later"}},
		{"levels", capture.ConsoleQuery{Levels: levels}, []string{"careful [1, 2, 3]", "Error: logged error", "Uncaught TypeError: thrown later"}},
		{"exceptions", capture.ConsoleQuery{Type: "exception"}, []string{"Uncaught TypeError: thrown later"}},
		{"console", capture.ConsoleQuery{Type: "console", Limit: 2}, []string{"Error: logged error", "debugging"}},
		{"since", capture.ConsoleQuery{Since: msgs[4].Timestamp}, []string{"debugging", "Uncaught TypeError: thrown later"}},
	}
	for _, tc := range cases {
		if got := viewTexts(view(t, msgs, tc.q)); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	limited := view(t, msgs, capture.ConsoleQuery{Limit: 1})
	if limited.Total != 6 || limited.Showing != 1 {
		t.Errorf("limit 1: total %d showing %d", limited.Total, limited.Showing)
	}

	withStack := view(t, msgs, capture.ConsoleQuery{Type: "exception", StackTrace: true})
	if st := withStack.Messages[0].Stack; len(st) == 0 || st[0].Function != "thrower" {
		t.Errorf("stack: %+v", st)
	}
}

// REQ-BT-015: the buffer keeps whole texts; the step cuts each to
// MaxTextLen, and a listing too big to show goes whole to a file.
func TestConsoleViewCutsAndSpills(t *testing.T) {
	s, ctx := openPage(t, "logs.html")
	c := startConsole(t, ctx, s)
	eval(t, ctx, s, "flood(1, 800)")
	msgs := flush(t, ctx, c)
	if n := utf8.RuneCountInString(msgs[0].Text); n != 805 {
		t.Fatalf("the buffer cut the text to %d runes", n)
	}
	one := view(t, msgs, capture.ConsoleQuery{})
	if got := one.Messages[0].Text; utf8.RuneCountInString(got) != capture.MaxTextLen || !strings.HasSuffix(got, "y…") {
		t.Errorf("inline text not cut to %d with an ellipsis: %d runes", capture.MaxTextLen, utf8.RuneCountInString(got))
	}
	if one.File != "" {
		t.Errorf("one message spilled to %s", one.File)
	}

	eval(t, ctx, s, "flood(40, 1000)")
	msgs = flush(t, ctx, c)
	spill := filepath.Join(t.TempDir(), "t1.console.json")
	v, err := capture.NewConsoleView(msgs, capture.ConsoleQuery{}, spill)
	if err != nil {
		t.Fatal(err)
	}
	if v.File != spill || v.Total != 41 || v.Showing != 41 {
		t.Fatalf("file %q total %d showing %d", v.File, v.Total, v.Showing)
	}
	inline, _ := json.Marshal(v)
	if len(inline) > 3000 || len(v.Messages) == 0 {
		t.Errorf("preview is %d bytes with %d messages", len(inline), len(v.Messages))
	}
	if last := v.Messages[len(v.Messages)-1].Text; !strings.HasPrefix(last, "0039:") {
		t.Errorf("preview does not end with the newest message: %.20s", last)
	}
	var file []capture.ViewMessage
	data, err := os.ReadFile(spill)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file) != 41 {
		t.Fatalf("file has %d messages", len(file))
	}
	for i, m := range file[1:] {
		if !strings.HasPrefix(m.Text, fmt.Sprintf("%04d:", i)) || utf8.RuneCountInString(m.Text) != 1005 {
			t.Errorf("file message %d is not whole: %.20s… (%d runes)", i, m.Text, utf8.RuneCountInString(m.Text))
		}
	}
}

// clear must outlast the process: Chrome would replay the messages to the
// next call's session otherwise.
func TestConsoleDiscardForgetsForLaterSessions(t *testing.T) {
	s, ctx := openPage(t, "logs.html")
	c := startConsole(t, ctx, s)
	eval(t, ctx, s, "console.log('before clear')")
	flush(t, ctx, c)
	if err := c.Discard(ctx); err != nil {
		t.Fatal(err)
	}
	if got := c.Messages(); len(got) != 0 {
		t.Errorf("after Discard: %q", texts(got))
	}
	eval(t, ctx, s, "console.log('after clear')")
	flush(t, ctx, c)

	// A later call is a new session on the same tab.
	s2, err := proto.Attach(ctx, browser.Conn, s.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proto.Detach(t.Context(), s2) })
	c2 := startConsole(t, ctx, s2)
	if got := texts(c2.Messages()); !slices.Equal(got, []string{"after clear"}) {
		t.Errorf("the next session replayed %q", got)
	}
}

func TestParseLevels(t *testing.T) {
	if got, err := capture.ParseLevels(" Warn , error"); err != nil || !slices.Equal(got, []string{"warning", "error"}) {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := capture.ParseLevels("fatal"); err == nil {
		t.Error("unknown level accepted")
	}
}

func TestConsoleViewSinceUsesMilliseconds(t *testing.T) {
	base := time.UnixMilli(1_700_000_000_000)
	msgs := []capture.Message{
		{Type: "console", Level: "log", Text: "a", Timestamp: base},
		{Type: "console", Level: "log", Text: "b", Timestamp: base.Add(time.Millisecond)},
	}
	v := view(t, msgs, capture.ConsoleQuery{Since: time.UnixMilli(msgs[1].Timestamp.UnixMilli())})
	if got := viewTexts(v); !slices.Equal(got, []string{"b"}) || v.Messages[0].Timestamp != base.UnixMilli()+1 {
		t.Errorf("got %+v", v.Messages)
	}
}
