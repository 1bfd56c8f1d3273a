// ariaPlaces says where an element sits, in words: the name or first
// text of the row, list item or card around it ("Call mom" for a to-do's
// checkbox). The flattened views print it as ` in "…"` (aria's
// context.js), and a ref records it to know its element again after a
// re-render (aria's refs.js, dom's resolve_ref.js): a checkbox with no name
// is the checkbox in "Call mom", not the second checkbox. R is
// ariaRoles().
function ariaPlaces(R) {
  'use strict';

  const HINT_MAX = 50; // a place is a hint, not a name: cut shorter
  const PLACE_UP = 6; // how far an element looks for its place's text
  const PLACE_SCAN = 400; // elements read, at most, for one first text
  const LETTER = /\p{L}/u;
  // Where an element's own place ends.
  const ITEMS = new Set(['li', 'tr', 'dt', 'dd', 'article', 'section', 'fieldset', 'form',
    'dialog', 'table', 'ul', 'ol', 'nav', 'aside', 'main', 'header', 'footer']);
  const ITEM_ROLES = new Set(['row', 'listitem', 'option', 'treeitem', 'article', 'group',
    'radiogroup', 'region', 'dialog', 'alertdialog', 'form', 'list', 'listbox', 'grid',
    'table', 'tree', 'menu', 'menubar', 'toolbar', 'tablist', 'navigation', 'main']);

  // parentOf steps up to el's parent element, or out of a shadow root to
  // its host.
  function parentOf(el) {
    if (el.parentElement) return el.parentElement;
    const p = el.parentNode;
    return p && p.nodeType === 11 && p.host ? p.host : null;
  }

  // placeText is the place of el among its ancestors up to body.
  // Its words only: a count or a score beside a control ("Apples 3", a
  // vote's "12") changes as it is used, and a ref must know its element
  // after its own click. In a grid's row the numbers stay: its first cell
  // is the row's key ("Order #734"), and a virtualized grid refills the
  // same row elements with other rows as it scrolls.
  function placeText(el) {
    const ups = [];
    let words = true;
    for (let a = parentOf(el); a && ups.length < PLACE_UP; a = parentOf(a)) {
      if (a.localName === 'body' || a.localName === 'html') break;
      ups.push(a);
      if (words && R.roleOf(a) === 'row' && a.closest('[role=grid], [role=treegrid]')) words = false;
    }
    return nearText(el, ups, words);
  }

  // nearText is the name or first text of the nearest of ups (el's
  // ancestors, nearest first) that has one, up to el's row or item, and
  // failing text of its own, the name of its first other button or link
  // (a row that says what it is only there: a checkbox beside a button
  // "Buy milk"); with words, of its words (tokens with a letter) only.
  function nearText(el, ups, words) {
    const only = (s) => (words ? wordsOf(s) : s);
    for (let i = 0; i < ups.length && i < PLACE_UP; i++) {
      const a = ups[i];
      let t = only(R.norm(R.authoredName(a, a.localName)) || firstText(a, el)) || only(R.norm(controlName(a, el)));
      t = hint(t);
      if (t) return t;
      if (ITEMS.has(a.localName) || ITEM_ROLES.has(a.getAttribute('role'))) break;
    }
    return '';
  }

  function wordsOf(s) {
    return s.split(' ').filter((w) => LETTER.test(w)).join(' ');
  }

  // controlName is the name of the first button or link in a that is not
  // el and does not hold it.
  function controlName(a, el) {
    for (const c of a.querySelectorAll('button,a[href],[role=button],[role=link]')) {
      if (c === el || c.contains(el)) continue;
      const name = R.accessibleName(c);
      if (name) return name;
    }
    return '';
  }

  // firstText is the first run of text in a, up to the first block
  // boundary after it: a row's first cell, a card's title, a to-do's
  // label. Controls (skip among them) lend no text; images their alt.
  function firstText(a, skip) {
    let acc = '';
    let budget = PLACE_SCAN;
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
        const st = R.styleOf(c);
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

  // hint shortens s to HINT_MAX characters, at a word's end when one is
  // near.
  function hint(s) {
    if (s.length <= HINT_MAX) return s;
    let n = HINT_MAX;
    const space = s.lastIndexOf(' ', n);
    if (space > HINT_MAX - 15) n = space;
    const code = s.charCodeAt(n - 1);
    if (code >= 0xd800 && code <= 0xdbff) n--;
    return s.slice(0, n).trimEnd() + '\u2026';
  }

  return { parentOf, placeText, nearText, firstText, hint };
}
