// queryRoles finds the shown elements of the top document and its open
// shadow roots that have one of the given ARIA roles and pass the name and state filters (SPEC 6.5,
// 11.3), and gives each result a ref (reusing the one it has).
//
// q: {roles, name, nameExact, nameRegex, checked, disabled, level,
//     countOnly, limit, snapshotFloor, elementFloor}
// returns {total, results: [{ref, role, name, text, checked, disabled,
//          expanded, pressed, selected, level, value}], framesNotSearched,
//          lastSnapshot, lastElement}
//      or {error: 'invalidPattern', message}
function queryRoles(lib, q) {
  'use strict';
  const R = lib.roles();
  const S = lib.states(R);
  const NAME_MAX = 150;
  let re = null;
  if (q.nameRegex) {
    try {
      re = new RegExp(q.nameRegex.replace(/^\(\?i\)/, ''), 'i');
    } catch (e) {
      return { error: 'invalidPattern', message: String(e && e.message || e) };
    }
  }
  const roles = new Set(q.roles);
  const sub = R.norm(q.name).toLowerCase();
  const exact = typeof q.nameExact === 'string' ? R.norm(q.nameExact) : null;
  const limit = q.limit > 0 ? q.limit : 10;
  const refs = q.countOnly ? null : lib.refs({ snapshotFloor: q.snapshotFloor, elementFloor: q.elementFloor, bump: false }, lib.places(R));

  const results = [];
  let total = 0;
  const sel = R.roleSelector(q.roles);
  for (const [root, scope] of roots()) for (const el of root.querySelectorAll(sel)) {
    const tag = el.localName;
    const role = R.roleOf(el, tag);
    if (!roles.has(role) || (tag === 'input' && el.type === 'hidden') || !R.isShown(el)) continue;
    const st = S.stateOf(el, tag, role);
    if (!statesMatch(st)) continue;
    const name = R.accessibleName(el, tag, role);
    if (!nameMatches(name)) continue;
    total++;
    if (refs && results.length < limit) results.push(describe(el, tag, role, cut(name), st, scope));
  }
  const res = { total, results };
  // Frames are not searched: say so, so that no match never reads as
  // none on the page.
  const frames = [...document.querySelectorAll('iframe, frame')].filter((f) => R.isShown(f)).length;
  if (frames) res.framesNotSearched = frames;
  return refs ? Object.assign(res, refs.counters()) : res;

  function statesMatch(st) {
    // Mixed is neither checked nor unchecked.
    if (typeof q.checked === 'boolean' && st.checked !== (q.checked ? 'true' : 'false')) return false;
    if (typeof q.disabled === 'boolean' && !!st.disabled !== q.disabled) return false;
    if (q.level > 0 && st.level !== q.level) return false;
    return true;
  }

  function nameMatches(name) {
    if (exact !== null && name !== exact) return false;
    if (sub && !name.toLowerCase().includes(sub)) return false;
    if (re && !re.test(name)) return false;
    return true;
  }

  // roots lists the document and its open shadow roots, depth first, each
  // with the scope its refs record (the hosts that lead to it): a web
  // component's controls are the page's.
  function roots() {
    const out = [[document, null]];
    const walk = (root, hosts) => {
      for (const el of root.querySelectorAll('*')) {
        const sr = el.shadowRoot;
        if (!sr) continue;
        const inner = hosts.concat([el]);
        out.push([sr, { hosts: inner, frames: [] }]);
        walk(sr, inner);
      }
    };
    walk(document, []);
    return out;
  }

  function describe(el, tag, role, name, st, scope) {
    const m = { ref: refs.refFor(el, role, name, scope), role };
    if (name) m.name = name;
    if (st.checked !== undefined) m.checked = st.checked === 'mixed' ? 'mixed' : st.checked === 'true';
    if (st.disabled) m.disabled = true;
    if (st.expanded !== undefined) m.expanded = st.expanded;
    if (st.pressed) m.pressed = st.pressed === 'mixed' ? 'mixed' : true;
    if (st.selected) m.selected = true;
    if (st.level) m.level = st.level;
    const v = S.valueOf(el, tag, role);
    if (v !== undefined) m.value = v;
    else {
      // What it shows, when its name does not say it: a list item's or a
      // row's content, a heading named by aria-label.
      const text = R.norm(el.innerText || '');
      if (text && !sameAs(text, name)) m.text = cut(text);
    }
    return m;
  }

  // sameAs: the text is the name, which may have been cut.
  function sameAs(text, name) {
    return text === name || (name.endsWith('\u2026') && text.startsWith(name.slice(0, -1)));
  }

  function cut(s) {
    return s.length <= NAME_MAX ? s : s.slice(0, NAME_MAX) + '\u2026';
  }
}
