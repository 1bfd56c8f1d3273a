// Reports whether the CDP click reached the pinned element. A missing
// handle store means the document was replaced since the check, which only
// the click itself can have caused.
function (h, token) {
  const entry = h.handles().get(token);
  if (!entry) return { received: true, navigated: true };
  return { received: !!(entry.probe && entry.probe.received) };
}
