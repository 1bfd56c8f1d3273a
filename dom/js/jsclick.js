// Clicks the pinned element from JavaScript: element.click() count times,
// then a dblclick for a double click. SVG elements have no click(), so
// they get a synthetic MouseEvent.
function jsClick(h, args) {
  const entry = h.handles().get(args.token);
  if (!entry || !entry.el.isConnected) return { detached: true };
  const el = entry.el;
  const View = el.ownerDocument.defaultView;
  const init = { bubbles: true, cancelable: true, composed: true, view: View };
  for (let i = 1; i <= args.count; i++) {
    if (typeof el.click === 'function') el.click();
    else el.dispatchEvent(new View.MouseEvent('click', Object.assign({ detail: i }, init)));
  }
  if (args.count >= 2) el.dispatchEvent(new View.MouseEvent('dblclick', Object.assign({ detail: 2 }, init)));
  return { detached: false };
}
