package capture

import (
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
	Messages []ReportMessage `json:"messages"`
	// Omitted counts distinct messages left out beyond MaxReportMessages.
	Omitted int `json:"omitted,omitempty"`
}

// ReportMessage is one distinct error or warning.
type ReportMessage struct {
	Level  string `json:"level"`
	Text   string `json:"text"`
	Source string `json:"source,omitempty"` // url:line
	// Context is where it was logged when not in the page: "service-worker".
	Context string `json:"context,omitempty"`
	Count   int    `json:"count,omitempty"` // set when it happened more than once

	first int // position of the first occurrence, to restore log order
}

// NewReport summarises msgs, or returns nil (JSON null) when they hold no
// error or warning. When there are too many distinct messages errors are
// kept before warnings, earlier before later: the first error is the
// likeliest cause of the rest.
func NewReport(msgs []Message) *Report {
	r := &Report{}
	index := map[string]int{}
	var all []ReportMessage
	for i, m := range msgs {
		switch m.Level {
		case "error":
			r.Errors++
		case "warning":
			r.Warnings++
		default:
			continue
		}
		rm := ReportMessage{Level: m.Level, Text: truncate(m.Text, maxReportText), Source: source(m), Context: m.Context, first: i}
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
