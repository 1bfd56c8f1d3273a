// snapshot builds the ARIA snapshot of the page (SPEC 7, 11.1) and hands
// out refs for its interactive elements. lib holds the module factories
// (roles, states, refs, walk, render, hash, context, scope) composed in by
// Go.
//
// opts: {root, detail, mode, maxDepth, maxElements, maxNameLength,
//        includeText, viewportOnly, pierceShadow, includeFrames, since,
//        internal, snapshotFloor, elementFloor, refMapOver, viewportOver,
//        frameMark, origin, clip, frame, freshFrame, refMapAll, viewLater}
// returns {yaml, snapshotId, refCount, truncated, lastSnapshot,
//          lastElement, refMap?, elements?, xframes?, title?, previous?,
//          viewLater?}
//      where refMap is {ref: meta} as a JSON string
//      where viewLater says that onscreen.js (called with the token
//         opts.viewLater) has the part on screen, rendered alike: when
//         the YAML is longer than viewportOver, at full detail, walked
//         whole, and no frame is left to Go
//      where previous is the YAML of the snapshot since names, when the
//         page changed since and that snapshot can be compared with
//      or {unchanged: true, snapshotId} when since names a snapshot of an
//         unchanged page
//      or {error: 'invalidSelector'|'notFound', message}
//
// With frameMark, the frames the page may not read are left to Go (see
// walk.js): window.__ariaXFrames holds their elements, xframes what their
// own snapshots need, and elements counts the elements walked. frame
// marks the snapshot of such a frame, which reports its document's title;
// freshFrame forgets the frame's earlier refs (preserveRefs:false on the
// top snapshot) and refMapAll asks for every ref's meta.
function snapshot(lib, opts) {
  'use strict';
  opts = opts || {};
  const detail = opts.detail || 'full';
  const ai = (opts.mode || 'ai') === 'ai';
  const withRefs = ai && detail !== 'summary';
  const R = lib.roles();
  const P = lib.places(R);
  const H = ai ? lib.hash() : null;

  const hash = H ? H.current() : '';
  if (opts.since && H && H.recall(opts.since) === hash) {
    const refs = lib.refs(opts, P);
    return Object.assign({ unchanged: true, snapshotId: opts.since }, refs.counters());
  }

  window.__ariaViewLater = null; // an earlier call's, never asked for
  const W = lib.walk(R, lib.states(R), lib.view(), opts);
  let header = '';
  let badSelector = '';
  let extras = []; // shown beside an automatic scope: see outside
  const root = findRoot();
  if (badSelector) return { error: 'invalidSelector', message: badSelector };
  if (!root) {
    return { error: 'notFound', message: 'no element matches ' + JSON.stringify(opts.root) };
  }

  const nodes = W.tree(root);
  for (const el of extras) nodes.push(...W.tree(el));
  const refs = ai ? lib.refs({
    snapshotFloor: opts.snapshotFloor, elementFloor: opts.elementFloor, bump: !opts.internal,
    fresh: (opts.preserveRefs === false && !opts.internal) || opts.freshFrame === true,
  }, P) : null;
  const given = [];
  if (withRefs) refs.assign(nodes, given, W);
  if (H) {
    // A shadow root watched for the first time adds its fields' values
    // to the hash: what the next since compares with must count them.
    let added = false;
    for (const r of W.roots) added = H.watch(r) || added;
    if (!opts.internal) H.remember('s' + refs.snapId, added ? H.current() : hash);
  }

  const out = lib.render(opts);
  const res = {
    yaml: show(nodes),
    snapshotId: ai ? 's' + refs.snapId : '',
    refCount: given.length,
    truncated: W.stats.truncated,
  };
  const xframes = W.xframes || [];
  // The other details shape what they show from the whole tree (contexts,
  // counts), and a truncated walk may have stopped before the screen: a
  // viewportOnly walk does those.
  if (opts.viewportOver > 0 && res.yaml.length > opts.viewportOver && !xframes.length &&
    detail === 'full' && !W.stats.truncated) {
    // Left for onscreen.js, which Go sends right behind this call: the
    // page works it out while this answer travels.
    window.__ariaViewLater = { token: opts.viewLater, show: () => show(W.inView(nodes)) };
    res.viewLater = true;
  }
  if (refs) {
    Object.assign(res, refs.counters());
    // With frames to come, the refs map may be needed for the total.
    const over = opts.refMapOver > 0 && (given.length > opts.refMapOver || xframes.length > 0);
    if (opts.refMapAll || over) res.refMap = JSON.stringify(refs.table(given));
  }
  if (ai && !opts.internal && !opts.frame && !xframes.length) {
    const prev = opts.since ? stashed(opts.since) : undefined;
    if (prev !== undefined) res.previous = prev;
    stash(res.snapshotId, res.yaml);
  }
  if (W.xframes) {
    window.__ariaXFrames = xframes.map(x => x.el);
    res.elements = W.stats.count;
    if (xframes.length) res.xframes = xframes.map(frameInfo);
  }
  if (opts.frame) res.title = W.cut(R.norm(document.title));
  return res;

  // show renders nodes at the detail asked for.
  function show(nodes) {
    let lines;
    if (detail === 'summary') {
      lines = out.summary(nodes);
    } else if (detail === 'interactive') {
      // The flattened view no longer shows rows and cards: contexts do.
      const view = out.onlyInteractive(nodes);
      lib.context(R, P).mark(view, root);
      lines = out.render(view);
    } else {
      lines = out.render(nodes);
    }
    if (header) lines.unshift(header);
    return lines.join('\n');
  }

  // frameInfo is what Go needs to snapshot an unreadable frame: path is
  // the frame elements from this document down to it, for ref metas.
  function frameInfo(x) {
    const info = { depth: x.depth, name: x.name, origin: x.origin, clip: x.clip };
    if (refs) info.path = x.scope.frames.concat([x.el]).map(refs.selectorFor);
    return info;
  }

  // ---- since ----------------------------------------------------------

  // The YAML of the last few agent snapshots of this document, so that
  // since can answer with what changed; a snapshot taken with other
  // options cannot be compared with, nor one whose frames Go filled in.
  function stash(id, yaml) {
    if (!(window.__ariaSnapshotYaml instanceof Map)) window.__ariaSnapshotYaml = new Map();
    const m = window.__ariaSnapshotYaml;
    m.set(id, { key: optionsKey(), yaml });
    while (m.size > 3) m.delete(m.keys().next().value);
  }

  function stashed(id) {
    const m = window.__ariaSnapshotYaml;
    const s = m instanceof Map ? m.get(id) : undefined;
    return s && s.key === optionsKey() ? s.yaml : undefined;
  }

  function optionsKey() {
    return JSON.stringify([opts.root || '', detail, opts.maxDepth | 0, opts.maxElements | 0, opts.maxNameLength | 0,
      opts.includeText !== false, !!opts.viewportOnly, opts.pierceShadow !== false, !!opts.includeFrames]);
  }

  // ---- scope ----------------------------------------------------------

  // findRoot returns null when the root matches nothing, and sets
  // badSelector when it does not parse; without a root it auto-scopes to
  // main (SPEC 7.4), or without one to the app beside a long sidebar
  // (scope.js).
  function findRoot() {
    const body = document.body || document.documentElement;
    const r = (opts.root || '').trim();
    // "body" is whatever holds the page: a <frameset> has no <body>.
    if (r === 'body') return body;
    if (r) {
      const m = /^role=([a-z]+)(?:\s+"(.*)")?$/.exec(r);
      if (m) return byRole(m[1], m[2]);
      try {
        return document.querySelector(r);
      } catch (e) {
        badSelector = String(e && e.message || e);
        return null;
      }
    }
    if (detail === 'summary') return body;
    const main = byRole('main');
    if (!main) {
      const app = lib.scope(R, W.cut).appRoot(body);
      if (!app) return body;
      header = app.note;
      extras = outside(app.el);
      return app.el;
    }
    extras = outside(main);
    const others = landmarksOutside(main);
    header = '# scoped to main' + (others.length ? '; also: ' + others.join(', ') : '') +
      ' \u2014 use {root:"body"} for all';
    return main;
  }

  // byRole finds the first shown element with the role (and, if given, a
  // name containing name, case-insensitively).
  function byRole(role, name) {
    const want = name === undefined ? '' : name.toLowerCase();
    for (const el of document.querySelectorAll(R.roleSelector([role]))) {
      if (R.roleOf(el) !== role || !R.isShown(el)) continue;
      if (want && !R.accessibleName(el, el.localName, role).toLowerCase().includes(want)) continue;
      return el;
    }
    return null;
  }

  // outside lists what an automatic scope must not leave out although it
  // sits outside root: open dialogs, alerts and status messages with
  // something to say (a toast), and named regions (a details panel),
  // outermost first, in document order.
  function outside(root) {
    const SHOWN = new Set(['dialog', 'alertdialog', 'alert', 'status', 'region']);
    const out = [];
    for (const el of document.querySelectorAll('dialog,section,output,[role]')) {
      if (root.contains(el) || el.contains(root) || out.some(o => o.contains(el))) continue;
      const role = R.roleOf(el);
      if (!SHOWN.has(role) || !R.isShown(el)) continue;
      if ((role === 'alert' || role === 'status') && !R.norm(el.textContent)) continue;
      if (role === 'region' && !R.norm(R.authoredName(el, el.localName))) continue;
      out.push(el);
    }
    return out;
  }

  function landmarksOutside(main) {
    const HEADER = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
    const out = [];
    for (const el of document.querySelectorAll('header,footer,nav,aside,search,[role]')) {
      if (main.contains(el) || el.contains(main)) continue;
      const role = R.roleOf(el);
      if (!HEADER.has(role) || !R.isShown(el)) continue;
      const name = W.cut(R.norm(R.authoredName(el, el.localName)));
      out.push(name ? role + ' ' + JSON.stringify(name) : role);
    }
    return out;
  }
}
