// Reads what the fill did: the value the field held when the text went in
// (landed; null when no input event reached it) and the value it holds
// now, after the page's listeners had their say; rendered when both are
// a contenteditable's innerText, where runs of spaces show as one. No
// change event is
// fired: a person's typing fires one when the field loses focus or takes
// Enter, and an app that acts on change must act then, once.
//
// A missing handle store means the document was replaced since the text
// went in, which only the fill itself can have caused (a field that
// submits its form as you type): navigated.
function fillFinish(h, token) {
  const entry = h.handles().get(token);
  if (!entry) return { navigated: true };
  const watch = entry.watch || { landed: null };
  if (watch.remove) watch.remove();
  const el = entry.el;
  if (!el.isConnected) return { detached: true, landed: watch.landed };
  const isField = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
  return { landed: watch.landed, value: isField ? el.value : el.innerText, rendered: !isField };
}
