// The page half of filling a code editor (dom/fill_editor.go), by phase,
// on the editor input pinned under args.token:
//
//   focus   gives it focus if the click into the editor did not, and
//           reads what the editor shows (before) and whether the
//           keyboard is a Mac's (Meta+A selects all there).
//   select  after Go pressed Control+A (clear) or Control+End: an
//           EditContext whose page did not select everything (or put
//           the caret at the end) for the keys is told so itself, as its
//           own selection is what the coming insertText replaces.
//   read    waits, a few frames and half a second at most, for what the
//           editor shows to stop changing (editors render in an
//           animation frame), and reads it, saying whether the editor
//           renders only the lines in its view (partial).
async function fillEditor(h, args) {
  const entry = h.handles().get(args.token);
  if (!entry) return { navigated: true };
  const el = entry.el;
  if (!el.isConnected) return { detached: true };
  const ed = h.editor;
  switch (args.phase) {
    case 'focus':
      if (h.deepActiveElement() !== el) el.focus({ preventScroll: true });
      return { focused: h.deepActiveElement() === el, before: ed.textOf(el), mac: /Mac/.test(navigator.platform) };
    case 'select': {
      const ec = el.editContext;
      if (ec) {
        const [from, to] = args.clear ? [0, ec.text.length] : [ec.text.length, ec.text.length];
        if (ec.selectionStart !== from || ec.selectionEnd !== to) ec.updateSelection(from, to);
      }
      return { focused: h.deepActiveElement() === el };
    }
    case 'read': {
      const view = el.ownerDocument.defaultView;
      const frame = () => new Promise((done) => {
        const t = view.setTimeout(done, 50);
        view.requestAnimationFrame(() => { view.clearTimeout(t); done(); });
      });
      const end = Date.now() + 500;
      let text = ed.textOf(el);
      for (let same = 0; same < 2 && Date.now() < end; ) {
        await frame();
        if (!el.isConnected) return { detached: true };
        const now = ed.textOf(el);
        same = now === text ? same + 1 : 0;
        text = now;
      }
      return { shown: text, partial: ed.partial(el) };
    }
  }
  return {};
}
