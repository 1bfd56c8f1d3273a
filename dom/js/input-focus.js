// Gives keyboard focus to the element pinned under args.token, as a user's
// click or Tab would, before type or press sends keys to it. A field that
// did not have focus gets its caret at the end, so typed text appends
// instead of landing wherever a click put the caret. With no token it only
// reports what has focus, so that keys sent to nothing can be flagged.
function focusInput(h, args) {
  if (!args.token) return { focused: !!h.focusedElement() };
  const entry = h.handles().get(args.token);
  const el = entry && entry.el;
  if (!el || !el.isConnected) return { detached: true };
  if (h.deepActiveElement() !== el) el.focus({ preventScroll: true });
  const focused = h.deepActiveElement() === el;
  if (focused && args.caretEnd) caretToEnd(el);
  return { focused };

  function caretToEnd(el) {
    if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
      // email and number inputs have no selection API and throw.
      try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { /* caret stays */ }
      return;
    }
    if (el.isContentEditable) {
      const sel = el.ownerDocument.getSelection();
      sel.selectAllChildren(el);
      sel.collapseToEnd();
    }
  }
}
