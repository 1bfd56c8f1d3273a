// refcheck reports the in-page ref state and every way it breaks the ref
// contract shared by aria and dom: each ref's meta must lead back to its
// element, through the frames and shadow hosts it names.
function refcheck() {
  const problems = [];
  const refs = window.__ariaRefs;
  const meta = window.__ariaRefMeta;
  const of = window.__ariaRefOf;
  if (!(refs instanceof Map)) problems.push('__ariaRefs is not a Map');
  if (!(meta instanceof Map)) problems.push('__ariaRefMeta is not a Map');
  if (!(of instanceof WeakMap)) problems.push('__ariaRefOf is not a WeakMap');
  if (problems.length) return { problems };
  for (const [ref, el] of refs) {
    if (!/^s\d+e\d+$/.test(ref)) problems.push(ref + ': bad format');
    // Elements of frames come from other realms: no instanceof.
    if (!el || el.nodeType !== 1) problems.push(ref + ': not an element');
    if (of.get(el) !== ref) problems.push(ref + ': __ariaRefOf disagrees: ' + of.get(el));
    const m = meta.get(ref);
    if (!m) {
      problems.push(ref + ': no meta');
      continue;
    }
    if (!m.role) problems.push(ref + ': meta has no role');
    let found = null;
    try {
      const root = rootOf(m);
      found = root && root.querySelector(m.selector);
    } catch (e) {
      problems.push(ref + ': selector ' + m.selector + ' does not parse: ' + e.message);
    }
    if (found !== el) problems.push(ref + ': selector ' + m.selector + ' finds another element');
  }
  return {
    snapshotId: window.__ariaSnapshotId,
    elementId: window.__ariaElementId,
    docFloor: window.__ariaDocFloor,
    size: refs.size,
    metaSize: meta.size,
    problems,
  };

  function rootOf(m) {
    let root = document;
    for (const sel of m.frame || []) {
      const f = root.querySelector(sel);
      if (!f || !f.contentDocument) return null;
      root = f.contentDocument;
    }
    for (const sel of m.shadowPath || []) {
      const h = root.querySelector(sel);
      if (!h || !h.shadowRoot) return null;
      root = h.shadowRoot;
    }
    return root;
  }
}
