// Fields by label (SPEC 6.4): the form field a <label>, an aria-label,
// aria-labelledby, a web component's label or a placeholder names. A
// module of resolve.js; R is inpage/roles.js, B resolve_base.js, D
// resolve_deep.js and X resolve_reach.js.
function resolveLabel(R, B, D, X) {
  const { norm, fail, hiddenReason, ariaName, accessibleName, ownText } = B;
  const { shadowRoots, hostsIn, deepAll } = D;
  const { topModal, reachable, holds, uncovered } = X;

  const FIELDS = 'input:not([type=hidden]), textarea, select, [contenteditable]:not([contenteditable=false]), ' +
    '[role=checkbox], [role=switch], [role=radio], [role=textbox]';

  // labelCandidates yields [text, control] pairs in SPEC 6.4 priority order,
  // in the document and in every open shadow root: a web component's
  // <label> and <input> live in its shadow root, its words slotted in or
  // given as its label attribute, and a <label> around the component or
  // pointing at it cannot reach into it, so its field is the one the
  // component holds (fieldOf). A <label>'s pair carries the label too: a
  // styled checkbox hides its input and shows the label, which is what a
  // person sees and clicks.
  function* labelCandidates() {
    const roots = [document, ...shadowRoots(document)];
    for (const root of roots) {
      for (const l of root.querySelectorAll('label[for]')) {
        const c = l.control ? fieldOf(l.control) : fieldOf(hostById(root, l.htmlFor));
        yield [ownText(l, c), c, l];
      }
    }
    for (const root of roots) {
      for (const l of root.querySelectorAll('label:not([for])')) {
        const host = l.control ? null : hostIn(l);
        const c = l.control ? fieldOf(l.control) : fieldOf(host);
        yield [ownText(l, host), c, l];
      }
    }
    for (const root of roots) {
      for (const host of hostsIn(root)) {
        if (host.hasAttribute('label')) yield [norm(host.getAttribute('label')), fieldOf(host)];
      }
    }
    const fields = deepAll(document, FIELDS);
    for (const f of fields) if (f.hasAttribute('aria-label')) yield [norm(f.getAttribute('aria-label')), f];
    for (const f of fields) if (f.hasAttribute('aria-labelledby')) yield [ariaName(f), f];
    // A checkbox or switch drawn by the page (a role on a component's
    // host) says its label itself: its words, slotted in.
    for (const f of fields) if (f.localName !== 'input' && f.hasAttribute('role')) yield [accessibleName(f), f];
    for (const f of fields) if (f.hasAttribute('placeholder')) yield [norm(f.getAttribute('placeholder')), f];
  }

  // hostById is the web component a label's for names, or null.
  function hostById(root, id) {
    const el = id && root.getElementById ? root.getElementById(id) : null;
    return el && el.shadowRoot ? el : null;
  }

  // hostIn is the first web component inside a label, or null.
  function hostIn(l) {
    for (const el of l.querySelectorAll('*')) if (el.shadowRoot) return el;
    return null;
  }

  // fieldOf is the field a labelled element stands for: itself when it
  // is one (a form-associated component with its own role), else the
  // field its shadow root holds, the first visible one.
  function fieldOf(el) {
    if (!el || !el.shadowRoot || el.matches(FIELDS)) return el || null;
    const inner = deepAll(el.shadowRoot, FIELDS);
    return inner.find((f) => !hiddenReason(f)) || inner[0] || el;
  }

  // bare is a label as it reads without the marks forms print around it:
  // "Email *", "Alert volume:", "Name (required)" are Email, Alert volume
  // and Name.
  function bare(t) {
    let s = norm(t).toLowerCase(), was;
    do {
      was = s;
      s = s.replace(/^[*\s]+/, '').replace(/(?:\s*(?:[*:\uff1a]|\((?:required|optional)\)))+$/, '').trim();
    } while (s !== was);
    return s;
  }

  // byLabel prefers an exact match at any priority over a loose one, since
  // "Email" should not pick the "Email me offers" checkbox's neighbour;
  // then a match of the label's words without its marks ("Email *" is
  // Email), then its words within a label's.
  function byLabel(text, exact) {
    const want = norm(text);
    const plain = bare(want);
    const passes = [(t) => t === want];
    if (!exact && plain) {
      passes.push((t) => bare(t) === plain);
      passes.push((t) => bare(t).includes(plain));
    }
    const modal = topModal();
    const el = (modal && search((e) => holds(modal, e))) || search(null);
    return el ? { el, reResolved: false } : fail('notFound', '');

    function search(keep) {
      for (const pass of passes) {
        const found = [];
        for (const [t, el, lab] of labelCandidates()) {
          if (!el || !t || !pass(t) || (keep && !keep(el)) || found.includes(el)) continue;
          if (hiddenReason(el) && !shownByLabel(el, lab) && !(el.localName === 'textarea' && R.editor.inputOf(el))) continue;
          if (modal || uncovered(el)) return el;
          found.push(el);
        }
        if (found.length) return reachable(found, modal);
      }
      return null;
    }
  }

  // shownByLabel: a hidden checkbox or radio whose label shows.
  function shownByLabel(el, lab) {
    return !!lab && el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio') && !hiddenReason(lab);
  }

  return { byLabel, fields: FIELDS };
}
