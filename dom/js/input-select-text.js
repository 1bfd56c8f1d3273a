// Selects the text of the element pinned under args.token: all of it, or
// the characters from args.start to args.end (null: the end). Fields get
// focus and setSelectionRange; other elements a document Range over
// their text nodes. Replies {text} (what is selected) or why not.
function selectText(h, args) {
  const entry = h.handles().get(args.token);
  const el = entry && entry.el;
  if (!el || !el.isConnected) return { detached: true };
  const ranged = args.start != null;

  if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
    el.focus({ preventScroll: true });
    if (!ranged) {
      el.select();
      return { text: el.value };
    }
    const end = args.end == null ? el.value.length : args.end;
    try {
      el.setSelectionRange(args.start, end);
    } catch (e) {
      return { noRange: el.type };
    }
    return { text: el.value.slice(el.selectionStart, el.selectionEnd) };
  }

  if (el.isContentEditable) el.focus({ preventScroll: true });
  const doc = el.ownerDocument;
  const range = doc.createRange();
  if (!ranged) {
    range.selectNodeContents(el);
  } else {
    const total = el.textContent.length;
    const start = Math.min(args.start, total);
    const end = Math.max(start, Math.min(args.end == null ? total : args.end, total));
    const a = locate(el, start), b = locate(el, end);
    range.setStart(a.node, a.offset);
    range.setEnd(b.node, b.offset);
  }
  const sel = doc.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
  return { text: sel.toString() };

  // locate finds the text node and offset of character n of el's text.
  function locate(root, n) {
    const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let last = null;
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (n <= t.data.length) return { node: t, offset: n };
      n -= t.data.length;
      last = t;
    }
    return last ? { node: last, offset: last.data.length } : { node: root, offset: root.childNodes.length };
  }
}
