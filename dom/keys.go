package dom

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/suggest"
	"github.com/cdpskill/cdpskill/internal/xcontext"
)

// Modifier bits of the input events.
const (
	modAlt   = proto.ModifierAlt
	modCtrl  = proto.ModifierCtrl
	modMeta  = proto.ModifierMeta
	modShift = proto.ModifierShift
)

// KeyDef is one key of a US keyboard as Input.dispatchKeyEvent takes it.
type KeyDef struct {
	Key      string // KeyboardEvent.key
	Code     string // KeyboardEvent.code
	KeyCode  int    // windowsVirtualKeyCode, also KeyboardEvent.keyCode
	Text     string // what the key types; "" for keys that type nothing
	Location int    // 1 left, 2 right: set for modifiers
	Modifier int    // the modifier bit the key itself sets, if it is one
	// Shifted is the key value with Shift held, for keys that type a
	// different character then.
	Shifted string
}

// printable pairs each character key of a US keyboard with its shifted
// character: "`~" is the key that types ` and, with Shift, ~.
var printable = []struct {
	pair    string
	code    string
	keyCode int
}{
	{"`~", "Backquote", 192}, {"1!", "Digit1", 49}, {"2@", "Digit2", 50}, {"3#", "Digit3", 51},
	{"4$", "Digit4", 52}, {"5%", "Digit5", 53}, {"6^", "Digit6", 54}, {"7&", "Digit7", 55},
	{"8*", "Digit8", 56}, {"9(", "Digit9", 57}, {"0)", "Digit0", 48}, {"-_", "Minus", 189},
	{"=+", "Equal", 187}, {"[{", "BracketLeft", 219}, {"]}", "BracketRight", 221},
	{`\|`, "Backslash", 220}, {";:", "Semicolon", 186}, {`'"`, "Quote", 222},
	{",<", "Comma", 188}, {".>", "Period", 190}, {"/?", "Slash", 191},
}

// named are the keys that have a name rather than a character.
var named = []KeyDef{
	{Key: "Enter", Code: "Enter", KeyCode: 13, Text: "\r"},
	{Key: "Tab", Code: "Tab", KeyCode: 9},
	{Key: "Escape", Code: "Escape", KeyCode: 27},
	{Key: "Backspace", Code: "Backspace", KeyCode: 8},
	{Key: "Delete", Code: "Delete", KeyCode: 46},
	{Key: "Insert", Code: "Insert", KeyCode: 45},
	{Key: " ", Code: "Space", KeyCode: 32, Text: " "},
	{Key: "ArrowLeft", Code: "ArrowLeft", KeyCode: 37},
	{Key: "ArrowUp", Code: "ArrowUp", KeyCode: 38},
	{Key: "ArrowRight", Code: "ArrowRight", KeyCode: 39},
	{Key: "ArrowDown", Code: "ArrowDown", KeyCode: 40},
	{Key: "Home", Code: "Home", KeyCode: 36},
	{Key: "End", Code: "End", KeyCode: 35},
	{Key: "PageUp", Code: "PageUp", KeyCode: 33},
	{Key: "PageDown", Code: "PageDown", KeyCode: 34},
	{Key: "CapsLock", Code: "CapsLock", KeyCode: 20},
	{Key: "NumLock", Code: "NumLock", KeyCode: 144},
	{Key: "ScrollLock", Code: "ScrollLock", KeyCode: 145},
	{Key: "Pause", Code: "Pause", KeyCode: 19},
	{Key: "PrintScreen", Code: "PrintScreen", KeyCode: 44},
	{Key: "ContextMenu", Code: "ContextMenu", KeyCode: 93},
	{Key: "Shift", Code: "ShiftLeft", KeyCode: 16, Location: 1, Modifier: modShift},
	{Key: "Control", Code: "ControlLeft", KeyCode: 17, Location: 1, Modifier: modCtrl},
	{Key: "Alt", Code: "AltLeft", KeyCode: 18, Location: 1, Modifier: modAlt},
	{Key: "Meta", Code: "MetaLeft", KeyCode: 91, Location: 1, Modifier: modMeta},
}

// keyAliases are other names agents use for named keys, lower-cased.
var keyAliases = map[string]string{
	"esc": "Escape", "return": "Enter", "space": " ", "spacebar": " ", "del": "Delete",
	"ins": "Insert", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft",
	"right": "ArrowRight", "pgup": "PageUp", "pgdn": "PageDown", "pagedn": "PageDown",
	"ctrl": "Control", "cmd": "Meta", "command": "Meta", "option": "Alt", "opt": "Alt",
	"win": "Meta", "super": "Meta", "apps": "ContextMenu", "menu": "ContextMenu",
}

// keyTable holds every key by its exact key value; namedLower holds the
// named keys by lower-cased name, for case-insensitive lookup. They are
// built on first use: most calls press no key.
func keyTable() map[string]KeyDef   { t, _ := keyTables(); return t }
func namedLower() map[string]KeyDef { _, n := keyTables(); return n }

var keyTables = sync.OnceValues(buildKeyTable)

func buildKeyTable() (map[string]KeyDef, map[string]KeyDef) {
	table := map[string]KeyDef{}
	for c := 'a'; c <= 'z'; c++ {
		lower, upper := string(c), strings.ToUpper(string(c))
		code := "Key" + upper
		table[lower] = KeyDef{Key: lower, Code: code, KeyCode: int(c - 'a' + 'A'), Text: lower, Shifted: upper}
		table[upper] = KeyDef{Key: upper, Code: code, KeyCode: int(c - 'a' + 'A'), Text: upper, Shifted: upper}
	}
	for _, p := range printable {
		plain, shifted := p.pair[:1], p.pair[1:]
		table[plain] = KeyDef{Key: plain, Code: p.code, KeyCode: p.keyCode, Text: plain, Shifted: shifted}
		table[shifted] = KeyDef{Key: shifted, Code: p.code, KeyCode: p.keyCode, Text: shifted, Shifted: shifted}
	}
	lower := map[string]KeyDef{}
	add := func(d KeyDef) {
		table[d.Key] = d
		lower[strings.ToLower(d.Key)] = d
	}
	for _, d := range named {
		add(d)
	}
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("F%d", i)
		add(KeyDef{Key: name, Code: name, KeyCode: 111 + i})
	}
	for alias, name := range keyAliases {
		lower[alias] = table[name]
	}
	return table, lower
}

// lookupKey finds a key by its exact value (a character) or, for longer
// names, case-insensitively by name or alias.
func lookupKey(name string) (KeyDef, bool) {
	if d, ok := keyTable()[name]; ok {
		return d, true
	}
	if utf8.RuneCountInString(name) == 1 {
		return KeyDef{}, false
	}
	d, ok := namedLower()[strings.ToLower(name)]
	return d, ok
}

// charKey is the key that types r: the US-keyboard key when there is one,
// otherwise a key with no code that types r, as an IME or a
// foreign layout would deliver it.
func charKey(r rune) KeyDef {
	switch r {
	case '\n', '\r':
		return keyTable()["Enter"]
	case '\t':
		return keyTable()["Tab"]
	}
	if d, ok := keyTable()[string(r)]; ok {
		return d
	}
	return KeyDef{Key: string(r), Text: string(r)}
}

// Keystroke is a parsed key combination such as "Control+Shift+Enter":
// the modifiers in the order given, then the key.
type Keystroke struct {
	Modifiers []KeyDef
	Key       KeyDef
}

// String is the combination in canonical names: "Control+Shift+Enter".
func (k Keystroke) String() string {
	parts := make([]string, 0, len(k.Modifiers)+1)
	for _, m := range k.Modifiers {
		parts = append(parts, m.Key)
	}
	key := k.Key.Key
	if key == " " {
		key = "Space"
	}
	return strings.Join(append(parts, key), "+")
}

// UnknownKeyError is a key or modifier name not in the key table. It is
// a warning, not a failure (SPEC 9.4): the combination is not pressed.
type UnknownKeyError struct {
	Name       string
	Suggestion string // the closest known name, or ""
	Modifier   bool   // Name was in a modifier position
}

func (e *UnknownKeyError) Error() string {
	what := "key"
	if e.Modifier {
		what = "modifier"
	}
	msg := fmt.Sprintf("unknown %s %q", what, e.Name)
	if e.Suggestion != "" {
		msg += fmt.Sprintf("; did you mean %q?", e.Suggestion)
	} else if e.Modifier {
		msg += " (modifiers are Control/Ctrl, Alt, Meta/Cmd/Command, Shift)"
	}
	return msg
}

// ParseKeystroke reads "Enter", "Control+a", "Meta+Shift+Enter" or
// "Control++". An empty combination or an empty part is an
// *invalid.Option; a name not in the key table is an
// *UnknownKeyError, which callers report as a warning.
func ParseKeystroke(s string) (Keystroke, error) {
	parts, err := splitKeystroke(s)
	if err != nil {
		return Keystroke{}, err
	}
	var k Keystroke
	seen := 0
	for _, name := range parts[:len(parts)-1] {
		d, ok := lookupKey(name)
		if !ok || d.Modifier == 0 {
			return Keystroke{}, &UnknownKeyError{Name: name, Suggestion: suggestKey(name, true), Modifier: true}
		}
		if seen&d.Modifier == 0 {
			k.Modifiers = append(k.Modifiers, d)
			seen |= d.Modifier
		}
	}
	last := parts[len(parts)-1]
	d, ok := lookupKey(last)
	if !ok {
		if utf8.RuneCountInString(last) != 1 {
			return Keystroke{}, &UnknownKeyError{Name: last, Suggestion: suggestKey(last, false)}
		}
		d = charKey([]rune(last)[0]) // any single character is a key value
	}
	k.Key = d
	return k, nil
}

// splitKeystroke splits on "+", where a trailing "+" is the plus key.
func splitKeystroke(s string) ([]string, error) {
	if s == "" {
		return nil, &invalid.Option{Field: "key", Reason: `empty key: name one such as "Enter" or "Control+a"`}
	}
	if s == "+" {
		return []string{"+"}, nil
	}
	plus := strings.HasSuffix(s, "++")
	if plus {
		s = strings.TrimSuffix(s, "++")
	}
	parts := strings.Split(s, "+")
	if plus {
		parts = append(parts, "+")
	}
	for _, p := range parts {
		if p == "" {
			return nil, &invalid.Option{Field: "key", Reason: fmt.Sprintf("%q has an empty part: write combinations as \"Control+Shift+a\"", s)}
		}
	}
	return parts, nil
}

// suggestKey is the known name closest to name, or "".
func suggestKey(name string, modifier bool) string {
	var names []string
	for _, d := range named {
		if !modifier || d.Modifier != 0 {
			names = append(names, d.Key)
		}
	}
	for alias, to := range keyAliases {
		if !modifier || keyTable()[to].Modifier != 0 {
			names = append(names, alias)
		}
	}
	if !modifier {
		names = append(names, "F1", "F12")
	}
	sort.Strings(names)
	best := suggest.Nearest(name, names)
	if strings.TrimSpace(best) == "" {
		return ""
	}
	if d, ok := lookupKey(best); ok && d.Key != " " {
		return d.Key // the canonical name, not the alias
	}
	return best
}

// editCommands are the editing shortcuts sent as commands with the key,
// so that Meta+a selects all where the platform would leave that to the
// OS (macOS), and Control+a likewise.
var editCommands = map[string]string{"a": "selectAll", "c": "copy", "x": "cut", "v": "paste", "z": "undo", "y": "redo"}

func (d KeyDef) event(typ string, mods int) proto.InputDispatchKeyEvent {
	return proto.InputDispatchKeyEvent{Type: typ, Modifiers: mods, Key: d.Key, Code: d.Code,
		WindowsVirtualKeyCode: d.KeyCode, NativeVirtualKeyCode: d.KeyCode, Location: d.Location}
}

// pressKey sends one key as a user's keyboard does: rawKeyDown, char
// when it types something and neither Control nor Meta is held, keyUp.
func pressKey(ctx context.Context, s *cdp.Session, d KeyDef, mods int, commands []string) error {
	down := d.event("rawKeyDown", mods|d.Modifier)
	down.Commands = commands
	if err := down.Do(ctx, s); err != nil {
		return err
	}
	if d.Text != "" && mods&(modCtrl|modMeta) == 0 {
		ch := d.event("char", mods)
		ch.Text, ch.UnmodifiedText = d.Text, d.Text
		if err := ch.Do(ctx, s); err != nil {
			return err
		}
	}
	return d.event("keyUp", mods).Do(ctx, s)
}

// Press sends the combination: each modifier goes down in order, the key
// is pressed with every modifier bit set, and the modifiers come up in
// reverse order. Held Shift turns a character key into its shifted one.
// A modifier already down is released even when ctx has ended, so no key
// is left held in the tab.
func (k Keystroke) Press(ctx context.Context, s *cdp.Session) (err error) {
	mods := 0
	var down []KeyDef
	defer func() {
		if err == nil || len(down) == 0 {
			return
		}
		rctx, cancel := xcontext.Detached(ctx, 2*time.Second)
		defer cancel()
		for i := len(down) - 1; i >= 0; i-- {
			mods &^= down[i].Modifier
			_ = down[i].event("keyUp", mods).Do(rctx, s)
		}
	}()
	for _, m := range k.Modifiers {
		mods |= m.Modifier
		if err := m.event("rawKeyDown", mods).Do(ctx, s); err != nil {
			return err
		}
		down = append(down, m)
	}
	if err := pressKey(ctx, s, k.effective(mods), mods, k.commands(mods)); err != nil {
		return err
	}
	for i := len(down) - 1; i >= 0; i-- {
		mods &^= down[i].Modifier
		if err := down[i].event("keyUp", mods).Do(ctx, s); err != nil {
			return err
		}
		down = down[:i]
	}
	return nil
}

// effective is the key as pressed under mods: with Shift, a character key
// types its shifted character.
func (k Keystroke) effective(mods int) KeyDef {
	d := k.Key
	if mods&modShift == 0 || d.Shifted == "" || d.Shifted == d.Key {
		return d
	}
	return keyTable()[d.Shifted]
}

// commands are the editing commands the combination stands for, if any.
func (k Keystroke) commands(mods int) []string {
	if mods&(modCtrl|modMeta) == 0 || mods&modAlt != 0 {
		return nil
	}
	cmd, ok := editCommands[strings.ToLower(k.Key.Key)]
	if !ok {
		return nil
	}
	if cmd == "undo" && mods&modShift != 0 {
		cmd = "redo"
	}
	return []string{cmd}
}

// typeText sends text one character at a time, each as rawKeyDown, char
// and keyUp, pausing delay between characters. "\r\n" is one Enter.
func typeText(ctx context.Context, s *cdp.Session, text string, delay time.Duration) error {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	first := true
	for _, r := range text {
		if !first {
			if err := xcontext.Sleep(ctx, delay); err != nil {
				return err
			}
		}
		first = false
		if err := pressKey(ctx, s, charKey(r), 0, nil); err != nil {
			return err
		}
	}
	return nil
}
