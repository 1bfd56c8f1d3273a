// Reports whether the CDP click reached the pinned element. A missing
// handle store means the document was replaced since the check, which only
// the click itself can have caused.
//
// A pinned element that left the page was replaced under the click (a
// re-render): when what the target resolves to now received the events,
// the click reached it (reResolved); when the target resolves to an
// element the events missed, the click never reached it and Go clicks
// again (replaced); when nothing matches, the element is gone.
function (h, args) {
  const entry = h.handles().get(args.token);
  if (!entry) return { received: true, navigated: true };
  const p = entry.probe;
  if (p && p.received) return { received: true };
  if (entry.el.isConnected) return { received: false };
  const found = h.resolve(args.target);
  if (found.error || !found.el) return { received: false, gone: true };
  const hit = p && p.hit;
  const inside = (outer, node) => {
    for (let n = node; n; n = n.parentNode || n.host) if (n === outer) return true;
    return false;
  };
  if (hit && inside(found.el, hit)) return { received: true, reResolved: true };
  return { received: false, replaced: true };
}
