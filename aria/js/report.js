// report takes the snapshots a call's report is made of (SPEC 14): the
// viewport at full detail (what the diff compares), the same viewport in
// the lean view the agent reads inline, and with opts.full the whole
// page for the fullSnapshot file. All are internal: they hand out refs
// for new elements under the current snapshot number and keep every
// earlier ref (SPEC 7.9). lib holds the module factories.
//
// opts: {viewport, full, snapshotFloor, elementFloor}
// returns {viewport?, lean?, refCount, full?, doc, lastSnapshot, lastElement}
// where doc tells this document from the next one the frame loads.
function report(lib, opts) {
  'use strict';
  opts = opts || {};
  const R = lib.roles();
  const S = lib.states(R);
  const out = lib.render({});
  const refs = lib.refs({ snapshotFloor: opts.snapshotFloor, elementFloor: opts.elementFloor, bump: false });
  const body = document.body || document.documentElement;

  const res = {};
  if (opts.viewport) {
    const W = lib.walk(R, S, { viewportOnly: true, markNotices: true });
    const nodes = W.tree(body);
    res.refCount = refs.assign(nodes, [], W).length;
    res.viewport = out.render(nodes).join('\n');
    res.lean = out.render(out.lean(nodes)).join('\n');
  }
  if (opts.full) {
    const FW = lib.walk(R, S, {});
    const all = FW.tree(body);
    refs.assign(all, [], FW);
    res.full = out.render(all).join('\n');
  }
  res.doc = performance.timeOrigin;
  return Object.assign(res, refs.counters());
}
