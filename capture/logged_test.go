package capture

import (
	"fmt"
	"strings"
	"testing"
)

func TestLogs(t *testing.T) {
	msg := func(level, text string) Message { return Message{Type: typeCons, Level: level, Text: text} }
	msgs := []Message{
		msg("log", "start"),
		msg("log", "waiting"), msg("log", "waiting"), msg("log", "waiting"),
		{Type: typeExcept, Level: "error", Text: "Uncaught Error: x"},
		msg("warning", "waiting"),
		msg("error", strings.Repeat("z", MaxTextLen+10)),
	}
	logs, omitted := Logs(msgs)
	var got []string
	for _, l := range logs {
		got = append(got, fmt.Sprintf("%s:%.10s:%d:%d", l.Level, l.Text, l.Count, len([]rune(l.Text))))
	}
	want := "log:start:0:5|log:waiting:3:7|warning:waiting:0:7|error:zzzzzzzzzz:0:" + fmt.Sprint(MaxTextLen)
	if strings.Join(got, "|") != want || omitted != 0 {
		t.Errorf("got %q (omitted %d)\nwant %q", got, omitted, want)
	}

	var many []Message
	for i := range MaxLogged + 7 {
		many = append(many, msg("log", fmt.Sprint(i)))
	}
	logs, omitted = Logs(many)
	if len(logs) != MaxLogged || omitted != 7 || logs[0].Text != "7" {
		t.Errorf("cut: %d kept, %d omitted, first %q", len(logs), omitted, logs[0].Text)
	}
}

func TestReportStack(t *testing.T) {
	st := []Frame{
		{Function: "later", URL: "https://app.test/js/app.js?v=3", Line: 3, Column: 26},
		{URL: "https://app.test/", Line: 9, Column: 1},
		{Function: "onSave", URL: "https://app.test/js/app.js", Line: 7, Column: 21, Async: "setTimeout"},
		{Function: "onclick", URL: "https://app.test/", Line: 1, Column: 2},
		{Function: "deeper", URL: "https://app.test/", Line: 1, Column: 2},
	}
	want := "later (app.js:3:26)|app.test/:9:1|setTimeout (async)|onSave (app.js:7:21)|onclick (app.test/:1:2)"
	if got := strings.Join(reportStack(st), "|"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := reportStack(st[:1]); got != nil {
		t.Errorf("one frame repeats the source: %q", got)
	}
}
