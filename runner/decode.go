package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cdpskill/cdpskill/internal/suggest"
)

// paramError is a problem with one step's parameters; validation adds the
// step number and name.
type paramError struct{ msg string }

func (e *paramError) Error() string { return e.msg }

func paramErrorf(format string, args ...any) error {
	return &paramError{msg: fmt.Sprintf(format, args...)}
}

// jsonKind names the JSON type of raw for messages.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

func asString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func asBool(raw json.RawMessage) (bool, bool) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

var fieldCache sync.Map // reflect.Type -> []string

// jsonFields lists the JSON names of a struct type's fields, embedded
// structs included.
func jsonFields(t reflect.Type) []string {
	if v, ok := fieldCache.Load(t); ok {
		return v.([]string)
	}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			names = append(names, jsonFields(f.Type)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	fieldCache.Store(t, names)
	return names
}

// decodeStrict decodes a JSON object into dst, a pointer to a struct,
// rejecting unknown fields with a suggestion and wrong types with a
// message naming the field and the type it needs.
func decodeStrict(raw json.RawMessage, dst any) error {
	if !isObject(raw) {
		return paramErrorf("expected an object, got %s", jsonKind(raw))
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return paramErrorf("%v", err)
	}
	known := jsonFields(reflect.TypeOf(dst).Elem())
	var unknown []string
	for k := range keys {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		k := unknown[0]
		msg := fmt.Sprintf("unknown parameter %q", k)
		if s := suggest.Nearest(k, known); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return paramErrorf("%s (known: %s)", msg, strings.Join(known, ", "))
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return paramErrorf("%q must be %s, got %s", te.Field, typeName(te.Type), jsonValueName(te.Value))
		}
		return paramErrorf("%v", err)
	}
	return nil
}

func typeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return t.String()
}

func jsonValueName(v string) string {
	switch v {
	case "string":
		return "a string"
	case "number":
		return "a number"
	case "bool":
		return "a boolean"
	case "array":
		return "an array"
	case "object":
		return "an object"
	}
	return v
}

// decodeInto is decodeStrict for an object, or calls shorthand for any
// other JSON value; shorthand nil means only the object form exists.
func decodeInto[P any](raw json.RawMessage, shorthand func(json.RawMessage, *P) error) (P, error) {
	var p P
	if isObject(raw) {
		err := decodeStrict(raw, &p)
		return p, err
	}
	if shorthand == nil {
		return p, paramErrorf("expected an object, got %s", jsonKind(raw))
	}
	err := shorthand(raw, &p)
	return p, err
}
