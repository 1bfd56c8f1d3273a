package capture_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// openPage loads testdata/file in a fresh tab.
func openPage(t *testing.T, file string) (*cdp.Session, context.Context) {
	t.Helper()
	s := browser.NewTab(t)
	srv := testbrowser.Serve(t, "testdata")
	testbrowser.Navigate(t, s, srv.URL+"/"+file)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return s, ctx
}

func startConsole(t *testing.T, ctx context.Context, s *cdp.Session) *capture.Console {
	t.Helper()
	c, err := capture.StartConsole(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func eval(t *testing.T, ctx context.Context, s *cdp.Session, expr string) {
	t.Helper()
	if _, err := (proto.RuntimeEvaluate{Expression: expr}).Do(ctx, s); err != nil {
		t.Fatal(err)
	}
}

func flush(t *testing.T, ctx context.Context, c *capture.Console) []capture.Message {
	t.Helper()
	if err := c.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return c.Messages()
}

// waitMessages polls until n messages are collected: the page reports
// timers' exceptions and unhandled rejections in tasks of their own.
func waitMessages(t *testing.T, ctx context.Context, c *capture.Console, n int) []capture.Message {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		msgs := flush(t, ctx, c)
		if len(msgs) >= n {
			return msgs
		}
		select {
		case <-ctx.Done():
			t.Fatalf("got %d messages, want %d: %+v", len(msgs), n, msgs)
		case <-tick.C:
		}
	}
}

func texts(msgs []capture.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Text
	}
	return out
}

func TestConsoleRendersValuesLikeDevTools(t *testing.T) {
	s, ctx := openPage(t, "live.html")
	c := startConsole(t, ctx, s)
	eval(t, ctx, s, "logValues()")
	got := texts(flush(t, ctx, c))
	want := []string{
		"plain string",
		"42 1.5 true null undefined",
		"{userId: 123, status: 'active'}",
		"[1, 2, 3]",
		"{user: {…}, tags: Array(2)}",
		"Map(2) {'a' => 1, 'b' => {c: 2}} Set(2) {1, 'two'}",
		"{k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, …}",
		"", // the 200-element array, checked below
		"ƒ namedFn() (a) => a + 1",
		`{fn: ƒ, el: body, re: /a+/g, n: null, q: "it's"}`,
		"body",
		"Error: logged error",
		"", // 600 x's, checked below
	}
	if len(got) != len(want) {
		t.Fatalf("got %d messages, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if w != "" && got[i] != w {
			t.Errorf("message %d:\n got %s\nwant %s", i, got[i], w)
		}
	}
	if arr := got[7]; !strings.HasPrefix(arr, "(200) [0, 1, 2,") || !strings.HasSuffix(arr, "98, 99, …]") {
		t.Errorf("overflowing array: %s", arr)
	}
	// The buffer keeps a long text whole; the console step cuts it.
	if long := got[12]; long != strings.Repeat("x", 600) {
		t.Errorf("long text not kept whole: %d runes", utf8.RuneCountInString(long))
	}
	for _, g := range got {
		if strings.Contains(g, "Object") {
			t.Errorf("bare Object in %q", g)
		}
	}
}

func TestConsolePrintfSubstitutions(t *testing.T) {
	s, ctx := openPage(t, "live.html")
	c := startConsole(t, ctx, s)
	eval(t, ctx, s, "logPrintf()")
	got := texts(flush(t, ctx, c))
	want := []string{
		"cart has 3 items at 9.5 each {a: 1}",
		"styled tail 100",
		"100% sure, yes extra",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestConsoleLevelsAndSource(t *testing.T) {
	s, ctx := openPage(t, "live.html")
	c := startConsole(t, ctx, s)
	eval(t, ctx, s, "logLevels()")
	msgs := flush(t, ctx, c)
	type lt struct{ level, text string }
	var got []lt
	for _, m := range msgs {
		got = append(got, lt{m.Level, m.Text})
		if m.Type != "console" || !strings.HasSuffix(m.URL, "/live.html") || m.Line == 0 || len(m.Stack) == 0 {
			t.Errorf("missing type or source: %+v", m)
		}
	}
	want := []lt{
		{"error", "failed: Error: inner"},
		{"warning", "careful"},
		{"info", "for your info"},
		{"debug", "debugging"},
		{"error", "Assertion failed: must hold"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	if m := msgs[0]; m.Line != 28 || m.Stack[0].Function != "logLevels" {
		t.Errorf("console.error source: line %d, stack %+v", m.Line, m.Stack)
	}
}

func TestConsoleUncaughtErrorAndRejection(t *testing.T) {
	s, ctx := openPage(t, "live.html")
	c := startConsole(t, ctx, s)
	eval(t, ctx, s, "fail()")
	msgs := waitMessages(t, ctx, c, 2)
	byText := map[string]capture.Message{}
	for _, m := range msgs {
		byText[m.Text] = m
	}
	boom, ok := byText["Uncaught Error: boom"]
	if !ok || boom.Type != "exception" || boom.Level != "error" {
		t.Fatalf("no uncaught error in %+v", msgs)
	}
	if len(boom.Stack) == 0 || boom.Stack[0].Function != "thrower" || !strings.HasSuffix(boom.URL, "/live.html") {
		t.Errorf("uncaught error source: %s %+v", boom.URL, boom.Stack)
	}
	if m, ok := byText["Uncaught (in promise) Error: nope"]; !ok || m.Type != "exception" {
		t.Errorf("no unhandled rejection in %+v", msgs)
	}
}

// Messages logged while nobody listened come back on Runtime.enable, but
// without previews: StartConsole must fetch them to avoid "Object".
func TestConsoleKeepsMessagesFromBeforeStart(t *testing.T) {
	s, ctx := openPage(t, "console.html")
	c := startConsole(t, ctx, s)
	msgs := c.Messages() // no Flush: the replay precedes Runtime.enable's reply
	got := map[string]capture.Message{}
	for _, m := range msgs {
		got[m.Text] = m
	}
	for _, w := range []struct{ text, level, typ string }{
		{"loading", "log", "console"},
		{"{userId: 123, status: 'active'}", "log", "console"},
		{"[1, 2, 3]", "log", "console"},
		{"deprecated thing", "warning", "console"},
		{"Uncaught Error: boom", "error", "exception"},
		{"Uncaught (in promise) Error: nope", "error", "exception"},
		{"Uncaught SyntaxError: Unexpected token ';'", "error", "exception"},
		{"Uncaught {code: 7}", "error", "exception"},
	} {
		m, ok := got[w.text]
		if !ok {
			t.Errorf("missing %q in %q", w.text, texts(msgs))
			continue
		}
		if m.Level != w.level || m.Type != w.typ || m.Timestamp.IsZero() {
			t.Errorf("%q: %+v", w.text, m)
		}
	}
	// Replayed exceptions carry no stackTrace; the frames come from the
	// error's own stack text.
	if st := got["Uncaught Error: boom"].Stack; len(st) < 2 || st[0].Function != "thrower" || st[0].Line != 11 {
		t.Errorf("replayed exception stack: %+v", st)
	}
}

func TestConsoleSince(t *testing.T) {
	s, ctx := openPage(t, "live.html")
	c := startConsole(t, ctx, s)
	eval(t, ctx, s, "console.error('old error'); console.log('old log')")
	old := flush(t, ctx, c)
	if len(old) != 2 {
		t.Fatalf("got %+v", old)
	}
	mark := old[1].Timestamp.Add(time.Microsecond)
	eval(t, ctx, s, "console.log('new log'); console.warn('new warning'); console.error('new error')")
	flush(t, ctx, c)

	if got := texts(c.Since(mark)); !slices.Equal(got, []string{"new log", "new warning", "new error"}) {
		t.Errorf("Since(mark) = %q", got)
	}
	if got := texts(c.Since(mark, "error", "warning")); !slices.Equal(got, []string{"new warning", "new error"}) {
		t.Errorf("Since(mark, error, warning) = %q", got)
	}
	if got := texts(c.Since(time.Time{}, "error")); !slices.Equal(got, []string{"old error", "new error"}) {
		t.Errorf("Since(zero, error) = %q", got)
	}
	c.Clear()
	if got := c.Messages(); len(got) != 0 {
		t.Errorf("after Clear: %+v", got)
	}
}

// The runner marks a command's start with its own clock; Chrome stamps
// messages with the same machine's clock.
func TestConsoleSinceWallClock(t *testing.T) {
	s, ctx := openPage(t, "live.html")
	c := startConsole(t, ctx, s)
	start := time.Now()
	eval(t, ctx, s, "console.warn('during command')")
	flush(t, ctx, c)
	if got := texts(c.Since(start)); !slices.Equal(got, []string{"during command"}) {
		t.Errorf("Since(start) = %q", got)
	}
}

func TestConsoleFlushBounded(t *testing.T) {
	s, _ := openPage(t, "live.html")
	c := startConsole(t, t.Context(), s)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := c.Flush(ctx); err == nil {
		t.Fatal("Flush with a done context succeeded")
	}
}
