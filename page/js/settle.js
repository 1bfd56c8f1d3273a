/**
 * The DOM half of the settle after an action (SPEC 17.4): a
 * MutationObserver and a scroll listener armed before the action, and a
 * wait for a quiet window after it, at whose end they stop. Style-
 * attribute changes do not count: a script animation rewrites them every
 * frame without changing what the page shows an agent. The state lives on
 * the document, under a symbol the page does not enumerate, so a new
 * document starts without one.
 *
 * a: {op: "arm"} starts watching afresh;
 *    {op: "quiet", window, max, fresh} waits until the DOM has not changed
 *    for window ms (counted from the last change, or from now when fresh
 *    or in a new document), at most max ms. Without fresh it first lets
 *    the page render a frame, and answers then if nothing changed since
 *    arm.
 * returns {moved, settled, newDocument, scrolled}: scrolled, when the
 *    page or an element in it scrolled since arm.
 */
function settle(a) {
  const KEY = Symbol.for('cdpskill.settle');
  const start = performance.now();
  let st = document[KEY];
  const newDocument = !st;
  if (!st) st = install();
  fold(st.observer.takeRecords());
  if (a.op === 'arm' || newDocument) watch();
  if (a.op === 'arm') return { moved: false, settled: true };
  const from = a.fresh || newDocument ? start : 0;

  return new Promise((resolve) => {
    const done = (settled) => {
      fold(st.observer.takeRecords());
      unwatch();
      resolve({ moved: st.count > 0 || newDocument, settled, newDocument, scrolled: st.scrolled });
    };
    const tick = () => {
      fold(st.observer.takeRecords());
      const now = performance.now();
      const quietFor = now - Math.max(st.last, from);
      if (quietFor >= a.window && document.readyState !== 'loading') return done(true);
      if (now - start >= a.max) return done(false);
      setTimeout(tick, Math.max(1, Math.min(a.window - quietFor, a.max - (now - start))));
    };
    if (a.fresh || newDocument) return tick();
    // Whether the action moved anything is known once the page has
    // rendered a frame and run a task after it: a framework's update has
    // committed by then. A tab that renders no frames is bounded by a timer.
    let looked = false;
    const look = () => {
      if (looked) return;
      looked = true;
      clearTimeout(bound);
      fold(st.observer.takeRecords());
      if (st.count === 0) done(true);
      else tick();
    };
    const bound = setTimeout(look, 100);
    requestAnimationFrame(() => setTimeout(look, 0));
  });

  function install() {
    const s = { count: 0, last: 0, scrolled: false, observer: null, onScroll: null };
    s.observer = new MutationObserver((records) => fold(records));
    s.onScroll = () => { s.scrolled = true; };
    Object.defineProperty(document, KEY, { value: s, configurable: true });
    return s;
  }

  function watch() {
    st.count = 0;
    st.last = 0;
    st.scrolled = false;
    st.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    // Scroll events do not bubble; a capturing listener hears every one.
    document.addEventListener('scroll', st.onScroll, { capture: true, passive: true });
  }

  function unwatch() {
    st.observer.disconnect();
    document.removeEventListener('scroll', st.onScroll, { capture: true });
  }

  function fold(records) {
    for (const r of records) {
      if (r.type === 'attributes' && r.attributeName === 'style') continue;
      st.count++;
      st.last = performance.now();
    }
  }
}
