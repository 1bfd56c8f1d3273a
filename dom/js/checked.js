// Reads whether the pinned element is checked: a checkbox's or radio's
// checked, else its aria-checked ("mixed" counts as not). detached when it
// left the page (a re-render replaced it), or when it is in another row
// than at the first reading: a framework that reuses rows by position put
// another item's content around it, so its state is that item's.
function readChecked(h, token) {
  const entry = h.handles().get(token);
  if (!entry || !entry.el.isConnected) return { detached: true };
  const el = entry.el;
  const place = h.placeOf(el);
  if (entry.place === undefined) entry.place = place;
  else if (entry.place !== place) return { detached: true };
  const isInput = el.tagName === 'INPUT';
  return {
    checked: isInput ? el.checked : el.getAttribute('aria-checked') === 'true',
    radio: isInput ? el.type === 'radio' : el.getAttribute('role') === 'radio',
  };
}
