// Refs (SPEC 6.3): the element a snapshot's ref names while it is in the
// page and in its place; else the one that is the same element in the
// agent's eyes, found again; else what stands where it was. A module of
// resolve.js; R is inpage/roles.js, S inpage/selectors.js, P
// inpage/places.js, B resolve_base.js and D resolve_deep.js.
function resolveRef(R, S, P, B, D) {
  const { norm, fail, hiddenReason, role, accessibleName, ownText } = B;
  const { shadowRoots, frameDocs, followFramePath, followShadowPath } = D;

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

  return { byRef, describeEl };
}
