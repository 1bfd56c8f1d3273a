// The helpers every dom/ operation starts from: target resolution (CSS
// selector or a list of them, aria ref, form label, clickable text,
// focused element) and the rules it needs —
// visibility, ARIA role, accessible name — plus the handle store that pins
// a resolved element between the calls of one action.
//
// Go composes each operation as op(helpers(R, S, P), args), so this
// factory runs on every call and keeps nothing in the page except the
// handle store and, after a ref is re-resolved, the updated entry of
// window.__ariaRefs. R is inpage/roles.js, S inpage/selectors.js, P
// inpage/places.js.
//
// lib holds the factories of its modules, composed in by Go
// (inpage.Compose), each building on those before it:
//   base   resolve_base.js   visibility, role and name, text, descriptions
//   deep   resolve_deep.js   open shadow roots and same-origin frames
//   reach  resolve_reach.js  of several matches, the one a person reaches
//   text   resolve_text.js   click by text
//   label  resolve_label.js  fields by label
//   ref    resolve_ref.js    aria refs, found again when stale
function domHelpers(lib, R, S, P) {
  const B = lib.base(R);
  const D = lib.deep();
  const X = lib.reach(B);
  const T = lib.text(B, D, X);
  const L = lib.label(R, B, D, X);
  const F = lib.ref(R, S, P, B, D);
  const { norm, styleOf, hiddenReason, role, accessibleName, ownText, fail, label, describe } = B;

  const HANDLES = Symbol.for('cdpskill.handles');

  // handles maps a token chosen by Go to {el, probe} for one action.
  function handles() {
    if (!(window[HANDLES] instanceof Map)) window[HANDLES] = new Map();
    return window[HANDLES];
  }

  function visibleOrFirst(list) {
    return list.find((el) => !hiddenReason(el)) || list[0] || null;
  }

  function bySelector(sel, root) {
    root = root || document;
    let first;
    try {
      first = root.querySelector(sel);
    } catch (e) {
      return fail('invalidSelector', e.message, { selector: sel });
    }
    if (!first) return fail('notFound', '');
    // A hidden first match (a collapsed mobile menu, a template) usually
    // has a visible twin further down: that is the one the agent means.
    const el = hiddenReason(first) ? visibleOrFirst([...root.querySelectorAll(sel)]) : first;
    return { el, reResolved: false };
  }

  // bySelectors tries each selector in order (SPEC 6.6): the first with a
  // visible match wins; failing that, the first with any match, so that
  // the actionability loop can wait for it or force it.
  function bySelectors(list) {
    let fallback = null;
    for (let i = 0; i < list.length; i++) {
      const r = bySelector(list[i]);
      if (r.error) {
        if (r.error.status === 'invalidSelector') return r;
        continue;
      }
      if (!hiddenReason(r.el)) return Object.assign(r, { index: i });
      if (!fallback) fallback = Object.assign(r, { index: i });
    }
    return fallback || fail('notFound', '');
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

  // focusedElement is what has keyboard focus, null when nothing does:
  // a document's body counts only when it is the field itself (an
  // editor's frame in design mode, or a contenteditable body).
  function focusedElement() {
    const a = deepActiveElement();
    if (!a) return null;
    const doc = a.ownerDocument;
    if ((a === doc.body || a === doc.documentElement) && !a.isContentEditable && doc.designMode !== 'on') return null;
    return a;
  }

  function focused() {
    const a = focusedElement();
    return a ? { el: a, reResolved: false } : fail('notFound', 'no element has focus');
  }

  // resolve turns a target {kind, value, values, within, exact} into
  // {el, reResolved, index?, partial?} or {error: {status, message, ...}};
  // index is which of several selectors matched, partial that a text is
  // only part of the element's.
  function resolve(t) {
    D.forgetHosts(); // the page may have changed since the last one
    switch (t.kind) {
      case 'selector': return bySelector(t.value);
      case 'ref': return F.byRef(t.value);
      case 'label': return L.byLabel(t.value, t.exact);
      case 'text': return T.byText(t.value, t.exact, t.within);
      case 'selectors': return bySelectors(t.values || []);
      case 'focused': return focused();
    }
    return fail('invalidTarget', 'unknown target kind ' + t.kind);
  }

  return { handles, resolve, hiddenReason, role, accessibleName, ownText, deepActiveElement, focusedElement, describe, describeEl: F.describeEl, label,
    editor: R.editor,
    styleOf, norm, selectorFor: S.selectorFor, placeOf: P.placeText,
    clickables: T.clickables, fields: L.fields };
}
