// Reads whether the pinned element is checked: a checkbox's or radio's
// checked, else its aria-checked ("mixed" counts as not). detached when it
// left the page (a re-render replaced it).
function (h, token) {
  const entry = h.handles().get(token);
  if (!entry || !entry.el.isConnected) return { detached: true };
  const el = entry.el;
  const isInput = el.tagName === 'INPUT';
  return {
    checked: isInput ? el.checked : el.getAttribute('aria-checked') === 'true',
    radio: isInput ? el.type === 'radio' : el.getAttribute('role') === 'radio',
  };
}
