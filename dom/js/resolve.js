// The helpers every dom/ operation starts from: target resolution (CSS
// selector or a list of them, aria ref, form label, clickable text,
// focused element) and the rules it needs —
// visibility, ARIA role, accessible name — plus the handle store that pins
// a resolved element between the calls of one action.
//
// Go composes each operation as op(helpers(R, S, P), args), so this
// factory runs on every call and keeps nothing in the page except the
// handle store and, after a ref is re-resolved, the updated entry of
// window.__ariaRefs. R is inpage/roles.js, S inpage/selectors.js, P
// inpage/places.js.
function (R, S, P) {
  const HANDLES = Symbol.for('cdpskill.handles');

  // handles maps a token chosen by Go to {el, probe} for one action.
  function handles() {
    if (!(window[HANDLES] instanceof Map)) window[HANDLES] = new Map();
    return window[HANDLES];
  }

  function norm(s) {
    return String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  }

  function styleOf(el) {
    return el.ownerDocument.defaultView.getComputedStyle(el);
  }

  // flatParent steps up the rendered tree: through slots and shadow hosts.
  function flatParent(n) {
    return n.assignedSlot || n.parentElement || n.getRootNode().host || null;
  }

  // hiddenReason says why a user could not see el (SPEC 8.3), or ''.
  function hiddenReason(el) {
    if (!el.isConnected) return 'detached from the document';
    if (el.hasAttribute('hidden')) return 'has the hidden attribute';
    if (el.getAttribute('aria-hidden') === 'true') return 'aria-hidden="true"';
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
      for (let n = el; n; n = flatParent(n)) {
        const st = styleOf(n);
        const on = n === el ? '' : ' on ' + label(n);
        if (st.display === 'none') return 'display: none' + on;
        if (st.opacity === '0') return 'opacity: 0' + on;
      }
      return 'visibility: ' + styleOf(el).visibility;
    }
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 'zero size (' + r.width + 'x' + r.height + ')';
    return '';
  }

  // ---- ARIA role and accessible name -------------------------------------
  // inpage/roles.js, the module snapshots record a ref's role and name
  // with, so that a re-rendered element is recognised by the same rules.

  function role(el) {
    return R.roleOf(el) || '';
  }

  function accessibleName(el) {
    return R.accessibleName(el);
  }

  function ariaName(el) {
    return norm(R.ariaName(el));
  }

  // ownText is the rendered text of el without form controls inside it, so
  // that a label wrapping a <select> is named by its words only. It reads
  // the flat tree a person sees: a web component's shadow root, and the
  // text slotted into it. skip is an element whose text does not count
  // (the component a label wraps).
  function ownText(el, skip) {
    let out = '';
    const walk = (n) => {
      for (const c of R.renderedChildren(n)) {
        if (c.nodeType === 3) out += c.data;
        if (c.nodeType !== 1 || c === skip || /^(input|select|textarea|button|script|style|template|datalist)$/.test(c.localName)) continue;
        if (c.getAttribute('aria-hidden') === 'true') continue;
        const st = styleOf(c);
        if (st.display === 'none' || st.visibility !== 'visible') continue;
        const gap = st.display.startsWith('inline') ? '' : ' ';
        out += gap;
        if (c.localName === 'img') out += c.getAttribute('alt') || '';
        else if (c.getAttribute('aria-label')) out += c.getAttribute('aria-label');
        else walk(c);
        out += gap;
      }
    };
    walk(el);
    return norm(out);
  }

  // ---- target resolution --------------------------------------------------

  function fail(status, message, extra) {
    return { error: Object.assign({ status, message }, extra || {}) };
  }

  function visibleOrFirst(list) {
    return list.find((el) => !hiddenReason(el)) || list[0] || null;
  }

  function bySelector(sel, root) {
    root = root || document;
    let first;
    try {
      first = root.querySelector(sel);
    } catch (e) {
      return fail('invalidSelector', e.message, { selector: sel });
    }
    if (!first) return fail('notFound', '');
    // A hidden first match (a collapsed mobile menu, a template) usually
    // has a visible twin further down: that is the one the agent means.
    const el = hiddenReason(first) ? visibleOrFirst([...root.querySelectorAll(sel)]) : first;
    return { el, reResolved: false };
  }

  // bySelectors tries each selector in order (SPEC 6.6): the first with a
  // visible match wins; failing that, the first with any match, so that
  // the actionability loop can wait for it or force it.
  function bySelectors(list) {
    let fallback = null;
    for (let i = 0; i < list.length; i++) {
      const r = bySelector(list[i]);
      if (r.error) {
        if (r.error.status === 'invalidSelector') return r;
        continue;
      }
      if (!hiddenReason(r.el)) return Object.assign(r, { index: i });
      if (!fallback) fallback = Object.assign(r, { index: i });
    }
    return fallback || fail('notFound', '');
  }

  // ---- click by text (SPEC 6.4) ---------------------------------------------

  const CLICKABLE_TIERS = [
    'button, input[type=button], input[type=submit], input[type=reset]',
    'a[href]',
    '[role=button]',
    // Widget roles a user clicks by their name: options of a listbox or
    // combobox, tabs, menu items, checkboxes, switches, tree items, cells,
    // and the headers that sort a column.
    '[role=link], [role=option], [role=tab], [role=menuitem], [role=menuitemcheckbox], ' +
      '[role=menuitemradio], [role=checkbox], [role=radio], [role=switch], [role=treeitem], ' +
      '[role=gridcell], [aria-sort]',
    '[onclick], [tabindex], label, summary',
  ];

  // textsOf is what a user could call el: its accessible name and, when
  // different (an icon button named by aria-label), its visible text.
  function textsOf(el) {
    const name = accessibleName(el);
    const text = el.localName === 'input' ? '' : ownText(el);
    return text && text !== name ? [name, text] : [name];
  }

  // byText finds the visible clickable element whose name or text matches:
  // a whole-text match (case-insensitive, or exact when asked) anywhere
  // beats a substring match, since "Save" should not pick "Save draft"
  // over a link that says exactly "Save". Within a pass, tiers go in
  // SPEC 6.4 order; among substring matches of one tier the shortest text
  // is the closest one.
  function byText(text, exact, within) {
    let scope = document;
    if (within) {
      try {
        scope = document.querySelector(within);
      } catch (e) {
        return fail('invalidSelector', e.message, { selector: within });
      }
      if (!scope) return fail('notFound', 'nothing matches withinSelector ' + JSON.stringify(within));
    }
    const want = norm(text);
    const lower = want.toLowerCase();
    const passes = exact ? [(t) => t === want] : [(t) => t.toLowerCase() === lower];
    if (!exact) passes.push((t) => t.toLowerCase().includes(lower));
    // A web component's button or checkbox lives in its shadow root, its
    // words slotted in from the page: it is searched where it shows.
    const tiers = CLICKABLE_TIERS.map((sel) => deepAll(scope, sel));
    const texts = new Map(); // computed once for both passes
    const textsFor = (el) => {
      if (!texts.has(el)) texts.set(el, textsOf(el));
      return texts.get(el);
    };
    // With a modal dialog open, what is under it is inert to a person:
    // its matches count only when the dialog has none.
    const modal = topModal();
    const found = (modal && search((e) => holds(modal, e))) || search(null);
    // partial: the text is only part of the element's (the second pass).
    return found ? { el: found.el, reResolved: false, partial: found.partial } : fail('notFound', '');

    function search(keep) {
      for (let pass = 0; pass < passes.length; pass++) {
        for (const tier of tiers) {
          let best = [], bestLen = Infinity;
          for (const el of tier) {
            if (keep && !keep(el)) continue;
            const hit = textsFor(el).find((t) => t && passes[pass](t));
            if (hit === undefined || hiddenReason(el)) continue;
            const len = pass === 0 ? 0 : hit.length;
            // The first whole match a person reaches is the one.
            if (len === 0 && (modal || uncovered(el))) return { el, partial: false };
            if (len < bestLen) [best, bestLen] = [[], len];
            if (len === bestLen) best.push(el);
          }
          if (best.length) return { el: reachable(best, modal), partial: pass > 0 };
        }
      }
      return null;
    }
  }

  // ---- several matches: the one a person reaches ------------------------

  // topModal is the modal dialog open over the page, or null: a <dialog>
  // shown with showModal(), else the last shown element marked
  // aria-modal (a library portals its newest dialog last).
  function topModal() {
    const open = document.querySelectorAll('dialog[open], [aria-modal="true"]');
    for (let i = open.length - 1; i >= 0; i--) {
      const d = open[i];
      if ((d.localName !== 'dialog' || d.matches(':modal')) && !hiddenReason(d)) return d;
    }
    return null;
  }

  // reachable picks, of elements that match alike, the first a person can
  // reach: inside the open modal dialog (what is under it is inert to
  // them), else one no other element covers. Covered ones come last, not
  // never: the actionability wait then says what covers it.
  function reachable(list, modal) {
    if (list.length < 2) return list[0];
    const score = (el) => {
      if (modal) return holds(modal, el) ? 2 : 0;
      return uncovered(el) ? 1 : 0;
    };
    let best = list[0], top = score(best);
    for (let i = 1; i < list.length && top < 2; i++) {
      const v = score(list[i]);
      if (v > top) [best, top] = [list[i], v];
    }
    return best;
  }

  // holds says whether el is outer or inside it, in the rendered tree.
  function holds(outer, el) {
    for (let n = el; n; n = flatParent(n)) if (n === outer) return true;
    return false;
  }

  // uncovered says whether the point at el's centre reaches el; one out
  // of view cannot be told from one covered, and counts as reached.
  function uncovered(el) {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const view = el.ownerDocument.defaultView;
    if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return true;
    let at = el.ownerDocument.elementFromPoint(x, y);
    while (at && at.shadowRoot) {
      const inner = at.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === at) break;
      at = inner;
    }
    // On text slotted into it, the point finds the component's host.
    return !!at && (holds(el, at) || (at.shadowRoot && holds(at, el)) || (at.localName === 'label' && at.control === el));
  }

  // ---- refs (SPEC 6.3) ---------------------------------------------------------

  // shadowRoots lists every open shadow root under root, depth first.
  function shadowRoots(root, out) {
    out = out || [];
    for (const el of hostsIn(root)) {
      out.push(el.shadowRoot);
      shadowRoots(el.shadowRoot, out);
    }
    return out;
  }

  // deepAll lists the elements under root (a document, a shadow root or an
  // element) that match sel, open shadow roots included, in the order a
  // person reads them: a host's shadow content where the host stands.
  function deepAll(root, sel) {
    const hits = [...root.querySelectorAll(sel)];
    const hosts = hostsIn(root);
    const own = root.nodeType === 1 && root.shadowRoot ? deepAll(root.shadowRoot, sel) : [];
    if (!hosts.length) return own.concat(hits);
    // Merge the two lists, both in document order, and put each host's
    // shadow matches right after it.
    const out = own;
    let i = 0;
    for (const host of hosts) {
      while (i < hits.length && (hits[i] === host || hits[i].compareDocumentPosition(host) & Node.DOCUMENT_POSITION_FOLLOWING)) {
        out.push(hits[i++]);
      }
      for (const el of deepAll(host.shadowRoot, sel)) out.push(el);
    }
    while (i < hits.length) out.push(hits[i++]);
    return out;
  }

  // hostsIn lists the elements under root with an open shadow root, once
  // per resolution.
  const hostLists = new Map();
  function hostsIn(root) {
    let list = hostLists.get(root);
    if (!list) {
      list = [];
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) list.push(el);
      hostLists.set(root, list);
    }
    return list;
  }

  // frameDocs lists the documents of every same-origin frame under doc.
  function frameDocs(doc, out) {
    out = out || [];
    for (const f of doc.querySelectorAll('iframe, frame')) {
      let d = null;
      try { d = f.contentDocument; } catch (e) { /* cross-origin */ }
      if (d) {
        out.push(d);
        frameDocs(d, out);
      }
    }
    return out;
  }

  // followFramePath walks the iframe selectors aria/ recorded, from the
  // top document down, to the document the ref's element lived in.
  function followFramePath(path) {
    let doc = document;
    for (const sel of path) {
      let f = null;
      try { f = doc.querySelector(sel); } catch (e) { return null; }
      let d = null;
      try { d = f && f.contentDocument; } catch (e) { /* cross-origin */ }
      if (!d) return null;
      doc = d;
    }
    return doc;
  }

  function followShadowPath(doc, path) {
    let root = doc;
    for (const sel of path) {
      let host = null;
      try { host = root.querySelector(sel); } catch (e) { return null; }
      if (!host || !host.shadowRoot) return null;
      root = host.shadowRoot;
    }
    return root;
  }

  // nameMatcher compares names case-insensitively and whole. aria/ cuts
  // long names with '…', so a cut stored name matches by its prefix.
  function nameMatcher(stored) {
    let want = norm(stored).toLowerCase();
    const cut = want.endsWith('\u2026');
    if (cut) want = want.slice(0, -1);
    return (name) => {
      const have = norm(name).toLowerCase();
      return cut ? have.startsWith(want) : have === want;
    };
  }

  // snapRole is el's role as a snapshot line shows it: an element with no
  // role of its own (a clickable div) is generic.
  function snapRole(el) {
    const r = role(el);
    return !r || FLATTENED.has(r) ? 'generic' : r;
  }

  // The roles aria/js/walk.js flattens: an interactive element with one
  // is a generic line.
  const FLATTENED = new Set(['generic', 'none', 'presentation', 'code', 'emphasis', 'strong', 'deletion',
    'insertion', 'mark', 'subscript', 'superscript', 'time', 'term', 'definition', 'rowgroup', 'caption',
    'document']);

  // nameOf is what a ref records as el's name: its accessible name, or
  // without one its text.
  function nameOf(el) {
    return accessibleName(el) || ownText(el);
  }

  // isSame says whether el is the element meta describes, in the agent's
  // eyes (aria/js/refs.js): the same role, name, tag and input type, and
  // when the name did not tell it apart, the same place (its row). The
  // cheap checks go first: a ref to a clickable div weighs every div.
  function isSame(el, meta) {
    if (meta.tag && el.localName !== meta.tag) return false;
    if (meta.type && el.type !== meta.type) return false;
    if (snapRole(el) !== meta.role) return false;
    if (meta.role === 'generic' && !mayRead(el, meta.name)) return false;
    if (meta.place !== undefined && P.placeText(el) !== meta.place) return false;
    return nameMatcher(meta.name)(nameOf(el));
  }

  // mayRead is false when el's text cannot hold name: a generic element
  // is named by its text (or its aria-label or title), which its
  // textContent holds.
  function mayRead(el, name) {
    const want = norm(name).replace(/\u2026$/, '').toLowerCase();
    if (!want || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title')) return true;
    return norm(el.textContent).toLowerCase().includes(want);
  }

  // inPlace says whether a ref's element, still in the page, is still
  // the one the ref named: in the same row, and not refilled with a look-
  // alike's content by a framework that reuses elements by position (it
  // now bears the name another ref of its role was given; a name of its
  // own, Follow then Following, is the same element renamed).
  function inPlace(el, ref, meta, metas) {
    if (!meta) return true;
    if (meta.place !== undefined && P.placeText(el) !== meta.place) return false;
    const now = nameOf(el);
    if (nameMatcher(meta.name)(now) || !norm(now)) return true;
    // A grid recycles its cells: one that names another value shows
    // another row (aria/js/refs.js refilled).
    if (meta.role === 'gridcell' && meta.name) return false;
    for (const [r, m] of metas) {
      if (r !== ref && m && m.role === meta.role && nameMatcher(m.name)(now)) return false;
    }
    return true;
  }

  // candidatesIn lists the elements under root that may be meta's: its
  // tag, else its role.
  function candidatesIn(root, meta) {
    const sel = meta.tag ? CSS.escape(meta.tag) : R.roleSelector([meta.role]);
    try {
      return [...root.querySelectorAll(sel)];
    } catch (e) {
      return [];
    }
  }

  // reResolve finds the element a stale ref stands for (SPEC 6.3, 13.4):
  // one that is the same element in the agent's eyes (isSame), in the
  // document its frame path leads to and under its shadow host path; then
  // in every shadow root of that document if the ref came from one; then
  // in every same-origin frame if it came from a frame. A guess is no
  // answer (null, as for none): a look-alike with no place to know it by,
  // or an element whose name told it apart but now does not (two "Save"
  // buttons). Identical rows are one to the agent: the one at the stored
  // selector, else the first. skip is an element known not to be it.
  function reResolve(meta, skip) {
    if (meta.alike && !meta.place) return null;
    const { doc, root, framed, inShadow } = rootOf(meta);
    const roots = root ? [root] : [];
    if (inShadow) roots.push(...shadowRoots(doc || document));
    if (framed) {
      for (const d of frameDocs(document)) {
        if (d !== doc) roots.push(...(inShadow ? shadowRoots(d) : [d]));
      }
    }
    for (const r of roots) {
      const same = candidatesIn(r, meta).filter((el) => el !== skip && isSame(el, meta));
      if (!same.length) continue;
      if (same.length === 1) return same[0];
      if (meta.place === undefined) return null;
      let at = null;
      try { at = meta.selector ? r.querySelector(meta.selector) : null; } catch (e) { /* recorded by another page version */ }
      return at && same.includes(at) ? at : same[0];
    }
    return null;
  }

  // describeEl names el as the agent reads it: its role, its name, and
  // its place when the name does not tell it apart from others on the
  // page — `checkbox in "Pay rent"`, `button "Save"`.
  function describeEl(el) {
    const r = snapRole(el);
    const name = hintOf(nameOf(el));
    let s = r + (name ? ' ' + JSON.stringify(name) : '');
    if (!name || sharesName(el, r, name)) {
      const place = P.placeText(el);
      if (place) s += ' in ' + JSON.stringify(place);
    }
    return s;
  }

  function hintOf(name) {
    return P.hint(norm(name));
  }

  function sharesName(el, r, name) {
    const want = name.toLowerCase();
    for (const o of candidatesIn(el.getRootNode(), { tag: el.localName, role: r })) {
      if (o !== el && snapRole(o) === r && hintOf(nameOf(o)).toLowerCase() === want) return true;
    }
    return false;
  }

  // describeMeta names the element a meta recorded, as describeEl would
  // have.
  function describeMeta(meta) {
    const name = hintOf(meta.name);
    let s = (meta.role || 'element') + (name ? ' ' + JSON.stringify(name) : '');
    if (meta.place) s += ' in ' + JSON.stringify(meta.place);
    return s;
  }

  // rootOf is the document a ref's frame path leads to and the root its
  // shadow host path leads to there (null when either is gone).
  function rootOf(meta) {
    const framed = !!(meta.frame && meta.frame.length);
    const inShadow = !!(meta.shadowPath && meta.shadowPath.length);
    const doc = framed ? followFramePath(meta.frame) : document;
    const root = doc && (inShadow ? followShadowPath(doc, meta.shadowPath) : doc);
    return { doc, root, framed, inShadow };
  }

  // standingNow lists what stands where a gone ref's element was, at most
  // five visible elements of its kind, each described with its ref and
  // selector: those with its name, or a name that holds it or that it
  // holds (a renamed button), then those in the container its row was in
  // (the list: the parent of the last place its selector counts, as in
  // li:nth-of-type(2)), or else the nearest that still holds any. where
  // is that container's role.
  function standingNow(meta) {
    const { root } = rootOf(meta);
    if (!root) return { now: [], where: '' };
    const kind = (el) => snapRole(el) === meta.role && (!meta.type || el.type === meta.type) && !hiddenReason(el);
    const picked = [];
    const add = (el) => { if (picked.length < 5 && !picked.includes(el)) picked.push(el); };
    const all = candidatesIn(root, meta).filter(kind);
    const want = norm(meta.name).replace(/\u2026$/, '').toLowerCase();
    if (want) {
      all.filter((el) => nameMatcher(meta.name)(nameOf(el))).forEach(add);
      // Then a name that holds it or that it holds: renamed, in a way.
      for (const el of all) {
        const have = norm(nameOf(el)).toLowerCase();
        if (have && (have.includes(want) || want.includes(have))) add(el);
      }
    }
    let where = '';
    const parts = (meta.selector || '').split(' > ');
    let row = parts.length - 1;
    while (row > 0 && !parts[row].includes(':nth-of-type(')) row--;
    for (let n = row > 0 ? row : parts.length - 1; n > 0 && picked.length < 5; n--) {
      let box = null;
      try { box = root.querySelector(parts.slice(0, n).join(' > ')); } catch (e) { break; }
      const inside = box ? all.filter((el) => box.contains(el)) : [];
      if (!inside.length) continue;
      inside.forEach(add);
      where = role(box) || '';
      break;
    }
    const now = picked.map((el) => {
      const hint = { text: describeEl(el), selector: S.selectorFor(el) };
      const ref = refNow(el);
      if (ref) hint.ref = ref;
      return hint;
    });
    return { now, where };
  }

  // refNow is the ref an element that stands where a gone one was goes
  // by, for the agent to act on at once: its own while that still names
  // it, else a new one under the current snapshot number, kept as
  // aria/js/refs.js keeps refs (an element of a frame or a shadow root,
  // whose path that needs, gets none).
  function refNow(el) {
    const w = window;
    const refs = w.__ariaRefs, metas = w.__ariaRefMeta, of = w.__ariaRefOf;
    if (!(refs instanceof Map) || !(metas instanceof Map) || !(of instanceof WeakMap)) return '';
    let ref = of.get(el);
    if (ref && refs.get(ref) === el && inPlace(el, ref, metas.get(ref), metas)) return ref;
    if (el.getRootNode() !== document || typeof w.__ariaElementId !== 'number') return '';
    ref = 's' + (w.__ariaSnapshotId | 0) + 'e' + (++w.__ariaElementId);
    refs.set(ref, el);
    of.set(el, ref);
    let name = norm(nameOf(el));
    if (name.length > NAME_MAX) name = name.slice(0, NAME_MAX) + '\u2026';
    const meta = { selector: S.selectorFor(el), role: snapRole(el), name, tag: el.localName, place: P.placeText(el), alike: true };
    if (el.localName === 'input') meta.type = el.type;
    metas.set(ref, meta);
    return ref;
  }
  const NAME_MAX = 150; // as aria/js/walk.js cuts names

  // stale is the failure of a ref whose element is gone: what it was and
  // what stands there now.
  function stale(meta) {
    const there = standingNow(meta);
    return fail('stale', '', { role: meta.role || '', name: meta.name || '', gone: describeMeta(meta), now: there.now, where: there.where });
  }

  // unknownRef explains a ref this document never issued. Element numbers
  // at or below __ariaDocFloor were handed out by an earlier document of
  // this tab (aria/ starts a new document's counters above the tab's), so
  // such a ref is from before a navigation: stale, not mistyped.
  function unknownRef(ref, hasRefs) {
    const m = /^s(\d+)e(\d+)$/.exec(ref);
    const floor = window.__ariaDocFloor;
    const snap = m ? 's' + Number(m[1]) : '';
    if (m && typeof floor === 'number' && Number(m[2]) <= floor) {
      return fail('navigated', '', { snapshot: snap });
    }
    if (!hasRefs) return fail('navigated', '', { snapshot: snap, noRefs: true });
    const last = window.__ariaSnapshotId;
    return fail('unknownRef', last ? 'no snapshot of this page issued it (the latest is s' + last + ')' : 'no snapshot of this page issued it');
  }

  // byRef finds a ref's element: the one the ref holds while it is in the
  // page and still in its place; else the element that is the same one in
  // the agent's eyes (a re-render replaced it, or a framework that reuses
  // rows by position put another row's content in it), re-pointing the
  // ref; else the failure says what stands there now. A found replacement
  // is described (target), so the output says what was acted on.
  function byRef(ref) {
    const refs = window.__ariaRefs instanceof Map ? window.__ariaRefs : null;
    const metas = window.__ariaRefMeta instanceof Map ? window.__ariaRefMeta : null;
    const el = refs && refs.get(ref);
    const meta = metas && metas.get(ref);
    if (!el && !meta) return unknownRef(ref, !!(refs || metas));
    if (el && el.isConnected && inPlace(el, ref, meta, metas)) return { el, reResolved: false };
    if (!meta) return fail('stale', '', { role: '', name: '' });
    const found = reResolve(meta, el && el.isConnected ? el : null);
    if (!found) return stale(meta);
    // The ref now names the replacement, so later calls take the fast path.
    if (refs) refs.set(ref, found);
    if (window.__ariaRefOf instanceof WeakMap && !window.__ariaRefOf.has(found)) {
      window.__ariaRefOf.set(found, ref);
    }
    return { el: found, reResolved: true };
  }

  const FIELDS = 'input:not([type=hidden]), textarea, select, [contenteditable]:not([contenteditable=false]), ' +
    '[role=checkbox], [role=switch], [role=radio], [role=textbox]';

  // labelCandidates yields [text, control] pairs in SPEC 6.4 priority order,
  // in the document and in every open shadow root: a web component's
  // <label> and <input> live in its shadow root, its words slotted in or
  // given as its label attribute, and a <label> around the component or
  // pointing at it cannot reach into it, so its field is the one the
  // component holds (fieldOf). A <label>'s pair carries the label too: a
  // styled checkbox hides its input and shows the label, which is what a
  // person sees and clicks.
  function* labelCandidates() {
    const roots = [document, ...shadowRoots(document)];
    for (const root of roots) {
      for (const l of root.querySelectorAll('label[for]')) {
        const c = l.control ? fieldOf(l.control) : fieldOf(hostById(root, l.htmlFor));
        yield [ownText(l, c), c, l];
      }
    }
    for (const root of roots) {
      for (const l of root.querySelectorAll('label:not([for])')) {
        const host = l.control ? null : hostIn(l);
        const c = l.control ? fieldOf(l.control) : fieldOf(host);
        yield [ownText(l, host), c, l];
      }
    }
    for (const root of roots) {
      for (const host of hostsIn(root)) {
        if (host.hasAttribute('label')) yield [norm(host.getAttribute('label')), fieldOf(host)];
      }
    }
    const fields = deepAll(document, FIELDS);
    for (const f of fields) if (f.hasAttribute('aria-label')) yield [norm(f.getAttribute('aria-label')), f];
    for (const f of fields) if (f.hasAttribute('aria-labelledby')) yield [ariaName(f), f];
    // A checkbox or switch drawn by the page (a role on a component's
    // host) says its label itself: its words, slotted in.
    for (const f of fields) if (f.localName !== 'input' && f.hasAttribute('role')) yield [accessibleName(f), f];
    for (const f of fields) if (f.hasAttribute('placeholder')) yield [norm(f.getAttribute('placeholder')), f];
  }

  // hostById is the web component a label's for names, or null.
  function hostById(root, id) {
    const el = id && root.getElementById ? root.getElementById(id) : null;
    return el && el.shadowRoot ? el : null;
  }

  // hostIn is the first web component inside a label, or null.
  function hostIn(l) {
    for (const el of l.querySelectorAll('*')) if (el.shadowRoot) return el;
    return null;
  }

  // fieldOf is the field a labelled element stands for: itself when it
  // is one (a form-associated component with its own role), else the
  // field its shadow root holds, the first visible one.
  function fieldOf(el) {
    if (!el || !el.shadowRoot || el.matches(FIELDS)) return el || null;
    const inner = deepAll(el.shadowRoot, FIELDS);
    return inner.find((f) => !hiddenReason(f)) || inner[0] || el;
  }

  // bare is a label as it reads without the marks forms print around it:
  // "Email *", "Alert volume:", "Name (required)" are Email, Alert volume
  // and Name.
  function bare(t) {
    let s = norm(t).toLowerCase(), was;
    do {
      was = s;
      s = s.replace(/^[*\s]+/, '').replace(/(?:\s*(?:[*:\uff1a]|\((?:required|optional)\)))+$/, '').trim();
    } while (s !== was);
    return s;
  }

  // byLabel prefers an exact match at any priority over a loose one, since
  // "Email" should not pick the "Email me offers" checkbox's neighbour;
  // then a match of the label's words without its marks ("Email *" is
  // Email), then its words within a label's.
  function byLabel(text, exact) {
    const want = norm(text);
    const plain = bare(want);
    const passes = [(t) => t === want];
    if (!exact && plain) {
      passes.push((t) => bare(t) === plain);
      passes.push((t) => bare(t).includes(plain));
    }
    const modal = topModal();
    const el = (modal && search((e) => holds(modal, e))) || search(null);
    return el ? { el, reResolved: false } : fail('notFound', '');

    function search(keep) {
      for (const pass of passes) {
        const found = [];
        for (const [t, el, lab] of labelCandidates()) {
          if (!el || !t || !pass(t) || (keep && !keep(el)) || found.includes(el)) continue;
          if (hiddenReason(el) && !shownByLabel(el, lab) && !(el.localName === 'textarea' && R.editor.inputOf(el))) continue;
          if (modal || uncovered(el)) return el;
          found.push(el);
        }
        if (found.length) return reachable(found, modal);
      }
      return null;
    }
  }

  // shownByLabel: a hidden checkbox or radio whose label shows.
  function shownByLabel(el, lab) {
    return !!lab && el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio') && !hiddenReason(lab);
  }

  // deepActiveElement follows focus into shadow roots and same-origin frames.
  function deepActiveElement() {
    let a = document.activeElement;
    for (;;) {
      if (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      else if (a && (a.tagName === 'IFRAME' || a.tagName === 'FRAME') && a.contentDocument) a = a.contentDocument.activeElement;
      else return a;
    }
  }

  // focusedElement is what has keyboard focus, null when nothing does:
  // a document's body counts only when it is the field itself (an
  // editor's frame in design mode, or a contenteditable body).
  function focusedElement() {
    const a = deepActiveElement();
    if (!a) return null;
    const doc = a.ownerDocument;
    if ((a === doc.body || a === doc.documentElement) && !a.isContentEditable && doc.designMode !== 'on') return null;
    return a;
  }

  function focused() {
    const a = focusedElement();
    return a ? { el: a, reResolved: false } : fail('notFound', 'no element has focus');
  }

  // resolve turns a target {kind, value, values, within, exact} into
  // {el, reResolved, index?, partial?} or {error: {status, message, ...}};
  // index is which of several selectors matched, partial that a text is
  // only part of the element's.
  function resolve(t) {
    hostLists.clear(); // the page may have changed since the last one
    switch (t.kind) {
      case 'selector': return bySelector(t.value);
      case 'ref': return byRef(t.value);
      case 'label': return byLabel(t.value, t.exact);
      case 'text': return byText(t.value, t.exact, t.within);
      case 'selectors': return bySelectors(t.values || []);
      case 'focused': return focused();
    }
    return fail('invalidTarget', 'unknown target kind ' + t.kind);
  }

  // ---- descriptions ------------------------------------------------------

  // label is a short CSS-like name for el: div#overlay.modal.open
  function label(el) {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = typeof el.className === 'string' ? norm(el.className).split(' ').filter(Boolean) : [];
    if (cls.length) s += '.' + cls.slice(0, 3).join('.');
    return s;
  }

  const KINDS = [
    [/cookie/i, 'cookie-banner'],
    [/consent|gdpr|privacy/i, 'consent-dialog'],
    [/modal|dialog|lightbox/i, 'modal'],
    [/popup|popover/i, 'popup'],
    [/toast|notification|snackbar|banner/i, 'notification'],
    [/overlay|backdrop|mask|curtain|spinner|loading/i, 'overlay'],
  ];

  // kindOf guesses what sort of layer an interceptor belongs to, from it
  // and its nearest ancestors.
  function kindOf(el) {
    for (let n = el, depth = 0; n && n.nodeType === 1 && depth < 6; n = n.parentElement, depth++) {
      const r = (n.getAttribute('role') || '').toLowerCase();
      if (r === 'dialog' || r === 'alertdialog' || n.tagName === 'DIALOG' || n.getAttribute('aria-modal') === 'true') {
        const hay = (n.id || '') + ' ' + (typeof n.className === 'string' ? n.className : '');
        return /cookie/i.test(hay) ? 'cookie-banner' : /consent|gdpr|privacy/i.test(hay) ? 'consent-dialog' : 'modal';
      }
      const hay = (n.id || '') + ' ' + (typeof n.className === 'string' ? n.className : '') + ' ' + (n.getAttribute('aria-label') || '');
      for (const [re, kind] of KINDS) if (re.test(hay)) return kind;
      if (r === 'alert' || r === 'status') return 'notification';
    }
    return '';
  }

  function describe(el) {
    const out = { tag: el.tagName.toLowerCase() };
    if (el.id) out.id = el.id;
    if (typeof el.className === 'string' && norm(el.className)) out.class = norm(el.className);
    const text = norm(el.innerText || el.textContent).slice(0, 50);
    if (text) out.text = text;
    const kind = kindOf(el);
    if (kind) out.kind = kind;
    return out;
  }

  return { handles, resolve, hiddenReason, role, accessibleName, ownText, deepActiveElement, focusedElement, describe, describeEl, label,
    editor: R.editor,
    styleOf, norm, selectorFor: S.selectorFor, placeOf: P.placeText,
    clickables: CLICKABLE_TIERS.join(', '), fields: FIELDS };
}
