package capture

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

// Message is one console call or uncaught exception.
type Message struct {
	Type      string    `json:"type"`  // "console" or "exception"
	Level     string    `json:"level"` // log, debug, info, error, warning
	Text      string    `json:"text"`  // whole, up to MaxStoredText characters
	URL       string    `json:"url,omitempty"`
	Line      int       `json:"line,omitempty"` // 1-based
	Timestamp time.Time `json:"timestamp"`      // when the page logged it, by Chrome's clock
	Stack     []Frame   `json:"stack,omitempty"`
	// Context is where it was logged when not in the page itself:
	// ContextServiceWorker.
	Context string `json:"context,omitempty"`

	exceptionID int // lets Runtime.exceptionRevoked withdraw it
}

// Frame is one call frame; Line and Column are 1-based.
type Frame struct {
	Function string `json:"function,omitempty"`
	URL      string `json:"url"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

// maxFrames bounds each stored stack: 10,000 messages of 200 frames each
// would weigh more than the page.
const maxFrames = 10

const (
	evConsole  = "Runtime.consoleAPICalled"
	evThrown   = "Runtime.exceptionThrown"
	evRevoked  = "Runtime.exceptionRevoked"
	typeCons   = "console"
	typeExcept = "exception"
)

// entry is a decoded event whose arguments are not rendered yet, so that
// previews can be fetched for replayed messages first.
type entry struct {
	method    string
	call      consoleAPICalled
	thrown    exceptionThrown
	revokedID int
}

type consoleAPICalled struct {
	Type       string              `json:"type"`
	Args       []page.RemoteObject `json:"args"`
	Timestamp  float64             `json:"timestamp"`
	StackTrace *page.StackTrace    `json:"stackTrace"`
}

type exceptionThrown struct {
	Timestamp        float64 `json:"timestamp"`
	ExceptionDetails struct {
		page.ExceptionDetails
		ExceptionID int `json:"exceptionId"`
	} `json:"exceptionDetails"`
}

// decode parses one event; ok is false for events that are not messages.
func decode(method string, params json.RawMessage) (e entry, ok bool) {
	e.method = method
	switch method {
	case evConsole:
		if json.Unmarshal(params, &e.call) != nil || e.call.Type == "endGroup" {
			return e, false
		}
	case evThrown:
		if json.Unmarshal(params, &e.thrown) != nil {
			return e, false
		}
	case evRevoked:
		var r struct {
			ExceptionID int `json:"exceptionId"`
		}
		if json.Unmarshal(params, &r) != nil {
			return e, false
		}
		e.revokedID = r.ExceptionID
	default:
		return e, false
	}
	return e, true
}

// message renders a console or exception entry.
func (e *entry) message() Message {
	if e.method == evThrown {
		return exceptionMessage(&e.thrown)
	}
	c := &e.call
	m := Message{
		Type:      typeCons,
		Level:     levelOf(c.Type),
		Text:      renderArgs(c.Args),
		Timestamp: cdpTime(c.Timestamp),
		Stack:     frames(c.StackTrace),
	}
	if c.Type == "assert" {
		m.Text = "Assertion failed: " + m.Text
	}
	if len(m.Stack) > 0 {
		m.URL, m.Line = m.Stack[0].URL, m.Stack[0].Line
	}
	m.Text = truncate(m.Text, MaxStoredText)
	return m
}

func exceptionMessage(t *exceptionThrown) Message {
	d := &t.ExceptionDetails
	m := Message{
		Type:        typeExcept,
		Level:       "error",
		Text:        d.Text,
		URL:         d.URL,
		Line:        d.LineNumber + 1,
		Timestamp:   cdpTime(t.Timestamp),
		Stack:       frames(d.StackTrace),
		exceptionID: d.ExceptionID,
	}
	if d.Exception != nil {
		// "Uncaught" + "Error: boom"; syntax errors already carry the
		// description in their text.
		first := firstLine(renderValue(*d.Exception))
		if m.Text == "" {
			m.Text = first
		} else if !strings.Contains(m.Text, first) {
			m.Text += " " + first
		}
		if m.Stack == nil && d.Exception.Subtype == "error" {
			m.Stack = parseStack(d.Exception.Description) // replayed exceptions come without a stackTrace
		}
	}
	if m.URL == "" && len(m.Stack) > 0 {
		m.URL, m.Line = m.Stack[0].URL, m.Stack[0].Line
	}
	m.Text = truncate(m.Text, MaxStoredText)
	return m
}

// levelOf maps a console API type to the levels the spec filters by.
func levelOf(apiType string) string {
	switch apiType {
	case "error", "assert":
		return "error"
	case "warning", "debug", "info":
		return apiType
	}
	return "log"
}

// cdpTime converts Runtime.Timestamp, milliseconds since the epoch.
func cdpTime(ms float64) time.Time {
	return time.UnixMicro(int64(math.Round(ms * 1000)))
}

func frames(st *page.StackTrace) []Frame {
	if st == nil || len(st.CallFrames) == 0 {
		return nil
	}
	n := min(len(st.CallFrames), maxFrames)
	out := make([]Frame, n)
	for i, f := range st.CallFrames[:n] {
		out[i] = Frame{Function: f.FunctionName, URL: f.URL, Line: f.LineNumber + 1, Column: f.ColumnNumber + 1}
	}
	return out
}

// parseStack reads V8's "    at fn (url:line:col)" lines; lines it cannot
// read (eval origins, native frames) are left out.
func parseStack(desc string) []Frame {
	var out []Frame
	for _, line := range strings.Split(desc, "\n")[1:] {
		line, ok := strings.CutPrefix(strings.TrimSpace(line), "at ")
		if !ok || len(out) == maxFrames {
			continue
		}
		fn, loc := "", line
		if strings.HasSuffix(line, ")") {
			if i := strings.LastIndex(line, " ("); i >= 0 {
				fn, loc = line[:i], line[i+2:len(line)-1]
			}
		}
		if f, ok := parseLocation(loc); ok {
			f.Function = fn
			out = append(out, f)
		}
	}
	return out
}

func parseLocation(loc string) (Frame, bool) {
	i := strings.LastIndexByte(loc, ':')
	if i < 0 {
		return Frame{}, false
	}
	j := strings.LastIndexByte(loc[:i], ':')
	if j < 0 {
		return Frame{}, false
	}
	line, err1 := strconv.Atoi(loc[j+1 : i])
	col, err2 := strconv.Atoi(loc[i+1:])
	if err1 != nil || err2 != nil {
		return Frame{}, false
	}
	return Frame{URL: loc[:j], Line: line, Column: col}, true
}
