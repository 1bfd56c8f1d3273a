// report takes the snapshots a call's report is made of (SPEC 14): with
// opts.viewport, what is on screen at full detail (what the diff
// compares) and in the lean view the agent reads inline; with opts.full,
// the whole page for the fullSnapshot file. All are internal: they hand
// out refs for new elements under the current snapshot number and keep
// every earlier ref (SPEC 7.9). lib holds the module factories. They are
// of the whole body, never scoped (SPEC 7.4): the screen is scope enough,
// and a change anywhere on it must show in the diff; only the lean view
// leaves out a landmark crowded with controls beside the app (a docs
// sidebar's links, scope.js crowded), which would repeat in every result.
//
// opts: {viewport, full, print, elsewhere, marks, snapshotFloor, elementFloor}
// returns {viewport?, lean?, print?, elsewhere?, marks?, full?, doc, scroll,
//          lastSnapshot, lastElement}
// where doc tells this document from the next one the frame loads, and
// scroll is the window's [x, y]. The viewport view marks the elements
// without refs with [uid=N], which only the diff reads; print, when asked
// for, is the page's fingerprint beside it (fingerprint.js), so that the
// runner can tell which steps changed the page; elsewhere, given the
// call's name, is what its actions put on the page out of view
// (elsewhere.js); marks, the boxes of its interactive elements on screen
// for the report's annotated screenshot (boxes.js), from the same walk, so
// its labels are the view's refs.
function report(lib, opts) {
  'use strict';
  opts = opts || {};
  const R = lib.roles();
  const P = lib.places(R);
  const S = lib.states(R);
  const out = lib.render({});
  const marked = lib.render({ uids: true });
  const refs = lib.refs({ snapshotFloor: opts.snapshotFloor, elementFloor: opts.elementFloor, bump: false }, P);
  const body = document.body || document.documentElement;

  const res = {};
  if (opts.viewport) {
    const V = lib.view();
    const W = lib.walk(R, S, V, { viewportOnly: true, markNotices: true });
    const nodes = W.tree(body);
    refs.assign(nodes, [], W);
    if (opts.marks) res.marks = lib.boxes(V, { x: 0, y: 0, width: innerWidth, height: innerHeight }).marks(nodes, W);
    identify(nodes);
    res.viewport = marked.render(nodes).join('\n');
    const crowd = lib.scope(R, W.cut).crowded(out.lean(nodes));
    const lean = crowd.view;
    lib.context(R, P).mark(lean, body);
    const lines = out.render(lean);
    if (crowd.note) lines.unshift(crowd.note);
    res.lean = lines.join('\n');
    if (opts.print) res.print = lib.hash().current();
    if (opts.elsewhere) res.elsewhere = lib.elsewhere(R, P).lines(opts.elsewhere);
  }
  if (opts.full) {
    const FW = lib.walk(R, S, lib.view(), {});
    const all = FW.tree(body);
    refs.assign(all, [], FW);
    res.full = out.render(all).join('\n');
  }
  res.doc = performance.timeOrigin;
  res.scroll = [Math.round(scrollX), Math.round(scrollY)];
  return Object.assign(res, refs.counters());

  // identify gives the elements without a ref a number that lasts as long
  // as the element (window.__ariaUids), so that the diff tells a heading
  // whose text changed from another heading scrolled into view.
  function identify(list) {
    if (!(window.__ariaUids instanceof WeakMap)) {
      window.__ariaUids = new WeakMap();
      window.__ariaUidNext = 0;
    }
    for (const n of list) {
      if (n.text !== undefined) continue;
      if (!n.ref) {
        let id = window.__ariaUids.get(n.el);
        if (!id) window.__ariaUids.set(n.el, (id = ++window.__ariaUidNext));
        n.uid = id;
      }
      identify(n.children);
    }
  }
}
