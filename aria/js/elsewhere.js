// ariaElsewhere says what a call's actions put on the page out of view:
// the report's diff compares the screen only, and a live response printed
// under an API console's button, or a toast at the page's foot, would
// otherwise read as "nothing changed". The settle (page/js/settle.js)
// gathers the nodes each action adds or whose text it changes, under the
// call's name; lines answers, for those still shown and wholly off the
// screen, where they are and what they read, grouped by the region they
// sit in, at most MAX_LINES, in page order:
//
//   region "Response" (below): "201 Created {\"id\": 7, …}"
//
// A region is the nearest container around a change that is named, or
// that starts with a heading (then named by it): a landmark, live
// region, dialog, table, list, figure or form by its role, another
// element as a section; else a live region; else the changed element's
// own role. R is
// inpage/roles.js, P inpage/places.js.
function ariaElsewhere(R, P) {
  'use strict';
  const MAX_LINES = 3;
  const MAX_TEXT = 100;
  const NAMED = new Set(['region', 'main', 'complementary', 'navigation', 'form', 'search', 'banner', 'contentinfo',
    'dialog', 'alertdialog', 'status', 'alert', 'log', 'table', 'grid', 'list', 'figure', 'article', 'tabpanel', 'group']);
  const LIVE = new Set(['status', 'alert', 'log']);

  function lines(call) {
    const st = document[Symbol.for('cdpskill.settle')];
    if (!call || !st || st.call !== call || !st.touched || !st.touched.size) return [];
    const els = new Set();
    for (const n of st.touched) {
      const el = n.nodeType === 1 ? n : n.parentElement;
      if (el && el.isConnected) els.add(el);
    }
    const groups = new Map(); // region element -> {label, where, texts}
    for (const el of els) {
      if (under(el, els)) continue;
      const where = offScreen(el);
      if (!where) continue;
      const text = R.norm(el.innerText || '');
      if (!text) continue;
      const reg = region(el);
      let g = groups.get(reg.el);
      if (!g) groups.set(reg.el, (g = { el: reg.el, label: reg.label, where, texts: [] }));
      g.texts.push(text);
    }
    const list = [...groups.values()].sort((a, b) =>
      a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
    return list.slice(0, MAX_LINES).map((g) =>
      g.label + ' (' + g.where + '): ' + JSON.stringify(cut(g.texts.join(' · '))));
  }

  // under says whether an ancestor of el changed too: its line says it.
  function under(el, els) {
    for (let a = P.parentOf(el); a; a = P.parentOf(a)) if (els.has(a)) return true;
    return false;
  }

  // offScreen is where el is, when it is shown but wholly outside the
  // window: "below", "above", "right" or "left"; '' otherwise.
  function offScreen(el) {
    if (!R.isShown(el)) return '';
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return '';
    if (r.top >= innerHeight) return 'below';
    if (r.bottom <= 0) return 'above';
    if (r.left >= innerWidth) return 'right';
    if (r.right <= 0) return 'left';
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
