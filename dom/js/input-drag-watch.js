// Watches the page through a drag, so that Go can pace it and say what it
// did. By args.phase, under args.token:
//
//   start  records DOM mutations and HTML5 drag events (dragstart, drop,
//          the last dragover and whether the page cancelled it, which is
//          how a drop target accepts), and where the source element
//          (args.source, a pinned token) sits: its list and index.
//   over   reports the mutations so far, whether a native drag started
//          and whether the last dragover reached the target (args.target)
//          and was accepted.
//   hold   waits, 400 ms at most, for the page's animations to finish
//          (rows sliding out of the way) before the button is released.
//   stop   waits for the drop's animations and the page's answer (3 s
//          at most), then reports what it saw and where the source is
//          now: moved when it changed lists or places. A source the page
//          re-rendered is found again by its tag and text.
async function (h, args) {
  const store = h.handles();
  if (args.phase === 'start') {
    const rec = { mutations: 0, dragstart: false, drop: false, over: null };
    rec.observer = new MutationObserver((list) => { rec.mutations += list.length; });
    rec.observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
    const on = (e) => {
      if (e.type === 'dragover') rec.over = e;
      else rec[e.type] = true;
    };
    rec.types = ['dragstart', 'dragover', 'drop'];
    for (const t of rec.types) window.addEventListener(t, on, true);
    rec.remove = () => { for (const t of rec.types) window.removeEventListener(t, on, true); };
    const src = pinned(args.source);
    if (src) rec.source = { el: src, tag: src.localName, text: h.norm(src.textContent), place: placeOf(src) };
    store.set(args.token, rec);
    return null;
  }
  const rec = store.get(args.token);
  if (!rec) return { mutations: 0, dragstart: false, drop: false };
  if (args.phase === 'over') {
    const tgt = pinned(args.target);
    const on = rec.over && rec.over.target;
    rec.mutations += rec.observer.takeRecords().length;
    return {
      mutations: rec.mutations, dragstart: rec.dragstart,
      accepted: !!on && (!tgt || tgt.contains(on) || on.contains(tgt)) && rec.over.defaultPrevented,
    };
  }
  if (args.phase === 'hold') {
    await quiet(400, 0);
    return null;
  }
  store.delete(args.token);
  await quiet(1500, 0);
  rec.mutations += rec.observer.takeRecords().length;
  rec.observer.disconnect();
  rec.remove();
  const out = { mutations: rec.mutations, dragstart: rec.dragstart, drop: rec.drop };
  const over = rec.over && rec.over.target;
  const landedOn = over && over.nodeType === 1 && over.isConnected ? over : pinned(args.target);
  if (landedOn) {
    out.landed = h.describeEl(landedOn.closest('li, [role=listitem], [role=option], [role=row], [draggable=true]') || landedOn);
    const list = containerOf(landedOn);
    if (list && nameOf(list)) out.landed += ' in ' + JSON.stringify(nameOf(list));
    out.accepted = !!rec.over && rec.over.defaultPrevented;
  }
  if (rec.source) {
    judge(out);
    // A page that answers the drop late (a timer after its own settle)
    // gets a quiet half second more before the source is said to have
    // stayed.
    if (!out.moved && rec.mutations > 0) {
      rec.observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
      await quiet(1500, 500);
      rec.observer.disconnect();
      judge(out);
    }
  }
  return out;

  function judge(o) {
    const now = findAgain(rec.source);
    const before = rec.source.place;
    o.judged = !!now;
    if (!now) return;
    const place = placeOf(now);
    o.moved = place.list !== before.list || place.index !== before.index || place.parent !== before.parent;
    o.place = describePlace(place);
  }

  function pinned(token) {
    const entry = token && store.get(token);
    return entry && entry.el && entry.el.isConnected ? entry.el : null;
  }

  // placeOf is where el sits: its list (else its parent) and its index
  // there.
  function placeOf(el) {
    const list = containerOf(el);
    const items = itemsOf(list || el.parentElement);
    const item = items.find((i) => i === el || i.contains(el)) || el;
    return { list, parent: el.parentElement, index: items.indexOf(item), count: items.length };
  }

  function containerOf(el) {
    return el.closest('ul, ol, [role=list], [role=listbox], [role=grid], [role=tree], tbody');
  }

  function itemsOf(list) {
    if (!list) return [];
    return [...list.children].filter((c) => c.nodeType === 1 && !h.hiddenReason(c));
  }

  // nameOf names a list by its label, else by the heading above it in
  // its column.
  function nameOf(list) {
    const own = h.norm(h.accessibleName(list));
    if (own) return own;
    for (let n = list, i = 0; n && i < 3; n = n.parentElement, i++) {
      const hd = n.querySelector('h1, h2, h3, h4, h5, h6, [role=heading]');
      if (hd && !list.contains(hd)) return h.norm(hd.textContent);
    }
    return '';
  }

  function describePlace(p) {
    if (!p.list || p.index < 0) return 'where it was';
    const name = nameOf(p.list);
    return 'item ' + (p.index + 1) + ' of ' + p.count + (name ? ' in ' + JSON.stringify(name) : '');
  }

  // findAgain is the source, or the one element of its tag and text a
  // re-render put in its stead.
  function findAgain(s) {
    if (s.el.isConnected) return s.el;
    const same = [...document.getElementsByTagName(s.tag)].filter((e) => h.norm(e.textContent) === s.text);
    return same.length === 1 ? same[0] : null;
  }

  // quiet resolves once two frames, and calmMs, passed with no running
  // animation and no DOM change, or after ms. A background tab may not
  // paint, so a timer stands in for a frame that does not come.
  function quiet(ms, calmMs) {
    const end = Date.now() + ms;
    return new Promise((done) => {
      let frames = 0;
      let since = Date.now();
      rec.mutations += rec.observer.takeRecords().length;
      let seen = rec.mutations;
      const tick = () => {
        rec.mutations += rec.observer.takeRecords().length;
        const busy = rec.mutations !== seen || document.getAnimations().some((a) => a.playState === 'running');
        seen = rec.mutations;
        if (busy) { frames = 0; since = Date.now(); } else frames++;
        if ((frames >= 2 && Date.now() - since >= (calmMs || 0)) || Date.now() >= end) return done();
        next();
      };
      const next = () => {
        let fired = false;
        const go = () => { if (!fired) { fired = true; tick(); } };
        setTimeout(go, 50);
        requestAnimationFrame(go);
      };
      next();
    });
  }
}
