package capture_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/capture"
)

func msg(level, text, url string, line int) capture.Message {
	return capture.Message{Type: "console", Level: level, Text: text, URL: url, Line: line}
}

func reportJSON(t *testing.T, msgs []capture.Message) string {
	t.Helper()
	data, err := json.Marshal(capture.NewReport(msgs))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestReport(t *testing.T) {
	tests := []struct {
		name string
		msgs []capture.Message
		want string
	}{
		{"nothing", nil, `null`},
		{"only logs", []capture.Message{msg("log", "hi", "", 0), msg("info", "i", "", 0), msg("debug", "d", "", 0)}, `{"logged":3}`},
		{
			"errors and warnings in log order",
			[]capture.Message{
				msg("log", "noise", "", 0),
				msg("warning", "careful", "http://h/a.js", 3),
				msg("error", "boom", "http://h/a.js?v=123#x", 9),
			},
			`{"errors":1,"warnings":1,"messages":[{"level":"warning","text":"careful","source":"http://h/a.js:3"},{"level":"error","text":"boom","source":"http://h/a.js:9"}],"logged":1}`,
		},
		{
			"duplicates counted once",
			[]capture.Message{
				msg("error", "boom", "http://h/a.js", 9),
				msg("error", "boom", "http://h/a.js", 9),
				msg("error", "boom", "http://h/b.js", 9),   // another source is another message
				msg("warning", "boom", "http://h/a.js", 9), // another level too
				msg("error", "boom", "http://h/a.js", 9),
			},
			`{"errors":4,"warnings":1,"messages":[{"level":"error","text":"boom","source":"http://h/a.js:9","count":3},{"level":"error","text":"boom","source":"http://h/b.js:9"},{"level":"warning","text":"boom","source":"http://h/a.js:9"}]}`,
		},
		{
			"exception without source",
			[]capture.Message{{Type: "exception", Level: "error", Text: "Uncaught Error: x"}},
			`{"errors":1,"messages":[{"level":"error","text":"Uncaught Error: x"}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := reportJSON(t, tt.msgs); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// Past the limit, errors win over warnings and earlier over later, and
// the report says how many it left out.
func TestReportLimit(t *testing.T) {
	var msgs []capture.Message
	for i := range 15 {
		msgs = append(msgs, msg("warning", fmt.Sprint("w", i), "", 0))
	}
	for i := range 25 {
		msgs = append(msgs, msg("error", fmt.Sprint("e", i), "", 0))
	}
	r := capture.NewReport(msgs)
	if r.Errors != 25 || r.Warnings != 15 || r.Omitted != 20 || len(r.Messages) != capture.MaxReportMessages {
		t.Fatalf("errors %d warnings %d omitted %d messages %d", r.Errors, r.Warnings, r.Omitted, len(r.Messages))
	}
	for i, m := range r.Messages {
		if want := fmt.Sprint("e", i); m.Text != want {
			t.Errorf("message %d = %s, want %s", i, m.Text, want)
		}
	}

	// With room to spare, warnings fill it in log order.
	r = capture.NewReport(append(msgs[:5:5], msgs[15:25]...))
	if len(r.Messages) != 15 || r.Messages[0].Text != "w0" || r.Omitted != 0 {
		t.Errorf("got %+v", r.Messages)
	}
}

func TestReportShortensTextAndSource(t *testing.T) {
	long := strings.Repeat("a", 400)
	url := "https://cdn.example.com/" + strings.Repeat("d/", 80) + "app.js?token=secret"
	r := capture.NewReport([]capture.Message{msg("error", long, url, 7)})
	m := r.Messages[0]
	if n := len([]rune(m.Text)); n > 300 || !strings.HasSuffix(m.Text, "…") {
		t.Errorf("text of %d runes: %s", n, m.Text)
	}
	if !strings.HasPrefix(m.Source, "…") || !strings.HasSuffix(m.Source, "/app.js:7") || strings.Contains(m.Source, "token") {
		t.Errorf("source %s", m.Source)
	}
}
