// Reports whether this window's document handed out ref.
function hasRef(ref) {
  return !!(window.__ariaRefs && window.__ariaRefs.has(ref));
}
