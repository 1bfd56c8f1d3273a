package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/internal/private"
)

// AppendMetrics appends one JSONL line of I/O metrics (SPEC 17.6).
// Failures are ignored: metrics never affect a call.
func AppendMetrics(path string, inBytes, outBytes, steps int, elapsed time.Duration) {
	line, _ := json.Marshal(map[string]any{
		"ts":           time.Now().UTC().Format(time.RFC3339Nano),
		"input_bytes":  inBytes,
		"output_bytes": outBytes,
		"steps":        steps,
		"time_ms":      elapsed.Milliseconds(),
	})
	f, err := private.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(line, '\n'))
}

var seqPrefix = regexp.MustCompile(`^(\d{3,})-`)

// WriteDebugLog writes the request and result of this call to
// dir/{seq}-{tab}-{actions}.{status}.json (SPEC 17.5), with the call's
// time and every CDP call's (Options.Trace), to see where time goes.
// Failures are ignored. The log holds what pages showed: it is private,
// as every file cdpskill writes.
func WriteDebugLog(dir string, input []byte, res *Result, took time.Duration) {
	seq := 1
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if m := seqPrefix.FindStringSubmatch(e.Name()); m != nil {
				if n, _ := strconv.Atoi(m[1]); n >= seq {
					seq = n + 1
				}
			}
		}
	}
	parts := []string{fmt.Sprintf("%03d", seq)}
	if res.Tab != "" {
		parts = append(parts, res.Tab)
	}
	if actions := logActions(input); actions != "" {
		parts = append(parts, actions)
	}
	name := strings.Join(parts, "-") + "." + res.Status + ".json"
	var request any = string(input)
	var parsed any
	if json.Unmarshal(input, &parsed) == nil {
		request = redactWSURLs(parsed)
	} else if hasEndpointKey(input) {
		request = cdp.RedactText(string(input))
	}
	data, err := json.Marshal(map[string]any{
		"timestamp": time.Now().UTC().Format(time.RFC3339Nano),
		"request":   request,
		"response":  res,
		"ms":        took.Milliseconds(),
		"cdp":       res.trace.Entries(),
	})
	if err != nil {
		return
	}
	data = maskSecrets(data, res.secrets)
	var out bytes.Buffer
	if json.Indent(&out, data, "", "  ") != nil {
		return
	}
	_ = private.WriteFile(filepath.Join(dir, name), out.Bytes())
}

// maskedSecret stands for a password in the debug log, as formState
// shows one.
const maskedSecret = "********"

// maskSecrets rewrites the JSON document data with every string value
// that is one of secrets, or (for secrets of 4 characters or more)
// contains one, masked; keys and the order of fields are kept. A short
// secret is masked only where it is the whole value: inside longer text
// it would hit ordinary words.
func maskSecrets(data []byte, secrets []string) []byte {
	if len(secrets) == 0 {
		return data
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out bytes.Buffer
	// Each open container: whether it is an object, and whether its next
	// string is a key.
	type level struct{ object, key bool }
	var stack []level
	comma := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			out.WriteByte(byte(d))
			stack = stack[:len(stack)-1]
			comma = true
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].key = true
			}
			continue
		}
		isKey := len(stack) > 0 && stack[len(stack)-1].object && stack[len(stack)-1].key
		if comma {
			out.WriteByte(',')
		}
		switch v := tok.(type) {
		case json.Delim:
			out.WriteByte(byte(v))
			stack = append(stack, level{object: v == '{', key: v == '{'})
			comma = false
			continue
		case string:
			if !isKey {
				v = maskString(v, secrets)
			}
			b, _ := json.Marshal(v)
			out.Write(b)
		default:
			b, _ := json.Marshal(v)
			out.Write(b)
		}
		if isKey {
			out.WriteByte(':')
			stack[len(stack)-1].key = false
			comma = false
			continue
		}
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].key = true
		}
		comma = true
	}
	return out.Bytes()
}

func maskString(s string, secrets []string) string {
	for _, sec := range secrets {
		switch {
		case s == sec:
			return maskedSecret
		case len(sec) >= 4:
			s = strings.ReplaceAll(s, sec, maskedSecret)
		}
	}
	return s
}

// logActions names up to three actions, then "plusN".
func logActions(input []byte) string {
	var doc struct {
		Steps []map[string]json.RawMessage `json:"steps"`
	}
	if json.Unmarshal(input, &doc) != nil {
		return ""
	}
	var names []string
	for _, s := range doc.Steps {
		for k := range s {
			if k != "optional" && k != "timeout" {
				names = append(names, safeName.ReplaceAllString(k, "_"))
				break
			}
		}
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("plus%d", len(names)-3))
	}
	return strings.Join(names, "-")
}

var safeName = regexp.MustCompile(`[^A-Za-z0-9_]`)
