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
//          now: moved when it changed lists or places. Places compare by
//          value (the list's name or its index among the page's lists,
//          and the item's index), as boards rebuild their columns with
//          innerHTML after a drop; a source the page re-rendered is found
//          again by its tag and text, and when several elements read the
//          same, it moved if their places did.
//
// The record stays in the page under args.token with a probe, as a
// click's does: release.js removes the observer and listeners on every
// path, stop or not.
async function dragWatch(h, args) {
  const LISTS = 'ul, ol, [role=list], [role=listbox], [role=grid], [role=tree], tbody';
  const store = h.handles();
  if (args.phase === 'start') {
    // startedAt: animations begun since are the drag's (settle.js's armedAt).
    const rec = { mutations: 0, dragstart: false, drop: false, over: null, calm: true, startedAt: document.timeline.currentTime || 0 };
    rec.observer = new MutationObserver((list) => { rec.mutations += list.length; });
    rec.observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
    // Where the drag is over is read when it gets there: a page that
    // rebuilds its lists on the drop leaves no element to read after.
    const on = (e) => {
      if (e.type !== 'dragover') rec[e.type] = true;
      else if (rec.over && rec.over.target === e.target) rec.over = e;
      else { rec.over = e; rec.landed = landing(e.target); }
    };
    // After the page's handlers: the effect its dragover asked for.
    const after = (e) => {
      if (e.dataTransfer) rec.effect = { drop: e.dataTransfer.dropEffect, allowed: e.dataTransfer.effectAllowed };
    };
    const types = ['dragstart', 'dragover', 'drop'];
    for (const t of types) window.addEventListener(t, on, true);
    window.addEventListener('dragover', after);
    rec.probe = {
      remove() {
        rec.observer.disconnect();
        for (const t of types) window.removeEventListener(t, on, true);
        window.removeEventListener('dragover', after);
      },
    };
    store.set(args.token, rec);
    const src = pinned(args.source);
    if (src) {
      const text = h.norm(src.textContent);
      rec.source = { el: src, tag: src.localName, text, place: placeOf(src), twins: keysOf(sameAs(src.localName, text)) };
    }
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
  rec.probe.remove();
  const out = { mutations: rec.mutations, dragstart: rec.dragstart, drop: rec.drop };
  if (rec.effect) out.dropEffect = rec.effect.drop, out.effectAllowed = rec.effect.allowed;
  const over = rec.over && rec.over.target;
  out.landed = over && over.nodeType === 1 && over.isConnected ? landing(over) : rec.landed || landing(pinned(args.target));
  out.accepted = !!rec.over && rec.over.defaultPrevented;
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
  out.settled = rec.calm;
  return out;

  // judge says whether the source moved: its place now, by value, against
  // its place before; for a source the page replaced, the places of the
  // elements that read as it does, against theirs before. judged is false
  // when nothing reads as it did.
  function judge(o) {
    const s = rec.source;
    const before = s.place;
    let now = s.el.isConnected ? s.el : null;
    if (!now) {
      const same = sameAs(s.tag, s.text);
      o.judged = same.length > 0;
      if (!o.judged) return;
      if (same.length > 1) {
        o.moved = keysOf(same).join('\n') !== s.twins.join('\n');
        o.place = describePlace(before);
        return;
      }
      now = same[0];
    }
    o.judged = true;
    const place = placeOf(now);
    o.moved = keyOf(place) !== keyOf(before);
    o.place = describePlace(place);
  }

  // landing names the item (else the element) el is in, and its list.
  function landing(el) {
    if (!el || el.nodeType !== 1) return '';
    let out = h.describeEl(el.closest('li, [role=listitem], [role=option], [role=row], [draggable=true]') || el);
    const list = containerOf(el);
    if (list && nameOf(list)) out += ' in ' + JSON.stringify(nameOf(list));
    return out;
  }

  function pinned(token) {
    const entry = token && store.get(token);
    return entry && entry.el && entry.el.isConnected ? entry.el : null;
  }

  // placeOf is where el sits: its list (else its parent) and its index
  // there; box says which, by value: the list's name, else its index
  // among the page's lists (a parent's, among the elements of its tag).
  function placeOf(el) {
    const list = containerOf(el);
    const box = list || el.parentElement;
    const items = itemsOf(box);
    const item = items.find((i) => i === el || i.contains(el)) || el;
    const name = list ? nameOf(list) : '';
    let id = '';
    if (list) id = name ? 'list ' + name : 'list #' + [...document.querySelectorAll(LISTS)].indexOf(list);
    else if (box) id = box.localName + ' #' + [...document.getElementsByTagName(box.localName)].indexOf(box);
    return { list: !!list, name, box: id, index: items.indexOf(item), count: items.length };
  }

  function keyOf(p) {
    return p.box + ' @' + p.index;
  }

  // keysOf is the places of els, as sorted keys.
  function keysOf(els) {
    return els.map((e) => keyOf(placeOf(e))).sort();
  }

  function containerOf(el) {
    return el.closest(LISTS);
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
    const name = p.name;
    return 'item ' + (p.index + 1) + ' of ' + p.count + (name ? ' in ' + JSON.stringify(name) : '');
  }

  // sameAs is the elements of tag that read text, as the source did.
  function sameAs(tag, text) {
    return [...document.getElementsByTagName(tag)].filter((e) => h.norm(e.textContent) === text);
  }

  // moving is how long, in ms, the animations the drag started still
  // run (rows sliding aside, a card gliding into its slot), 0 when none
  // does. The rule is page/js/settle.js's animating(): one that was
  // running before the drag (a spinner), never ends, or has more than
  // MOVING ms to go is the page's own business, not the drag's.
  function moving() {
    const MOVING = 1000;
    let left = 0;
    for (const an of document.getAnimations()) {
      try {
        if (an.playState !== 'running' || (an.startTime !== null && an.startTime < rec.startedAt)) continue;
        const t = an.effect && an.effect.getComputedTiming();
        const rest = t ? (t.endTime - (t.localTime || 0)) / Math.abs(an.playbackRate || 1) : Infinity;
        if (rest > 0 && rest <= MOVING) left = Math.max(left, rest);
      } catch (e) { /* one the page made odd is not the drag's */ }
    }
    return left;
  }

  // quiet resolves once two frames, and calmMs, passed with no animation
  // the drag started and no DOM change, or after ms (then rec.calm is
  // false). A background tab may not paint, so a timer stands in for a
  // frame that does not come.
  function quiet(ms, calmMs) {
    const end = Date.now() + ms;
    return new Promise((done) => {
      let frames = 0;
      let since = Date.now();
      rec.mutations += rec.observer.takeRecords().length;
      let seen = rec.mutations;
      const tick = () => {
        rec.mutations += rec.observer.takeRecords().length;
        const busy = rec.mutations !== seen || moving() > 0;
        seen = rec.mutations;
        if (busy) { frames = 0; since = Date.now(); } else frames++;
        if (frames >= 2 && Date.now() - since >= (calmMs || 0)) return done();
        if (Date.now() >= end) { rec.calm = false; return done(); }
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
