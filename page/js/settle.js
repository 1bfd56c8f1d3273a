// The DOM half of the settle after an action (SPEC 17.4): a
// MutationObserver and a scroll listener armed before the action, and a
// wait for a quiet window after it; they stop LINGER ms after the last
// wait, or at the next arm. Only changes
// an agent could see count: not style attributes (a script animation
// rewrites them every frame), not an attribute set to the value it had,
// and not a batch of nodes replaced by identical ones in the same places
// (a framework re-rendering on a clock). The state lives on the document,
// under a symbol the page does not enumerate, so a new document starts
// without one.
//
// Animations and transitions the action began count as changes until
// they end (see animating).
//
// The nodes the actions of one call add or whose text they change are
// gathered in the state's `touched` (a Set, bounded), for the report to
// say what changed out of view (aria/js/elsewhere.js), which takes them
// and sets `reported`; `call` names the call they belong to. From the
// report to the next call's action, the elements the page changes on its
// own are noted in `ambient` (a WeakSet), and nothing else is done.
//
// a: {op: "arm", call} starts watching afresh;
//    {op: "now"} answers the document's clock (performance.now());
//    {op: "quiet", window, max, fresh, rendered} waits until the DOM has
//    not changed for window ms (counted from the last change, or from now
//    when fresh or in a new document), at most max ms. Without fresh it
//    first lets the page render a frame (unless rendered: the action
//    waited for one already), and answers then if nothing changed since
//    arm.
// returns {moved, settled, newDocument, scrolled, seen}: scrolled, when
//    the page or an element still shown in it scrolled since arm (a list
//    that scrolled an option into view and then closed moved nothing);
//    seen, when on the document's clock anything last changed since arm,
//    a style or an identical rebuild too, or anything scrolled (0: no).
function settle(a) {
  const KEY = Symbol.for('cdpskill.settle');
  const LINGER = 10000; // ms the watch stays after a wait
  const start = performance.now();
  if (a.op === 'now') return start;
  let st = document[KEY];
  const newDocument = !st;
  if (!st) st = install();
  fold(st.observer.takeRecords());
  if (a.op === 'arm' && a.call !== st.call) {
    st.call = a.call;
    st.touched = new Set();
    st.reported = false;
  }
  if (a.op === 'arm' || newDocument) watch();
  else listen();
  if (a.op === 'arm') return { moved: false, settled: true };
  const from = a.fresh || newDocument ? start : 0;

  return new Promise((resolve) => {
    const done = (settled) => {
      fold(st.observer.takeRecords());
      // A page's answer may land between two waits of one action (after
      // its request ends, before the next wait) and after the last one,
      // before the report: the watch stays a while for the report to
      // see it (touched), and seen to say it came.
      clearTimeout(st.stop);
      st.stop = setTimeout(unwatch, LINGER);
      resolve({ moved: st.count > 0 || newDocument, settled, newDocument, scrolled: scrolled(), seen: st.seen });
    };
    const tick = () => {
      fold(st.observer.takeRecords());
      const now = performance.now();
      const quietFor = now - Math.max(st.last, from);
      const moving = animating();
      if (moving > 0) st.seen = now; // the page's picture is changing still
      if (quietFor >= a.window && !moving && document.readyState !== 'loading') return done(true);
      if (now - start >= a.max) return done(false);
      setTimeout(tick, Math.max(1, Math.min(Math.max(a.window - quietFor, moving), a.max - (now - start))));
    };
    if (a.fresh || newDocument) return tick();
    // Whether the action moved anything is known once the page has
    // rendered a frame and run a task after it: a framework's update has
    // committed by then. A tab that renders no frames is bounded by a timer.
    let looked = false;
    let bound = 0;
    const look = () => {
      if (looked) return;
      looked = true;
      clearTimeout(bound);
      fold(st.observer.takeRecords());
      if (st.count === 0 && !animating()) done(true);
      else tick();
    };
    if (a.rendered) return look();
    bound = setTimeout(look, 100);
    requestAnimationFrame(() => setTimeout(look, 0));
  });

  function install() {
    const s = { count: 0, last: 0, seen: 0, armedAt: 0, call: '', touched: new Set(), reported: false, ambient: new WeakSet(), scrolled: new Set(), observer: null, onScroll: null, ids: new WeakMap(), nextID: 0 };
    s.observer = new MutationObserver((records) => fold(records));
    s.onScroll = (e) => {
      s.scrolled.add(e.target);
      s.seen = performance.now();
    };
    Object.defineProperty(document, KEY, { value: s, configurable: true });
    return s;
  }

  function watch() {
    st.count = 0;
    st.last = 0;
    st.seen = 0;
    st.scrolled = new Set();
    st.armedAt = document.timeline.currentTime || 0;
    listen();
  }

  // listen observes the document again; observing it twice is harmless.
  function listen() {
    clearTimeout(st.stop);
    st.observer.observe(document, { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true });
    // Scroll events do not bubble; a capturing listener hears every one.
    document.addEventListener('scroll', st.onScroll, { capture: true, passive: true });
  }

  // animating is how many ms are left of the animations and transitions
  // begun since arm (a dialog fading in or out, a drawer sliding away),
  // 0 when none runs: the state a page sets when one ends, and what it
  // shows meanwhile, are the action's effect. One that was running
  // before (a spinner), never ends, or has more than MOVING ms to go is
  // the page's own business.
  function animating() {
    const MOVING = 1000;
    let left = 0;
    for (const an of document.getAnimations()) {
      try {
        if (an.playState !== 'running' || (an.startTime !== null && an.startTime < st.armedAt)) continue;
        const t = an.effect && an.effect.getComputedTiming();
        const rest = t ? (t.endTime - (t.localTime || 0)) / Math.abs(an.playbackRate || 1) : Infinity;
        if (rest > 0 && rest <= MOVING) left = Math.max(left, rest);
      } catch (e) { /* one the page made odd is not the action's */ }
    }
    return left;
  }

  function scrolled() {
    for (const t of st.scrolled) {
      if (t === document || t.nodeType !== 1 || (t.isConnected && t.getClientRects().length > 0)) return true;
    }
    return false;
  }

  function unwatch() {
    st.observer.disconnect();
    document.removeEventListener('scroll', st.onScroll, { capture: true });
  }

  // fold counts the records that change what the page shows. One
  // batch's removed and added nodes, each with where it sat, are compared
  // as a whole: equal means the page rebuilt what it had.
  function fold(records) {
    if (st.reported) {
      // Between a call's report and the next call's action the page
      // changes these on its own (a clock, a ticker): noted, cheaply.
      for (const r of records) {
        const el = r.type === 'characterData' ? r.target.parentElement : r.target;
        if (el) st.ambient.add(el);
      }
      return;
    }
    if (records.length) st.seen = performance.now();
    let removed = '';
    let added = '';
    const came = [];
    for (const r of records) {
      if (r.type === 'childList') {
        removed += place(r, r.removedNodes);
        added += place(r, r.addedNodes);
        came.push(...r.addedNodes);
      } else if (r.type === 'characterData') {
        touch([r.target]);
        changed();
      } else if (r.type !== 'attributes' || (r.attributeName !== 'style' && r.oldValue !== r.target.getAttribute(r.attributeName))) {
        changed();
      }
    }
    if (removed !== added) {
      changed();
      touch(fresh(records, came));
    }
  }

  // fresh is the nodes of came that no node the batch removed from the
  // same parent matches: a rebuilt row the same as before is no change.
  function fresh(records, came) {
    const gone = new Set();
    for (const r of records) for (const n of r.removedNodes || []) gone.add(id(r.target) + ':' + html(n));
    if (!gone.size) return came;
    return came.filter((n) => !n.parentNode || !gone.has(id(n.parentNode) + ':' + html(n)));
  }

  function html(n) {
    return n.nodeType === 1 ? n.outerHTML : n.nodeName + n.textContent;
  }

  function touch(nodes) {
    for (const n of nodes) {
      if (st.touched.size >= 300) return;
      st.touched.add(n);
    }
  }

  function changed() {
    st.count++;
    st.last = performance.now();
  }

  function place(r, nodes) {
    if (!nodes.length) return '';
    let out = id(r.target) + ':' + id(r.previousSibling) + ':' + id(r.nextSibling) + '[';
    for (const n of nodes) out += html(n) + '\u0000';
    return out + ']';
  }

  function id(n) {
    if (!n) return '-';
    let v = st.ids.get(n);
    if (!v) st.ids.set(n, (v = String(++st.nextID)));
    return v;
  }
}
