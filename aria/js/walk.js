// ariaWalk builds the snapshot tree (SPEC 7.1): one pass over the rendered
// DOM that keeps elements with a role or an action, flattens generic
// wrappers into their parent, merges text runs and leaves hidden content
// out. Nodes are
//
//   {role, name, attrs, value, children, interactive, widget, el, scope}
//   {text, src, scope}
//
// where el is the element (for refs and boxes), src the element a text run
// began in, and scope says which shadow hosts and frames lead to them:
// {root, hosts, frames, parent, offX, offY}.
//
// R is ariaRoles(), S ariaStates(R), V ariaView(); cfg: {maxDepth, maxElements, maxNameLength,
// viewportOnly, pierceShadow (default true), includeFrames, frameMark, origin, clip,
// markNotices}. markNotices marks the text of notices (isNotice) for the
// report's lean view.
//
// With frameMark, each frame the page may not read (cross-origin) is
// listed in xframes and its node carries the attribute frameMark=<index>,
// so that Go can snapshot the frame on its own and put it in place.
// origin is where this document's viewport starts in the top viewport,
// and clip the part of the top viewport it shows (both for a frame
// snapshotted on its own; default: this window's viewport).
function ariaWalk(R, S, V, cfg) {
  'use strict';
  const maxDepth = cfg.maxDepth > 0 ? cfg.maxDepth : 50;
  const maxElements = cfg.maxElements > 0 ? cfg.maxElements : Infinity;
  const maxNameLength = cfg.maxNameLength > 0 ? cfg.maxNameLength : 150;
  // Deep wrapper soup must not overflow the JS stack; maxDepth counts only
  // nodes that appear in the output, so the DOM depth needs its own guard.
  const maxDomDepth = 1000;
  // Open shadow roots are the page a person sees: walked unless asked not
  // to (pierceShadow: false shows the light DOM alone).
  const pierce = cfg.pierceShadow !== false;

  // Roles that add nothing an agent acts on: their text merges into the
  // surrounding text as if they were plain spans.
  const FLATTEN = new Set(['generic', 'none', 'presentation', 'code',
    'emphasis', 'strong', 'deletion', 'insertion', 'mark', 'subscript',
    'superscript', 'time', 'term', 'definition', 'rowgroup', 'caption',
    'document']);
  // Elements whose DOM children are not content: fallback content, option
  // lists, default values.
  const LEAF = new Set(['input', 'textarea', 'img', 'option', 'progress',
    'meter', 'iframe', 'frame', 'video', 'audio', 'canvas', 'object', 'embed',
    'svg', 'area', 'hr', 'math']);

  const clip = cfg.clip || { x: 0, y: 0, width: window.innerWidth, height: window.innerHeight };
  // view is the part of clip the element being walked may show: a
  // viewportOnly walk narrows it to each scrolling container it enters,
  // whose rows below its fold (a virtualized grid renders a few more than
  // it shows) are not on screen.
  let view = clip;
  // A grid's cells, which a person acts on in place, and headers that
  // sort their column get refs like controls; a cell that only holds
  // controls (a row's Open button) does not, its controls do, and nor
  // does a plain table's cell (every table would carry refs).
  const gridCell = (el, role) => role === 'gridcell' || (role === 'cell' && !!el.closest('[role=grid], [role=treegrid]'));
  const HEADERS = new Set(['columnheader', 'rowheader']);
  const originX = cfg.origin ? cfg.origin.x : 0;
  const originY = cfg.origin ? cfg.origin.y : 0;
  const xframes = cfg.frameMark ? [] : null;
  const stats = { count: 0, truncated: false };
  // roots lists the shadow roots and frame documents the walk entered.
  const roots = [];
  let scope = null;
  let inLabel = 0; // labels of shown controls the walk is inside

  // tree returns the nodes root contributes, with the cursor its parent
  // passes down.
  function tree(root) {
    scope = topScope(root.ownerDocument);
    const up = root.parentElement;
    const out = [];
    visit(root, 0, 0, up ? getComputedStyle(up).cursor : 'auto', out);
    tidy(out);
    V.order(out);
    return out;
  }

  function topScope(doc) {
    return { root: doc, hosts: [], frames: [], parent: null, offX: originX, offY: originY };
  }

  // editorViews maps, per document, each code editor's view to the
  // hidden textarea that takes its keys (R.editor.views).
  const viewsByDoc = new Map();
  function editorViews(doc) {
    let v = viewsByDoc.get(doc);
    if (!v) viewsByDoc.set(doc, v = R.editor.views(doc));
    return v;
  }

  // ---- elements -------------------------------------------------------

  // visit appends to out the nodes el contributes: one node when el has a
  // role or is interactive, else its children's nodes (a flattened
  // wrapper).
  function visit(el, depth, domDepth, parentCursor, out) {
    const tag = el.localName;
    if (R.SKIP.has(tag)) return;
    // A code editor's view shows as the textbox that takes its keys, with
    // the editor's text as its value, instead of its lines and numbers.
    const proxy = editorViews(el.ownerDocument).get(el);
    if (proxy) return visit(proxy, depth, domDepth + 1, parentCursor, out);
    if (tag === 'br') return addText(out, ' ', el);
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return;
    if (tag === 'input' && el.type === 'hidden') return;
    // Off screen, an element with no element inside can add nothing to a
    // viewport snapshot: its box is known before its style is read. A
    // slot has no box (display: contents) but shows what is assigned to it.
    if (cfg.viewportOnly && !el.firstElementChild && !(pierce && (el.shadowRoot || tag === 'slot')) &&
      tag !== 'iframe' && tag !== 'frame' && !inViewport(el, '')) return;
    const style = el.ownerDocument.defaultView.getComputedStyle(el);
    const display = style.display;
    if (display === 'none') return;
    if (stats.count >= maxElements || domDepth >= maxDomDepth) {
      stats.truncated = true;
      return;
    }
    stats.count++;
    const shown = style.visibility === 'visible';
    const cursor = style.cursor;
    let role = shown ? R.roleOf(el, tag) : null;
    if (role && FLATTEN.has(role)) role = null;
    // A grab cursor marks what a drag-and-drop list lets a person take.
    const hand = cursor === 'pointer' || cursor === 'grab';
    const active = shown && (R.isInteractive(el, tag, role, hand && parentCursor !== cursor) ||
      (gridCell(el, role) && !!R.domText(el).trim()) || (HEADERS.has(role) && el.hasAttribute('aria-sort')));
    if (role === 'iframe' && (cfg.includeFrames || tag === 'frame')) {
      if (depth < maxDepth) visitFrame(el, depth, domDepth, out);
      return;
    }
    const leaf = LEAF.has(tag) || (tag === 'select' && role === 'combobox') ||
      style.contentVisibility === 'hidden';

    const outer = view;
    if (cfg.viewportOnly && !leaf) view = V.inside(el, style, view, scope, clip);
    if (!role && !active) {
      const block = !display.startsWith('inline') && display !== 'contents';
      const notice = cfg.markNotices && shown && !leaf && isNotice(el);
      if (block || notice) closeText(out);
      const start = out.length;
      // A label's words name its control, wherever they sit in it: in a
      // <span> (a required star), or slotted into a web component's label.
      const label = !leaf && tag === 'label' && isLabelText(el);
      if (label) inLabel++;
      if (!leaf) walkChildren(el, depth, domDepth, cursor, out, shown, null);
      if (label) inLabel--;
      if (notice) keepText(out, start);
      if (block || notice) closeText(out);
      view = outer;
      return;
    }
    if (depth >= maxDepth) {
      view = outer;
      return;
    }
    const node = visitNode(el, tag, role, active, style, leaf, depth, domDepth, cursor, shown);
    view = outer;
    if (cfg.viewportOnly && !node.children.length && !inViewport(el, display)) return;
    out.push(node);
  }

  // visitNode makes el's node, with its children walked.
  function visitNode(el, tag, role, active, style, leaf, depth, domDepth, cursor, shown) {
    const node = {
      role: role || 'generic', name: '', attrs: null, value: undefined, ref: '',
      children: [], interactive: active, widget: active, el, scope,
    };
    // A row a virtualized grid placed where it shows, whatever its place
    // in the DOM (rows are recycled).
    if (role === 'row') node.placed = style.position === 'absolute' || style.transform !== 'none';
    let name = role ? R.authoredName(el, tag) : R.ariaName(el) || el.getAttribute('title');
    const skip = name ? R.captionOf(el, tag) : null;
    const labelled = inLabel;
    inLabel = 0; // an element of its own in a label (a link) keeps its words
    if (!leaf) walkChildren(el, depth + 1, domDepth, cursor, node.children, shown, skip);
    inLabel = labelled;
    tidy(node.children);
    V.order(node.children);
    if (!name && role) name = fallbackName(el, tag, role, node);
    if (!name && tag === 'textarea') name = R.editor.nameOf(el);
    node.name = cut(R.norm(name));
    const only = node.children.length === 1 ? node.children[0] : null;
    if (only && only.text === node.name) node.children = [];
    node.attrs = role ? S.attrsOf(S.stateOf(el, tag, role), el, tag, role, cut) : [];
    node.value = role ? S.valueOf(el, tag, role) : undefined;
    if (node.value !== undefined) node.children = [];
    for (const c of node.children) if (c.widget) node.widget = true;
    return node;
  }

  // fallbackName: content (for roles named by it) > title > placeholder.
  function fallbackName(el, tag, role, node) {
    if (R.allowsContentName(tag, role)) {
      const t = contentText(node.children);
      if (t) {
        // The name already says what the text children said; a lone
        // widget child that says it too makes the name redundant.
        const kids = node.children.filter(c => c.text === undefined && c.widget);
        node.children = kids;
        return kids.length === 1 && kids[0].name === t ? '' : t;
      }
    }
    return R.lastResortName(el);
  }

  // walkChildren walks el's rendered children: an open shadow root instead
  // of the light children, and a slot's assigned nodes instead of its
  // fallback content (unless pierceShadow is false).
  function walkChildren(el, depth, domDepth, cursor, out, shown, skip) {
    if (el.localName === 'details' && !el.open) {
      const s = el.querySelector(':scope > summary');
      if (s) visit(s, depth, domDepth + 1, cursor, out);
      return;
    }
    if (pierce) {
      const sr = el.shadowRoot;
      if (sr) {
        const saved = scope;
        scope = shadowScope(el, sr);
        walkList(sr.firstChild, null, el, depth, domDepth, cursor, out, shown, null);
        scope = saved;
        return;
      }
      if (el.localName === 'slot' && scope.hosts.length) {
        const assigned = el.assignedNodes();
        if (assigned.length) {
          const saved = scope;
          scope = scope.parent;
          walkList(null, assigned, el, depth, domDepth, cursor, out, shown, null);
          scope = saved;
          return;
        }
      }
    }
    walkList(el.firstChild, null, el, depth, domDepth, cursor, out, shown, skip);
  }

  // walkList visits the siblings from first on, or the nodes of list.
  function walkList(first, list, parent, depth, domDepth, cursor, out, shown, skip) {
    let inView;
    let viewOf = null;
    let textShown;
    let i = 0;
    for (let c = list ? list[0] : first; c; c = list ? list[++i] : c.nextSibling) {
      if (c.nodeType === 3) {
        if (textShown === undefined) textShown = shown && !inLabel && !isLabelText(parent);
        if (!textShown) continue;
        // A slot's assigned text is its host's: the slot has no box.
        const home = c.parentElement || parent;
        if (cfg.viewportOnly) {
          if (home !== viewOf) {
            viewOf = home;
            inView = inViewport(home, '');
          }
          if (!inView) continue;
        }
        addText(out, c.data, home);
      } else if (c.nodeType === 1 && c !== skip) {
        visit(c, depth, domDepth + 1, cursor, out);
      }
    }
  }

  function shadowScope(host, sr) {
    roots.push(sr);
    return {
      root: sr, hosts: scope.hosts.concat([host]), frames: scope.frames,
      parent: scope, offX: scope.offX, offY: scope.offY,
    };
  }

  // ---- frames ---------------------------------------------------------

  // visitFrame shows a frame as a document node with its content when the
  // page may read it, else as an iframe line that says why it is empty.
  // A frame's title or name names it, else its document's title.
  function visitFrame(el, depth, domDepth, out) {
    let doc = null;
    try {
      doc = el.contentDocument;
    } catch (e) { /* cross-origin */ }
    const own = R.norm(R.authoredName(el, el.localName));
    const node = {
      role: 'document', name: '', attrs: [], value: undefined, ref: '',
      children: [], interactive: false, widget: false, el, scope,
    };
    const top = doc && (doc.body || doc.documentElement);
    if (!top) {
      node.role = 'iframe';
      node.name = cut(own);
      node.attrs = ['cross-origin'];
      const src = el.src || el.getAttribute('src') || '';
      if (src) node.attrs.push(S.bracket('url', cut(src)));
      if (xframes) markFrame(el, depth, node);
      out.push(node);
      return;
    }
    node.name = cut(own || R.norm(doc.title));
    roots.push(doc);
    const saved = scope;
    const r = el.getBoundingClientRect();
    scope = {
      root: doc, hosts: [], frames: saved.frames.concat([el]), parent: saved,
      offX: saved.offX + r.left + el.clientLeft, offY: saved.offY + r.top + el.clientTop,
    };
    visit(top, depth + 1, domDepth + 1, 'auto', node.children);
    scope = saved;
    tidy(node.children);
    for (const c of node.children) if (c.widget) node.widget = true;
    out.push(node);
  }

  // markFrame lists a frame the page may not read, with what its own
  // snapshot needs: where its viewport starts and the part of the top
  // viewport it shows. The node stays a widget so that the interactive
  // level keeps it and the structure around it.
  function markFrame(el, depth, node) {
    const r = el.getBoundingClientRect();
    const x = scope.offX + r.left + el.clientLeft;
    const y = scope.offY + r.top + el.clientTop;
    const x0 = Math.max(x, clip.x);
    const y0 = Math.max(y, clip.y);
    const x1 = Math.min(x + el.clientWidth, clip.x + clip.width);
    const y1 = Math.min(y + el.clientHeight, clip.y + clip.height);
    node.xframe = xframes.length;
    node.mark = cfg.frameMark + '=' + node.xframe;
    node.attrs.push(node.mark);
    node.widget = true;
    xframes.push({
      el, depth, name: node.name, scope,
      origin: { x, y },
      clip: { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) },
    });
  }

  // ---- notices --------------------------------------------------------

  // isNotice: an element without a role that shows a message a person
  // reads first: a live region, or an error, warning or flash message by
  // its class or id. Long ones are containers that merely say so.
  function isNotice(el) {
    const live = el.getAttribute('aria-live');
    if (live === 'polite' || live === 'assertive') return el.textContent.length < 400;
    const cls = typeof el.className === 'string' ? el.className : '';
    return NOTICE.test(cls + ' ' + el.id) && el.textContent.length < 400;
  }
  const NOTICE = /error|invalid|danger|warn|alert|toast|flash|notif|feedback/i;

  // keepText marks the text runs from start on as a notice's.
  function keepText(out, start) {
    for (let i = start; i < out.length; i++) if (out[i].text !== undefined) out[i].notice = true;
  }

  // ---- text -----------------------------------------------------------

  // A label's text already names its control; repeating it as text would
  // only add noise. A label whose control is not rendered keeps its text:
  // it is then the only visible trace of the control. A label around a
  // web component names the field in its shadow root (roles.js).
  function isLabelText(el) {
    if (el.localName !== 'label') return false;
    const c = el.control || (pierce && !el.htmlFor ? componentField(el) : null);
    return !!c && c.checkVisibility();
  }

  function componentField(label) {
    for (const e of label.querySelectorAll('*')) {
      if (e.shadowRoot) return e.shadowRoot.querySelector('input:not([type=hidden]),select,textarea');
    }
    return null;
  }

  function addText(out, data, src) {
    const last = out[out.length - 1];
    if (last && last.text !== undefined && !last.closed) last.text += data;
    else out.push({ text: data, src, scope });
  }

  function closeText(out) {
    const last = out[out.length - 1];
    if (last && last.text !== undefined) last.closed = true;
  }

  // tidy normalises text runs in place and drops empty ones.
  function tidy(nodes) {
    let w = 0;
    for (const n of nodes) {
      if (n.text !== undefined) {
        n.text = R.norm(n.text);
        if (!n.text) continue;
        delete n.closed;
      }
      nodes[w++] = n;
    }
    nodes.length = w;
  }

  function contentText(nodes) {
    let s = '';
    for (const n of nodes) {
      const t = n.text !== undefined ? n.text : n.name || contentText(n.children);
      if (t) s += (s ? ' ' : '') + t;
    }
    return s;
  }

  function cut(s) {
    if (s.length <= maxNameLength) return s;
    let n = maxNameLength;
    const code = s.charCodeAt(n - 1);
    if (code >= 0xd800 && code <= 0xdbff) n--; // keep surrogate pairs whole
    return s.slice(0, n) + '\u2026';
  }

  // ---- geometry -------------------------------------------------------

  function inViewport(el, display, sc, within) {
    return display === 'contents' || V.meets(V.boxOf(el, sc || scope), within || view);
  }

  return {
    tree, stats, roots, xframes, contentText, cut,
    inView: (nodes) => V.inView(nodes, clip, pierce),
    boxOf: (el, sc) => V.boxOf(el, sc || scope),
  };
}
