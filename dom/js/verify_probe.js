// Reports whether the CDP mouse events of a click or hover reached the
// pinned element. A missing handle store means the document was replaced
// since the check, which only the events themselves can have caused.
//
// A pinned element that left the page was replaced under the action (a
// re-render): when the element standing for the target then received the
// events (the probe judged it as they came), they reached it
// (reResolved); when the target resolves to an element the events
// missed, they never reached it and Go acts again (replaced); when
// nothing matches, the element is gone. seen: the events reached this
// document, on another element.
function verifyProbe(h, args) {
  const entry = h.handles().get(args.token);
  if (!entry) return { received: true, navigated: true };
  const p = entry.probe;
  if (p && p.received) return { received: true };
  if (p && p.standIn) return { received: true, reResolved: true, target: p.target };
  if (entry.el.isConnected) return { received: false, seen: !!(p && p.seen) };
  const found = h.resolve(args.target);
  if (found.error || !found.el) return { received: false, gone: true };
  return { received: false, replaced: true };
}
