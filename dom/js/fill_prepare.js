// Readies the pinned field for Input.insertText: focuses it if the CDP
// click did not, then selects its content (clear) or puts the caret at the
// end (append). Inputs whose type has no selection API (email, number)
// cannot place a caret, so appending to them replaces all with the joined
// text: the reply's replaceAll tells Go to do that.
//
// It also arms a listener, first in line on the field's window, that
// records what the field held when the first input event reached it:
// the text that went in, before any of the page's listeners reacted to it
// (cleared it, reformatted it, moved focus away).
function fillPrepare(h, args) {
  const entry = h.handles().get(args.token);
  if (!entry || !entry.el.isConnected) return { detached: true };
  const el = entry.el;
  if (h.deepActiveElement() !== el) el.focus({ preventScroll: true });
  if (h.deepActiveElement() !== el) return { focused: false };

  const isField = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
  const read = () => (isField ? el.value : el.innerText);
  const before = read();
  let replaceAll = false;
  if (isField) {
    let caret = !args.clear;
    if (caret) {
      try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { caret = false; replaceAll = true; }
    }
    if (!caret) el.select();
  } else {
    const sel = el.ownerDocument.getSelection();
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    if (!args.clear) range.collapse(false);
    sel.removeAllRanges();
    sel.addRange(range);
  }
  const view = el.ownerDocument.defaultView;
  const watch = { landed: null };
  const on = (e) => {
    if (watch.landed === null && e.composedPath().includes(el)) watch.landed = read();
  };
  view.addEventListener('input', on, true);
  watch.remove = () => view.removeEventListener('input', on, true);
  entry.watch = watch;
  return { focused: true, before, replaceAll };
}
