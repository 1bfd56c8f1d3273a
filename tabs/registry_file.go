package tabs

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cdpskill/cdpskill/chrome"
)

// maxAliasNumber keeps alias numbers to 15 digits: exact in any JSON
// reader's float64, and no overflow when a hand-edited nextId is huge.
const maxAliasNumber = 999_999_999_999_999

var aliasPattern = regexp.MustCompile(`^t[1-9][0-9]{0,14}$`)

// IsAlias reports whether s has the form of a tab alias (t1, t2, ...).
func IsAlias(s string) bool { return aliasPattern.MatchString(s) }

// AliasLess orders aliases by number, as they were handed out: t2
// before t10.
func AliasLess(a, b string) bool { return aliasNumber(a) < aliasNumber(b) }

// aliasNumber is n of "tn"; s must satisfy IsAlias.
func aliasNumber(s string) int64 {
	n, _ := strconv.ParseInt(s[1:], 10, 64)
	return n
}

// registryState is the registry in memory. nextID is always above every
// alias number in tabs. contexts are a session's browser contexts, one
// per browser (session.go).
type registryState struct {
	nextID   int64
	contexts []Context
	tabs     map[string]Entry
}

func newRegistryState() *registryState {
	return &registryState{nextID: 1, tabs: map[string]Entry{}}
}

// add stores e under the next alias.
func (st *registryState) add(e Entry) (string, error) {
	if st.nextID > maxAliasNumber {
		return "", fmt.Errorf("tab registry: alias numbers exhausted (next is %d)", st.nextID)
	}
	alias := "t" + strconv.FormatInt(st.nextID, 10)
	st.nextID++
	st.tabs[alias] = e
	return alias, nil
}

// aliases lists the aliases lowest number first.
func (st *registryState) aliases() []string {
	out := make([]string, 0, len(st.tabs))
	for a := range st.tabs {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Compare(aliasNumber(a), aliasNumber(b)) })
	return out
}

// aliasOf finds the lowest alias of targetID, on ep when ep is not nil.
func (st *registryState) aliasOf(targetID string, ep *chrome.Endpoint) (string, bool) {
	for _, a := range st.aliases() {
		e := st.tabs[a]
		if e.TargetID == targetID && (ep == nil || chrome.SameEndpoint(e.Endpoint(), *ep)) {
			return a, true
		}
	}
	return "", false
}

// encode writes nextId before tabs so a truncated file still tells the
// rebuild where numbering stood, and a session's contexts before its
// tabs, which are lost with them.
func (st *registryState) encode() ([]byte, error) {
	return json.MarshalIndent(struct {
		NextID   int64            `json:"nextId"`
		Contexts []Context        `json:"contexts,omitempty"`
		Tabs     map[string]Entry `json:"tabs"`
	}{st.nextID, st.contexts, st.tabs}, "", "  ")
}

// registryFile is the file's top level, entries still undecoded so one bad
// entry costs only itself.
type registryFile struct {
	NextID   json.RawMessage            `json:"nextId"`
	Contexts json.RawMessage            `json:"contexts"`
	Tabs     map[string]json.RawMessage `json:"tabs"`
}

// parseRegistry decodes data as leniently as it can. problems is empty for
// a sound file; otherwise it says what was wrong, and the state holds what
// survived, with nextID above anything the damaged bytes still show.
func parseRegistry(data []byte) (*registryState, []string) {
	st := newRegistryState()
	var problems []string
	if len(data) > maxRegistryFile {
		problems = append(problems, fmt.Sprintf("file larger than %d bytes", maxRegistryFile))
		data = data[:maxRegistryFile]
	}
	var f registryFile
	trimmed := bytes.TrimSpace(data)
	err := errors.New("not a JSON object")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		err = json.Unmarshal(trimmed, &f)
	}
	if err != nil {
		problems = append(problems, describeJSONError(err, len(trimmed)))
		f = salvageRegistry(trimmed)
		st.nextID = max(st.nextID, scanNextIDFloor(trimmed))
	}
	if len(f.NextID) > 0 {
		if n, ok := parseNextID(f.NextID); ok {
			st.nextID = max(st.nextID, n)
		} else {
			problems = append(problems, "nextId "+clip(string(f.NextID))+" is not a positive integer")
		}
	}
	if len(f.Contexts) > 0 && string(f.Contexts) != "null" {
		var bad []string
		st.contexts, bad = parseContexts(f.Contexts)
		problems = append(problems, bad...)
	}
	problems = append(problems, st.addEntries(f.Tabs)...)
	for a := range st.tabs {
		st.nextID = max(st.nextID, aliasNumber(a)+1)
	}
	return st, problems
}

// addEntries keeps the valid entries of tabs and describes the others.
func (st *registryState) addEntries(tabs map[string]json.RawMessage) []string {
	var problems []string
	for alias, raw := range tabs {
		if !IsAlias(alias) {
			problems = append(problems, fmt.Sprintf("dropped key %q: not an alias", clip(alias)))
			continue
		}
		e, err := parseEntry(raw)
		if err != nil {
			problems = append(problems, fmt.Sprintf("dropped %s: %v", alias, err))
			continue
		}
		st.tabs[alias] = e
	}
	slices.Sort(problems) // map order would make the report differ run to run
	return problems
}

// parseEntry reads one entry. A bare string is the legacy form: a target id
// on localhost:9222.
func parseEntry(raw json.RawMessage) (Entry, error) {
	if raw = bytes.TrimSpace(raw); len(raw) > 0 && raw[0] == '"' {
		var id string
		if err := json.Unmarshal(raw, &id); err != nil {
			return Entry{}, err
		}
		return normaliseEntry(Entry{TargetID: id})
	}
	var e Entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return Entry{}, errors.New("entry is neither a target id nor an object of the right shape")
	}
	return normaliseEntry(e)
}

// normaliseEntry fills the default endpoint and rejects what no caller
// could use.
func normaliseEntry(e Entry) (Entry, error) {
	if e.TargetID == "" {
		return e, errors.New("empty targetId")
	}
	if e.Port < 0 || e.Port > 65535 {
		return e, fmt.Errorf("port %d out of range", e.Port)
	}
	if e.EndpointURL != "" {
		ep, err := chrome.ParseEndpoint(e.EndpointURL)
		if err != nil {
			return e, fmt.Errorf("endpoint: %v", err)
		}
		e.Host, e.Port, e.EndpointURL = ep.Host, ep.Port, ep.URL
		return e, nil
	}
	ep := e.Endpoint()
	e.Host, e.Port = ep.Host, ep.Port
	return e, nil
}

func parseNextID(raw json.RawMessage) (int64, bool) {
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	return n, err == nil && n >= 1 && n <= maxAliasNumber+1
}

// salvageRegistry walks the top-level object token by token and keeps every
// member that decodes whole, stopping at the first damage. Truncation,
// the usual damage, thus loses only the entry it cut through.
func salvageRegistry(data []byte) registryFile {
	var f registryFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return f
	}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return f
		}
		switch key {
		case "tabs":
			f.Tabs = salvageTabs(dec)
		case "nextId":
			if dec.Decode(&f.NextID) != nil {
				return f
			}
		case "contexts":
			if dec.Decode(&f.Contexts) != nil {
				return f
			}
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return f
			}
		}
	}
	return f
}

// salvageTabs reads the tabs object's members until the first one that
// does not decode. The decoder is left mid-stream; the caller's next Token
// or More sees the damage and stops.
func salvageTabs(dec *json.Decoder) map[string]json.RawMessage {
	tabs := map[string]json.RawMessage{}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return tabs
	}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return tabs
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return tabs
		}
		tabs[key] = raw
	}
	dec.Token() // the closing brace
	return tabs
}

// nextIDText and aliasText read a damaged file, which few calls meet:
// they are compiled on first use.
var (
	nextIDText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`"nextId"\s*:\s*([0-9]{1,15})(?:[^0-9]|$)`)
	})
	aliasText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"t([1-9][0-9]{0,14})"`) })
)

// scanNextIDFloor finds, in damaged bytes, the highest next alias number
// that any surviving fragment implies, so a rebuild never hands out an
// alias the old file had already used.
func scanNextIDFloor(data []byte) int64 {
	floor := int64(1)
	for _, m := range nextIDText().FindAllSubmatch(data, -1) {
		n, _ := strconv.ParseInt(string(m[1]), 10, 64)
		floor = max(floor, n)
	}
	for _, m := range aliasText().FindAllSubmatch(data, -1) {
		n, _ := strconv.ParseInt(string(m[1]), 10, 64)
		floor = max(floor, n+1)
	}
	return min(floor, maxAliasNumber+1)
}

func describeJSONError(err error, size int) string {
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset >= int64(size) || err.Error() == "unexpected end of JSON input" {
		return fmt.Sprintf("truncated after %d bytes", size)
	}
	return "invalid JSON: " + clip(err.Error())
}

// clip keeps reports short when the damage is large.
func clip(s string) string {
	const n = 60
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// entryJSON is Entry without its methods, for the default encoding.
type entryJSON Entry

// entryKeys are the JSON names of Entry's fields, read from its tags
// so fields added later are known without editing a list.
var entryKeys = func() []string {
	var keys []string
	t := reflect.TypeFor[Entry]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}()

// isEntryKey matches as encoding/json does, ignoring case.
func isEntryKey(k string) bool {
	return slices.ContainsFunc(entryKeys, func(n string) bool { return strings.EqualFold(n, k) })
}

// UnmarshalJSON decodes the known fields and keeps the rest aside.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var known entryJSON
	if err := json.Unmarshal(b, &known); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for k := range all {
		if isEntryKey(k) {
			delete(all, k)
		}
	}
	*e = Entry(known)
	e.extra = ""
	if len(all) > 0 {
		extra, err := json.Marshal(all)
		if err != nil {
			return err
		}
		e.extra = string(extra)
	}
	return nil
}

// MarshalJSON writes the known fields, then the ones kept aside.
func (e Entry) MarshalJSON() ([]byte, error) {
	known, err := json.Marshal(entryJSON(e))
	if err != nil || e.extra == "" {
		return known, err
	}
	// Both are non-empty objects: splice "{known}" and "{extra}" into one.
	out := append(known[:len(known)-1:len(known)-1], ',')
	return append(out, e.extra[1:]...), nil
}
