// Readies the pinned field for Input.insertText: focuses it if the CDP
// click did not, then selects its content (clear) or puts the caret at the
// end (append). Inputs whose type has no selection API (email, number)
// cannot place a caret, so appending to them replaces all with the joined
// text: the reply's replaceAll tells Go to do that.
function (h, args) {
  const entry = h.handles().get(args.token);
  if (!entry || !entry.el.isConnected) return { detached: true };
  const el = entry.el;
  if (h.deepActiveElement() !== el) el.focus({ preventScroll: true });
  if (h.deepActiveElement() !== el) return { focused: false };

  const isField = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
  const before = isField ? el.value : el.innerText;
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
  return { focused: true, before, replaceAll };
}
