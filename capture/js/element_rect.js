// elementRect finds the element a screenshot is for and returns its border
// box in CSS pixels of the document (not of the viewport), grown by
// target.padding on every side and kept inside the document. A ref is
// looked up in window.__ariaRefs, which snapshots fill.
function elementRect(target) {
  let el = null;
  if (target.ref) {
    const refs = window.__ariaRefs instanceof Map ? window.__ariaRefs : null;
    el = refs ? refs.get(target.ref) : null;
    if (!el) return { error: 'notFound', detail: 'no element has ref ' + target.ref + ' on this page; take a new snapshot' };
    if (!el.isConnected) return { error: 'stale', detail: 'ref ' + target.ref + ' was removed from the page; take a new snapshot' };
  } else {
    try {
      el = document.querySelector(target.selector);
    } catch (e) {
      return { error: 'invalidSelector', detail: e.message };
    }
    if (!el) return { error: 'notFound', detail: 'no element matches ' + JSON.stringify(target.selector) };
  }
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) {
    return { error: 'noBox', detail: 'the element has no size on screen (hidden or empty)' };
  }
  const pad = target.padding || 0;
  const doc = document.documentElement;
  const maxX = Math.max(doc.scrollWidth, window.innerWidth);
  const maxY = Math.max(doc.scrollHeight, window.innerHeight);
  const x = Math.max(0, r.left + window.scrollX - pad);
  const y = Math.max(0, r.top + window.scrollY - pad);
  const right = Math.min(maxX, r.right + window.scrollX + pad);
  const bottom = Math.min(maxY, r.bottom + window.scrollY + pad);
  return { x, y, width: right - x, height: bottom - y, scrollX: window.scrollX, scrollY: window.scrollY };
}
