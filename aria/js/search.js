// search finds nodes of the accessibility tree of the whole page (SPEC
// 7.10, 11.2) without rendering it: an internal snapshot that does not
// start a new snapshot number, whose refs persist all the same.
//
// opts: {text, pattern, role, exact, limit, context, near: {x, y, radius},
//        pierceShadow, includeFrames, snapshotFloor, elementFloor}
// returns {matches: [{path, role, name, text, ref, value, box}],
//          matchCount, searchedElements, lastSnapshot, lastElement}
//      or {error: 'invalidPattern', message}
function search(lib, opts) {
  'use strict';
  const R = lib.roles();
  let re = null;
  if (opts.pattern) {
    try {
      re = new RegExp(opts.pattern.replace(/^\(\?i\)/, ''), 'i');
    } catch (e) {
      return { error: 'invalidPattern', message: String(e && e.message || e) };
    }
  }
  const text = R.norm(opts.text).toLowerCase();
  const limit = opts.limit > 0 ? opts.limit : 10;
  const levels = typeof opts.context === 'number' ? opts.context : 2;
  const near = opts.near || null;

  const W = lib.walk(R, lib.states(R), lib.view(), { pierceShadow: opts.pierceShadow, includeFrames: opts.includeFrames });
  const nodes = W.tree(document.body || document.documentElement);
  const refs = lib.refs({ snapshotFloor: opts.snapshotFloor, elementFloor: opts.elementFloor, bump: false }, lib.places(R));
  const matches = [];
  const path = [];
  let matchCount = 0;
  let searched = 0;
  walk(nodes);
  return Object.assign({ matches, matchCount, searchedElements: searched }, refs.counters());

  function walk(list) {
    for (const n of list) {
      if (n.text !== undefined) continue;
      searched++;
      const own = n.name ? '' : ownText(n);
      const box = test(n, own);
      if (box) {
        matchCount++;
        if (matches.length < limit) matches.push(describe(n, own, box));
      }
      path.push(n.name ? n.role + ' ' + JSON.stringify(n.name) : n.role);
      walk(n.children);
      path.pop();
    }
  }

  // test returns a truthy value when n meets every criterion given: the
  // node's box when near is given, else true.
  function test(n, own) {
    if (opts.role && n.role !== opts.role) return false;
    const value = n.value === undefined ? '' : String(n.value);
    const fields = [n.name, value, own];
    if (text) {
      const hit = opts.exact
        ? fields.some(f => f.toLowerCase() === text)
        : fields.join('\n').toLowerCase().includes(text);
      if (!hit) return false;
    }
    if (re && !fields.some(f => f && re.test(f))) return false;
    if (!near) return true;
    const b = W.boxOf(n.el, n.scope);
    if (!b.width && !b.height) return false;
    const dx = b.x + b.width / 2 - near.x;
    const dy = b.y + b.height / 2 - near.y;
    return Math.hypot(dx, dy) <= near.radius ? b : false;
  }

  // ownText is the text a node shows itself, for nodes without a name
  // (a paragraph, a list item).
  function ownText(n) {
    let s = '';
    for (const c of n.children) if (c.text !== undefined) s += (s ? ' ' : '') + c.text;
    return W.cut(s);
  }

  function describe(n, own, box) {
    const m = { role: n.role };
    if (levels > 0 && path.length) m.path = path.slice(-levels).join(' > ');
    if (n.name) m.name = n.name;
    else if (own) m.text = own;
    if (n.interactive) m.ref = refs.refFor(n.el, n.role, n.name || W.cut(W.contentText(n.children)), n.scope);
    if (n.value !== undefined) m.value = String(n.value);
    if (near) {
      m.box = {
        x: Math.round(box.x), y: Math.round(box.y),
        width: Math.round(box.width), height: Math.round(box.height),
      };
    }
    return m;
  }
}
