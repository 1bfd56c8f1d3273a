// Mints refs the way aria/ does, following the in-page ref contract:
// __ariaRefs (ref -> Element), __ariaRefMeta (ref -> {selector, role, name,
// shadowPath?, frame?}), __ariaRefOf (Element -> ref), __ariaSnapshotId,
// __ariaElementId. frame is the path of iframe selectors, top down, to the
// document el lives in.
function makeRef(el, role, name, selector, shadowPath, frame) {
  if (!(window.__ariaRefs instanceof Map)) {
    window.__ariaRefs = new Map();
    window.__ariaRefMeta = new Map();
    window.__ariaRefOf = new WeakMap();
    window.__ariaSnapshotId = 1;
    window.__ariaElementId = 0;
  }
  const ref = 's' + window.__ariaSnapshotId + 'e' + (++window.__ariaElementId);
  window.__ariaRefs.set(ref, el);
  const meta = { selector, role, name };
  if (shadowPath) meta.shadowPath = shadowPath;
  if (frame) meta.frame = frame;
  window.__ariaRefMeta.set(ref, meta);
  window.__ariaRefOf.set(el, ref);
  return ref;
}
