// The helpers every dom/ operation starts from: target resolution (CSS
// selector, aria ref, form label, focused element) and the rules it needs —
// visibility, ARIA role, accessible name — plus the handle store that pins
// a resolved element between the calls of one action.
//
// Go composes each operation as op(helpers(), args), so this factory runs
// on every call and keeps nothing in the page except the handle store and,
// after a ref is re-resolved, the updated entry of window.__ariaRefs.
function () {
  const HANDLES = Symbol.for('cdpskill.handles');

  // handles maps a token chosen by Go to {el, probe} for one action.
  function handles() {
    if (!(window[HANDLES] instanceof Map)) window[HANDLES] = new Map();
    return window[HANDLES];
  }

  function norm(s) {
    return String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  }

  function styleOf(el) {
    return el.ownerDocument.defaultView.getComputedStyle(el);
  }

  // flatParent steps up the rendered tree: through slots and shadow hosts.
  function flatParent(n) {
    return n.assignedSlot || n.parentElement || n.getRootNode().host || null;
  }

  // hiddenReason says why a user could not see el (SPEC 8.3), or ''.
  function hiddenReason(el) {
    if (!el.isConnected) return 'detached from the document';
    if (el.hasAttribute('hidden')) return 'has the hidden attribute';
    if (el.getAttribute('aria-hidden') === 'true') return 'aria-hidden="true"';
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
      for (let n = el; n; n = flatParent(n)) {
        const st = styleOf(n);
        const on = n === el ? '' : ' on ' + label(n);
        if (st.display === 'none') return 'display: none' + on;
        if (st.opacity === '0') return 'opacity: 0' + on;
      }
      return 'visibility: ' + styleOf(el).visibility;
    }
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 'zero size (' + r.width + 'x' + r.height + ')';
    return '';
  }

  // ---- ARIA role and accessible name -------------------------------------
  // The same HTML-AAM subset aria/ records in a ref's metadata, so that a
  // re-rendered element is recognised by the role and name it had then.

  function role(el) {
    const explicit = norm(el.getAttribute('role')).split(' ')[0];
    if (explicit) return explicit.toLowerCase();
    return implicitRole(el, el.localName);
  }

  function implicitRole(el, tag) {
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
      case 'article': return 'article';
      case 'aside': return 'complementary';
      case 'blockquote': return 'blockquote';
      case 'button': case 'summary': return 'button';
      case 'details': case 'fieldset': case 'optgroup': return 'group';
      case 'dialog': return 'dialog';
      case 'figure': return 'figure';
      case 'footer': return sectioned(el) ? '' : 'contentinfo';
      case 'header': return sectioned(el) ? '' : 'banner';
      case 'form': return ariaName(el) || el.getAttribute('title') ? 'form' : '';
      case 'section': return ariaName(el) || el.getAttribute('title') ? 'region' : '';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'hr': return 'separator';
      case 'iframe': return 'iframe';
      case 'img': return el.getAttribute('alt') === '' ? '' : 'img';
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
      case 'table': return 'table';
      case 'td': { const t = el.closest('table'); return t && /^(tree)?grid$/.test(t.getAttribute('role') || '') ? 'gridcell' : 'cell'; }
      case 'th': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'textarea': return 'textbox';
      case 'tr': return 'row';
    }
    const editingHost = el.hasAttribute('contenteditable') && el.isContentEditable &&
      !(el.parentElement && el.parentElement.isContentEditable);
    return editingHost ? 'textbox' : '';
  }

  function inputRole(el) {
    const list = el.hasAttribute('list');
    switch (el.type) {
      case 'button': case 'submit': case 'reset': case 'image': case 'file': case 'color': return 'button';
      case 'checkbox': return el.hasAttribute('switch') ? 'switch' : 'checkbox';
      case 'radio': return 'radio';
      case 'range': return 'slider';
      case 'number': return 'spinbutton';
      case 'search': return list ? 'combobox' : 'searchbox';
      case 'hidden': return '';
    }
    return list ? 'combobox' : 'textbox';
  }

  // header and footer are landmarks only outside sectioning content.
  function sectioned(el) {
    return !!el.parentElement && !!el.parentElement.closest('article,aside,main,nav,section');
  }

  const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader',
    'gridcell', 'heading', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'option', 'radio', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem']);

  // ownText is the rendered text of el without form controls inside it, so
  // that a label wrapping a <select> is named by its words only.
  function ownText(el) {
    let out = '';
    const walk = (n) => {
      for (let c = n.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) out += c.data;
        if (c.nodeType !== 1 || /^(input|select|textarea|button|script|style|template|datalist)$/.test(c.localName)) continue;
        if (c.getAttribute('aria-hidden') === 'true') continue;
        const st = styleOf(c);
        if (st.display === 'none' || st.visibility !== 'visible') continue;
        const gap = st.display.startsWith('inline') ? '' : ' ';
        out += gap;
        if (c.localName === 'img') out += c.getAttribute('alt') || '';
        else if (c.getAttribute('aria-label')) out += c.getAttribute('aria-label');
        else walk(c);
        out += gap;
      }
    };
    walk(el);
    return norm(out);
  }

  function ariaName(el) {
    const ids = norm(el.getAttribute('aria-labelledby'));
    if (ids) {
      const root = el.getRootNode();
      const text = norm(ids.split(' ').map((id) => {
        const ref = root.getElementById ? root.getElementById(id) : null;
        return ref ? ref.getAttribute('aria-label') || ownText(ref) : '';
      }).join(' '));
      if (text) return text;
    }
    return norm(el.getAttribute('aria-label'));
  }

  function labelsText(el) {
    return el.labels ? norm([...el.labels].map(ownText).join(' ')) : '';
  }

  // nativeName is the element's own labelling: label elements, the value
  // of a submit, alt, option label, legend or caption.
  function nativeName(el, tag) {
    switch (tag) {
      case 'input':
        switch (el.type) {
          case 'button': return el.value || labelsText(el);
          case 'submit': return el.value || labelsText(el) || 'Submit';
          case 'reset': return el.value || labelsText(el) || 'Reset';
          case 'image': return el.alt || el.value || 'Submit';
        }
        return labelsText(el);
      case 'button': case 'select': case 'textarea': case 'meter': case 'progress': case 'output':
        return labelsText(el);
      case 'img': case 'area': return el.getAttribute('alt') || '';
      case 'option': case 'optgroup': return el.label;
      case 'fieldset': case 'table': case 'figure': {
        const sel = { fieldset: ':scope > legend', table: ':scope > caption', figure: ':scope > figcaption' }[tag];
        const cap = el.querySelector(sel);
        return cap ? ownText(cap) : '';
      }
      case 'iframe': return el.title || el.name || '';
    }
    return '';
  }

  function accessibleName(el) {
    const tag = el.localName;
    const name = ariaName(el) || norm(nativeName(el, tag));
    if (name) return name;
    if (tag !== 'input' && NAME_FROM_CONTENT.has(role(el))) {
      const text = ownText(el);
      if (text) return text;
    }
    return norm(el.getAttribute('title') || el.getAttribute('placeholder') || el.getAttribute('aria-placeholder'));
  }

  // ---- target resolution --------------------------------------------------

  function fail(status, message, extra) {
    return { error: Object.assign({ status, message }, extra || {}) };
  }

  function visibleOrFirst(list) {
    return list.find((el) => !hiddenReason(el)) || list[0] || null;
  }

  function bySelector(sel) {
    let first;
    try {
      first = document.querySelector(sel);
    } catch (e) {
      return fail('invalidSelector', e.message);
    }
    if (!first) return fail('notFound', '');
    // A hidden first match (a collapsed mobile menu, a template) usually
    // has a visible twin further down: that is the one the agent means.
    const el = hiddenReason(first) ? visibleOrFirst([...document.querySelectorAll(sel)]) : first;
    return { el, reResolved: false };
  }

  // shadowRoots lists every open shadow root under root, depth first.
  function shadowRoots(root, out) {
    out = out || [];
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) {
        out.push(el.shadowRoot);
        shadowRoots(el.shadowRoot, out);
      }
    }
    return out;
  }

  function followShadowPath(path) {
    let root = document;
    for (const sel of path) {
      let host = null;
      try { host = root.querySelector(sel); } catch (e) { return null; }
      if (!host || !host.shadowRoot) return null;
      root = host.shadowRoot;
    }
    return root;
  }

  // nameMatcher compares names case-insensitively, whole or (loose) as a
  // substring. aria/ cuts long names with '…', so a cut stored name
  // matches by its prefix.
  function nameMatcher(stored, loose) {
    let want = norm(stored).toLowerCase();
    const cut = want.endsWith('\u2026');
    if (cut) want = want.slice(0, -1);
    return (name) => {
      const have = name.toLowerCase();
      if (loose) return have.includes(want);
      return cut ? have.startsWith(want) : have === want;
    };
  }

  // reResolve finds the element a stale ref now stands for (SPEC 6.3,
  // 13.4): the stored selector, under the stored shadow host path, if it
  // still has the same role and name; else the first element of that role
  // whose name contains the stored one, there, and then in every shadow
  // root if the ref came from one.
  function reResolve(meta) {
    const inShadow = !!(meta.shadowPath && meta.shadowPath.length);
    const root = inShadow ? followShadowPath(meta.shadowPath) : document;
    if (root && meta.selector) {
      let el = null;
      try { el = root.querySelector(meta.selector); } catch (e) { /* recorded by another page version */ }
      if (el && role(el) === meta.role && nameMatcher(meta.name, false)(accessibleName(el))) return el;
    }
    // A role with no name would match the first button of the page: too loose.
    if (!norm(meta.name)) return null;
    const like = nameMatcher(meta.name, true);
    const search = (r) => {
      for (const el of r.querySelectorAll('*')) {
        if (role(el) === meta.role && like(accessibleName(el))) return el;
      }
      return null;
    };
    const found = root ? search(root) : null;
    if (found || !inShadow) return found;
    for (const r of shadowRoots(document)) {
      const el = search(r);
      if (el) return el;
    }
    return null;
  }

  function byRef(ref) {
    const refs = window.__ariaRefs instanceof Map ? window.__ariaRefs : null;
    const metas = window.__ariaRefMeta instanceof Map ? window.__ariaRefMeta : null;
    if (!refs && !metas) {
      return fail('unknownRef', 'this page has no refs (it may have navigated since the snapshot)');
    }
    const el = refs && refs.get(ref);
    if (el && el.isConnected) return { el, reResolved: false };
    const meta = metas && metas.get(ref);
    if (!el && !meta) {
      const last = window.__ariaSnapshotId;
      return fail('unknownRef', last ? 'no snapshot of this page issued it (the latest is s' + last + ')' : 'no snapshot of this page issued it');
    }
    if (!meta) return fail('stale', '', { role: '', name: '' });
    const found = reResolve(meta);
    if (!found) return fail('stale', '', { role: meta.role || '', name: meta.name || '' });
    // The ref now names the replacement, so later calls take the fast path.
    if (refs) refs.set(ref, found);
    if (window.__ariaRefOf instanceof WeakMap && !window.__ariaRefOf.has(found)) {
      window.__ariaRefOf.set(found, ref);
    }
    return { el: found, reResolved: true };
  }

  const FIELDS = 'input:not([type=hidden]), textarea, select, [contenteditable]:not([contenteditable=false])';

  // labelCandidates yields [text, control] pairs in SPEC 6.4 priority order.
  function* labelCandidates() {
    for (const l of document.querySelectorAll('label[for]')) yield [ownText(l), l.control];
    for (const l of document.querySelectorAll('label:not([for])')) yield [ownText(l), l.control];
    const fields = [...document.querySelectorAll(FIELDS)];
    for (const f of fields) if (f.hasAttribute('aria-label')) yield [norm(f.getAttribute('aria-label')), f];
    for (const f of fields) if (f.hasAttribute('aria-labelledby')) yield [ariaName(f), f];
    for (const f of fields) if (f.hasAttribute('placeholder')) yield [norm(f.getAttribute('placeholder')), f];
  }

  // byLabel prefers an exact match at any priority over a loose one, since
  // "Email" should not pick the "Email me offers" checkbox's neighbour.
  function byLabel(text, exact) {
    const want = norm(text);
    const lower = want.toLowerCase();
    const passes = [(t) => t === want];
    if (!exact) passes.push((t) => t.toLowerCase().includes(lower));
    for (const pass of passes) {
      for (const [t, el] of labelCandidates()) {
        if (el && t && pass(t) && !hiddenReason(el)) return { el, reResolved: false };
      }
    }
    return fail('notFound', '');
  }

  // deepActiveElement follows focus into shadow roots and same-origin frames.
  function deepActiveElement() {
    let a = document.activeElement;
    for (;;) {
      if (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      else if (a && (a.tagName === 'IFRAME' || a.tagName === 'FRAME') && a.contentDocument) a = a.contentDocument.activeElement;
      else return a;
    }
  }

  function focused() {
    const a = deepActiveElement();
    if (!a || a === a.ownerDocument.body || a === a.ownerDocument.documentElement) {
      return fail('notFound', 'no element has focus');
    }
    return { el: a, reResolved: false };
  }

  // resolve turns a target {kind, value, exact} into {el, reResolved} or
  // {error: {status, message, ...}}.
  function resolve(t) {
    switch (t.kind) {
      case 'selector': return bySelector(t.value);
      case 'ref': return byRef(t.value);
      case 'label': return byLabel(t.value, t.exact);
      case 'focused': return focused();
    }
    return fail('invalidTarget', 'unknown target kind ' + t.kind);
  }

  // ---- descriptions ------------------------------------------------------

  // label is a short CSS-like name for el: div#overlay.modal.open
  function label(el) {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = typeof el.className === 'string' ? norm(el.className).split(' ').filter(Boolean) : [];
    if (cls.length) s += '.' + cls.slice(0, 3).join('.');
    return s;
  }

  const KINDS = [
    [/cookie/i, 'cookie-banner'],
    [/consent|gdpr|privacy/i, 'consent-dialog'],
    [/modal|dialog|lightbox/i, 'modal'],
    [/popup|popover/i, 'popup'],
    [/toast|notification|snackbar|banner/i, 'notification'],
    [/overlay|backdrop|mask|curtain|spinner|loading/i, 'overlay'],
  ];

  // kindOf guesses what sort of layer an interceptor belongs to, from it
  // and its nearest ancestors.
  function kindOf(el) {
    for (let n = el, depth = 0; n && n.nodeType === 1 && depth < 6; n = n.parentElement, depth++) {
      const r = (n.getAttribute('role') || '').toLowerCase();
      if (r === 'dialog' || r === 'alertdialog' || n.tagName === 'DIALOG' || n.getAttribute('aria-modal') === 'true') {
        const hay = (n.id || '') + ' ' + (typeof n.className === 'string' ? n.className : '');
        return /cookie/i.test(hay) ? 'cookie-banner' : /consent|gdpr|privacy/i.test(hay) ? 'consent-dialog' : 'modal';
      }
      const hay = (n.id || '') + ' ' + (typeof n.className === 'string' ? n.className : '') + ' ' + (n.getAttribute('aria-label') || '');
      for (const [re, kind] of KINDS) if (re.test(hay)) return kind;
      if (r === 'alert' || r === 'status') return 'notification';
    }
    return '';
  }

  function describe(el) {
    const out = { tag: el.tagName.toLowerCase() };
    if (el.id) out.id = el.id;
    if (typeof el.className === 'string' && norm(el.className)) out.class = norm(el.className);
    const text = norm(el.innerText || el.textContent).slice(0, 50);
    if (text) out.text = text;
    const kind = kindOf(el);
    if (kind) out.kind = kind;
    return out;
  }

  return { handles, resolve, hiddenReason, role, accessibleName, deepActiveElement, describe, label, styleOf, norm };
}
