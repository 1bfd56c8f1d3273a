// Mints refs the way aria/ does, following the in-page ref contract:
// __ariaRefs (ref -> Element), __ariaRefMeta (ref -> {selector, role, name}),
// __ariaRefOf (Element -> ref), __ariaSnapshotId, __ariaElementId.
function makeRef(el, role, name, selector) {
  if (!(window.__ariaRefs instanceof Map)) {
    window.__ariaRefs = new Map();
    window.__ariaRefMeta = new Map();
    window.__ariaRefOf = new WeakMap();
    window.__ariaSnapshotId = 1;
    window.__ariaElementId = 0;
  }
  const ref = 's' + window.__ariaSnapshotId + 'e' + (++window.__ariaElementId);
  window.__ariaRefs.set(ref, el);
  window.__ariaRefMeta.set(ref, { selector, role, name });
  window.__ariaRefOf.set(el, ref);
  return ref;
}
