package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// DefaultConsoleLimit is how many messages the console step shows when
// the agent names no limit: the most recent ones.
const DefaultConsoleLimit = 50

// SpillBytes is the size past which a listing step writes its entries to
// a file and answers with the path and a preview: every inline byte is
// read by the agent (REQ-BT-015).
const SpillBytes = 9000

// Preview limits of a spilled listing.
const (
	previewBytes = 2000
	previewText  = 200
)

// Levels are the console levels a query may name.
var Levels = []string{"log", "debug", "info", "warning", "error"}

// ConsoleQuery selects messages for the console step.
type ConsoleQuery struct {
	Limit      int       // the most recent Limit; DefaultConsoleLimit when 0
	Levels     []string  // any of Levels; none means all
	Type       string    // "console", "exception" or "" for both
	Since      time.Time // only messages at or after it; zero for all
	StackTrace bool      // call frames for every message; exceptions always have theirs
}

// ConsoleView is the console step's output. When the inline listing would
// pass SpillBytes, File holds all Showing messages with their whole text
// and stacks, and Messages only the newest few, cut short.
type ConsoleView struct {
	Total    int           `json:"total"`
	Showing  int           `json:"showing"`
	File     string        `json:"file,omitempty"`
	Messages []ViewMessage `json:"messages"`
}

// ViewMessage is a message as the console step shows it.
type ViewMessage struct {
	Level     string  `json:"level"`
	Text      string  `json:"text"`
	Type      string  `json:"type"`
	URL       string  `json:"url,omitempty"`
	Line      int     `json:"line,omitempty"`
	Timestamp int64   `json:"timestamp"` // ms since the epoch, as "since" takes it
	Context   string  `json:"context,omitempty"`
	Stack     []Frame `json:"stack,omitempty"`
}

// Select returns the messages q asks for, oldest first, and how many
// matched before the limit.
func (q ConsoleQuery) Select(msgs []Message) (selected []Message, total int) {
	for _, m := range msgs {
		if q.matches(m) {
			selected = append(selected, m)
		}
	}
	total = len(selected)
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultConsoleLimit
	}
	return selected[max(0, total-limit):], total
}

func (q ConsoleQuery) matches(m Message) bool {
	switch {
	case len(q.Levels) > 0 && !slices.Contains(q.Levels, m.Level):
		return false
	case q.Type != "" && q.Type != m.Type:
		return false
	case !q.Since.IsZero() && m.Timestamp.Before(q.Since):
		return false
	}
	return true
}

// NewConsoleView renders the messages q selects. The per-message cut to
// MaxTextLen happens here, never at capture. When the result is too big
// to show inline it writes the selection whole to spillPath.
func (f Files) NewConsoleView(msgs []Message, q ConsoleQuery, spillPath string) (*ConsoleView, error) {
	sel, total := q.Select(msgs)
	v := &ConsoleView{Total: total, Showing: len(sel), Messages: viewMessages(sel, MaxTextLen, q.StackTrace)}
	if fitsInline(v) {
		return v, nil
	}
	if err := f.writeJSON(spillPath, viewMessages(sel, 0, true)); err != nil {
		return nil, err
	}
	v.File = spillPath
	v.Messages = previewTail(viewMessages(sel, previewText, false))
	return v, nil
}

// viewMessages converts msgs, cutting texts to cut characters (0: whole).
func viewMessages(msgs []Message, cut int, stacks bool) []ViewMessage {
	out := make([]ViewMessage, len(msgs))
	for i, m := range msgs {
		text := m.Text
		if cut > 0 {
			text = truncate(text, cut)
		}
		out[i] = ViewMessage{Level: m.Level, Text: text, Type: m.Type, URL: m.URL, Line: m.Line,
			Timestamp: m.Timestamp.UnixMilli(), Context: m.Context}
		// Where an exception came from is half of what it says.
		if stacks || m.Type == typeExcept {
			out[i].Stack = m.Stack
		}
	}
	return out
}

// previewTail keeps the newest entries that fit in previewBytes, and at
// least one.
func previewTail[T any](items []T) []T {
	size := 0
	for i := len(items) - 1; i >= 0; i-- {
		data, _ := json.Marshal(items[i])
		size += len(data) + 1
		if size > previewBytes && i < len(items)-1 {
			return items[i+1:]
		}
	}
	return items
}

func fitsInline(v any) bool {
	data, err := json.Marshal(v)
	return err == nil && len(data) <= SpillBytes
}

// writeJSON writes v indented, so that an agent can page or grep it.
func (f Files) writeJSON(path string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("capture: encode %s: %w", path, err)
	}
	return f.writeFile(path, b.Bytes())
}

// NewConsoleView is Files{}.NewConsoleView, in the process's temp
// directory.
func NewConsoleView(msgs []Message, q ConsoleQuery, spillPath string) (*ConsoleView, error) {
	return Files{}.NewConsoleView(msgs, q, spillPath)
}

// ParseLevels reads a level filter: one level or several joined by
// commas; "warn" is "warning". It reports the first unknown level.
func ParseLevels(s string) ([]string, error) {
	var out []string
	for _, l := range strings.Split(s, ",") {
		l = strings.ToLower(strings.TrimSpace(l))
		if l == "warn" {
			l = "warning"
		}
		if !slices.Contains(Levels, l) {
			return nil, fmt.Errorf("unknown level %q (levels: %s)", l, strings.Join(Levels, ", "))
		}
		out = append(out, l)
	}
	return out, nil
}
