// The rules every way of resolving a target shares, and what the
// operations ask of an element: whether a user could see it (and why
// not), its ARIA role and accessible name, its rendered text, and short
// descriptions of it for failures. A module of resolve.js, which gives
// it R (inpage/roles.js).
function resolveBase(R) {
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
  // inpage/roles.js, the module snapshots record a ref's role and name
  // with, so that a re-rendered element is recognised by the same rules.

  function role(el) {
    return R.roleOf(el) || '';
  }

  function accessibleName(el) {
    return R.accessibleName(el);
  }

  function ariaName(el) {
    return norm(R.ariaName(el));
  }

  // ownText is the rendered text of el without form controls inside it, so
  // that a label wrapping a <select> is named by its words only. It reads
  // the flat tree a person sees: a web component's shadow root, and the
  // text slotted into it. skip is an element whose text does not count
  // (the component a label wraps).
  function ownText(el, skip) {
    let out = '';
    const walk = (n) => {
      for (const c of R.renderedChildren(n)) {
        if (c.nodeType === 3) out += c.data;
        if (c.nodeType !== 1 || c === skip || /^(input|select|textarea|button|script|style|template|datalist)$/.test(c.localName)) continue;
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

  function fail(status, message, extra) {
    return { error: Object.assign({ status, message }, extra || {}) };
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

  return { norm, styleOf, flatParent, hiddenReason, role, accessibleName, ariaName, ownText, fail, label, describe };
}
