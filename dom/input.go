package dom

import (
	"context"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// mouseButtons maps a button name to its bit in CDP's buttons mask.
var mouseButtons = map[string]int{"left": 1, "right": 2, "middle": 4, "back": 8, "forward": 16}

// mouseClick moves to pt and presses and releases button count times, with
// rising click counts, as a real double click does.
func mouseClick(ctx context.Context, s *cdp.Session, pt Point, button string, count int) error {
	// Sent together, not each after the last one's reply: Chrome
	// dispatches a mouse move with the next frame it renders, and holds
	// its reply until then, but a press that follows it in the queue
	// flushes it first. The page sees the same events in the same order.
	// Should the move's answer fail, the press is on its way already: the
	// error is reported, and the element may have been clicked.
	sent := []*cdp.Sent{proto.InputDispatchMouseEvent{Type: "mouseMoved", X: pt.X, Y: pt.Y, Button: "none"}.Send(ctx, s)}
	bit := mouseButtons[button]
	for i := 1; i <= count; i++ {
		sent = append(sent,
			proto.InputDispatchMouseEvent{Type: "mousePressed", X: pt.X, Y: pt.Y, Button: button, Buttons: bit, ClickCount: i}.Send(ctx, s),
			proto.InputDispatchMouseEvent{Type: "mouseReleased", X: pt.X, Y: pt.Y, Button: button, ClickCount: i}.Send(ctx, s))
	}
	for _, r := range sent {
		if err := r.Wait(ctx, nil); err != nil {
			return err
		}
	}
	return nil
}

// insertText types text into the focused element as one edit, as an IME
// commit does: one beforeinput and one input event.
func insertText(ctx context.Context, s *cdp.Session, text string) error {
	return proto.InputInsertText{Text: text}.Do(ctx, s)
}

// pressBackspace deletes the selection, firing the input event a user's
// key press would.
func pressBackspace(ctx context.Context, s *cdp.Session) error {
	key := proto.InputDispatchKeyEvent{Type: "keyDown", Key: "Backspace", Code: "Backspace", WindowsVirtualKeyCode: 8, NativeVirtualKeyCode: 8}
	if err := key.Do(ctx, s); err != nil {
		return err
	}
	key.Type = "keyUp"
	return key.Do(ctx, s)
}
