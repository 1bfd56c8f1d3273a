// ariaHash is the change detection behind snapshot's since (SPEC 7.5): a
// hash of what a snapshot shows, kept per snapshot id in
// window.__ariaSnapshotHashes (the latest few), so that {since: "s3"}
// compares with s3 and not with whatever came last.
//
// The hash covers the URL, scroll position, viewport size, DOM size and
// interactive element count, as the spec asks, plus what those miss: a
// count of DOM mutations (a MutationObserver installed by the first
// snapshot of a document, also watching the shadow roots and frames
// snapshots entered), user input events, and the values and checked
// states of form fields (those of the shadow roots watched too), which
// scripts change without any mutation.
function ariaHash() {
  'use strict';
  const KEEP = 32;
  const INTERACTIVE = 'a[href],button,input,select,textarea,summary,[role],[tabindex],[contenteditable],[onclick]';
  const w = window;
  if (!w.__ariaChange) {
    const st = { count: 0, observer: null, bump: null, shadows: new Set() };
    st.bump = () => { st.count++; };
    st.observer = new MutationObserver(records => { st.count += records.length; });
    w.__ariaChange = st;
  }
  const st = w.__ariaChange;
  if (!st.shadows) st.shadows = new Set(); // kept by an older build
  if (!(w.__ariaSnapshotHashes instanceof Map)) w.__ariaSnapshotHashes = new Map();
  const hashes = w.__ariaSnapshotHashes;
  watch(document);

  // watch counts the changes under root (a document or a shadow root);
  // watching a root twice is harmless. It says whether root is a shadow
  // root it did not watch yet.
  function watch(root) {
    const fresh = root.nodeType === 11 && !st.shadows.has(root);
    st.observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    if (root.nodeType === 9 || fresh) {
      // change does not cross a shadow root: each root hears its own.
      root.addEventListener('input', st.bump, true);
      root.addEventListener('change', st.bump, true);
    }
    if (fresh) st.shadows.add(root);
    return fresh;
  }

  function current() {
    const d = document;
    st.count += st.observer.takeRecords().length;
    let h = fnv(0x811c9dc5, [location.href, Math.round(scrollX), Math.round(scrollY),
      innerWidth, innerHeight, d.getElementsByTagName('*').length,
      d.querySelectorAll(INTERACTIVE).length, st.count].join('|'));
    h = values(h, d);
    // The fields of the web components snapshots walked: a script sets
    // their values without a mutation too.
    for (const r of st.shadows) {
      if (r.host.isConnected) h = values(h, r);
      else st.shadows.delete(r);
    }
    return (h >>> 0).toString(36);
  }

  function values(h, root) {
    for (const f of root.querySelectorAll('input,textarea,select')) {
      h = fnv(h, f.value + (f.checked ? '\u2713' : '\u2717'));
    }
    return h;
  }

  function fnv(h, s) {
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h;
  }

  function remember(id, hash) {
    hashes.delete(id);
    hashes.set(id, hash);
    while (hashes.size > KEEP) hashes.delete(hashes.keys().next().value);
  }

  function recall(id) {
    return hashes.get(id);
  }

  return { watch, current, remember, recall };
}
