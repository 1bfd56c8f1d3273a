package proto

import (
	"context"

	"github.com/cdpskill/cdpskill/cdp"
)

// Modifier bits of Input.dispatchKeyEvent's and Input.dispatchMouseEvent's
// modifiers.
const (
	ModifierAlt   = 1
	ModifierCtrl  = 2
	ModifierMeta  = 4
	ModifierShift = 8
)

// InputDispatchMouseEvent moves the mouse or presses or releases one of
// its buttons, as the browser's own input does: the page sees the
// pointer and mouse events a hand would make, and the event can reach a
// frame of any origin at that point.
type InputDispatchMouseEvent struct {
	// Type is mouseMoved, mousePressed, mouseReleased or mouseWheel.
	Type string `json:"type"`
	// X and Y are in CSS pixels of the tab's viewport, whatever frame
	// they fall in.
	X float64 `json:"x"`
	Y float64 `json:"y"`
	// Button is the button pressed or released: left, right, middle,
	// back, forward, or none for a move.
	Button string `json:"button,omitempty"`
	// Buttons is the mask of the buttons held during the event (left 1,
	// right 2, middle 4, back 8, forward 16). It is sent even when 0: a
	// move with none held says so, as a release does.
	Buttons int `json:"buttons"`
	// ClickCount is the click's rank in a double or triple click, from 1.
	ClickCount int `json:"clickCount,omitempty"`
}

func (p InputDispatchMouseEvent) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Input.dispatchMouseEvent", p)
}

// Send writes the event without waiting for its reply: Chrome dispatches
// a mouse move with the next frame it renders and holds its reply until
// then, but a press queued behind it flushes it first.
func (p InputDispatchMouseEvent) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Input.dispatchMouseEvent", p)
}

// InputDispatchKeyEvent presses or releases a key, or types its
// character, as a keyboard does.
type InputDispatchKeyEvent struct {
	// Type is keyDown, keyUp, rawKeyDown or char: a real key press is
	// rawKeyDown, then char when it types something, then keyUp.
	Type string `json:"type"`
	// Modifiers is the Modifier… bits of the keys held.
	Modifiers int `json:"modifiers,omitempty"`
	// Key is KeyboardEvent.key, Code KeyboardEvent.code.
	Key  string `json:"key,omitempty"`
	Code string `json:"code,omitempty"`
	// WindowsVirtualKeyCode is also KeyboardEvent.keyCode; the native
	// one is the same on a US keyboard.
	WindowsVirtualKeyCode int `json:"windowsVirtualKeyCode,omitempty"`
	NativeVirtualKeyCode  int `json:"nativeVirtualKeyCode,omitempty"`
	// Text is what the key types, with the modifiers held;
	// UnmodifiedText what it types without them.
	Text           string `json:"text,omitempty"`
	UnmodifiedText string `json:"unmodifiedText,omitempty"`
	// Location is 1 for the left key of a pair (modifiers), 2 the right.
	Location int `json:"location,omitempty"`
	// Commands are editing commands (selectAll, copy, paste…) the key
	// carries out, as a platform's shortcuts would: the page's keydown
	// can still cancel them.
	Commands []string `json:"commands,omitempty"`
}

func (p InputDispatchKeyEvent) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Input.dispatchKeyEvent", p)
}

// InputInsertText types text into the focused element as one edit, as an
// IME commit does: one beforeinput and one input event, no key events.
type InputInsertText struct {
	Text string `json:"text"`
}

func (p InputInsertText) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Input.insertText", p)
}
