package capture_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/page"
)

// exception waits for the uncaught exception whose text contains text:
// timers and promise reactions throw in tasks of their own.
func exception(t *testing.T, ctx context.Context, c *capture.Console, text string) capture.Message {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		for _, m := range flush(t, ctx, c) {
			if m.Type == "exception" && strings.Contains(m.Text, text) {
				return m
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no exception %q", text)
		case <-tick.C:
		}
	}
}

// stackLine renders a stack as function@line, async parts marked.
func stackLine(st []capture.Frame) string {
	var parts []string
	for _, f := range st {
		s := f.Function + "@" + f.URL[strings.LastIndexByte(f.URL, '/')+1:]
		if f.Async != "" {
			s = "[" + f.Async + "] " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " < ")
}

// An uncaught exception in a timer or a promise reaction carries the
// stack that scheduled it; cdpskill's own frames (an event it dispatched
// from its code) are left out.
func TestConsoleAsyncStacks(t *testing.T) {
	s, ctx := openPage(t, "async.html")
	c := startConsole(t, ctx, s)
	eval(t, ctx, s, "document.getElementById('save').click()")
	eval(t, ctx, s, "load()")
	// As fill does: an event dispatched by cdpskill's own code.
	eval(t, ctx, s, "(function dispatchInput() { document.getElementById('q').dispatchEvent(new Event('input')) })()\n//# sourceURL="+page.InternalScript)

	tests := []struct{ text, stack string }{
		{"save failed", "failLater@async.html < afterSave@async.html < [setTimeout] onSave@async.html < onclick@async.html"},
		{"Cannot read properties of undefined", "render@async.html < [Promise.then] load@async.html"},
		{"search failed", "search@async.html < [setTimeout] onInput@async.html"},
	}
	for _, tc := range tests {
		m := exception(t, ctx, c, tc.text)
		if got := stackLine(m.Stack); got != tc.stack {
			t.Errorf("%s:\n got %s\nwant %s", tc.text, got, tc.stack)
		}
	}
	r := capture.NewReport(c.Messages())
	var save []string
	for _, m := range r.Messages {
		if strings.Contains(m.Text, "save failed") {
			save = m.Stack
		}
	}
	if len(save) != 5 || save[2] != "setTimeout (async)" || !strings.HasPrefix(save[3], "onSave (async.html:7:") {
		t.Errorf("report stack: %q", save)
	}
}

// LoggedBy picks out the console calls made through one script, the
// page's chatter of the same moment left out, and the call's report then
// leaves them to the step.
func TestConsoleLoggedBy(t *testing.T) {
	s, ctx := openPage(t, "async.html")
	c := startConsole(t, ctx, s)
	eval(t, ctx, s, "console.warn('before the mark')\n//# sourceURL=pageFunction")
	mark := c.Mark()
	_, err := proto.RuntimeEvaluate{
		Expression:   "(async () => { console.log('mine', 1); await new Promise(r => setTimeout(r, 40)); helper(); console.error('last') })()\n//# sourceURL=pageFunction",
		AwaitPromise: true,
	}.Do(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range c.LoggedBy(mark, "pageFunction") {
		got = append(got, m.Level+":"+m.Text)
	}
	if want := []string{"log:mine 1", "warning:helper ran", "error:last"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	r := capture.NewReport(c.Messages())
	if r == nil || len(r.Messages) != 1 || r.Messages[0].Text != "before the mark" {
		t.Errorf("report repeats what the step showed: %+v", r)
	}
}
