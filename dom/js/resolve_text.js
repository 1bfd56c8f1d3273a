// Click by text (SPEC 6.4): the visible clickable element a user would
// call by the words given. A module of resolve.js; B is resolve_base.js,
// D resolve_deep.js and X resolve_reach.js.
function resolveText(B, D, X) {
  const { norm, fail, hiddenReason, accessibleName, ownText } = B;
  const { deepAll } = D;
  const { topModal, reachable, holds, uncovered } = X;

  const CLICKABLE_TIERS = [
    'button, input[type=button], input[type=submit], input[type=reset]',
    'a[href]',
    '[role=button]',
    // Widget roles a user clicks by their name: options of a listbox or
    // combobox, tabs, menu items, checkboxes, switches, tree items, cells,
    // and the headers that sort a column.
    '[role=link], [role=option], [role=tab], [role=menuitem], [role=menuitemcheckbox], ' +
      '[role=menuitemradio], [role=checkbox], [role=radio], [role=switch], [role=treeitem], ' +
      '[role=gridcell], [aria-sort]',
    '[onclick], [tabindex], label, summary',
  ];

  // textsOf is what a user could call el: its accessible name and, when
  // different (an icon button named by aria-label), its visible text.
  function textsOf(el) {
    const name = accessibleName(el);
    const text = el.localName === 'input' ? '' : ownText(el);
    return text && text !== name ? [name, text] : [name];
  }

  // byText finds the visible clickable element whose name or text matches:
  // a whole-text match (case-insensitive, or exact when asked) anywhere
  // beats a substring match, since "Save" should not pick "Save draft"
  // over a link that says exactly "Save". Within a pass, tiers go in
  // SPEC 6.4 order; among substring matches of one tier the shortest text
  // is the closest one.
  function byText(text, exact, within) {
    let scope = document;
    if (within) {
      try {
        scope = document.querySelector(within);
      } catch (e) {
        return fail('invalidSelector', e.message, { selector: within });
      }
      if (!scope) return fail('notFound', 'nothing matches withinSelector ' + JSON.stringify(within));
    }
    const want = norm(text);
    const lower = want.toLowerCase();
    const passes = exact ? [(t) => t === want] : [(t) => t.toLowerCase() === lower];
    if (!exact) passes.push((t) => t.toLowerCase().includes(lower));
    // A web component's button or checkbox lives in its shadow root, its
    // words slotted in from the page: it is searched where it shows.
    const tiers = CLICKABLE_TIERS.map((sel) => deepAll(scope, sel));
    const texts = new Map(); // computed once for both passes
    const textsFor = (el) => {
      if (!texts.has(el)) texts.set(el, textsOf(el));
      return texts.get(el);
    };
    // With a modal dialog open, what is under it is inert to a person:
    // its matches count only when the dialog has none.
    const modal = topModal();
    const found = (modal && search((e) => holds(modal, e))) || search(null);
    // partial: the text is only part of the element's (the second pass).
    return found ? { el: found.el, reResolved: false, partial: found.partial } : fail('notFound', '');

    function search(keep) {
      for (let pass = 0; pass < passes.length; pass++) {
        for (const tier of tiers) {
          let best = [], bestLen = Infinity;
          for (const el of tier) {
            if (keep && !keep(el)) continue;
            const hit = textsFor(el).find((t) => t && passes[pass](t));
            if (hit === undefined || hiddenReason(el)) continue;
            const len = pass === 0 ? 0 : hit.length;
            // The first whole match a person reaches is the one.
            if (len === 0 && (modal || uncovered(el))) return { el, partial: false };
            if (len < bestLen) [best, bestLen] = [[], len];
            if (len === bestLen) best.push(el);
          }
          if (best.length) return { el: reachable(best, modal), partial: pass > 0 };
        }
      }
      return null;
    }
  }

  return { byText, clickables: CLICKABLE_TIERS.join(', ') };
}
