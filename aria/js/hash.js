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
// states of form fields, which scripts change without any mutation.
function ariaHash() {
  'use strict';
  const KEEP = 32;
  const INTERACTIVE = 'a[href],button,input,select,textarea,summary,[role],[tabindex],[contenteditable],[onclick]';
  const w = window;
  if (!w.__ariaChange) {
    const st = { count: 0, observer: null, bump: null };
    st.bump = () => { st.count++; };
    st.observer = new MutationObserver(records => { st.count += records.length; });
    w.__ariaChange = st;
  }
  const st = w.__ariaChange;
  if (!(w.__ariaSnapshotHashes instanceof Map)) w.__ariaSnapshotHashes = new Map();
  const hashes = w.__ariaSnapshotHashes;
  watch(document);

  // watch counts the changes under root (a document or a shadow root);
  // watching a root twice is harmless.
  function watch(root) {
    st.observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    if (root.nodeType === 9) {
      root.addEventListener('input', st.bump, true);
      root.addEventListener('change', st.bump, true);
    }
  }

  function current() {
    const d = document;
    st.count += st.observer.takeRecords().length;
    let h = fnv(0x811c9dc5, [location.href, Math.round(scrollX), Math.round(scrollY),
      innerWidth, innerHeight, d.getElementsByTagName('*').length,
      d.querySelectorAll(INTERACTIVE).length, st.count].join('|'));
    for (const f of d.querySelectorAll('input,textarea,select')) {
      h = fnv(h, f.value + (f.checked ? '\u2713' : '\u2717'));
    }
    return (h >>> 0).toString(36);
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
