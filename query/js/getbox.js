// getBox (SPEC 11.8): the viewport box of each ref.
//
// refs is a list of refs. Returns {boxes: {ref: entry}} where entry is
//   {x, y, width, height, center: {x, y}}
//   {error: 'not found'}                 no ref map entry
//   {error: 'stale', message}            the element left the page
//   {error: 'hidden', box}               it exists but cannot be seen
function getBox(h, refs) {
  const map = window.__ariaRefs instanceof Map ? window.__ariaRefs : new Map();
  const boxes = {};
  for (const ref of refs) {
    const el = map.get(ref);
    if (!el) {
      boxes[ref] = { error: 'not found' };
    } else if (!el.isConnected) {
      boxes[ref] = { error: 'stale', message: 'the element left the page; take a fresh snapshot' };
    } else if (h.hidden(el)) {
      boxes[ref] = { error: 'hidden', box: h.box(el) };
    } else {
      const b = h.box(el);
      b.center = { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
      boxes[ref] = b;
    }
  }
  return { boxes };
}
