package capture

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Limits that keep the automatic console report small: every byte of it
// is read by the agent after every command.
const (
	MaxReportMessages = 20
	maxReportText     = 300
	maxSourceLen      = 100
)

// Report is the command output's "console" field: the errors and warnings
// of one command, each distinct message once.
type Report struct {
	Errors   int             `json:"errors,omitempty"`
	Warnings int             `json:"warnings,omitempty"`
	Messages []ReportMessage `json:"messages,omitempty"`
	// Omitted counts distinct messages left out beyond MaxReportMessages.
	Omitted int `json:"omitted,omitempty"`
	// Logged counts the page's other messages (log, info, debug), which
	// the report does not show and the console step lists.
	Logged int `json:"logged,omitempty"`
}

// ReportMessage is one distinct error or warning.
type ReportMessage struct {
	Level  string `json:"level"`
	Text   string `json:"text"`
	Source string `json:"source,omitempty"` // url:line
	// Stack is an uncaught exception's nearest frames, DevTools style:
	// "later (app.js:3:26)", then "setTimeout (async)" and the frames that
	// set the timer. Left out when it would only repeat Source.
	Stack []string `json:"stack,omitempty"`
	// Context is where it was logged when not in the page: "service-worker".
	Context string `json:"context,omitempty"`
	Count   int    `json:"count,omitempty"` // set when it happened more than once

	first int // position of the first occurrence, to restore log order
}

// NewReport summarises msgs: their errors and warnings, and how many
// other messages there were; nil (JSON null) when there is nothing to
// tell. What the agent's own code logged and a step's output already
// showed (Console.LoggedBy) is neither repeated nor counted. When there
// are too many distinct messages errors are kept before warnings, earlier
// before later: the first error is the likeliest cause of the rest.
func NewReport(msgs []Message) *Report {
	r := &Report{}
	index := map[string]int{}
	var all []ReportMessage
	for i, m := range msgs {
		if m.inStep {
			continue
		}
		switch m.Level {
		case "error":
			r.Errors++
		case "warning":
			r.Warnings++
		default:
			r.Logged++
			continue
		}
		rm := ReportMessage{Level: m.Level, Text: truncate(m.Text, maxReportText), Source: source(m), Context: m.Context, first: i}
		if m.Type == typeExcept {
			rm.Stack = reportStack(m.Stack)
		}
		key := rm.Level + "\x00" + rm.Text + "\x00" + rm.Source + "\x00" + rm.Context
		if j, ok := index[key]; ok {
			all[j].Count++
			continue
		}
		index[key] = len(all)
		rm.Count = 1
		all = append(all, rm)
	}
	if len(all) == 0 {
		if r.Logged > 0 {
			return r
		}
		return nil
	}
	// Stable: within a level, log order is kept.
	slices.SortStableFunc(all, func(a, b ReportMessage) int { return levelRank(a.Level) - levelRank(b.Level) })
	if len(all) > MaxReportMessages {
		r.Omitted = len(all) - MaxReportMessages
		all = all[:MaxReportMessages]
	}
	slices.SortFunc(all, func(a, b ReportMessage) int { return a.first - b.first })
	for i := range all {
		if all[i].Count == 1 {
			all[i].Count = 0 // omitted from the JSON
		}
	}
	r.Messages = all
	return r
}

// maxReportFrames is how many frames of an exception's stack the report
// shows; its async parts are marked between them.
const maxReportFrames = 4

// reportStack renders an exception's stack in short lines, or nil when it
// has one frame: Source already says where that is.
func reportStack(st []Frame) []string {
	if len(st) < 2 {
		return nil
	}
	var out []string
	for _, f := range st[:min(len(st), maxReportFrames)] {
		if f.Async != "" {
			out = append(out, f.Async+" (async)")
		}
		out = append(out, f.short())
	}
	return out
}

// short is the frame as DevTools lists it: the function and the file it
// is in, without the rest of the URL (the message's source has that).
func (f Frame) short() string {
	at := fmt.Sprintf("%s:%d:%d", fileName(f.URL), f.Line, f.Column)
	if f.Function == "" {
		return at
	}
	return f.Function + " (" + at + ")"
}

// fileName is the last part of a URL's path, or the URL without its
// scheme when the path ends in a slash.
func fileName(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.LastIndexByte(u, '/'); i >= 0 && i < len(u)-1 {
		return u[i+1:]
	}
	if _, rest, ok := strings.Cut(u, "://"); ok {
		return rest
	}
	return u
}

func levelRank(level string) int {
	if level == "error" {
		return 0
	}
	return 1
}

// source is where the message came from as url:line, without the query
// (often long, rarely telling) and keeping the end of a long URL, which
// names the file.
func source(m Message) string {
	if m.URL == "" {
		return ""
	}
	u := m.URL
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if r := []rune(u); len(r) > maxSourceLen {
		u = "…" + string(r[len(r)-maxSourceLen+1:])
	}
	if m.Line > 0 {
		u += ":" + strconv.Itoa(m.Line)
	}
	return u
}
