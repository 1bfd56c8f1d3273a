// ariaContext tells apart the controls a flattened view shows alike: the
// interactive level and the report's lean view no longer show the row,
// list item or card a control sits in, so mark gives some controls the
// label of that place, which render prints as ` in "Buy milk"`:
//
//   - an unnamed control (no name, no text of its own): the text nearest
//     to it, at most up to its row or list item (a to-do's checkbox);
//   - controls that share a role and name in the view (six "Add to
//     cart" buttons): the name, first heading or first text of the
//     largest container that holds only one of them (its card or row),
//     when that tells them apart and the view's tree does not already.
//
// Every such control says where it sits on its own line, even where the
// lean view shows its card's heading just above: a line an agent picks
// out must say which one it is.
//
// Containers are found in the DOM, so a card that is a plain div counts;
// the search stays below root (the snapshot's scope). R is ariaRoles(),
// P ariaPlaces(R), whose places this shares with refs.
function ariaContext(R, P) {
  'use strict';
  const cut = P.hint;

  // mark sets n.context on the controls of view (a tree of walk nodes)
  // that need one.
  function mark(view, root) {
    const groups = new Map(); // role and label -> [{n, up}]
    collect(view, null, groups);
    for (const [key, members] of groups) {
      const unnamed = key.endsWith('\0');
      if (!unnamed && (members.length < 2 || toldApart(members))) continue;
      const chains = exclusive(members.map(m => chain(m.n.el, root)));
      const found = members.map((m, i) => unnamed ? P.nearText(m.n.el, chains[i]) : placeOf(m.n, chains[i]));
      if (!unnamed && found.every(c => c === found[0])) continue; // it tells nothing apart
      members.forEach((m, i) => {
        if (found[i]) m.n.context = found[i];
      });
    }
  }

  // collect groups the view's controls by role and name, each with its
  // parent in the view.
  function collect(nodes, up, groups) {
    for (const n of nodes) {
      if (n.text !== undefined) continue;
      if (n.interactive && n.el) {
        const key = n.role + '\0' + (n.name || ownText(n));
        const m = { n, up };
        const list = groups.get(key);
        if (list) list.push(m);
        else groups.set(key, [m]);
      }
      collect(n.children, n, groups);
    }
  }

  function ownText(n) {
    let s = '';
    for (const c of n.children) if (c.text !== undefined) s += (s ? ' ' : '') + c.text;
    return s;
  }

  // toldApart: the tree already shows each of them under a parent of its
  // own with a name (group "Plan", group "Billing").
  function toldApart(members) {
    const seen = new Set();
    for (const m of members) {
      const label = m.up ? m.up.name || ownText(m.up) : '';
      if (!label) return false;
      const key = m.up.role + '\0' + label;
      if (seen.has(key)) return false;
      seen.add(key);
    }
    return true;
  }

  // chain is el's ancestors, nearest first, below root and body, through
  // the shadow roots el is in.
  function chain(el, root) {
    const out = [];
    for (let cur = P.parentOf(el); cur && cur !== root; cur = P.parentOf(cur)) {
      const t = cur.localName;
      if (t === 'body' || t === 'html') break;
      out.push(cur);
    }
    return out;
  }

  // exclusive cuts each chain before the first ancestor that holds
  // another member too.
  function exclusive(chains) {
    const count = new Map();
    for (const c of chains) for (const a of c) count.set(a, (count.get(a) || 0) + 1);
    return chains.map(c => {
      const i = c.findIndex(a => count.get(a) > 1);
      return i < 0 ? c : c.slice(0, i);
    });
  }

  // placeOf labels the largest container that holds n alone: its name,
  // first heading, or first text; never n's own name again.
  function placeOf(n, ups) {
    const a = ups[ups.length - 1];
    if (!a) return '';
    const own = n.name || ownText(n);
    for (const f of [nameOf, headingOf, P.firstText]) {
      const t = cut(f(a, n.el));
      if (t && t !== own) return t;
    }
    return '';
  }

  function nameOf(a) {
    return R.norm(R.authoredName(a, a.localName));
  }

  function headingOf(a) {
    for (const h of a.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]')) {
      if (R.roleOf(h) === 'heading' && R.isShown(h)) return R.accessibleName(h, h.localName, 'heading');
    }
    return '';
  }

  return { mark };
}
