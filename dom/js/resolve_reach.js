// Of several elements that match alike, the one a person reaches: inside
// the open modal dialog, else one no other element covers. A module of
// resolve.js; B is resolve_base.js.
function resolveReach(B) {
  const { flatParent, hiddenReason } = B;

  // topModal is the modal dialog open over the page, or null: a <dialog>
  // shown with showModal(), else the last shown element marked
  // aria-modal (a library portals its newest dialog last).
  function topModal() {
    const open = document.querySelectorAll('dialog[open], [aria-modal="true"]');
    for (let i = open.length - 1; i >= 0; i--) {
      const d = open[i];
      if ((d.localName !== 'dialog' || d.matches(':modal')) && !hiddenReason(d)) return d;
    }
    return null;
  }

  // reachable picks, of elements that match alike, the first a person can
  // reach: inside the open modal dialog (what is under it is inert to
  // them), else one no other element covers. Covered ones come last, not
  // never: the actionability wait then says what covers it.
  function reachable(list, modal) {
    if (list.length < 2) return list[0];
    const score = (el) => {
      if (modal) return holds(modal, el) ? 2 : 0;
      return uncovered(el) ? 1 : 0;
    };
    let best = list[0], top = score(best);
    for (let i = 1; i < list.length && top < 2; i++) {
      const v = score(list[i]);
      if (v > top) [best, top] = [list[i], v];
    }
    return best;
  }

  // holds says whether el is outer or inside it, in the rendered tree.
  function holds(outer, el) {
    for (let n = el; n; n = flatParent(n)) if (n === outer) return true;
    return false;
  }

  // uncovered says whether the point at el's centre reaches el; one out
  // of view cannot be told from one covered, and counts as reached.
  function uncovered(el) {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const view = el.ownerDocument.defaultView;
    if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return true;
    let at = el.ownerDocument.elementFromPoint(x, y);
    while (at && at.shadowRoot) {
      const inner = at.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === at) break;
      at = inner;
    }
    // On text slotted into it, the point finds the component's host.
    return !!at && (holds(el, at) || (at.shadowRoot && holds(at, el)) || (at.localName === 'label' && at.control === el));
  }

  return { topModal, reachable, holds, uncovered };
}
