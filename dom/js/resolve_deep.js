// Where resolution looks beyond the document's own tree: the open shadow
// roots under a root, in reading order, and the same-origin frames, with
// the frame and shadow host paths aria/ records for a ref. A module of
// resolve.js; forgetHosts drops the shadow hosts it found, since the
// page may have changed since the last resolution.
function resolveDeep() {
  // shadowRoots lists every open shadow root under root, depth first.
  function shadowRoots(root, out) {
    out = out || [];
    for (const el of hostsIn(root)) {
      out.push(el.shadowRoot);
      shadowRoots(el.shadowRoot, out);
    }
    return out;
  }

  // deepAll lists the elements under root (a document, a shadow root or an
  // element) that match sel, open shadow roots included, in the order a
  // person reads them: a host's shadow content where the host stands.
  function deepAll(root, sel) {
    const hits = [...root.querySelectorAll(sel)];
    const hosts = hostsIn(root);
    const own = root.nodeType === 1 && root.shadowRoot ? deepAll(root.shadowRoot, sel) : [];
    if (!hosts.length) return own.concat(hits);
    // Merge the two lists, both in document order, and put each host's
    // shadow matches right after it.
    const out = own;
    let i = 0;
    for (const host of hosts) {
      while (i < hits.length && (hits[i] === host || hits[i].compareDocumentPosition(host) & Node.DOCUMENT_POSITION_FOLLOWING)) {
        out.push(hits[i++]);
      }
      for (const el of deepAll(host.shadowRoot, sel)) out.push(el);
    }
    while (i < hits.length) out.push(hits[i++]);
    return out;
  }

  // hostsIn lists the elements under root with an open shadow root, once
  // per resolution.
  const hostLists = new Map();
  function hostsIn(root) {
    let list = hostLists.get(root);
    if (!list) {
      list = [];
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) list.push(el);
      hostLists.set(root, list);
    }
    return list;
  }

  // frameDocs lists the documents of every same-origin frame under doc.
  function frameDocs(doc, out) {
    out = out || [];
    for (const f of doc.querySelectorAll('iframe, frame')) {
      let d = null;
      try { d = f.contentDocument; } catch (e) { /* cross-origin */ }
      if (d) {
        out.push(d);
        frameDocs(d, out);
      }
    }
    return out;
  }

  // followFramePath walks the iframe selectors aria/ recorded, from the
  // top document down, to the document the ref's element lived in.
  function followFramePath(path) {
    let doc = document;
    for (const sel of path) {
      let f = null;
      try { f = doc.querySelector(sel); } catch (e) { return null; }
      let d = null;
      try { d = f && f.contentDocument; } catch (e) { /* cross-origin */ }
      if (!d) return null;
      doc = d;
    }
    return doc;
  }

  function followShadowPath(doc, path) {
    let root = doc;
    for (const sel of path) {
      let host = null;
      try { host = root.querySelector(sel); } catch (e) { return null; }
      if (!host || !host.shadowRoot) return null;
      root = host.shadowRoot;
    }
    return root;
  }

  // forgetHosts drops the hosts hostsIn found: the page may have changed
  // since the last resolution.
  function forgetHosts() {
    hostLists.clear();
  }

  return { shadowRoots, deepAll, hostsIn, forgetHosts, frameDocs, followFramePath, followShadowPath };
}
