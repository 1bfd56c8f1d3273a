// ariaBoxes is where the interactive elements of a walk's tree show, for
// an annotated screenshot (marks.js, report.js): Go draws the boxes on
// the captured image (capture/annotate.go), so nothing is added to the
// page and its mutation observers hear nothing. V is the walk's ariaView,
// clip the part of this window's viewport the walk saw (CSS px).
//
// marks(nodes) is [{ref, role, name, x, y, width, height}] in reading
// order, for the nodes with refs whose box shows: the part of the
// element's border box the clip, the frames and the scrolling containers
// around it let show, in this window's viewport CSS px. W is the walk.
function ariaBoxes(V, clip) {
  'use strict';
  const views = new Map(); // element → the part of clip its content shows in
  const frameClips = new Map(); // a scope's frames → the part of clip they show

  function marks(nodes, W) {
    const out = [];
    collect(nodes, W, out);
    return out;
  }

  function collect(list, W, out) {
    for (const n of list) {
      if (n.text !== undefined) continue;
      if (n.interactive && n.ref) {
        const b = meet(V.boxOf(n.el, n.scope), seenIn(walkParent(n.el), n.scope));
        if (b.width > 0 && b.height > 0) {
          out.push({ ref: n.ref, role: n.role, name: n.name || W.cut(W.contentText(n.children)),
            x: b.x, y: b.y, width: b.width, height: b.height });
        }
      }
      collect(n.children, W, out);
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

  return { marks };
}
