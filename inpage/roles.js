// ariaRoles is the role and accessible-name module (SPEC 7.1): the
// HTML-AAM subset cdpskill implements, with no dependency on anything else
// in the page. Snapshots, searches and role queries share it, and so can
// ref re-resolution: whoever composes it calls ariaRoles() once per page
// call (its caches assume the DOM does not change during that call).
//
// Everything works on elements of any same-origin document or open shadow
// root: nothing here assumes the top document.
function ariaRoles() {
  'use strict';

  const WIDGETS = new Set(['button', 'checkbox', 'combobox', 'link', 'listbox',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio',
    'scrollbar', 'searchbox', 'slider', 'spinbutton', 'switch', 'tab',
    'textbox', 'treeitem']);
  // Roles that may take their name from their content (ARIA 1.2, 4.3.2).
  const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox',
    'columnheader', 'gridcell', 'heading', 'link', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'rowheader',
    'switch', 'tab', 'tooltip', 'treeitem']);
  // Elements that are never content.
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head',
    'meta', 'link', 'title', 'base', 'wbr']);
  const CONTROLS = new Set(['input', 'select', 'textarea', 'button']);
  // The elements that may carry each role implicitly; an explicit [role]
  // can carry any. Candidate lists are checked with roleOf, so they may be
  // broad.
  const IMPLICIT_TAGS = {
    article: 'article', banner: 'header', blockquote: 'blockquote',
    button: 'button,input,summary', cell: 'td', checkbox: 'input',
    columnheader: 'th', combobox: 'input,select', complementary: 'aside',
    contentinfo: 'footer', dialog: 'dialog', figure: 'figure', form: 'form',
    gridcell: 'td', group: 'details,fieldset,optgroup',
    heading: 'h1,h2,h3,h4,h5,h6', iframe: 'iframe', img: 'img,svg',
    link: 'a[href],area[href]', list: 'ul,ol,menu', listbox: 'select',
    listitem: 'li', main: 'main', meter: 'meter', navigation: 'nav',
    option: 'option', paragraph: 'p', progressbar: 'progress', radio: 'input',
    region: 'section', row: 'tr', rowheader: 'th', search: 'search',
    searchbox: 'input', separator: 'hr', slider: 'input', spinbutton: 'input',
    status: 'output', switch: 'input', table: 'table',
    textbox: 'input,textarea,[contenteditable]',
  };

  const labelMaps = new Map(); // tree root -> Map control -> [label]

  // ---- roles ----------------------------------------------------------

  // roleOf is the first token of an explicit role, else the implicit
  // role; null for elements with none (generic containers).
  function roleOf(el, tag) {
    const explicit = el.getAttribute('role');
    if (explicit) {
      const first = explicit.trim().split(/\s+/)[0].toLowerCase();
      if (first) return first;
    }
    return implicitRole(el, tag || el.localName);
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
      case 'iframe': case 'frame': return 'iframe';
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
    // An EditContext element takes text as a contenteditable does.
    return isEditingHost(el) || el.editContext ? 'textbox' : null;
  }

  function inputRole(el) {
    const list = el.hasAttribute('list');
    switch (el.type) {
      case 'hidden': return null;
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

  // isInteractive: native controls, widget roles, focusable elements,
  // editing hosts, and elements that start a pointer cursor or carry an
  // onclick handler (SPEC 6.2).
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
    // A draggable card or row is something a person takes hold of.
    if (el.getAttribute('draggable') === 'true') return true;
    return pointerOrigin || hasClickHandler(el);
  }

  // hasClickHandler: an onclick attribute, or a handler assigned from
  // script.
  function hasClickHandler(el) {
    return el.hasAttribute('onclick') || scriptHandlers(el.ownerDocument).has(el);
  }

  // scriptHandlers is the set of elements of doc whose onclick handler was
  // assigned from script, which only the page's own world can see: asked
  // once per document and call from handlers.js's listener there (none,
  // when it was not installed).
  const handlerSets = new Map();
  function scriptHandlers(doc) {
    let set = handlerSets.get(doc);
    if (set) return set;
    set = new WeakSet();
    handlerSets.set(doc, set);
    const w = doc.defaultView;
    if (!w) return set;
    const reply = '__cdpskill_onclick_' + Math.random().toString(36).slice(2);
    const on = (e) => {
      e.stopImmediatePropagation();
      set.add(e.composedPath()[0]);
    };
    w.addEventListener(reply, on, true);
    try {
      doc.dispatchEvent(new w.CustomEvent('__cdpskill_onclick', { detail: reply }));
    } finally {
      w.removeEventListener(reply, on, true);
    }
    return set;
  }

  // roleSelector is a CSS selector broad enough to find every element
  // that may have one of roles.
  function roleSelector(roles) {
    const parts = ['[role]'];
    for (const r of roles) {
      const t = IMPLICIT_TAGS[r];
      if (t) parts.push(t);
      else if (r === 'generic' || r === 'none' || r === 'presentation') return '*';
    }
    return parts.join(',');
  }

  // isShown: rendered, and not removed from the accessibility tree.
  function isShown(el) {
    return el.checkVisibility({ visibilityProperty: true }) && !el.closest('[aria-hidden="true"],[inert]');
  }

  // ---- names ----------------------------------------------------------

  function hasAuthoredName(el) {
    return !!(ariaName(el) || el.getAttribute('title'));
  }

  // ariaName: aria-labelledby (ids in the element's own tree) > aria-label.
  function ariaName(el) {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const root = el.getRootNode();
      let s = '';
      for (const id of by.trim().split(/\s+/)) {
        const t = root.getElementById ? root.getElementById(id) : null;
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
      case 'iframe': case 'frame': return el.title || el.name || '';
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

  // allowsContentName: may this element be named by its text?
  function allowsContentName(tag, role) {
    return NAME_FROM_CONTENT.has(role) && tag !== 'input';
  }

  // lastResortName: title > placeholder, after content.
  function lastResortName(el) {
    return el.getAttribute('title') || el.getAttribute('placeholder') ||
      el.getAttribute('aria-placeholder') || '';
  }

  // accessibleName is the whole chain from the DOM, normalised. The
  // snapshot walk splits it around the children instead, so that a name
  // from content reuses the text it has already collected.
  function accessibleName(el, tag, role) {
    tag = tag || el.localName;
    if (role === undefined) role = roleOf(el, tag);
    const own = authoredName(el, tag);
    if (norm(own)) return norm(own);
    if (allowsContentName(tag, role)) {
      const t = norm(domText(el, null));
      if (t) return t;
    }
    return norm(lastResortName(el));
  }

  function labelsText(el) {
    const labels = labelsOf(el);
    if (!labels) return hostLabel(el);
    let s = '';
    for (const l of labels) s += ' ' + domText(l, el);
    return s;
  }

  // hostLabel names the one field of a web component's shadow root that
  // has no label of its own by what labels its host, which is what a
  // person reads beside it: a <label> wrapping the host or pointing at its
  // id (a <label for> cannot reach into the shadow root), the host's
  // aria-label, or the label attribute kits take (label="Email").
  function hostLabel(el) {
    const root = el.getRootNode();
    const host = root.host;
    if (!host || soleField(root) !== el) return '';
    const aria = ariaName(host);
    if (aria) return aria;
    let s = '';
    const own = labelsOf(host); // a form-associated host is labelable
    if (own) for (const l of own) s += ' ' + domText(l, host);
    if (!own && host.id) {
      const hr = host.getRootNode();
      for (const l of hr.querySelectorAll ? hr.querySelectorAll('label[for]') : []) {
        if (l.htmlFor === host.id) s += ' ' + domText(l, host);
      }
    }
    const wrap = host.parentElement && host.parentElement.closest('label');
    if (!norm(s) && wrap && !wrap.control) s = domText(wrap, host);
    if (!norm(s)) s = host.getAttribute('label') || '';
    return norm(s) ? s : labelsText(host);
  }

  // soleField is the only form field directly in a shadow root, or null.
  const soleFields = new Map();
  function soleField(root) {
    let f = soleFields.get(root);
    if (f === undefined) {
      const all = root.querySelectorAll('input:not([type=hidden]),select,textarea');
      f = all.length === 1 ? all[0] : null;
      soleFields.set(root, f);
    }
    return f;
  }

  // labelsOf indexes the labels of a tree once: el.labels walks the whole
  // document on each call, which is quadratic on a page of many fields.
  function labelsOf(el) {
    const root = el.getRootNode();
    let m = labelMaps.get(root);
    if (!m) {
      m = new Map();
      for (const l of root.querySelectorAll('label')) {
        const c = l.control;
        if (!c) continue;
        const list = m.get(c);
        if (list) list.push(l);
        else m.set(c, [l]);
      }
      labelMaps.set(root, m);
    }
    return m.get(el);
  }

  // captionOf is the child that names el; a walk skips it, since the name
  // already carries its text.
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
    for (const c of renderedChildren(node)) {
      if (c.nodeType === 3) {
        s += c.data;
        continue;
      }
      if (c.nodeType !== 1 || c === skip) continue;
      const t = c.localName;
      if (SKIP.has(t) || CONTROLS.has(t) || t === 'datalist' || c.getAttribute('aria-hidden') === 'true') continue;
      const st = styleOf(c);
      if (st.display === 'none' || st.visibility !== 'visible') continue;
      const inner = t === 'img' ? c.getAttribute('alt') || '' : c.getAttribute('aria-label') || domText(c, skip);
      s += st.display.startsWith('inline') ? inner : ' ' + inner + ' ';
    }
    return s;
  }

  // renderedChildren are the nodes node shows, in the flat tree a person
  // sees: a host's open shadow root in place of its light children, and a
  // slot's assigned nodes (flattened through nested slots) in place of its
  // fallback content. A web component's button says the text slotted
  // into it.
  function renderedChildren(node) {
    if (node.nodeType === 1) {
      const sr = node.shadowRoot;
      if (sr) return sr.childNodes;
      if (node.localName === 'slot') {
        const assigned = node.assignedNodes({ flatten: true });
        if (assigned.length) return assigned;
      }
    }
    return node.childNodes;
  }

  function styleOf(el) {
    return el.ownerDocument.defaultView.getComputedStyle(el);
  }

  function norm(s) {
    return s ? String(s).replace(/\s+/g, ' ').trim() : '';
  }

  return {
    SKIP, CONTROLS, roleOf, isInteractive, hasClickHandler, isEditingHost, roleSelector, isShown,
    ariaName, hasAuthoredName, authoredName, allowsContentName, lastResortName,
    accessibleName, captionOf, domText, renderedChildren, norm, styleOf,
  };
}
