package dom

import (
	"context"

	"github.com/cdpskill/cdpskill/cdp"
)

// mouseButtons maps a button name to its bit in CDP's buttons mask.
var mouseButtons = map[string]int{"left": 1, "right": 2, "middle": 4, "back": 8, "forward": 16}

type mouseEvent struct {
	Type       string  `json:"type"`
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Button     string  `json:"button"`
	Buttons    int     `json:"buttons"`
	ClickCount int     `json:"clickCount,omitempty"`
}

// mouseClick moves to pt and presses and releases button count times, with
// rising click counts, as a real double click does.
func mouseClick(ctx context.Context, s *cdp.Session, pt Point, button string, count int) error {
	// Sent together, not each after the last one's reply: Chrome
	// dispatches a mouse move with the next frame it renders, and holds
	// its reply until then, but a press that follows it in the queue
	// flushes it first. The page sees the same events in the same order.
	// Should the move's answer fail, the press is on its way already: the
	// error is reported, and the element may have been clicked.
	sent := []*cdp.Sent{s.Send(ctx, "Input.dispatchMouseEvent", mouseEvent{Type: "mouseMoved", X: pt.X, Y: pt.Y, Button: "none"})}
	bit := mouseButtons[button]
	for i := 1; i <= count; i++ {
		sent = append(sent,
			s.Send(ctx, "Input.dispatchMouseEvent", mouseEvent{Type: "mousePressed", X: pt.X, Y: pt.Y, Button: button, Buttons: bit, ClickCount: i}),
			s.Send(ctx, "Input.dispatchMouseEvent", mouseEvent{Type: "mouseReleased", X: pt.X, Y: pt.Y, Button: button, ClickCount: i}))
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
	return s.Call(ctx, "Input.insertText", map[string]any{"text": text}, nil)
}

// pressBackspace deletes the selection, firing the input event a user's
// key press would.
func pressBackspace(ctx context.Context, s *cdp.Session) error {
	key := map[string]any{"key": "Backspace", "code": "Backspace", "windowsVirtualKeyCode": 8, "nativeVirtualKeyCode": 8}
	key["type"] = "keyDown"
	if err := s.Call(ctx, "Input.dispatchKeyEvent", key, nil); err != nil {
		return err
	}
	key["type"] = "keyUp"
	return s.Call(ctx, "Input.dispatchKeyEvent", key, nil)
}
