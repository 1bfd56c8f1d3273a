// Runs in the page's own world, once per document: answers the helper
// world's question "which elements carry an onclick handler set from
// script?". A handler assigned as el.onclick = fn is visible only in the
// world that assigned it, so the helper world asks with an event on the
// document naming a reply event, and this listener dispatches that reply
// on each such element. Same-origin frames get their own listener.
function exposeClickHandlers() {
  const ASK = '__cdpskill_onclick';
  const install = (w) => {
    try {
      if (Object.prototype.hasOwnProperty.call(w, ASK)) return;
      Object.defineProperty(w, ASK, { value: true });
      w.addEventListener(ASK, (e) => {
        if (typeof e.detail !== 'string') return;
        e.stopImmediatePropagation();
        const all = w.document.getElementsByTagName('*');
        // Caught here, a page that broke dispatchEvent or CustomEvent
        // hides its handlers and leaves nothing of ours in its console.
        try {
          for (let i = 0; i < all.length; i++) {
            const el = all[i];
            if (el.onclick !== null && !el.hasAttribute('onclick')) {
              el.dispatchEvent(new w.CustomEvent(e.detail, { composed: true }));
            }
          }
        } catch (err) { /* see above */ }
      }, true);
    } catch (e) { /* a page that broke its own events loses only this */ }
    try {
      for (let i = 0; i < w.frames.length; i++) install(w.frames[i]);
    } catch (e) { /* another origin */ }
  };
  install(window);
}
