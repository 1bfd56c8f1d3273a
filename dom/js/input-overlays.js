// Finds the overlay-type elements (menus, tooltips, popovers, dropdowns)
// that a hover made visible. Phase "before" records which are visible now
// under args.token; phase "after" lets the page run two frames (so
// transitions start and rAF-driven code runs), reports those visible now
// that were not before, outermost only, and forgets the record. An
// overlay a re-rendering page rebuilt in the meantime is the same one if
// it reads the same.
async function hoverOverlays(h, args) {
  const OVERLAY = [
    '[role=tooltip]', '[role=menu]', '[role=menubar]', '[role=listbox]', '[role=dialog]',
    '[role=alertdialog]', '[popover]', '[data-tooltip]',
    '[class*=tooltip i]', '[class*=menu i]', '[class*=dropdown i]', '[class*=popover i]',
    '[class*=popup i]', '[class*=flyout i]', '[class*=overlay i]', '[class*=hovercard i]',
  ].join(',');
  const LIMIT = 10;
  const store = h.handles();

  if (args.phase === 'before') {
    const seen = visibleOverlays();
    store.set(args.token, { before: new Set(seen), keys: new Set(seen.map(key)) });
    return null;
  }
  const entry = store.get(args.token) || { before: new Set(), keys: new Set() };
  store.delete(args.token);
  await frames(2);
  const fresh = visibleOverlays().filter((el) => !entry.before.has(el) && !entry.keys.has(key(el)));
  const outer = fresh.filter((el) => !fresh.some((o) => o !== el && o.contains(el)));
  return { visibleElements: outer.slice(0, LIMIT).map(describe), total: outer.length };

  // visibleOverlays lists the visible overlay candidates: by role and
  // class, plus whatever the hovered element points at with
  // aria-describedby, aria-controls or aria-owns.
  function visibleOverlays() {
    const found = new Set(document.querySelectorAll(OVERLAY));
    const target = args.target && store.get(args.target) && store.get(args.target).el;
    for (let n = target; n && n.nodeType === 1; n = n.parentElement) {
      for (const attr of ['aria-describedby', 'aria-controls', 'aria-owns']) {
        for (const id of h.norm(n.getAttribute(attr)).split(' ')) {
          const ref = id && document.getElementById(id);
          if (ref) found.add(ref);
        }
      }
    }
    return [...found].filter((el) => !h.hiddenReason(el));
  }

  function key(el) {
    return selectorOf(el) + '\n' + h.norm(el.textContent);
  }

  function describe(el) {
    const out = { tag: el.tagName.toLowerCase() };
    const role = h.role(el);
    if (role) out.role = role;
    out.selector = selectorOf(el);
    const refOf = window.__ariaRefOf instanceof WeakMap ? window.__ariaRefOf.get(el) : '';
    if (refOf) out.ref = refOf;
    const text = h.norm(el.innerText || el.textContent);
    if (text) out.text = text.length > 100 ? text.slice(0, 100) + '\u2026' : text;
    return out;
  }

  // selectorOf is a short selector for el: its id when unique, else its
  // tag and first classes.
  function selectorOf(el) {
    if (el.id && document.querySelectorAll('#' + CSS.escape(el.id)).length === 1) return '#' + CSS.escape(el.id);
    const cls = typeof el.className === 'string' ? h.norm(el.className).split(' ').filter(Boolean) : [];
    return el.tagName.toLowerCase() + cls.slice(0, 2).map((c) => '.' + CSS.escape(c)).join('');
  }

  function frames(n) {
    return new Promise((done) => {
      const t = setTimeout(done, 100 * n);
      const step = () => (--n <= 0 ? (clearTimeout(t), done()) : requestAnimationFrame(step));
      requestAnimationFrame(step);
    });
  }
}
