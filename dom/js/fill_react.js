// Fills a framework-controlled field (SPEC 9.2 react mode). React tracks
// the last value it saw through an instance-level value property, so the
// element's own setter would hide the change from it; the prototype's
// native setter bypasses that tracker, and the input event that follows is
// then seen as a real edit. Nothing types here, so change is fired too.
// contenteditable has no value: unsupported.
function fillReact(h, args) {
  const entry = h.handles().get(args.token);
  if (!entry || !entry.el.isConnected) return { detached: true };
  const el = entry.el;
  const View = el.ownerDocument.defaultView;
  const proto = el.tagName === 'TEXTAREA' ? View.HTMLTextAreaElement.prototype
    : el.tagName === 'INPUT' ? View.HTMLInputElement.prototype : null;
  if (!proto) return { unsupported: true };
  const before = el.value;
  if (h.deepActiveElement() !== el) el.focus({ preventScroll: true });
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, args.clear ? args.value : before + args.value);
  const landed = el.value;
  el.dispatchEvent(new View.Event('input', { bubbles: true }));
  el.dispatchEvent(new View.Event('change', { bubbles: true }));
  return { before, landed, value: el.isConnected ? el.value : null };
}
