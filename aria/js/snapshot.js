// snapshot builds the ARIA snapshot of the page (SPEC 7) and hands out refs
// under the in-page ref contract shared with package dom. It walks the DOM
// once, builds a small node tree, filters it for the detail level and
// renders it as YAML-like text.
//
// opts: {root, detail, mode, maxDepth, maxElements, maxNameLength,
//        includeText, viewportOnly, internal}
// returns {yaml, snapshotId, refCount, truncated}
//      or {error: 'invalidSelector'|'notFound', message}
function snapshot(opts) {
  'use strict';
  opts = opts || {};
  const detail = opts.detail || 'full';
  const mode = opts.mode || 'ai';
  const maxDepth = opts.maxDepth > 0 ? opts.maxDepth : 50;
  const maxElements = opts.maxElements > 0 ? opts.maxElements : Infinity;
  const maxNameLength = opts.maxNameLength > 0 ? opts.maxNameLength : 150;
  const includeText = opts.includeText !== false;
  const viewportOnly = !!opts.viewportOnly;
  const withRefs = mode === 'ai' && detail !== 'summary';
  // Deep wrapper soup must not overflow the JS stack; maxDepth counts only
  // nodes that appear in the output, so the DOM depth needs its own guard.
  const maxDomDepth = 1000;

  const LANDMARKS = new Set(['banner', 'complementary', 'contentinfo', 'form',
    'main', 'navigation', 'region', 'search']);
  const HEADER_LANDMARKS = new Set(['navigation', 'banner', 'contentinfo',
    'complementary', 'search']);
  const STRUCTURE = new Set([...LANDMARKS, 'dialog', 'alertdialog', 'group',
    'radiogroup', 'tablist', 'menu', 'menubar', 'toolbar', 'tree', 'grid']);
  const WIDGETS = new Set(['button', 'checkbox', 'combobox', 'link', 'listbox',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio',
    'scrollbar', 'searchbox', 'slider', 'spinbutton', 'switch', 'tab',
    'textbox', 'treeitem']);
  const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox',
    'columnheader', 'gridcell', 'heading', 'link', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'rowheader',
    'switch', 'tab', 'tooltip', 'treeitem']);
  // Roles that add nothing an agent acts on: their text merges into the
  // surrounding text as if they were plain spans.
  const FLATTEN = new Set(['generic', 'none', 'presentation', 'code',
    'emphasis', 'strong', 'deletion', 'insertion', 'mark', 'subscript',
    'superscript', 'time', 'term', 'definition', 'rowgroup', 'caption',
    'document']);
  const VALUED = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton',
    'slider', 'progressbar', 'meter', 'scrollbar']);
  const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox',
    'menuitemradio', 'treeitem']);
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head',
    'meta', 'link', 'title', 'base', 'wbr']);
  // Elements whose DOM children are not content: fallback content, option
  // lists, default values.
  const LEAF = new Set(['input', 'textarea', 'img', 'option', 'progress',
    'meter', 'iframe', 'video', 'audio', 'canvas', 'object', 'embed', 'svg',
    'area', 'hr', 'math']);
  const CONTROLS = new Set(['input', 'select', 'textarea', 'button']);
  const FORM_STATE = new Set(['button', 'input', 'select', 'textarea',
    'option', 'optgroup', 'fieldset']);

  const refs = refState();
  let count = 0;
  let truncated = false;
  let refCount = 0;
  let idCount = null;
  let labelMap = null;
  const nthCache = new Map();
  const vw = window.innerWidth;
  const vh = window.innerHeight;

  let header = '';
  let badSelector = '';
  const root = findRoot();
  if (badSelector) return { error: 'invalidSelector', message: badSelector };
  if (!root) {
    return { error: 'notFound', message: 'no element matches ' + JSON.stringify(opts.root) };
  }

  let snapId = 0;
  if (mode === 'ai') {
    snapId = opts.internal ? window.__ariaSnapshotId : ++window.__ariaSnapshotId;
  }
  const parent = root.parentElement;
  const top = [];
  visit(root, 0, 0, parent ? getComputedStyle(parent).cursor : 'auto', top);
  tidy(top);

  let lines;
  if (detail === 'summary') lines = summary(top);
  else lines = render(detail === 'interactive' ? onlyInteractive(top) : top, '', []);
  if (header) lines.unshift(header);
  return {
    yaml: lines.join('\n'),
    snapshotId: mode === 'ai' ? 's' + snapId : '',
    refCount,
    truncated,
  };

  // ---- scope ----------------------------------------------------------

  function refState() {
    const w = window;
    if (!(w.__ariaRefs instanceof Map)) w.__ariaRefs = new Map();
    if (!(w.__ariaRefMeta instanceof Map)) w.__ariaRefMeta = new Map();
    if (!(w.__ariaRefOf instanceof WeakMap)) w.__ariaRefOf = new WeakMap();
    if (typeof w.__ariaSnapshotId !== 'number') w.__ariaSnapshotId = 0;
    if (typeof w.__ariaElementId !== 'number') w.__ariaElementId = 0;
    return { map: w.__ariaRefs, meta: w.__ariaRefMeta, of: w.__ariaRefOf };
  }

  // findRoot returns null when the root matches nothing, and sets
  // badSelector when it does not parse; without a root it auto-scopes to
  // main (SPEC 7.4).
  function findRoot() {
    const body = document.body || document.documentElement;
    const r = (opts.root || '').trim();
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
    if (!main) return body;
    const others = landmarksOutside(main);
    header = '# scoped to main' + (others.length ? '; also: ' + others.join(', ') : '') +
      ' \u2014 use {root:"body"} for all';
    return main;
  }

  // byRole finds the first shown element with the role (and, if given, a
  // name containing name, case-insensitively).
  function byRole(role, name) {
    const want = name === undefined ? '' : name.toLowerCase();
    for (const el of document.querySelectorAll(roleCandidates(role))) {
      if (roleOf(el, el.localName) !== role || !isShown(el)) continue;
      if (want && !nameOf(el, el.localName, role, []).toLowerCase().includes(want)) continue;
      return el;
    }
    return null;
  }

  function roleCandidates(role) {
    const implicit = {
      main: 'main', navigation: 'nav', banner: 'header', contentinfo: 'footer',
      complementary: 'aside', search: 'search', form: 'form', region: 'section',
      dialog: 'dialog', list: 'ul,ol,menu', table: 'table', heading: 'h1,h2,h3,h4,h5,h6',
    }[role];
    return implicit ? implicit + ',[role]' : '*';
  }

  function isShown(el) {
    return el.checkVisibility() && !el.closest('[aria-hidden="true"],[inert]');
  }

  function landmarksOutside(main) {
    const out = [];
    for (const el of document.querySelectorAll('header,footer,nav,aside,search,[role]')) {
      if (main.contains(el) || el.contains(main)) continue;
      const role = roleOf(el, el.localName);
      if (!HEADER_LANDMARKS.has(role) || !isShown(el)) continue;
      const name = cut(norm(authoredName(el, el.localName)));
      out.push(name ? role + ' ' + JSON.stringify(name) : role);
    }
    return out;
  }

  // ---- walk -----------------------------------------------------------

  // visit appends to out the nodes el contributes: one node when el has a
  // role or a ref, else its children's nodes (a flattened wrapper).
  function visit(el, depth, domDepth, parentCursor, out) {
    const tag = el.localName;
    if (SKIP.has(tag)) return;
    if (tag === 'br') return addText(out, ' ');
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return;
    if (tag === 'input' && el.type === 'hidden') return;
    const style = getComputedStyle(el);
    const display = style.display;
    if (display === 'none') return;
    if (count >= maxElements || domDepth >= maxDomDepth) {
      truncated = true;
      return;
    }
    count++;
    const shown = style.visibility === 'visible';
    const cursor = style.cursor;
    let role = shown ? roleOf(el, tag) : null;
    if (role && FLATTEN.has(role)) role = null;
    const active = shown && isInteractive(el, tag, role, cursor === 'pointer' && parentCursor !== 'pointer');
    const leaf = LEAF.has(tag) || (tag === 'select' && role === 'combobox') ||
      style.contentVisibility === 'hidden';

    if (!role && !active) {
      const block = !display.startsWith('inline') && display !== 'contents';
      if (block) closeText(out);
      if (!leaf) walkChildren(el, depth, domDepth, cursor, out, shown, null);
      if (block) closeText(out);
      return;
    }
    if (depth >= maxDepth) return;
    const node = {
      role: role || 'generic', name: '', attrs: [], value: undefined, ref: '',
      children: [], interactive: active, widget: active,
    };
    let name = role ? authoredName(el, tag) : ariaName(el) || el.getAttribute('title');
    const skip = name ? captionOf(el, tag) : null;
    if (!leaf) walkChildren(el, depth + 1, domDepth, cursor, node.children, shown, skip);
    tidy(node.children);
    if (!name && role) name = fallbackName(el, tag, role, node);
    node.name = cut(norm(name));
    const only = node.children.length === 1 ? node.children[0] : null;
    if (only && only.text === node.name) node.children = [];
    states(node, el, tag, role);
    if (node.value !== undefined) node.children = [];
    for (const c of node.children) if (c.widget) node.widget = true;
    if (viewportOnly && !node.children.length && !inViewport(el, display)) return;
    // Re-resolution matches on the name; an unnamed element is best
    // recognised by its text.
    if (active && withRefs) node.ref = refFor(el, node.role, node.name || cut(contentText(node.children)));
    out.push(node);
  }

  function walkChildren(el, depth, domDepth, cursor, out, shown, skip) {
    if (el.localName === 'details' && !el.open) {
      const s = el.querySelector(':scope > summary');
      if (s) visit(s, depth, domDepth + 1, cursor, out);
      return;
    }
    let inView;
    let textShown;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) {
        if (textShown === undefined) textShown = shown && !isLabelText(el);
        if (!textShown) continue;
        if (viewportOnly) {
          if (inView === undefined) inView = inViewport(el, '');
          if (!inView) continue;
        }
        addText(out, c.data);
      } else if (c.nodeType === 1 && c !== skip) {
        visit(c, depth, domDepth + 1, cursor, out);
      }
    }
  }

  // A label's text already names its control; repeating it as text would
  // only add noise. A label whose control is not rendered keeps its text:
  // it is then the only visible trace of the control.
  function isLabelText(el) {
    if (el.localName !== 'label') return false;
    const c = el.control;
    return !!c && c.checkVisibility();
  }

  function addText(out, data) {
    const last = out[out.length - 1];
    if (last && last.text !== undefined && !last.closed) last.text += data;
    else out.push({ text: data });
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
        n.text = norm(n.text);
        if (!n.text) continue;
        delete n.closed;
      }
      nodes[w++] = n;
    }
    nodes.length = w;
  }

  function inViewport(el, display) {
    if (display === 'contents') return true;
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
  }

  // ---- roles ----------------------------------------------------------

  function roleOf(el, tag) {
    const explicit = el.getAttribute('role');
    if (explicit) {
      const first = explicit.trim().split(/\s+/)[0].toLowerCase();
      if (first) return first;
    }
    return implicitRole(el, tag);
  }

  function implicitRole(el, tag) {
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : null;
      case 'article': return 'article';
      case 'aside': return 'complementary';
      case 'blockquote': return 'blockquote';
      case 'button': return 'button';
      case 'details': return 'group';
      case 'dialog': return 'dialog';
      case 'fieldset': case 'optgroup': return 'group';
      case 'figure': return 'figure';
      case 'footer': return sectioned(el) ? null : 'contentinfo';
      case 'header': return sectioned(el) ? null : 'banner';
      case 'form': return hasAuthoredName(el) ? 'form' : null;
      case 'section': return hasAuthoredName(el) ? 'region' : null;
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'hr': return 'separator';
      case 'iframe': return 'iframe';
      case 'img': return el.getAttribute('alt') === '' ? null : 'img';
      case 'input': return inputRole(el);
      case 'li': return 'listitem';
      case 'main': return 'main';
      case 'menu': case 'ol': case 'ul': return 'list';
      case 'meter': return 'meter';
      case 'nav': return 'navigation';
      case 'option': return 'option';
      case 'output': return 'status';
      case 'p': return 'paragraph';
      case 'progress': return 'progressbar';
      case 'search': return 'search';
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'summary': return 'button';
      case 'svg': return hasAuthoredName(el) || svgTitle(el) ? 'img' : null;
      case 'table': return 'table';
      case 'td': return inGrid(el) ? 'gridcell' : 'cell';
      case 'th': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'textarea': return 'textbox';
      case 'tr': return 'row';
    }
    return isEditingHost(el) ? 'textbox' : null;
  }

  function inputRole(el) {
    const list = el.hasAttribute('list');
    switch (el.type) {
      case 'button': case 'submit': case 'reset': case 'image': case 'file': case 'color':
        return 'button';
      case 'checkbox': return el.hasAttribute('switch') ? 'switch' : 'checkbox';
      case 'radio': return 'radio';
      case 'range': return 'slider';
      case 'number': return 'spinbutton';
      case 'search': return list ? 'combobox' : 'searchbox';
      default: return list ? 'combobox' : 'textbox';
    }
  }

  // header and footer are page landmarks only outside sectioning content.
  function sectioned(el) {
    return !!el.parentElement && !!el.parentElement.closest('article,aside,main,nav,section');
  }

  // isEditingHost asks for isContentEditable (which needs style) only of
  // elements that carry the attribute.
  function isEditingHost(el) {
    if (!el.hasAttribute('contenteditable') || !el.isContentEditable) return false;
    const up = el.parentElement;
    return !(up && up.isContentEditable);
  }

  function inGrid(td) {
    const t = td.closest('table');
    const r = t && t.getAttribute('role');
    return r === 'grid' || r === 'treegrid';
  }

  function isInteractive(el, tag, role, pointerOrigin) {
    switch (tag) {
      case 'a': case 'area': if (el.hasAttribute('href')) return true; break;
      case 'button': case 'select': case 'textarea': case 'summary': return true;
      case 'input': return true;
      case 'option': return false; // chosen through its select
      case 'label': if (el.control) return false; break;
    }
    if (role && WIDGETS.has(role)) return true;
    const ti = el.getAttribute('tabindex');
    if (ti !== null && parseInt(ti, 10) >= 0) return true;
    if (isEditingHost(el)) return true;
    return pointerOrigin || el.onclick !== null;
  }

  // ---- names ----------------------------------------------------------

  // nameOf is the whole chain; the walk splits it around the children so
  // that name-from-content reuses the nodes it has already built.
  function nameOf(el, tag, role, children) {
    return norm(authoredName(el, tag) || fallbackName(el, tag, role, { children }));
  }

  function hasAuthoredName(el) {
    return !!(ariaName(el) || el.getAttribute('title'));
  }

  function ariaName(el) {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      let s = '';
      for (const id of by.trim().split(/\s+/)) {
        const t = document.getElementById(id);
        if (t) s += ' ' + (t.getAttribute('aria-label') || domText(t, null));
      }
      if (s.trim()) return s;
    }
    const label = el.getAttribute('aria-label');
    return label && label.trim() ? label : '';
  }

  // authoredName: aria-labelledby > aria-label > the element's native
  // labelling (label elements, value of a submit, alt, legend, caption).
  function authoredName(el, tag) {
    const aria = ariaName(el);
    if (aria) return aria;
    switch (tag) {
      case 'input': return inputName(el);
      case 'button': case 'select': case 'textarea': case 'meter': case 'progress': case 'output':
        return labelsText(el);
      case 'img': case 'area': return el.getAttribute('alt') || '';
      case 'option': case 'optgroup': return el.label;
      case 'fieldset': case 'table': case 'figure': {
        const c = captionOf(el, tag);
        return c ? domText(c, null) : '';
      }
      case 'svg': return svgTitle(el);
      case 'iframe': return el.title || el.name || '';
    }
    return '';
  }

  function inputName(el) {
    switch (el.type) {
      case 'button': return el.value || labelsText(el);
      case 'submit': return el.value || labelsText(el) || 'Submit';
      case 'reset': return el.value || labelsText(el) || 'Reset';
      case 'image': return el.alt || el.value || 'Submit';
    }
    return labelsText(el);
  }

  // fallbackName: content (for roles named by it) > title > placeholder.
  function fallbackName(el, tag, role, node) {
    if (NAME_FROM_CONTENT.has(role) && tag !== 'input') {
      const t = contentText(node.children);
      if (t) {
        // The name already says what the text children said; a lone
        // widget child that says it too makes the name redundant.
        const kids = node.children.filter(c => c.text === undefined && c.widget);
        node.children = kids;
        return kids.length === 1 && kids[0].name === t ? '' : t;
      }
    }
    return el.getAttribute('title') || el.getAttribute('placeholder') ||
      el.getAttribute('aria-placeholder') || '';
  }

  function contentText(nodes) {
    let s = '';
    for (const n of nodes) {
      const t = n.text !== undefined ? n.text : n.name || contentText(n.children);
      if (t) s += (s ? ' ' : '') + t;
    }
    return s;
  }

  function labelsText(el) {
    const labels = labelsOf(el);
    if (!labels) return '';
    let s = '';
    for (const l of labels) s += ' ' + domText(l, el);
    return s;
  }

  // labelsOf indexes every label once: el.labels walks the whole document
  // on each call, which is quadratic on a page of many fields.
  function labelsOf(el) {
    if (!labelMap) {
      labelMap = new Map();
      for (const l of document.querySelectorAll('label')) {
        const c = l.control;
        if (!c) continue;
        const list = labelMap.get(c);
        if (list) list.push(l);
        else labelMap.set(c, [l]);
      }
    }
    return labelMap.get(el);
  }

  // captionOf is the child that names el; the walk skips it, since the
  // name already carries its text.
  function captionOf(el, tag) {
    const sel = { fieldset: ':scope > legend', table: ':scope > caption', figure: ':scope > figcaption' }[tag];
    return sel ? el.querySelector(sel) : null;
  }

  function svgTitle(el) {
    const t = el.querySelector(':scope > title');
    return t ? t.textContent : '';
  }

  // domText is the text an element contributes to another's name: its
  // rendered text, without embedded controls (a select inside a label must
  // not lend the label its options).
  function domText(node, skip) {
    let s = '';
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) {
        s += c.data;
        continue;
      }
      if (c.nodeType !== 1 || c === skip) continue;
      const t = c.localName;
      if (SKIP.has(t) || CONTROLS.has(t) || t === 'datalist' || c.getAttribute('aria-hidden') === 'true') continue;
      const st = getComputedStyle(c);
      if (st.display === 'none' || st.visibility !== 'visible') continue;
      const inner = t === 'img' ? c.getAttribute('alt') || '' : c.getAttribute('aria-label') || domText(c, skip);
      s += st.display.startsWith('inline') ? inner : ' ' + inner + ' ';
    }
    return s;
  }

  function norm(s) {
    return s ? String(s).replace(/\s+/g, ' ').trim() : '';
  }

  function cut(s) {
    if (s.length <= maxNameLength) return s;
    let n = maxNameLength;
    const code = s.charCodeAt(n - 1);
    if (code >= 0xd800 && code <= 0xdbff) n--; // keep surrogate pairs whole
    return s.slice(0, n) + '\u2026';
  }

  // ---- states and values ----------------------------------------------

  function states(node, el, tag, role) {
    const a = node.attrs;
    const attr = n => el.getAttribute(n);
    if (role === 'heading') {
      const lvl = /^h[1-6]$/.test(tag) ? +tag[1] : parseInt(attr('aria-level'), 10) || 2;
      a.push('level=' + lvl);
    }
    if (CHECKABLE.has(role)) {
      let c = attr('aria-checked');
      if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
        c = el.indeterminate ? 'mixed' : String(el.checked);
      }
      if (c === 'true') a.push('checked');
      else if (c === 'mixed') a.push('checked=mixed');
    }
    if (attr('aria-disabled') === 'true' || (FORM_STATE.has(tag) && el.matches(':disabled'))) a.push('disabled');
    let exp = attr('aria-expanded');
    if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details') {
      exp = String(el.parentElement.open);
    }
    if (exp === 'true') a.push('expanded');
    else if (exp === 'false') a.push('collapsed');
    const pressed = attr('aria-pressed');
    if (pressed === 'true') a.push('pressed');
    else if (pressed === 'mixed') a.push('pressed=mixed');
    if (attr('aria-selected') === 'true' || (tag === 'option' && el.selected)) a.push('selected');
    if (attr('aria-required') === 'true' || ((tag === 'input' || tag === 'select' || tag === 'textarea') && el.required)) {
      a.push('required');
    }
    const inv = attr('aria-invalid');
    if (inv === 'grammar' || inv === 'spelling') a.push('invalid=' + inv);
    else if ((inv && inv !== 'false') || (CONTROLS.has(tag) && el.matches(':user-invalid'))) a.push('invalid');
    if ((tag === 'input' || tag === 'select' || tag === 'textarea') && el.name) a.push(bracket('name', el.name));
    if (role === 'link' && el.href) a.push(bracket('url', cut(shortURL(el.href))));
    const v = valueOf(el, tag, role);
    if (v !== undefined) node.value = v;
  }

  function valueOf(el, tag, role) {
    if (tag === 'input') {
      if (el.type === 'color') return el.value;
      if (!VALUED.has(role)) return undefined;
      return el.type === 'password' ? '\u2022'.repeat(el.value.length) : el.value;
    }
    if (tag === 'textarea') return el.value;
    if (tag === 'select') {
      if (role !== 'combobox') return undefined;
      const o = el.selectedOptions[0];
      return o ? norm(o.label) : '';
    }
    if (tag === 'meter') return String(el.value);
    if (tag === 'progress') return el.position < 0 ? undefined : String(el.value);
    if (!VALUED.has(role)) return undefined;
    const vt = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
    if (vt !== null) return vt;
    if (role === 'textbox' || role === 'searchbox') return norm(el.textContent);
    return undefined;
  }

  // shortURL drops the page's own origin: agents read the path.
  function shortURL(href) {
    const o = location.origin;
    if (o && o !== 'null' && href.startsWith(o + '/')) return href.slice(o.length);
    return href;
  }

  function bracket(key, v) {
    return key + '=' + (/^[^\s\]"]+$/.test(v) ? v : JSON.stringify(v));
  }

  // ---- refs -----------------------------------------------------------

  // refFor returns el's ref, reusing the one it already has: the WeakMap
  // makes that O(1), and the refs map check catches a ref that was since
  // re-pointed at another element. The meta is rewritten each time: after
  // a re-render, the element's latest place and name find its successor.
  function refFor(el, role, name) {
    refCount++;
    let ref = refs.of.get(el);
    const cur = ref && refs.map.get(ref);
    if (!ref || (cur !== el && cur !== undefined)) {
      ref = 's' + snapId + 'e' + (++window.__ariaElementId);
      refs.of.set(el, ref);
    }
    refs.map.set(ref, el);
    refs.meta.set(ref, { selector: selectorFor(el), role, name });
    return ref;
  }

  // selectorFor is an #id when the id is unique, else a short nth-of-type
  // path anchored at the nearest uniquely-id'd ancestor or at body.
  function selectorFor(el) {
    const parts = [];
    for (let cur = el; cur; ) {
      const tag = cur.localName;
      if (cur.id && uniqueId(cur)) {
        parts.push('#' + CSS.escape(cur.id));
        break;
      }
      const up = cur.parentElement;
      if (tag === 'body' || tag === 'html' || !up) {
        parts.push(CSS.escape(tag));
        break;
      }
      parts.push(CSS.escape(tag) + nthOfType(cur, up));
      cur = up;
    }
    return parts.reverse().join(' > ');
  }

  function uniqueId(el) {
    if (el.getRootNode() !== document) return false;
    if (!idCount) {
      idCount = new Map();
      for (const e of document.querySelectorAll('[id]')) idCount.set(e.id, (idCount.get(e.id) || 0) + 1);
    }
    return idCount.get(el.id) === 1;
  }

  // nthOfType indexes all children of a parent at once, so a list of ten
  // thousand items costs ten thousand steps, not fifty million.
  function nthOfType(el, parent) {
    let m = nthCache.get(parent);
    if (!m) {
      m = new Map();
      const counts = new Map();
      for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
        const k = (counts.get(c.localName) || 0) + 1;
        counts.set(c.localName, k);
        m.set(c, k);
      }
      for (const [c] of m) if (counts.get(c.localName) === 1) m.set(c, 0);
      nthCache.set(parent, m);
    }
    const k = m.get(el);
    return k ? ':nth-of-type(' + k + ')' : '';
  }

  // ---- detail levels and rendering ------------------------------------

  // onlyInteractive keeps interactive nodes (with their own text) and the
  // landmarks and groups on the way to them; everything else is dropped
  // and its kept descendants promoted. It only removes lines and shortens
  // others, so it is never larger than the full tree.
  function onlyInteractive(nodes) {
    const out = [];
    for (const n of nodes) {
      if (n.text !== undefined || !n.widget) continue;
      if (n.interactive) {
        const kids = [];
        for (const c of n.children) {
          if (c.text !== undefined) kids.push(c);
          else kids.push(...onlyInteractive([c]));
        }
        out.push(Object.assign({}, n, { children: kids }));
      } else if (STRUCTURE.has(n.role)) {
        out.push(Object.assign({}, n, { children: onlyInteractive(n.children) }));
      } else {
        out.push(...onlyInteractive(n.children));
      }
    }
    return out;
  }

  function render(nodes, indent, lines) {
    for (const n of nodes) {
      if (n.text !== undefined) {
        if (includeText) lines.push(indent + '- text: ' + JSON.stringify(n.text));
        continue;
      }
      let line = indent + '- ' + n.role;
      if (n.name) line += ' ' + JSON.stringify(n.name);
      for (const a of n.attrs) line += ' [' + a + ']';
      if (n.ref) line += ' [ref=' + n.ref + ']';
      // An interactive node's own text is its label: it stays.
      const kids = includeText || n.interactive ? n.children : n.children.filter(c => c.text === undefined);
      if (n.value !== undefined) {
        lines.push(line + ': ' + JSON.stringify(n.value));
      } else if (kids.length === 1 && kids[0].text !== undefined) {
        lines.push(line + ': ' + JSON.stringify(kids[0].text));
      } else if (kids.length) {
        lines.push(line + ':');
        render(kids, indent + '  ', lines);
      } else {
        lines.push(line);
      }
    }
    return lines;
  }

  // summary lists landmarks (with counts of the interactive elements
  // inside them, by role) and headings.
  function summary(nodes) {
    const total = new Map();
    const tally = { landmarks: 0, headings: 0 };
    const body = summarize(nodes, '', total, tally);
    let n = 0;
    for (const v of total.values()) n += v;
    const head = '# summary: ' + tally.landmarks + ' landmarks, ' + tally.headings +
      ' headings, ' + n + ' interactive';
    return [head, ...body];
  }

  function summarize(nodes, indent, counts, tally) {
    const lines = [];
    for (const n of nodes) {
      if (n.text !== undefined) continue;
      if (n.interactive) counts.set(n.role, (counts.get(n.role) || 0) + 1);
      if (n.role === 'heading') {
        tally.headings++;
        lines.push(indent + '- heading ' + JSON.stringify(n.name) + ' [' + n.attrs[0] + ']');
        summarize(n.children, indent, counts, tally); // links inside still count
        continue;
      }
      if (!LANDMARKS.has(n.role) && n.role !== 'dialog') {
        lines.push(...summarize(n.children, indent, counts, tally));
        continue;
      }
      tally.landmarks++;
      const own = new Map();
      const sub = summarize(n.children, indent + '  ', own, tally);
      let line = indent + '- ' + n.role + (n.name ? ' ' + JSON.stringify(n.name) : '');
      let all = 0;
      for (const v of own.values()) all += v;
      line += ' [interactive=' + all + ']';
      for (const [role, k] of [...own].sort((x, y) => y[1] - x[1])) {
        line += ' [' + role + '=' + k + ']';
        counts.set(role, (counts.get(role) || 0) + k);
      }
      lines.push(sub.length ? line + ':' : line, ...sub);
    }
    return lines;
  }
}
