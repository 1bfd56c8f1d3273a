// ariaView is the geometry of what a walk (walk.js) shows: which part of
// the screen an element's content shows in, whether an element is in it,
// and rows in the order they show in. Boxes and views are {x, y, width,
// height} in the top viewport's coordinates: sc, a walk scope, carries
// the offset of the frame an element is in; clip is the part of the top
// viewport the walked document shows.
function ariaView() {
  'use strict';
  const SCROLLS = new Set(['auto', 'scroll', 'overlay']);

  // boxOf is el's border box.
  function boxOf(el, sc) {
    const r = el.getBoundingClientRect();
    return { x: r.left + sc.offX, y: r.top + sc.offY, width: r.width, height: r.height };
  }

  // meets says whether box b shows in view v.
  function meets(b, v) {
    return b.y + b.height > v.y && b.x + b.width > v.x && b.y < v.y + v.height && b.x < v.x + v.width;
  }

  // inside is the part of outer (the view el is seen in) that el's
  // content may show in: narrowed to el's inside when it is a scrolling
  // container, the whole clip for a fixed element (no container clips it).
  // sc is el's scope.
  function inside(el, style, outer, sc, clip) {
    if (style.position === 'fixed') return clip;
    if (!SCROLLS.has(style.overflowY) && !SCROLLS.has(style.overflowX)) return outer;
    const r = el.getBoundingClientRect();
    const left = r.left + el.clientLeft + sc.offX, top = r.top + el.clientTop + sc.offY;
    const x = Math.max(outer.x, left), y = Math.max(outer.y, top);
    const x1 = Math.min(outer.x + outer.width, left + el.clientWidth);
    const y1 = Math.min(outer.y + outer.height, top + el.clientHeight);
    return { x, y, width: Math.max(0, x1 - x), height: Math.max(0, y1 - y) };
  }

  // inView is the part of a walked tree on screen, much as a viewportOnly
  // walk keeps it, without walking again: an element with nothing on
  // screen inside stays only when its own box is on screen (in the
  // scrolling containers around it), a text run when the element it
  // began in is. pierce: the walk went through shadow roots and slots.
  function inView(nodes, clip, pierce) {
    const seen = new Map(); // element → on screen; text runs share theirs
    const views = new Map(); // element → the view its content shows in
    const contentView = (el, sc) => {
      if (!el || el.nodeType !== 1) return clip;
      let v = views.get(el);
      if (!v) views.set(el, (v = inside(el, getComputedStyle(el), contentView(walkParent(el, pierce), sc), sc, clip)));
      return v;
    };
    // Off the window is off screen: only what meets it pays for the
    // styles of the containers around it.
    const shown = (el, sc, text) => {
      let v = seen.get(el);
      if (v === undefined) {
        const box = boxOf(el, sc);
        v = meets(box, clip) && meets(box, text ? contentView(el, sc) : contentView(walkParent(el, pierce), sc));
        seen.set(el, v);
      }
      return v;
    };
    // keep returns list itself when it keeps all of it unchanged.
    const keep = (list) => {
      const out = [];
      for (const n of list) {
        if (n.text !== undefined) {
          if (shown(n.src, n.scope, true)) out.push(n);
          continue;
        }
        const kids = keep(n.children);
        if (!kids.length && !shown(n.el, n.scope, false)) continue;
        out.push(kids === n.children ? n : Object.assign({}, n, { children: kids }));
      }
      return out.length === list.length && out.every((n, i) => n === list[i]) ? list : out;
    };
    return keep(nodes);
  }

  // walkParent is the element the walk came to el from: its slot when it
  // went through slots, else its parent or shadow host; null at a
  // document's root (a frame's content is seen in the whole clip).
  function walkParent(el, pierce) {
    if (pierce && el.assignedSlot) return el.assignedSlot;
    if (el.parentElement) return el.parentElement;
    const p = el.parentNode;
    return p && p.nodeType === 11 && p.host ? p.host : null;
  }

  // order puts the rows among nodes in the order they show in: by
  // aria-rowindex when each has one, else, when a grid placed them
  // itself, from top to bottom. Other nodes keep their places.
  function order(nodes) {
    let rows = null;
    for (let i = 0; i < nodes.length; i++) {
      if (nodes[i].role === 'row') (rows || (rows = [])).push(i);
    }
    if (!rows || rows.length < 2) return;
    const list = rows.map(i => nodes[i]);
    let keys = list.map(n => parseInt(n.el.getAttribute('aria-rowindex'), 10));
    if (keys.some(k => !(k >= 1))) {
      if (!list.some(n => n.placed)) return;
      keys = list.map(n => n.el.getBoundingClientRect().top);
    }
    let sorted = true;
    for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1] <= keys[i];
    if (sorted) return;
    const at = new Map(list.map((n, i) => [n, keys[i]]));
    list.sort((a, b) => at.get(a) - at.get(b)); // stable: ties keep DOM order
    rows.forEach((i, k) => { nodes[i] = list[k]; });
  }

  return { boxOf, meets, inside, inView, order };
}
