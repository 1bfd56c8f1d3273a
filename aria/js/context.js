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
// A context the line before already says (the card's heading, which the
// lean view shows) is left out.
//
// Containers are found in the DOM, so a card that is a plain div counts;
// the search stays below root (the snapshot's scope). R is ariaRoles().
function ariaContext(R) {
  'use strict';
  const MAX = 50; // a context is a hint, not a name: cut shorter
  const UP = 6; // how far an unnamed control looks for its text
  const SCAN = 400; // elements read, at most, for one first text
  // Where an unnamed control's own place ends.
  const ITEMS = new Set(['li', 'tr', 'dt', 'dd', 'article', 'section', 'fieldset', 'form',
    'dialog', 'table', 'ul', 'ol', 'nav', 'aside', 'main', 'header', 'footer']);
  const ITEM_ROLES = new Set(['row', 'listitem', 'option', 'treeitem', 'article', 'group',
    'radiogroup', 'region', 'dialog', 'alertdialog', 'form', 'list', 'listbox', 'grid',
    'table', 'tree', 'menu', 'menubar', 'toolbar', 'tablist', 'navigation', 'main']);

  // mark sets n.context on the controls of view (a tree of walk nodes)
  // that need one.
  function mark(view, root) {
    const groups = new Map(); // role and label -> [{n, up, heading}]
    collect(view, null, groups, { heading: '' });
    for (const [key, members] of groups) {
      const unnamed = key.endsWith('\0');
      if (!unnamed && (members.length < 2 || toldApart(members))) continue;
      const chains = exclusive(members.map(m => chain(m.n.el, root)));
      const found = members.map((m, i) => unnamed ? nearText(m.n.el, chains[i]) : placeOf(m.n, chains[i]));
      if (!unnamed && found.every(c => c === found[0])) continue; // it tells nothing apart
      members.forEach((m, i) => {
        if (found[i] && found[i] !== m.heading) m.n.context = found[i];
      });
    }
  }

  // collect groups the view's controls by role and name, each with its
  // parent in the view and the heading last shown before it.
  function collect(nodes, up, groups, last) {
    for (const n of nodes) {
      if (n.text !== undefined) continue;
      if (n.role === 'heading') last.heading = cut(n.name);
      if (n.interactive && n.el) {
        const key = n.role + '\0' + (n.name || ownText(n));
        const m = { n, up, heading: last.heading };
        const list = groups.get(key);
        if (list) list.push(m);
        else groups.set(key, [m]);
      }
      collect(n.children, n, groups, last);
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
    for (let cur = up(el); cur && cur !== root; cur = up(cur)) {
      const t = cur.localName;
      if (t === 'body' || t === 'html') break;
      out.push(cur);
    }
    return out;
  }

  function up(el) {
    if (el.parentElement) return el.parentElement;
    const p = el.parentNode;
    return p && p.nodeType === 11 && p.host ? p.host : null;
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

  // nearText is the name or first text of the nearest ancestor that has
  // one, up to the control's row or item.
  function nearText(el, ups) {
    for (let i = 0; i < ups.length && i < UP; i++) {
      const a = ups[i];
      const t = cut(R.norm(R.authoredName(a, a.localName)) || firstText(a, el));
      if (t) return t;
      if (ITEMS.has(a.localName) || ITEM_ROLES.has(a.getAttribute('role'))) break;
    }
    return '';
  }

  // placeOf labels the largest container that holds n alone: its name,
  // first heading, or first text; never n's own name again.
  function placeOf(n, ups) {
    const a = ups[ups.length - 1];
    if (!a) return '';
    const own = n.name || ownText(n);
    for (const f of [nameOf, headingOf, firstText]) {
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

  // firstText is the first run of text in a, up to the first block
  // boundary after it: a row's first cell, a card's title, a to-do's
  // label. Controls (skip among them) lend no text; images their alt.
  function firstText(a, skip) {
    let acc = '';
    let budget = SCAN;
    let done = false;
    const visit = (nodes) => {
      for (const c of nodes) {
        if (done) return;
        if (c.nodeType === 3) {
          acc += c.data;
          continue;
        }
        if (c.nodeType !== 1 || c === skip) continue;
        if (--budget < 0) {
          done = true;
          return;
        }
        const t = c.localName;
        if (R.SKIP.has(t) || R.CONTROLS.has(t) || c.getAttribute('aria-hidden') === 'true') continue;
        const st = c.ownerDocument.defaultView.getComputedStyle(c);
        if (st.display === 'none' || st.visibility !== 'visible') continue;
        if (t === 'img') {
          acc += ' ' + (c.getAttribute('alt') || '') + ' ';
          continue;
        }
        const block = !st.display.startsWith('inline') && st.display !== 'contents';
        if (block && R.norm(acc)) {
          done = true;
          return;
        }
        visit(rendered(c));
        if (block && R.norm(acc)) done = true;
      }
    };
    visit(rendered(a));
    return R.norm(acc);
  }

  // rendered is what shows of el: an open shadow root's content, a
  // slot's assigned nodes, else its children.
  function rendered(el) {
    if (el.shadowRoot) return el.shadowRoot.childNodes;
    if (el.localName === 'slot') {
      const s = el.assignedNodes();
      if (s.length) return s;
    }
    return el.childNodes;
  }

  // cut shortens s to MAX characters, at a word's end when one is near.
  function cut(s) {
    if (s.length <= MAX) return s;
    let n = MAX;
    const space = s.lastIndexOf(' ', n);
    if (space > MAX - 15) n = space;
    const code = s.charCodeAt(n - 1);
    if (code >= 0xd800 && code <= 0xdbff) n--;
    return s.slice(0, n).trimEnd() + '\u2026';
  }

  return { mark };
}
