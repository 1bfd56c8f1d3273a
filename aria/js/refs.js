// ariaRefs hands out refs under the in-page contract shared with package
// dom, all kept in the top window so they outlive the cdpskill process:
//
//   __ariaRefs      Map ref -> Element
//   __ariaRefMeta   Map ref -> {selector, role, name, tag, type?, place?,
//                                alike?, shadowPath?, frame?}
//   __ariaRefOf     WeakMap Element -> ref
//   __ariaSnapshotId, __ariaElementId   the counters behind s{N}e{M}
//   __ariaDocFloor  the element counter this document started from
//
// A fresh document (after a navigation) starts its counters at the floors
// the tab registry remembers, so a ref from an earlier document never
// names an element of this one, and __ariaDocFloor tells a resolver that
// a ref numbered at or below it came from an earlier document.
//
// A meta is the element as the agent knows it, for re-resolution to find
// that element again and no other: its role, name (or, without one, its
// text), tag and input type, and — when the name alone does not tell it
// from others (empty, or shared with another ref of the same snapshot:
// alike) — its place (P.placeText: the row it sits in, "Call mom"), ''
// when it has none; place is absent for an element its name tells apart.
//
// opts: {snapshotFloor, elementFloor, bump, fresh}: bump starts a new
// snapshot number (agent-facing snapshots); internal ones hand out refs
// under the current number. fresh (preserveRefs:false) forgets every
// earlier ref first; the counters still only grow, so no number returns.
// P is ariaPlaces(R).
function ariaRefs(opts, P) {
  'use strict';
  const w = window;
  const floorS = Math.max(0, opts.snapshotFloor | 0);
  const floorE = Math.max(0, opts.elementFloor | 0);
  if (opts.fresh || !(w.__ariaRefs instanceof Map)) w.__ariaRefs = new Map();
  if (opts.fresh || !(w.__ariaRefMeta instanceof Map)) w.__ariaRefMeta = new Map();
  if (opts.fresh || !(w.__ariaRefOf instanceof WeakMap)) w.__ariaRefOf = new WeakMap();
  if (typeof w.__ariaSnapshotId !== 'number') w.__ariaSnapshotId = 0;
  if (typeof w.__ariaElementId !== 'number') w.__ariaElementId = 0;
  if (typeof w.__ariaDocFloor !== 'number') {
    // Counters that already count refs of this document (made before
    // floors existed) keep every one of them valid.
    w.__ariaDocFloor = w.__ariaElementId > 0 ? 0 : floorE;
  }
  // A document restored from the back/forward cache keeps its old, lower
  // counters and its refs; it only numbers new ones above the floors.
  w.__ariaSnapshotId = Math.max(w.__ariaSnapshotId, floorS);
  w.__ariaElementId = Math.max(w.__ariaElementId, floorE);
  const snapId = opts.bump ? ++w.__ariaSnapshotId : w.__ariaSnapshotId;

  const map = w.__ariaRefs;
  const meta = w.__ariaRefMeta;
  const of = w.__ariaRefOf;
  const idCounts = new Map(); // tree root -> Map id -> count
  const nthCache = new Map(); // parent -> Map child -> nth-of-type (0: only one)
  const selectors = new Map(); // element -> selectorFor, while this lasts
  const tags = new Map(); // localName -> CSS.escape(localName)
  const SHORT = 16; // children that nthOfType counts without an index

  // refFor returns el's ref, reusing the one it already has: the WeakMap
  // makes that O(1), and the refs map check catches a ref that was since
  // re-pointed at another element. The meta is rewritten each time: after
  // a re-render, the element's latest place and name find its successor.
  // scope is the walk's {hosts, frames} for elements in shadow trees or
  // frames; alike says its name does not tell it apart, so its place is
  // recorded. A caller that cannot tell (a search sees a few elements, not
  // the page) leaves alike undefined, and what the last snapshot found holds.
  //
  // An element refilled under it (a framework that patches rows by
  // position put another to-do beside this checkbox, or another item's
  // name in this link) is another element to the agent: it gets a new
  // ref, and the old one keeps what it named, so that using it finds
  // that element or fails.
  function refFor(el, role, name, scope, alike) {
    let ref = of.get(el);
    const cur = ref && map.get(ref);
    const prev = ref && cur === el ? meta.get(ref) : undefined;
    const placed = !!prev && prev.place !== undefined;
    if (alike === undefined) alike = !!prev && !!prev.alike;
    const place = alike || placed || !name ? P.placeText(el) : undefined;
    if (!ref || (cur !== el && cur !== undefined) || (placed && place !== prev.place) || (prev && refilled(prev, role, name))) {
      ref = 's' + snapId + 'e' + (++w.__ariaElementId);
      of.set(el, ref);
    }
    map.set(ref, el);
    const m = { selector: selectorFor(el), role, name, tag: el.localName };
    if (el.localName === 'input') m.type = el.type;
    if (place !== undefined) m.place = place;
    if (alike) m.alike = true;
    if (scope && scope.hosts.length) m.shadowPath = pathOf(scope, 'hosts');
    if (scope && scope.frames.length) m.frame = pathOf(scope, 'frames');
    meta.set(ref, m);
    return ref;
  }

  // refilled says whether an element that had prev's name now bears the
  // name another ref of its role was given: an item's content moved into
  // it. A name of its own (Follow, then Following) is a rename, but not
  // in a grid's cell.
  function refilled(prev, role, name) {
    if (prev.name === name) return false;
    // A grid's cell shows another row's value when the grid recycles it.
    if (role === 'gridcell' && prev.name) return true;
    if (!names) {
      names = new Set();
      for (const m of meta.values()) if (m && m.name) names.add(m.role + '\0' + m.name.toLowerCase());
    }
    return !!name && names.has(role + '\0' + name.toLowerCase());
  }
  let names = null; // role and name of every ref, read once

  // pathOf is the selectors of a scope's shadow hosts or frame elements,
  // outermost first, computed once per scope.
  function pathOf(scope, key) {
    const memo = key + 'Sel';
    if (!scope[memo]) scope[memo] = scope[key].map(selectorFor);
    return scope[memo];
  }

  // selectorFor is an #id when the id is unique in el's tree, else a short
  // nth-of-type path anchored at the nearest uniquely-id'd ancestor, at
  // body, or at the shadow root (":host > …") el lives in. It is valid for
  // querySelector on el's own document or shadow root. An ancestor's
  // selector is made once: the items of a long list share their path.
  function selectorFor(el) {
    let s = selectors.get(el);
    if (s !== undefined) return s;
    let tag = tags.get(el.localName);
    if (tag === undefined) tags.set(el.localName, (tag = CSS.escape(el.localName)));
    const up = el.parentElement;
    if (el.id && uniqueId(el)) {
      s = '#' + CSS.escape(el.id);
    } else if (!up) {
      const root = el.parentNode;
      s = root && root.nodeType === 11 ? ':host > ' + tag + nthOfType(el, root) : tag;
    } else if (tag === 'body' || tag === 'html') {
      s = tag;
    } else {
      s = selectorFor(up) + ' > ' + tag + nthOfType(el, up);
    }
    selectors.set(el, s);
    return s;
  }

  function uniqueId(el) {
    const root = el.getRootNode();
    let m = idCounts.get(root);
    if (!m) {
      m = new Map();
      if (root.querySelectorAll) {
        for (const e of root.querySelectorAll('[id]')) m.set(e.id, (m.get(e.id) || 0) + 1);
      }
      idCounts.set(root, m);
    }
    return m.get(el.id) === 1;
  }

  // nthOfType counts the siblings of a short list where they stand, and
  // indexes all children of a long one at once, so a list of ten
  // thousand items costs ten thousand steps, not fifty million.
  function nthOfType(el, parent) {
    let m = nthCache.get(parent);
    if (!m) {
      const tag = el.localName;
      let k = 0;
      let same = 0;
      let n = 0;
      let c = parent.firstElementChild;
      for (; c && n < SHORT; c = c.nextElementSibling, n++) {
        if (c.localName !== tag) continue;
        same++;
        if (c === el) k = same;
      }
      if (!c) return same > 1 ? ':nth-of-type(' + k + ')' : '';
      m = new Map();
      const counts = new Map();
      for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
        const k = (counts.get(c.localName) || 0) + 1;
        counts.set(c.localName, k);
        m.set(c, k);
      }
      for (const [c] of m) if (counts.get(c.localName) === 1) m.set(c, 0);
      nthCache.set(parent, m);
    }
    const k = m.get(el);
    return k ? ':nth-of-type(' + k + ')' : '';
  }

  // assign gives refs in reading order to the interactive nodes of a
  // walk's tree and lists them in acc. An unnamed element is recorded
  // under its text: re-resolution matches on the name. W is the walk.
  function assign(list, acc, W) {
    const found = [];
    interactive(list, found, W);
    const count = new Map();
    for (const f of found) count.set(f.key, (count.get(f.key) || 0) + 1);
    for (const f of found) {
      f.n.ref = refFor(f.n.el, f.n.role, f.name, f.n.scope, count.get(f.key) > 1);
      acc.push(f.n.ref);
    }
    return acc;
  }

  function interactive(list, out, W) {
    for (const n of list) {
      if (n.text !== undefined) continue;
      if (n.interactive) {
        const name = n.name || W.cut(W.contentText(n.children));
        out.push({ n, name, key: n.role + '\0' + name });
      }
      interactive(n.children, out, W);
    }
  }

  // table is {ref: meta} for the refs given, for a refs map file.
  function table(refs) {
    const out = {};
    for (const r of refs) out[r] = meta.get(r);
    return out;
  }

  return {
    snapId,
    refFor,
    assign,
    selectorFor,
    table,
    counters: () => ({ lastSnapshot: w.__ariaSnapshotId, lastElement: w.__ariaElementId }),
  };
}
