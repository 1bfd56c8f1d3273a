// vitalsRead measures this document's loading the way web.dev's Web
// Vitals do, from what observe.js kept since before the page's scripts
// ran (a load cdpskill made) or, for a type it did not observe, from the
// entries Chrome buffers for a late reader. Within a.wait ms, it waits
// for the load event, then for a quiet moment (a.quiet ms without a
// larger paint, a layout shift or a long task; a.settle ms at most), as
// the largest paint and the shifts go on after load. Times are ms since
// the navigation began; at is when it read.
//
// The elements behind the figures (the largest paint's, those that
// shifted most, the slowest interaction's target) wait for aria's
// describe.js in window[Symbol.for(a.heldKey)] under a.held; each figure
// names its element by its index there, and held says how many there are.
//
// a: {key, heldKey, held, wait, quiet, settle}
// returns {url, timeOrigin, loaded, at, held, ttfb, fcp, dcl, load,
//          lcp: {ms, kind, url, phases, el}, cls: {value, shifts: [{value, el}]},
//          tasks: {count, longest, tbt, scripts: [{src, ms}]},
//          inp: {ms, under, interactions, el}}, absent figures left out
async function vitalsRead(a) {
  'use strict';
  const st = window[Symbol.for(a.key)] || { observed: {} };
  const GAP = 1000; // CLS: a session window ends after a second without shifts,
  const SPAN = 5000; // or after five seconds
  const BLOCKING = 50; // a task blocks input for what it runs over 50 ms
  const INTERACTIVE = 5000; // the quiet after which a page is interactive
  const SHIFTERS = 5; // elements named for CLS
  const SCRIPTS = 3; // scripts named for the long tasks
  const navEntry = () => performance.getEntriesByType('navigation')[0];

  const end = performance.now() + a.wait;
  await loaded(end - performance.now());
  await settle(a.quiet, Math.min(a.settle, end - performance.now()));
  if (st.flush) st.flush();

  const nav = navEntry();
  const since = (nav && nav.activationStart) || 0; // a prerendered page counts from its showing
  const at = (t) => Math.max(0, t - since);
  const out = { url: location.href, timeOrigin: performance.timeOrigin, loaded: document.readyState === 'complete', at: performance.now(), held: 0 };
  const held = [];
  const hold = (el) => {
    if (el && el.nodeType !== 1) el = el.parentElement; // a text node shifts as its element
    if (!el) return undefined;
    held.push(el);
    return held.length - 1;
  };
  if (nav) {
    out.ttfb = at(nav.responseStart);
    if (nav.domContentLoadedEventStart) out.dcl = at(nav.domContentLoadedEventStart);
    if (nav.loadEventStart) out.load = at(nav.loadEventStart);
  }
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  if (fcp) out.fcp = at(fcp.startTime);
  const lcp = largestPaint();
  if (lcp) out.lcp = lcp;
  out.cls = layoutShift();
  out.tasks = longTasks(fcp ? fcp.startTime : 0);
  const inp = interactions();
  if (inp) out.inp = inp;

  out.held = held.length;
  if (held.length) {
    const store = Symbol.for(a.heldKey);
    if (!(window[store] instanceof Map)) window[store] = new Map();
    window[store].set(a.held, held);
  }
  return out;

  // loaded waits for the load event, ms at most.
  async function loaded(ms) {
    if (document.readyState === 'complete' || ms <= 0) return;
    await new Promise((done) => {
      window.addEventListener('load', done, { once: true });
      setTimeout(done, ms);
    });
  }

  // settle waits until nothing painted larger, shifted or blocked for
  // quiet ms, max ms at most.
  async function settle(quiet, max) {
    const end = performance.now() + max;
    for (;;) {
      const now = performance.now();
      const still = now - lastChange();
      if (still >= quiet || now >= end) return;
      await new Promise((r) => setTimeout(r, Math.min(quiet - still, end - now) + 1));
    }
  }

  function lastChange() {
    if (st.flush) st.flush();
    const n = navEntry();
    let last = (n && n.loadEventEnd) || 0;
    for (const type of ['largest-contentful-paint', 'layout-shift', 'longtask']) {
      if (st.observed[type]) continue;
      for (const e of buffered(type)) last = Math.max(last, e.startTime + (e.duration || 0));
    }
    return Math.max(last, st.last || 0);
  }

  // entries are a type's entries: observe.js's, else Chrome's buffer.
  function entries(type, kept) {
    return st.observed[type] ? kept : buffered(type);
  }

  function buffered(type) {
    if (!(PerformanceObserver.supportedEntryTypes || []).includes(type)) return [];
    const o = new PerformanceObserver(() => {});
    o.observe({ type, buffered: true });
    const list = o.takeRecords();
    o.disconnect();
    return list;
  }

  // largestPaint is the last largest-contentful-paint entry: Chrome
  // reports a larger paint as it comes, until the first input. An
  // image's time splits into web.dev's phases: the server's answer
  // (ttfb), the wait before the image was asked for, its download, and
  // the wait to paint it.
  function largestPaint() {
    const list = entries('largest-contentful-paint', st.lcp ? [st.lcp] : []);
    const e = list[list.length - 1];
    if (!e) return null;
    const el = e.element;
    const tag = el ? el.localName : '';
    const res = { ms: at(e.startTime), kind: kindOf(e, tag), el: hold(el) };
    if (e.url) {
      res.url = e.url;
      const ttfb = nav ? at(nav.responseStart) : 0;
      const r = performance.getEntriesByName(e.url, 'resource')[0];
      const asked = Math.max(ttfb, r ? at(r.requestStart || r.startTime) : 0);
      const got = Math.max(asked, r ? at(r.responseEnd) : 0);
      res.phases = { ttfb, loadDelay: asked - ttfb, loadTime: got - asked, renderDelay: Math.max(0, res.ms - got) };
    }
    return res;
  }

  function kindOf(e, tag) {
    if (!e.url) return 'text';
    if (tag === 'video') return 'video';
    if (tag === 'img' || tag === 'image' || tag === 'svg') return 'image';
    return 'background image';
  }

  // layoutShift is CLS: the largest session window's shifts (web.dev's),
  // those that followed input left out, and the elements that moved most
  // in it.
  function layoutShift() {
    let best = { value: 0, list: [] };
    let cur = { value: 0, list: [] };
    for (const e of entries('layout-shift', st.shifts)) {
      if (e.hadRecentInput) continue;
      const first = cur.list[0];
      const prev = cur.list[cur.list.length - 1];
      if (prev && (e.startTime - prev.startTime >= GAP || e.startTime - first.startTime >= SPAN)) {
        cur = { value: 0, list: [] };
      }
      cur.value += e.value;
      cur.list.push(e);
      if (cur.value > best.value) best = { value: cur.value, list: cur.list.slice() };
    }
    const moved = new Map(); // element -> the value of the shifts it moved in
    for (const e of best.list) {
      for (const s of e.sources || []) {
        let el = s.node;
        if (el && el.nodeType !== 1) el = el.parentElement;
        if (el) moved.set(el, (moved.get(el) || 0) + e.value);
      }
    }
    const shifts = [...moved].sort((x, y) => y[1] - x[1]).slice(0, SHIFTERS)
      .map(([el, value]) => ({ value, el: hold(el) }));
    return { value: best.value, shifts };
  }

  // longTasks counts the tasks over 50 ms, and sums for TBT what those
  // of the load ran over 50 ms: from the first contentful paint until
  // five seconds without a long task (Lighthouse's time to interactive,
  // its network half aside) or the first input, as what an input sets
  // off is INP's, not the load's. The scripts that ran longest in long
  // animation frames say whose they were.
  function longTasks(from) {
    const tasks = entries('longtask', st.tasks).slice().sort((x, y) => x.startTime - y.startTime);
    const input = buffered('first-input')[0];
    const until = input ? input.startTime : Infinity;
    let longest = 0;
    let tbt = 0;
    let quietFrom = from; // when the main thread was last blocked
    for (const t of tasks) {
      longest = Math.max(longest, t.duration);
      if (t.startTime < from || t.startTime >= until || t.startTime - quietFrom >= INTERACTIVE) continue;
      tbt += Math.max(0, t.duration - BLOCKING);
      quietFrom = t.startTime + t.duration;
    }
    const bySource = new Map();
    for (const f of entries('long-animation-frame', st.frames)) {
      if (!f.blockingDuration) continue;
      for (const s of f.scripts || []) {
        const src = s.sourceURL || s.invoker || '';
        if (src) bySource.set(src, (bySource.get(src) || 0) + s.duration);
      }
    }
    const scripts = [...bySource].filter(([, ms]) => ms >= BLOCKING).sort((x, y) => y[1] - x[1])
      .slice(0, SCRIPTS).map(([src, ms]) => ({ src, ms }));
    return { count: tasks.length, longest, tbt, scripts };
  }

  // interactions is INP: of the document's interactions, the slowest,
  // but one in fifty (web.dev's 98th percentile). Chrome buffers events
  // of 104 ms and over; observe.js, when a batch acted, those of 16 ms
  // and over. With none kept, every interaction was quicker than that.
  function interactions() {
    const byID = new Map(st.events || []);
    for (const e of buffered('event')) {
      if (!e.interactionId) continue;
      const had = byID.get(e.interactionId);
      if (!had || e.duration > had.duration) byID.set(e.interactionId, e);
    }
    const count = Math.max(performance.interactionCount || 0, byID.size);
    if (!count) return null;
    const slow = [...byID.values()].sort((x, y) => y.duration - x.duration);
    const worst = slow[Math.min(slow.length - 1, Math.floor(count / 50))];
    if (!worst) return { under: st.eventsFrom === 0 ? 16 : 104, interactions: count };
    return { ms: worst.duration, interactions: count, el: hold(worst.target) };
  }
}
