// Looks for an element that is not in the page yet through the page's
// scrolling containers (issue 22): a virtualized list or grid (AG Grid,
// MUI DataGrid, TanStack Virtual, react-window) renders only the rows in
// its scroller's view, so the row an agent names exists only once that
// scroller has been scrolled to it, as a person would.
//
// args: {target} (a dom target: what resolve finds) or {query: {text,
// pattern, role, exact}} (snapshotSearch's criteria, matched against an
// element's role and text); budget, the ms the search may take; peek, how
// long a step may wait for the page to re-render what it scrolled to.
// With whole, a text target that resolves to an element whose text it is
// only part of ("Order #73" in "Order #730") has the scrolling container
// around that element searched for one whose whole text it is, when that
// container re-renders its rows as it scrolls (see whole below).
//
// The containers are every element of the document and its open shadow
// roots that scrolls vertically (overflow auto, scroll or overlay, with
// more content than room) and is shown; the window itself is not one
// (scrollUntilVisible's page steps are). Those on screen come first, and
// among them the ones that hold rows (inside or holding a grid, treegrid,
// table, listbox, list, tree or feed, or rows with aria-rowindex), then
// the larger. Each is scrolled down from where it stands to its end, a
// view of it at a time less one row's overlap, then from its top back to
// where it stood, waiting after each step for the frame in which the page
// re-renders its rows (and for the DOM to go quiet, bounded by peek). A
// container whose DOM does not change when scrolled holds all it has: it
// is looked at once at its end (where an infinite list loads more), not
// step by step. A container that grows as it nears its end (an infinite
// feed fetched more) has what came looked at once and is not scrolled
// further down: the search must not page through a feed. The search
// stops at the first match, which is centred in its container; every
// container searched in vain is put back where it was.
//
// Reply: {found, container, by} (the container's role and name as the
// snapshot shows them, or its CSS-like label, and how far it was
// scrolled: positive is down), {found: false, searched: [containers]},
// {found: false, shown: true} when the text is in the page already (not
// in something a click by text takes: no scrolling shows another),
// {found: true} when the target was there all along, or {hopeless: true}
// when no scrolling can find it (an invalid selector, an unknown ref).
async function searchScrollers(h, a) {
  const start = performance.now();
  const deadline = start + Math.max(0, a.budget || 0);
  const peek = a.peek || 100;
  // Roles around a container that say it holds rows, and roles that say
  // nothing of what it holds.
  const ROWS = new Set(['grid', 'treegrid', 'table', 'listbox', 'list', 'tree', 'feed']);
  const PLAIN = new Set(['', 'generic', 'none', 'presentation', 'rowgroup', 'group', 'row']);
  const ATTRS = 1, CONTENT = 2; // what a scroll changed (settle)
  let loose = null; // a query's cheap test of a container

  if (a.whole) return whole();
  const match = matcher();
  if (!match) return { hopeless: true };
  const first = match(null);
  if (first === false) return { hopeless: true };
  if (first) return { found: true };
  // Text the page shows already names something there that a click by
  // text does not take (a plain cell, a heading): scrolling finds no other.
  if (a.target && a.target.kind === 'text' && shows(squeeze(a.target.value))) {
    return { found: false, shown: true };
  }

  return searchIn(scrollers(), match);

  // whole answers a.whole: the text a click found is only part of the
  // element's ("Order #73" in "Order #730"), a row of a scrolling
  // container; if that container renders only some of its rows, the
  // element whose whole text it is may be a row not rendered, which is
  // the one meant. The container is searched for it when its first step
  // shows it re-renders its rows (one that holds all its rows would have
  // shown it already; it is put back); the reply is {found: true} when
  // there is nothing to search.
  function whole() {
    const r = h.resolve(a.target);
    if (r.error || isWhole(r.el)) return { found: true };
    let c = r.el.parentElement;
    while (c && c !== document.body && !(c.scrollHeight > c.clientHeight + 1 && /(auto|scroll|overlay)/.test(h.styleOf(c).overflowY))) {
      c = c.parentElement;
    }
    if (!c || c === document.body) return { found: true };
    const want = squeeze(a.target.value);
    return searchIn([c], (box) => {
      if (box && !squeeze(box.textContent).includes(want)) return null;
      const m = h.resolve(a.target);
      return !m.error && isWhole(m.el) ? m.el : null;
    }, true);
  }

  function isWhole(el) {
    const want = h.norm(a.target.value).toLowerCase();
    return [h.accessibleName(el), h.ownText(el)].some((t) => h.norm(t).toLowerCase() === want);
  }

  // searchIn searches the containers of list in turn with match (only
  // those that re-render their rows, when virtualOnly).
  async function searchIn(list, match, virtualOnly) {
    const searched = [];
    for (const c of list) {
      if (performance.now() > deadline) break;
      const from = c.scrollTop;
      const el = await search(c, match, virtualOnly);
      if (el) {
        el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
        await frame();
        return { found: true, container: name(c), by: Math.round(c.scrollTop - from) };
      }
      searched.push(name(c));
      if (c.scrollTop !== from) {
        c.scrollTop = from;
        await frame();
      }
    }
    return { found: false, searched, timedOut: performance.now() > deadline };
  }

  // ---- what is looked for --------------------------------------------

  function squeeze(s) {
    return String(s || '').replace(/\s+/g, '').toLowerCase();
  }

  // shows says whether the page shows the squeezed text want: its
  // textContent holds script data (a server-rendered app's inlined
  // state, __NEXT_DATA__), templates and hidden menus too, so a text
  // found there is looked for again in what is rendered (innerText).
  function shows(want) {
    const body = document.body;
    if (!body || !squeeze(body.textContent).includes(want)) return false;
    return squeeze(body.innerText).includes(want);
  }

  // matcher returns match(container), which returns the element found,
  // null, or false when no scrolling can help.
  function matcher() {
    if (a.target) {
      const resolve = () => {
        const r = h.resolve(a.target);
        if (!r.error) return r.el;
        return r.error.status === 'notFound' || r.error.status === 'stale' ? null : false;
      };
      if (a.target.kind !== 'text') return resolve;
      // Text is first looked for in the container's text and labels,
      // which costs far less than resolving it in the whole page.
      const want = squeeze(a.target.value);
      const attr = JSON.stringify(h.norm(a.target.value));
      return (c) => {
        if (c && !squeeze(c.textContent).includes(want) &&
          !c.querySelector('[aria-label*=' + attr + ' i], [title*=' + attr + ' i], [value*=' + attr + ' i]')) return null;
        return resolve();
      };
    }
    const q = a.query || {};
    let test;
    if (q.text) {
      // Cheap first: the container's text, spaces left out.
      const want = squeeze(q.text);
      loose = (c) => squeeze(c.textContent).includes(want) ||
        !!c.querySelector('[aria-label], [title]');
    }
    if (q.pattern) {
      let re;
      try {
        re = new RegExp(q.pattern, 'i');
      } catch (e) {
        return null;
      }
      test = (s) => re.test(s);
    } else if (q.text) {
      const want = h.norm(q.text);
      const lower = want.toLowerCase();
      test = q.exact ? (s) => s === want : (s) => s.toLowerCase().includes(lower);
    } else if (!q.role) {
      return null;
    }
    return (c) => {
      if (!c) return null; // a query is answered by the snapshot search itself first
      return find(c, q.role, test);
    };
  }

  // find is the deepest shown element in c with the role whose name or
  // text passes test: a row's cell, not the row.
  function find(c, role, test) {
    if (loose && !loose(c)) return null;
    let best = null;
    for (const el of c.querySelectorAll('*')) {
      if (role && h.role(el) !== role) continue;
      if (test) {
        const text = h.norm(el.textContent);
        if (!test(text) && !test(h.norm(h.accessibleName(el)))) continue;
      }
      if (h.hiddenReason(el)) continue;
      if (!best || best.contains(el)) best = el;
    }
    return best;
  }

  // ---- the containers -------------------------------------------------

  function scrollers() {
    const out = [];
    const roots = [document];
    for (let i = 0; i < roots.length; i++) {
      for (const el of roots[i].querySelectorAll('*')) {
        if (el.shadowRoot) roots.push(el.shadowRoot);
        if (el.scrollHeight <= el.clientHeight + 1 || el.clientHeight < 16) continue;
        if (el === document.body || el === document.documentElement) continue;
        if (!/(auto|scroll|overlay)/.test(h.styleOf(el).overflowY) || h.hiddenReason(el)) continue;
        out.push(el);
      }
    }
    if (a.target && a.target.within) {
      let scope = null;
      try { scope = document.querySelector(a.target.within); } catch (e) { /* resolve says so */ }
      if (scope) return rank(out.filter((c) => scope.contains(c) || c.contains(scope)));
    }
    return rank(out);
  }

  function rank(list) {
    const vw = window.innerWidth, vh = window.innerHeight;
    const score = (c) => {
      const r = c.getBoundingClientRect();
      const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
      const hgt = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
      return { seen: w * hgt > 0 ? 1 : 0, rows: holdsRows(c) ? 1 : 0, area: r.width * r.height };
    };
    const s = new Map(list.map((c) => [c, score(c)]));
    return list.sort((x, y) => {
      const p = s.get(x), q = s.get(y);
      return q.seen - p.seen || q.rows - p.rows || q.area - p.area;
    });
  }

  function holdsRows(c) {
    for (let n = c, depth = 0; n && n.nodeType === 1 && depth < 6; n = n.parentElement, depth++) {
      if (ROWS.has(h.role(n))) return true;
    }
    return !!c.querySelector('[aria-rowindex], [role=row], [role=option], [role=listitem], [role=treeitem], li, tr');
  }

  // name is the container as the snapshot shows it: the role and name of
  // it or of its nearest ancestor with a role that says what it holds
  // (a grid's scroller is an unnamed div inside the grid), else its
  // CSS-like label.
  function name(c) {
    for (let n = c, depth = 0; n && n.nodeType === 1 && n !== document.body && depth < 8; n = parentOf(n), depth++) {
      const role = h.role(n);
      if (PLAIN.has(role)) continue;
      const nm = h.norm(h.accessibleName(n)).slice(0, 60);
      return nm ? role + ' ' + JSON.stringify(nm) : role;
    }
    return h.label(c);
  }

  function parentOf(n) {
    return n.parentElement || (n.getRootNode() && n.getRootNode().host) || null;
  }

  // ---- scrolling -------------------------------------------------------

  // search scrolls c down from where it stands to its end, then from its
  // top back to where it stood, and returns the element found, or null.
  // With virtualOnly, a c whose rows do not change on its first step is
  // not searched further.
  async function search(c, match, virtualOnly) {
    const from = c.scrollTop;
    const tall = c.scrollHeight;
    const step = Math.max(c.clientHeight / 2, c.clientHeight - Math.max(32, c.clientHeight / 10));
    let moves = null; // whether scrolling c changes the DOM: known after its first step
    // fed says whether c grew on a step that began within a few views of
    // its end, as an infinite feed does when it fetches more (or by half
    // of what it was, however far): a list that corrects its height as it
    // measures rows mid-way is not one.
    const fed = (before, end) => c.scrollHeight - c.clientHeight > end + 1 &&
      (end - before <= 3 * c.clientHeight || c.scrollHeight > tall * 1.5);
    for (const pass of [0, 1]) {
      if (pass === 1) {
        if (from <= 0) break;
        c.scrollTop = 0;
        await settle(c, moves === false ? 0 : peek);
        const el = match(c);
        if (el) return el;
      }
      for (;;) {
        if (performance.now() > deadline) return null;
        const before = c.scrollTop;
        if (pass === 1 && before >= from) break;
        const end = c.scrollHeight - c.clientHeight;
        if (moves === false) {
          // All of it is in the DOM already: only its end may load more,
          // which is looked at once.
          if (pass === 1 || before >= end - 1) return null;
          c.scrollTop = end;
          await settle(c, peek * 3);
          return match(c) || null;
        }
        c.scrollTop = pass === 1 ? Math.min(before + step, from) : before + step;
        const changed = await settle(c, moves === null ? peek : 0);
        const first = moves === null;
        if (first) moves = changed > 0;
        const el = match(c);
        if (el) return el;
        if (first && virtualOnly && changed < CONTENT) return null;
        if (pass === 0 && fed(before, end)) break; // what came was looked at
        if (c.scrollTop <= before) {
          // At its end: an infinite list may load more there, looked at
          // once.
          if (pass === 1 || !(await settle(c, peek * 3))) break;
          const more = match(c);
          if (more) return more;
          break;
        }
      }
    }
    return null;
  }

  // settle waits for the frame in which the page answers a scroll (its
  // scroll handlers, then its animation frame callbacks), then, if the
  // DOM changed, until it has been quiet for a frame; with nothing
  // changed it waits up to wait ms for a change. It says what changed:
  // 0 nothing, ATTRS attributes only (rows moved, a class toggled),
  // CONTENT elements or text (rows rendered); wait + peek * 3 bound it.
  function settle(c, wait) {
    return new Promise((done) => {
      let changed = 0;
      let framed = false;
      let quiet = null;
      const limit = setTimeout(finish, Math.max(wait, 0) + peek * 3);
      const observer = new MutationObserver((records) => {
        changed = Math.max(changed, records.some((r) => r.type !== 'attributes') ? CONTENT : ATTRS);
        if (!framed) return;
        clearTimeout(quiet);
        quiet = setTimeout(finish, 16);
      });
      observer.observe(c, { subtree: true, childList: true, characterData: true, attributes: true });
      frame().then(() => {
        framed = true;
        if (changed) quiet = setTimeout(finish, 0); // unless more comes
        else if (wait > 0) quiet = setTimeout(finish, wait);
        else finish();
      });
      function finish() {
        observer.disconnect();
        clearTimeout(limit);
        clearTimeout(quiet);
        done(changed);
      }
    });
  }

  // frame resolves after the next frame's animation frame callbacks
  // (those the page registers while it handles a scroll run in it too),
  // or after 100 ms when the tab renders no frames.
  function frame() {
    return new Promise((done) => {
      const t = setTimeout(done, 100);
      requestAnimationFrame(() => setTimeout(() => { clearTimeout(t); done(); }, 0));
    });
  }
}
