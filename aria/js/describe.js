// describe gives elements that another page call of this world found
// (an audit's offending elements) refs, and the line a snapshot shows
// for each: `button "Save" [ref=s1e4]`; an unnamed control with the place
// it sits in, `checkbox [ref=s1e5] in "Call mom"`; an element without a
// name with its text, `paragraph [ref=s1e6]: "Sale ends soon"`; the
// document's root, `document "Its title"`, without a ref. Refs are
// minted under the current snapshot number, above the tab's floors, as a
// role query's are, and recorded as a snapshot records them, so that dom
// finds the element again.
//
// The elements wait in window[Symbol.for(a.key)], a Map, under a.held (an
// array); this call takes them.
//
// a: {key, held, snapshotFloor, elementFloor}
// returns {items: [{ref?, line} or null for an element gone from the page],
//          lastSnapshot, lastElement}
function describe(lib, a) {
  'use strict';
  const R = lib.roles();
  const P = lib.places(R);
  const NAME_MAX = 150; // as snapshots cut names
  const TEXT_MAX = 80; // a line's text is a hint
  // The roles walk.js flattens: such an element shows as generic.
  const FLATTEN = new Set(['generic', 'none', 'presentation', 'code', 'emphasis', 'strong', 'deletion',
    'insertion', 'mark', 'subscript', 'superscript', 'time', 'term', 'definition', 'rowgroup', 'caption',
    'document']);

  const store = window[Symbol.for(a.key)];
  const els = (store instanceof Map && store.get(a.held)) || [];
  if (store instanceof Map) store.delete(a.held);
  const refs = lib.refs({ snapshotFloor: a.snapshotFloor, elementFloor: a.elementFloor, bump: false }, P);

  const found = els.map(seen);
  // Elements alike (two unnamed buttons, two "Edit" links) say where
  // they sit, and their refs record it, as a snapshot's do.
  const count = new Map();
  for (const f of found) if (f && !f.page) count.set(f.key, (count.get(f.key) || 0) + 1);
  const items = found.map((f) => f && line(f, count.get(f.key) > 1));
  return Object.assign({ items }, refs.counters());

  // seen is what the agent is shown of el: its role, and its name or
  // failing one its text; null when it left the page.
  function seen(el) {
    if (!el || !el.isConnected) return null;
    if (el === el.ownerDocument.documentElement) return { el, page: true, key: '' };
    const raw = R.roleOf(el, el.localName);
    const role = !raw || FLATTEN.has(raw) ? 'generic' : raw;
    const name = cut(R.accessibleName(el, el.localName, raw), NAME_MAX);
    const text = name ? '' : R.norm(R.domText(el));
    return { el, role, name, text, key: role + '\0' + (name || text) };
  }

  function line(f, alike) {
    if (f.page) {
      const title = cut(R.norm(document.title), NAME_MAX);
      return { line: title ? 'document ' + JSON.stringify(title) : 'document' };
    }
    // An unnamed element is recorded under its text, as dom reads it
    // back (resolve_ref.js nameOf).
    const ref = refs.refFor(f.el, f.role, f.name || cut(f.text, NAME_MAX), scopeOf(f.el), alike);
    let s = f.role;
    if (f.name) s += ' ' + JSON.stringify(f.name);
    s += ' [ref=' + ref + ']';
    const place = alike || (!f.name && !f.text) ? P.placeText(f.el) : '';
    if (place) s += ' in ' + JSON.stringify(place);
    if (f.text) s += ': ' + JSON.stringify(cut(f.text, TEXT_MAX));
    return { ref, line: s };
  }

  // scopeOf is the shadow hosts that lead to el, outermost first, as the
  // walk's scope records them.
  function scopeOf(el) {
    const hosts = [];
    for (let root = el.getRootNode(); root && root.host; root = root.host.getRootNode()) hosts.unshift(root.host);
    return hosts.length ? { hosts, frames: [] } : null;
  }

  function cut(s, max) {
    return s.length <= max ? s : s.slice(0, max) + '\u2026';
  }
}
