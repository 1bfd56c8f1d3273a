// Unpins the element of one action and removes its click probe, if any.
function release(h, token) {
  const store = h.handles();
  const entry = store.get(token);
  if (entry && entry.probe) entry.probe.remove();
  store.delete(token);
}
