package cdp

import (
	"encoding/json"
	"unsafe"

	"github.com/tidwall/gjson"
)

// A reply can run to megabytes (a snapshot of a huge page), and
// encoding/json scans its whole input twice and copies every RawMessage,
// so a value nested three levels deep was scanned six times and copied
// twice before anyone read it (50 ms and 14 MB for a 3 MB reply). Fields
// instead finds each value by skipping over its siblings (gjson) and
// hands it on as a slice of the bytes it came in.
//
// The bytes of every message are its own (the websocket allocates them
// for it) and nothing writes to them after, so viewing them as a string
// without a copy is safe, and so is every slice of them handed on.

// Fields calls fn with each key of the JSON object raw and its value, a
// slice of raw, until fn returns false; both are views of raw, which
// must not change while they are in use. It reports whether raw is an
// object; it does not check that raw is valid JSON (Chrome's is).
func Fields(raw []byte, fn func(key string, value json.RawMessage) bool) bool {
	obj := gjson.Parse(view(raw))
	if !obj.IsObject() {
		return false
	}
	obj.ForEach(func(k, v gjson.Result) bool {
		return fn(k.String(), slice(raw, v))
	})
	return true
}

// view is b as a string, without a copy.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// slice is r, found in view(raw), as a slice of raw (copied in the case
// gjson did not say where it stands).
func slice(raw []byte, r gjson.Result) json.RawMessage {
	switch {
	case !r.Exists():
		return nil
	case r.Index > 0 && r.Index+len(r.Raw) <= len(raw):
		return raw[r.Index : r.Index+len(r.Raw) : r.Index+len(r.Raw)]
	default:
		return json.RawMessage(r.Raw)
	}
}
