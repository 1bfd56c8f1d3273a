// cssSelectors builds the selectors cdpskill shows the agent, so that one
// element reads the same in the page context, query results and failure
// diagnostics: a unique id, else a unique test id, name or aria-label,
// else the shortest unique path of nth-of-type steps, anchored at the
// nearest uniquely-id'd ancestor when one is needed. (Ref metadata uses
// refs.js's own selectors, built for re-resolution inside shadow roots.)
function cssSelectors() {
  'use strict';

  function unique(sel) {
    try {
      return document.querySelectorAll(sel).length === 1;
    } catch (e) {
      return false;
    }
  }

  function selectorFor(el) {
    if (el.id && unique('#' + CSS.escape(el.id))) return '#' + CSS.escape(el.id);
    for (const attr of ['data-testid', 'data-test', 'name', 'aria-label']) {
      const v = el.getAttribute(attr);
      if (!v) continue;
      const sel = el.localName + '[' + attr + '="' + CSS.escape(v) + '"]';
      if (unique(sel)) return sel;
    }
    const parts = [];
    for (let n = el; n && n.nodeType === 1 && n !== document.documentElement; n = n.parentElement) {
      if (n !== el && n.id && unique('#' + CSS.escape(n.id))) {
        parts.unshift('#' + CSS.escape(n.id));
        break;
      }
      let part = CSS.escape(n.localName);
      const parent = n.parentElement;
      if (parent) {
        const same = Array.prototype.filter.call(parent.children, (c) => c.localName === n.localName);
        if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(n) + 1) + ')';
      }
      parts.unshift(part);
      if (unique(parts.join(' > '))) break;
    }
    return parts.join(' > ');
  }

  return { selectorFor };
}
