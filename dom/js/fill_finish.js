// Fires the change event frameworks bind to (insertText already fired
// input) and reads back the value that landed.
function (h, token) {
  const entry = h.handles().get(token);
  if (!entry || !entry.el.isConnected) return { detached: true };
  const el = entry.el;
  if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
    el.dispatchEvent(new (el.ownerDocument.defaultView.Event)('change', { bubbles: true }));
    return { value: el.value };
  }
  return { value: el.innerText };
}
