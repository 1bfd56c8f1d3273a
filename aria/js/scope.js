// ariaScope finds the app's root on a page without main (SPEC 7.4): when
// navigation, complementary, banner, contentinfo or search landmarks, or
// a sidebar by its class or id, hold many controls (a docs sidebar of 84
// links), the snapshot scopes to the largest element beside them that
// holds most of the rest of the page (its controls, headings and
// paragraphs), and says what it left out. A page whose content is its
// body (a form, a small page, content loose in the body or spread over
// several parts) stays whole. R is ariaRoles(); cut shortens names as the
// walk does.
function ariaScope(R, cut) {
  'use strict';
  const LEFT = new Set(['navigation', 'complementary', 'banner', 'contentinfo', 'search']);
  const BIG = 20; // controls that make a landmark worth leaving out
  const MOST = 0.75; // the share of the other controls the root must hold
  const CONTROLS = 'a[href],area[href],button,input,select,textarea,summary,[role],[tabindex],[contenteditable],[onclick]';
  const CONTENT = CONTROLS + ',h1,h2,h3,h4,h5,h6,p';
  const SIDEBAR = /^side-?(bar|nav)(?![a-z])/i; // sidebar, Sidebar_root__x1, side-nav-left

  // appRoot returns {el, note} or null (the body it is).
  function appRoot(body) {
    const doc = body.ownerDocument;
    const marks = new Set();
    for (const el of doc.querySelectorAll('nav,aside,header,footer,search,[role]')) {
      if (el !== body && body.contains(el) && LEFT.has(R.roleOf(el)) && R.isShown(el)) marks.add(el);
    }
    // A sidebar by its name is one only when no other mark is inside it:
    // "sidebar-layout" may be the whole page.
    const named = [];
    for (const el of doc.querySelectorAll('[class*=side i],[id*=side i]')) {
      const cls = typeof el.className === 'string' ? el.className : '';
      if (el === body || !body.contains(el) || marks.has(el)) continue;
      if (!cls.split(/\s+/).some(c => SIDEBAR.test(c)) && !SIDEBAR.test(el.id)) continue;
      if (R.isInteractive(el, el.localName, R.roleOf(el), false) || !R.isShown(el)) continue;
      named.push(el);
    }
    for (const el of named) {
      if (!named.some(o => o !== el && el.contains(o)) && ![...marks].some(m => el.contains(m))) marks.add(el);
    }
    if (!marks.size) return null;
    const tally = new Map(); // landmark -> {all, links}
    const rest = []; // the content outside every landmark
    const loose = new Set(); // the controls among it
    for (const el of body.querySelectorAll(CONTENT)) {
      const tag = el.localName;
      const control = tag === 'input' ? el.type !== 'hidden' : R.isInteractive(el, tag, R.roleOf(el, tag), false);
      if (!control && !/^(h[1-6]|p)$/.test(tag) || !el.checkVisibility()) continue;
      const mark = outermost(el, body, marks);
      if (!mark) {
        rest.push(el);
        if (control) loose.add(el);
      } else if (control) {
        const t = tally.get(mark) || { all: 0, links: 0 };
        t.all++;
        if (tag === 'a') t.links++;
        tally.set(mark, t);
      }
    }
    const big = [...tally].filter(([, t]) => t.all >= BIG).map(([m]) => m);
    if (!big.length || !loose.size) return null;

    // Each element's candidate is its largest ancestor beside the big
    // landmarks: the one whose parent holds one of them.
    const holds = new Set();
    for (const m of big) for (let a = m.parentElement; a && a !== body; a = a.parentElement) holds.add(a);
    const votes = new Map();
    for (const el of rest) {
      let c = el;
      while (c.parentElement && c.parentElement !== body && !holds.has(c.parentElement)) c = c.parentElement;
      if (c !== el) votes.set(c, (votes.get(c) || 0) + 1);
    }
    let root = null;
    let best = 0;
    for (const [c, n] of votes) {
      if (n > best) [root, best] = [c, n];
    }
    if (!root || best < MOST * rest.length) return null;

    const out = [];
    const left = [...marks].filter(m => !root.contains(m) && isTop(m, body, marks) &&
      (LEFT.has(R.roleOf(m)) || big.includes(m)));
    left.sort((a, b) => a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
    for (const m of left) {
      const t = tally.get(m);
      const role = R.roleOf(m);
      const name = cut(R.norm(R.authoredName(m, m.localName)));
      let s = (LEFT.has(role) ? role : 'sidebar') + (name ? ' ' + JSON.stringify(name) : '');
      if (t) s += ' (' + t.all + (t.links === t.all ? ' links)' : ' controls)');
      out.push(s);
    }
    let others = 0;
    for (const el of loose) if (!root.contains(el)) others++;
    if (others) out.push(others + (others === 1 ? ' other control' : ' other controls'));
    return {
      el: root,
      note: '# scoped to ' + selectorOf(root, doc) + '; left out: ' + out.join(', ') +
        ' \u2014 use {root:"body"} for all',
    };
  }

  // outermost is the outermost landmark that holds el, if any.
  function outermost(el, body, marks) {
    let found = null;
    for (let a = el.parentElement; a && a !== body; a = a.parentElement) if (marks.has(a)) found = a;
    return found;
  }

  function isTop(m, body, marks) {
    for (let a = m.parentElement; a && a !== body; a = a.parentElement) if (marks.has(a)) return false;
    return true;
  }

  // selectorOf is a short selector for the root, valid as the root
  // option: a unique #id or tag.class, else a path from body.
  function selectorOf(el, doc) {
    const unique = (s) => doc.querySelectorAll(s).length === 1;
    if (el.id && unique('#' + CSS.escape(el.id))) return '#' + CSS.escape(el.id);
    for (const c of el.classList) {
      const s = el.localName + '.' + CSS.escape(c);
      if (unique(s)) return s;
    }
    const parts = [];
    for (let cur = el; cur && cur.localName !== 'body'; cur = cur.parentElement) {
      if (cur !== el && cur.id && unique('#' + CSS.escape(cur.id))) {
        parts.push('#' + CSS.escape(cur.id));
        return parts.reverse().join(' > ');
      }
      const same = [...cur.parentElement.children].filter(c => c.localName === cur.localName);
      parts.push(cur.localName + (same.length > 1 ? ':nth-of-type(' + (same.indexOf(cur) + 1) + ')' : ''));
    }
    parts.push('body');
    return parts.reverse().join(' > ');
  }

  // crowded leaves out of the report's lean view (a flat list of walk
  // nodes, render.js) the landmarks and sidebars on screen that hold BIG
  // controls or more: a docs sidebar would otherwise repeat its links in
  // every result. One that holds the focus stays, and so does everything
  // when nothing else on screen is a control. It returns the view without
  // them and a note naming each, with how many controls it shows (a
  // scrolling sidebar holds more) and the root that shows them all.
  function crowded(view) {
    const doc = document;
    const count = new Map(); // outermost landmark or sidebar -> {all, links}
    let loose = 0;
    const each = (nodes, f) => {
      for (const n of nodes) {
        if (n.text !== undefined) continue;
        f(n);
        each(n.children, f);
      }
    };
    const owner = new Map(); // node -> its landmark, or null
    each(view, (n) => {
      const m = n.el ? outerMark(n.el) : null;
      owner.set(n, m);
      if (!n.interactive) return;
      if (!m) {
        loose++;
        return;
      }
      const t = count.get(m) || { all: 0, links: 0 };
      t.all++;
      if (n.role === 'link') t.links++;
      count.set(m, t);
    });
    const focus = doc.activeElement;
    const out = [...count].filter(([m, t]) => t.all >= BIG && !(focus && m.contains(focus))).map(([m]) => m);
    if (!out.length || !loose) return { view, note: '' };
    const drop = new Set(out);
    const keep = (nodes) => nodes.filter(n => n.text !== undefined || !drop.has(owner.get(n)))
      .map(n => n.text !== undefined ? n : Object.assign({}, n, { children: keep(n.children) }));
    const parts = out.map((m) => {
      const t = count.get(m);
      const role = R.roleOf(m);
      const name = cut(R.norm(R.authoredName(m, m.localName)));
      return (LEFT.has(role) ? role : 'sidebar') + (name ? ' ' + JSON.stringify(name) : '') +
        ' (' + t.all + (t.links === t.all ? ' links' : ' controls') + ' in view: snapshot {root:' + JSON.stringify(selectorOf(m, doc)) + '})';
    });
    return { view: keep(view), note: '# left out: ' + parts.join(', ') };
  }

  // outerMark is the outermost landmark of a LEFT role, or sidebar by
  // its name, that holds el, if any; never one that holds the page's main
  // (a "sidebar-layout" may be the whole page).
  function outerMark(el) {
    let found = null;
    for (let a = el.parentElement; a && a.localName !== 'body'; a = a.parentElement) {
      if (isMark(a)) found = a;
    }
    return found;
  }

  const marked = new Map(); // element -> isMark, for one call
  function isMark(a) {
    let m = marked.get(a);
    if (m === undefined) {
      m = (LEFT.has(R.roleOf(a)) || isSidebar(a)) && !a.querySelector('main,[role=main]');
      marked.set(a, m);
    }
    return m;
  }

  // isSidebar: named a sidebar, and not a layout around other landmarks.
  function isSidebar(el) {
    const cls = typeof el.className === 'string' ? el.className : '';
    return (SIDEBAR.test(el.id) || cls.split(/\s+/).some(c => SIDEBAR.test(c))) &&
      !R.isInteractive(el, el.localName, R.roleOf(el), false) &&
      !el.querySelector('nav,aside,header,footer,search,[role=navigation],[role=complementary],[role=banner],[role=contentinfo],[role=search]');
  }

  return { appRoot, crowded };
}
