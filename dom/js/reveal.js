// One step of scrollUntilVisible (SPEC 8.10). If the target exists it is
// scrolled into view and the step reports found. Otherwise the page
// scrolls a.distance pixels (default 80% of the viewport) in the direction
// (a.dirX, a.dirY) and gives lazily loaded content its chance: until the
// target appears, or the DOM has changed and then stayed quiet for
// a.quiet ms, or, with no change at all, a.peek ms while there is more
// page ahead and a.wait ms at its edge, where infinite lists load more.
// atEnd says the page neither moved nor grew, so scrolling on is unlikely
// to help; hopeless, that no scrolling can help.
async function reveal(h, a) {
  const hit = () => {
    const r = h.resolve(a.target);
    return r.error ? null : r.el;
  };
  const first = h.resolve(a.target);
  // A bad selector or an unknown ref cannot be scrolled into existence.
  if (first.error && first.error.status !== 'notFound' && first.error.status !== 'stale') return { hopeless: true };
  if (!first.error) {
    first.el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    return { found: true };
  }

  const se = document.scrollingElement || document.documentElement;
  const before = { x: window.scrollX, y: window.scrollY, w: se.scrollWidth, h: se.scrollHeight };
  const step = a.distance || 0.8 * (a.dirX ? window.innerWidth : window.innerHeight);
  window.scrollBy({ left: a.dirX * step, top: a.dirY * step, behavior: 'instant' });

  const atEdge = a.dirY > 0 ? window.scrollY + window.innerHeight >= se.scrollHeight - 1
    : a.dirY < 0 ? window.scrollY <= 0
      : a.dirX > 0 ? window.scrollX + window.innerWidth >= se.scrollWidth - 1
        : window.scrollX <= 0;

  const found = await new Promise((done) => {
    let quiet = null;
    const finish = (v) => {
      observer.disconnect();
      clearTimeout(quiet);
      clearTimeout(limit);
      done(v);
    };
    const observer = new MutationObserver(() => {
      if (hit()) return finish(true);
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(!!hit()), a.quiet);
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true });
    const limit = setTimeout(() => finish(!!hit()), atEdge ? a.wait : a.peek);
  });
  if (found) {
    const el = hit();
    if (el) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    return { found: true };
  }
  const moved = window.scrollX !== before.x || window.scrollY !== before.y;
  const grew = se.scrollWidth !== before.w || se.scrollHeight !== before.h;
  return { found: false, atEnd: !moved && !grew };
}
