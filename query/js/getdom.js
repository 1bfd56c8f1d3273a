// getDom (SPEC 11.7): raw HTML of the page or of one element.
//
// a = {target, outer}: no target means the whole document. Returns
// {html, tagName, length} or {error}.
function getDom(h, a) {
  let el = document.documentElement;
  if (a.target) {
    const found = h.find(a.target);
    if (found.error) return found;
    el = found.el;
  }
  const html = a.outer === false ? el.innerHTML : el.outerHTML;
  return { html, tagName: el.localName, length: html.length };
}
