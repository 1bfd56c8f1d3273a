// ariaElsewhere says what a call's actions put on the page out of view:
// the report's diff compares the screen only, and a live response printed
// under an API console's button, or a toast at the page's foot, would
// otherwise read as "nothing changed". The settle (page/js/settle.js)
// gathers the nodes each action adds or whose text it changes, under the
// call's name; lines answers, for those still shown and wholly off the
// screen (or below a scrolling box's fold), which side they are on, the
// region they sit in and what they read, grouped by region, at most
// MAX_LINES, in page order:
//
//   {side: "below", region: "region \"Response\"", text: "201 Created {\"id\": 7, …}"}
//
// Nodes under an element the page changes on its own between calls (a
// clock, a ticker: settle.js's ambient), and inside a box the call
// scrolled, are left out. Reading takes the
// gathered nodes: a second read says nothing.
//
// A region is the nearest container around a change that is named, or
// that starts with a heading (then named by it): a landmark, live
// region, dialog, table, list, figure or form by its role, another
// element as a section; else a live region; else the changed element's
// own role. R is inpage/roles.js, P inpage/places.js.
function ariaElsewhere(R, P) {
  'use strict';
  const MAX_LINES = 3;
  const MAX_TEXT = 100;
  const MAX_LOOKS = 60; // changed elements looked at, each up its ancestors
  const NAMED = new Set(['region', 'main', 'complementary', 'navigation', 'form', 'search', 'banner', 'contentinfo',
    'dialog', 'alertdialog', 'status', 'alert', 'log', 'table', 'grid', 'list', 'figure', 'article', 'tabpanel', 'group']);
  const LIVE = new Set(['status', 'alert', 'log']);

  function lines(call) {
    const st = document[Symbol.for('cdpskill.settle')];
    if (!call || !st || st.call !== call) return [];
    const touched = st.touched;
    // Read once: what changes from now on is the page's own doing
    // (settle.js, ambient), and the nodes are let go.
    st.touched = new Set();
    st.reported = true;
    // A box the call scrolled re-renders what it shows (a virtualized
    // grid's rows): that is the scroll, not news out of view.
    const boxes = [...(st.scrolled || [])].filter((t) => t.nodeType === 1);
    const els = new Set();
    for (const n of touched) {
      const el = n.nodeType === 1 ? n : n.parentElement;
      if (el && el.isConnected && !ambient(st, el) && !boxes.some((b) => b.contains(el))) els.add(el);
    }
    const groups = new Map(); // region element -> {region, side, texts}
    let looked = 0;
    for (const el of els) {
      if (under(el, els) || looked++ > MAX_LOOKS) continue;
      const side = offScreen(el);
      if (!side) continue;
      const text = R.norm(el.innerText || '');
      if (!text) continue;
      const reg = region(el);
      let g = groups.get(reg.el);
      if (!g) groups.set(reg.el, (g = { el: reg.el, region: reg.label, side, texts: [] }));
      g.texts.push(text);
    }
    const list = [...groups.values()].sort((a, b) =>
      a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
    return list.slice(0, MAX_LINES).map((g) => ({ side: g.side, region: g.region, text: cut(g.texts.join(' · ')) }));
  }

  // ambient says whether the page changed el, or what holds it, on its
  // own between calls.
  function ambient(st, el) {
    return !!st.ambient && (st.ambient.has(el) || (!!el.parentElement && st.ambient.has(el.parentElement)));
  }

  // under says whether an ancestor of el changed too: its line says it.
  function under(el, els) {
    for (let a = P.parentOf(el); a; a = P.parentOf(a)) if (els.has(a)) return true;
    return false;
  }

  // offScreen is where el is, when it is shown but wholly outside the
  // window or outside a scrolling box around it (a chat pane's message
  // below its fold): "below", "above", "right" or "left"; '' otherwise.
  function offScreen(el) {
    if (!R.isShown(el)) return '';
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return '';
    const out = sideOf(r, { top: 0, bottom: innerHeight, left: 0, right: innerWidth });
    if (out) return out;
    for (let a = P.parentOf(el); a && a !== document.body && a !== document.documentElement; a = P.parentOf(a)) {
      const st = R.styleOf(a);
      if (st.overflowY === 'visible' && st.overflowX === 'visible') continue;
      const side = sideOf(r, a.getBoundingClientRect());
      if (side) return side;
    }
    return '';
  }

  function sideOf(r, box) {
    if (r.top >= box.bottom) return 'below';
    if (r.bottom <= box.top) return 'above';
    if (r.left >= box.right) return 'right';
    if (r.right <= box.left) return 'left';
    return '';
  }

  function region(el) {
    for (let a = el; a && a !== document.body; a = P.parentOf(a)) {
      const role = R.roleOf(a) || '';
      const named = NAMED.has(role);
      const name = named ? R.norm(R.accessibleName(a)) : '';
      const h = name || a === el ? '' : leadingHeading(a);
      if (name || h) return { el: a, label: (named ? role : 'section') + ' ' + JSON.stringify(P.hint(name || h)) };
      if (LIVE.has(role)) return { el: a, label: role };
    }
    return { el, label: R.roleOf(el) || el.localName };
  }

  // leadingHeading is the text of the heading a container starts with.
  function leadingHeading(a) {
    const h = a.firstElementChild;
    return h && (/^h[1-6]$/.test(h.localName) || h.getAttribute('role') === 'heading') ? R.norm(h.innerText || '') : '';
  }

  function cut(s) {
    return s.length <= MAX_TEXT ? s : s.slice(0, MAX_TEXT - 1).trimEnd() + '\u2026';
  }

  return { lines };
}
