// Finds the frame element a frame switch names in the current document:
// by CSS selector, or the index-th <iframe>/<frame> in document order.
// Returns the element, or a string saying why there is none; a selector
// that does not parse gives the prefix the Go side looks for.
function frameOwner(selector, index) {
  let el;
  if (selector) {
    try {
      el = document.querySelector(selector);
    } catch (e) {
      return 'invalid selector: ' + e.message;
    }
    if (!el) return 'nothing on the page matches it';
  } else {
    const all = document.querySelectorAll('iframe, frame');
    if (index >= all.length) {
      return 'there are ' + all.length + ' frames here (indexes start at 0)';
    }
    el = all[index];
  }
  if (el.localName !== 'iframe' && el.localName !== 'frame') {
    return 'it is a <' + el.localName + '>, not an <iframe> or <frame>';
  }
  return el;
}
