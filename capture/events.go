package capture

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
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

	exceptionID int      // lets Runtime.exceptionRevoked withdraw it
	seq         uint64   // its place among the messages a Console collected
	scripts     []string // the distinct URLs of its whole stack, async parts included
	inStep      bool     // shown in the output of the step that logged it
}

// Frame is one call frame; Line and Column are 1-based. Async is set on
// the first frame of each async part of a stack: that frame scheduled
// the work above it, and Async says how ("setTimeout", "Promise.then",
// "await"), as DevTools writes "setTimeout (async)".
type Frame struct {
	Function string `json:"function,omitempty"`
	URL      string `json:"url"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Async    string `json:"async,omitempty"`
}

// Stack limits: 10,000 messages of 200 frames each would weigh more than
// the page, and what explains a message is in its nearest frames and in
// the ones that scheduled them.
const (
	maxFrames        = 10 // in all
	maxSegmentFrames = 4  // of each part of a stack that has async parts
	maxScripts       = 16 // distinct URLs remembered for matching
)

const (
	typeCons   = "console"
	typeExcept = "exception"
)

// entry is a decoded event whose arguments are not rendered yet, so that
// previews can be fetched for replayed messages first.
type entry struct {
	method    string
	call      proto.RuntimeConsoleAPICalled
	thrown    proto.RuntimeExceptionThrown
	revokedID int
}

// decode parses one event; ok is false for events that are not messages.
func decode(method string, params json.RawMessage) (e entry, ok bool) {
	e.method = method
	switch method {
	case proto.EventRuntimeConsoleAPICalled:
		if json.Unmarshal(params, &e.call) != nil || e.call.Type == "endGroup" {
			return e, false
		}
	case proto.EventRuntimeExceptionThrown:
		if json.Unmarshal(params, &e.thrown) != nil {
			return e, false
		}
	case proto.EventRuntimeExceptionRevoked:
		var r proto.RuntimeExceptionRevoked
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
	if e.method == proto.EventRuntimeExceptionThrown {
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
	m.scripts = scripts(c.StackTrace)
	if len(m.Stack) > 0 {
		m.URL, m.Line = m.Stack[0].URL, m.Stack[0].Line
	}
	m.Text = truncate(m.Text, MaxStoredText)
	return m
}

func exceptionMessage(t *proto.RuntimeExceptionThrown) Message {
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
		scripts:     scripts(d.StackTrace),
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

// frames flattens st and the async stacks that scheduled it, nearest
// first, the first frame of each async part marked with how it was
// scheduled. cdpskill's own frames, and frames that name neither a
// function nor a script, are left out.
func frames(st *proto.StackTrace) []Frame {
	if st == nil {
		return nil
	}
	limit := maxFrames
	if st.Parent != nil {
		limit = maxSegmentFrames
	}
	var out []Frame
	for part := st; part != nil && len(out) < maxFrames; part = part.Parent {
		n := 0
		for _, f := range part.CallFrames {
			if n == limit || len(out) == maxFrames {
				break
			}
			if page.IsInternalScript(f.URL) || f.URL == "" && f.FunctionName == "" {
				continue
			}
			fr := Frame{Function: f.FunctionName, URL: f.URL, Line: f.LineNumber + 1, Column: f.ColumnNumber + 1}
			if n == 0 && part != st {
				fr.Async = cmp.Or(part.Description, "async")
			}
			out = append(out, fr)
			n++
		}
	}
	return out
}

// scripts lists the distinct URLs of every frame of st, async parts
// included, so a message can be traced to the script it ran through.
func scripts(st *proto.StackTrace) []string {
	var out []string
	for part := st; part != nil; part = part.Parent {
		for _, f := range part.CallFrames {
			if f.URL != "" && !slices.Contains(out, f.URL) && len(out) < maxScripts {
				out = append(out, f.URL)
			}
		}
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
