// Scrolls the page (SPEC 9.7) and reports where it ended up. args.mode is
// "element" (centre the element pinned under args.token, and report the
// position of the scrolling container it is in, if any), "top",
// "bottom", "by" (args.dx, args.dy) or "to" (args.x, args.y; a null one
// keeps that axis where it is).
//
// Many apps scroll a container, not the document: when the document
// cannot scroll along the axis asked for, the container under the middle
// of the viewport, or else the largest scrollable one, is scrolled
// instead and named in the reply.
function scrollPage(h, args) {
  if (args.mode === 'element') {
    const entry = h.handles().get(args.token);
    const el = entry && entry.el;
    if (!el || !el.isConnected) return { detached: true };
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    // An element in a scrolling container: the container's position is
    // the one that says where the element is.
    for (let n = el.parentElement; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      if (scrolls(n, true)) return position(n);
    }
    return position(null);
  }
  const vertical = args.mode === 'by' ? args.dy !== 0 || args.dx === 0 : args.mode !== 'to' || args.y != null;
  const box = documentScrolls(vertical) ? null : container(vertical);
  const max = (el) => el ? el.scrollHeight - el.clientHeight : document.scrollingElement.scrollHeight - window.innerHeight;
  const opts = { behavior: 'instant' };
  const target = box || window;
  switch (args.mode) {
    case 'top': target.scrollTo(Object.assign({ top: 0 }, opts)); break;
    case 'bottom': target.scrollTo(Object.assign({ top: max(box) }, opts)); break;
    case 'by': target.scrollBy(Object.assign({ left: args.dx, top: args.dy }, opts)); break;
    case 'to': {
      const to = Object.assign({}, opts);
      if (args.x != null) to.left = args.x;
      if (args.y != null) to.top = args.y;
      target.scrollTo(to);
      break;
    }
  }
  return position(box);

  function position(box) {
    if (box) return { scrollX: box.scrollLeft, scrollY: box.scrollTop, element: h.label(box) };
    return { scrollX: window.scrollX, scrollY: window.scrollY };
  }

  function documentScrolls(vertical) {
    const se = document.scrollingElement;
    return vertical ? se.scrollHeight > window.innerHeight + 1 : se.scrollWidth > window.innerWidth + 1;
  }

  function scrolls(el, vertical) {
    const st = h.styleOf(el);
    const overflow = vertical ? st.overflowY : st.overflowX;
    if (!/(auto|scroll|overlay)/.test(overflow)) return false;
    return vertical ? el.scrollHeight > el.clientHeight + 1 : el.scrollWidth > el.clientWidth + 1;
  }

  function container(vertical) {
    const mid = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
    for (let n = mid; n && n !== document.documentElement; n = n.parentElement) {
      if (n !== document.body && scrolls(n, vertical)) return n;
    }
    let best = null, area = 0;
    for (const el of document.body.querySelectorAll('*')) {
      if (!scrolls(el, vertical)) continue;
      const r = el.getBoundingClientRect();
      if (r.width * r.height > area) { best = el; area = r.width * r.height; }
    }
    return best;
  }
}
