// marks lists the interactive elements a screenshot shows, with their refs
// and the part of their boxes on screen, for an annotated screenshot: Go
// draws the boxes on the captured image (capture/annotate.go), so nothing
// is added to the page and its mutation observers hear nothing. The refs
// are the report's (report.js): handed out under the current snapshot
// number, every earlier one kept, so a label is the ref the agent's
// snapshots show. Same-origin frames are walked in place (their refs name
// their frame, as a snapshot's with includeFrames); a cross-origin frame's
// content is not, which only its own session could read.
//
// opts: {clip: {x, y, width, height}, snapshotFloor, elementFloor}, clip
//       being the captured part of this window, in its viewport's CSS px
// returns {marks: [{ref, role, name, x, y, width, height}], lastSnapshot,
//          lastElement}
// where each box is the part of the element's border box the clip, the
// frames and the scrolling containers around it let show, in reading
// order, in this window's viewport CSS px.
function marks(lib, opts) {
  'use strict';
  const R = lib.roles();
  const P = lib.places(R);
  const V = lib.view();
  let clip = opts.clip;
  if (window !== window.parent) clip = meet(clip, { x: 0, y: 0, width: innerWidth, height: innerHeight });
  const W = lib.walk(R, lib.states(R), V, { viewportOnly: true, includeFrames: true, clip });
  const refs = lib.refs({ snapshotFloor: opts.snapshotFloor, elementFloor: opts.elementFloor, bump: false }, P);
  const nodes = W.tree(document.body || document.documentElement);
  refs.assign(nodes, [], W);

  const out = [];
  const views = new Map(); // element → the part of clip its content shows in
  const frameClips = new Map(); // scope → the part of clip its document shows in
  collect(nodes);
  return Object.assign({ marks: out }, refs.counters());

  function collect(list) {
    for (const n of list) {
      if (n.text !== undefined) continue;
      if (n.interactive && n.ref) {
        const b = meet(V.boxOf(n.el, n.scope), seenIn(walkParent(n.el), n.scope));
        if (b.width > 0 && b.height > 0) {
          out.push({ ref: n.ref, role: n.role, name: n.name || W.cut(W.contentText(n.children)),
            x: b.x, y: b.y, width: b.width, height: b.height });
        }
      }
      collect(n.children);
    }
  }

  // seenIn is the part of clip el's content shows in: narrowed by each
  // scrolling container around it, up to its document's frames.
  function seenIn(el, sc) {
    if (!el) return frameClip(sc);
    let v = views.get(el);
    if (!v) {
      const style = el.ownerDocument.defaultView.getComputedStyle(el);
      views.set(el, (v = V.inside(el, style, seenIn(walkParent(el), sc), sc, frameClip(sc))));
    }
    return v;
  }

  // frameClip is clip cut to the frames a scope's document is inside.
  function frameClip(sc) {
    if (!sc.frames.length) return clip;
    let c = frameClips.get(sc.frames);
    if (c) return c;
    c = clip;
    let ox = 0, oy = 0;
    for (const f of sc.frames) {
      const r = f.getBoundingClientRect();
      ox += r.left + f.clientLeft;
      oy += r.top + f.clientTop;
      c = meet(c, { x: ox, y: oy, width: f.clientWidth, height: f.clientHeight });
    }
    frameClips.set(sc.frames, c);
    return c;
  }

  // walkParent is the element the walk came to el from (view.js's).
  function walkParent(el) {
    if (el.assignedSlot) return el.assignedSlot;
    if (el.parentElement) return el.parentElement;
    const p = el.parentNode;
    return p && p.nodeType === 11 && p.host ? p.host : null;
  }

  function meet(a, b) {
    const x = Math.max(a.x, b.x), y = Math.max(a.y, b.y);
    const x1 = Math.min(a.x + a.width, b.x + b.width), y1 = Math.min(a.y + a.height, b.y + b.height);
    return { x, y, width: Math.max(0, x1 - x), height: Math.max(0, y1 - y) };
  }
}
