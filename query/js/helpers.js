// The helpers every query/ operation starts from: finding elements by CSS
// selector or aria ref, describing them (selector, role, name, box,
// visibility, clickability), the in-page ref contract, and form fields.
//
// Go composes each operation as op(helpers(ariaRoles(), cssSelectors()),
// args), so this factory runs on every call and keeps nothing in the page
// except the refs it mints. R is inpage/roles.js, S inpage/selectors.js.
//
// The ref contract (shared with aria/ and dom/): window.__ariaRefs maps
// ref -> Element, window.__ariaRefMeta ref -> {selector, role, name},
// window.__ariaRefOf Element -> ref, and the counters
// window.__ariaSnapshotId and window.__ariaElementId.
function queryHelpers(R, S) {
  const REF = /^s\d+e\d+$/;

  function norm(s) {
    return String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  }

  // clip cuts s to n characters, marking the cut.
  function clip(s, n) {
    s = String(s == null ? '' : s);
    return s.length > n ? s.slice(0, n) + '\u2026' : s;
  }

  function fail(status, message, extra) {
    return { error: Object.assign({ status, message: message || '' }, extra || {}) };
  }

  // ---- finding ------------------------------------------------------------

  // all is every match of a selector, or the browser's reason it does not
  // parse.
  function all(sel, root) {
    try {
      return { els: Array.from((root || document).querySelectorAll(sel)) };
    } catch (e) {
      return fail('invalidSelector', e.message);
    }
  }

  function first(sel) {
    let el;
    try {
      el = document.querySelector(sel);
    } catch (e) {
      return fail('invalidSelector', e.message);
    }
    return el ? { el } : fail('notFound');
  }

  // byRef looks a ref up in the page's ref map. A ref whose element left
  // the page is stale: the agent needs a fresh snapshot.
  function byRef(ref) {
    const refs = window.__ariaRefs instanceof Map ? window.__ariaRefs : null;
    if (!refs) return fail('unknownRef', 'this page has no refs (it may have navigated since the snapshot)');
    const el = refs.get(ref);
    if (!el) return fail('unknownRef', 'no snapshot of this page issued it');
    if (!el.isConnected) {
      const meta = window.__ariaRefMeta instanceof Map ? window.__ariaRefMeta.get(ref) : null;
      return fail('stale', 'its element left the page', { role: (meta && meta.role) || '', name: (meta && meta.name) || '' });
    }
    return { el };
  }

  // find resolves a target string: a ref such as s1e4, else a selector.
  function find(target) {
    return REF.test(target) ? byRef(target) : first(target);
  }

  // ---- describing -----------------------------------------------------------

  const selectorFor = S.selectorFor;

  function box(el) {
    const r = el.getBoundingClientRect();
    return { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
  }

  // hidden says why a user could not see el, or ''.
  function hidden(el) {
    if (!el.isConnected) return 'detached';
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 'zero size';
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return 'not rendered';
    return '';
  }

  // role and accessibleName are inpage/roles.js's, the rules snapshots
  // record refs with, so that dom/ re-resolves a ref minted here.
  function role(el) {
    return R.roleOf(el) || '';
  }

  // name is the accessible name, else the start of the element's text:
  // for spatial questions the words matter more than the ARIA rules.
  function name(el) {
    return clip(R.accessibleName(el) || norm(el.innerText || el.textContent), 80);
  }

  function labelsText(el) {
    return el.labels && el.labels.length ? norm(Array.from(el.labels).map((l) => l.textContent).join(' ')) : '';
  }

  const CLICKABLE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'slider', 'treeitem']);

  // clickable guesses whether clicking el does something: a control, an
  // interactive role, an onclick handler or a pointer cursor.
  function clickable(el) {
    const tag = el.localName;
    if (tag === 'button' || tag === 'select' || tag === 'textarea' || tag === 'summary') return true;
    if (tag === 'a' && el.hasAttribute('href')) return true;
    if (tag === 'input' && el.type !== 'hidden') return true;
    if (CLICKABLE_ROLES.has(role(el))) return true;
    if (R.hasClickHandler(el)) return true;
    return getComputedStyle(el).cursor === 'pointer';
  }

  // ---- refs -----------------------------------------------------------------

  // refs creates the contract's maps and counters when the page has none
  // and raises the counters to the tab's floors, so that a new document
  // never reissues a ref an agent may still hold. __ariaDocFloor is set as
  // aria/ sets it: refs numbered at or below it are from an earlier
  // document.
  function refs(floors) {
    const w = window;
    const floorS = Math.max(0, (floors && floors.snapshot) | 0);
    const floorE = Math.max(0, (floors && floors.element) | 0);
    if (!(w.__ariaRefs instanceof Map)) w.__ariaRefs = new Map();
    if (!(w.__ariaRefMeta instanceof Map)) w.__ariaRefMeta = new Map();
    if (!(w.__ariaRefOf instanceof WeakMap)) w.__ariaRefOf = new WeakMap();
    if (typeof w.__ariaSnapshotId !== 'number') w.__ariaSnapshotId = 0;
    if (typeof w.__ariaElementId !== 'number') w.__ariaElementId = 0;
    if (typeof w.__ariaDocFloor !== 'number') w.__ariaDocFloor = w.__ariaElementId > 0 ? 0 : floorE;
    w.__ariaSnapshotId = Math.max(w.__ariaSnapshotId, floorS);
    w.__ariaElementId = Math.max(w.__ariaElementId, floorE);
    let minted = false;
    return {
      // refFor returns el's ref, minting one in the current snapshot's
      // namespace when it has none that still points at it.
      refFor(el) {
        const have = w.__ariaRefOf.get(el);
        if (have && w.__ariaRefs.get(have) === el) return { ref: have, existing: true };
        const ref = 's' + w.__ariaSnapshotId + 'e' + (++w.__ariaElementId);
        w.__ariaRefs.set(ref, el);
        w.__ariaRefMeta.set(ref, { selector: selectorFor(el), role: role(el), name: R.accessibleName(el) });
        w.__ariaRefOf.set(el, ref);
        minted = true;
        return { ref, existing: false };
      },
      counters() {
        return { snapshot: w.__ariaSnapshotId, element: w.__ariaElementId, minted };
      },
    };
  }

  // ---- form fields ----------------------------------------------------------

  const BUTTON_TYPES = /^(submit|button|reset|image)$/;

  // fieldsOf lists the fields of a form, or the controls inside any other
  // container: buttons and hidden inputs are not fields.
  function fieldsOf(el) {
    const list = el.localName === 'form' ? Array.from(el.elements) : Array.from(el.querySelectorAll('input, select, textarea'));
    return list.filter((f) => /^(input|select|textarea)$/.test(f.localName) &&
      !(f.localName === 'input' && (BUTTON_TYPES.test(f.type) || f.type === 'hidden')));
  }

  function fieldName(f) {
    return f.name || f.id || '';
  }

  function fieldLabel(f) {
    return clip(labelsText(f) || norm(f.getAttribute('aria-label')) || norm(f.getAttribute('placeholder')) || norm(f.title), 80);
  }

  // invalidFields describes the fields failing constraint validation.
  function invalidFields(fields) {
    return fields.filter((f) => f.willValidate && !f.validity.valid).map((f) => {
      const out = { field: fieldName(f) || selectorFor(f), message: f.validationMessage };
      const label = fieldLabel(f);
      if (label) out.label = label;
      return out;
    });
  }

  return {
    norm, clip, fail, all, first, byRef, find, selectorFor, box, hidden, role, name, clickable,
    refs, fieldsOf, fieldName, fieldLabel, invalidFields, isRef: (s) => REF.test(s),
  };
}
