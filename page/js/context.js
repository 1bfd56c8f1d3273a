// The page context reported after every call (SPEC 14.4): URL, title,
// scroll, viewport, the focused element and an open modal dialog.
//
// It runs on every invocation, so it touches as little as it can: one
// focused element, and one querySelectorAll for dialogs. S is
// inpage/selectors.js. It runs in cdpskill's helper world; the page's
// framework, whose globals live in the page's own world, is read apart.
function pageContext(S) {
  const MAX_VALUE = 200;
  const TEXT_INPUTS = new Set([
    'text', 'password', 'email', 'number', 'search', 'tel', 'url',
    'date', 'datetime-local', 'month', 'time', 'week',
  ]);

  function isEditable(el) {
    if (el.isContentEditable || el.editContext) return true;
    // :disabled also covers controls inside a disabled <fieldset>.
    if (el.matches(':disabled') || el.readOnly) return false;
    if (el.getAttribute('aria-disabled') === 'true' || el.getAttribute('aria-readonly') === 'true') return false;
    if (el.localName === 'textarea') return true;
    return el.localName === 'input' && TEXT_INPUTS.has(el.type);
  }

  function box(el) {
    const r = el.getBoundingClientRect();
    return { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
  }

  function clip(s) {
    return s.length > MAX_VALUE ? s.slice(0, MAX_VALUE) + '…' : s;
  }

  // activeElement is what has focus, followed into open shadow roots (a
  // web component's <input>): its selector is its outermost host's, which
  // a document query reaches.
  function activeElement() {
    const host = document.activeElement;
    if (!host || host === document.body || host === document.documentElement) return undefined;
    let el = host;
    while (el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    const info = { tag: el.localName, selector: S.selectorFor(host), box: box(el), editable: isEditable(el) };
    if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
      info.type = el.type;
      info.checked = el.checked; // its value ("on") says nothing
    } else if (el.localName === 'input' || el.localName === 'textarea') {
      if (el.localName === 'input') info.type = el.type;
      // Never echo a password, nor its length.
      info.value = el.type === 'password' ? (el.value ? '********' : '') : clip(el.value);
      if (el.placeholder) info.placeholder = el.placeholder;
    }
    return info;
  }

  function visible(el) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : true;
  }

  function dialogTitle(d) {
    const label = d.getAttribute('aria-label');
    if (label && label.trim()) return label.trim();
    const by = d.getAttribute('aria-labelledby');
    if (by) {
      const text = by.split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent || '')
        .join(' ').replace(/\s+/g, ' ').trim();
      if (text) return clip(text);
    }
    const h = d.querySelector('h1, h2, h3, h4, h5, h6, [role="heading"]');
    const text = h ? h.textContent.replace(/\s+/g, ' ').trim() : '';
    return text ? clip(text) : 'Dialog';
  }

  function modal() {
    const found = document.querySelectorAll(
      'dialog[open], [role="dialog"][aria-modal="true"], [role="alertdialog"]');
    // The last visible one is the topmost in document order.
    for (let i = found.length - 1; i >= 0; i--) {
      if (visible(found[i])) return { title: dialogTitle(found[i]), selector: S.selectorFor(found[i]) };
    }
    return undefined;
  }

  const se = document.scrollingElement || document.documentElement;
  const y = Math.round(window.scrollY);
  const maxY = Math.max(0, (se ? se.scrollHeight : 0) - window.innerHeight);
  return {
    url: location.href,
    title: document.title,
    scroll: { y, percent: maxY > 0 ? Math.min(100, Math.round((y / maxY) * 100)) : 0 },
    viewport: { width: window.innerWidth, height: window.innerHeight },
    layout: {
      width: document.documentElement ? document.documentElement.clientWidth : 0,
      meta: !!document.querySelector('meta[name="viewport" i]'),
    },
    activeElement: activeElement(),
    modal: modal(),
    timeOrigin: performance.timeOrigin,
  };
}
