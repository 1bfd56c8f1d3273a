// Works out where a drag starts and ends, in top-level viewport pixels:
// the centre of the visible part of each endpoint element (pinned under
// its token) or the given coordinates, plus the offsets. It runs after
// both endpoints were readied, so a scroll made for the second one is
// already reflected in the first one's point.
//
// A source that is <input type="range"> is not dragged when args.setRange
// is set: its value is set from the target's x position along the track,
// as a user's drag to there would leave it, with input and change events.
function dragPlan(h, args) {
  const out = {};
  const els = {};
  for (const side of ['source', 'target']) {
    const ep = args[side];
    let pt;
    if (ep.token) {
      const entry = h.handles().get(ep.token);
      const el = entry && entry.el;
      if (!el || !el.isConnected) return { detached: side };
      const r = visibleRect(el);
      if (!r) return { noBox: side };
      els[side] = el;
      pt = { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
    } else {
      pt = { x: ep.x, y: ep.y };
    }
    out[side] = { x: pt.x + (ep.offsetX || 0), y: pt.y + (ep.offsetY || 0) };
  }
  const src = els.source || document.elementFromPoint(out.source.x, out.source.y);
  if (args.setRange && src && src.tagName === 'INPUT' && src.type === 'range') {
    out.value = setRange(src, out.target.x);
  }
  return out;

  // visibleRect is el's box in top-level coordinates, cut to its own
  // frame's viewport so a long element is grabbed where it can be seen.
  function visibleRect(el) {
    const view = el.ownerDocument.defaultView;
    let r = null;
    for (const cr of el.getClientRects()) if (cr.width > 0 && cr.height > 0) { r = cr; break; }
    if (!r) {
      const b = el.getBoundingClientRect();
      if (b.width === 0 || b.height === 0) return null;
      r = b;
    }
    let left = Math.max(r.left, 0), right = Math.min(r.right, view.innerWidth);
    let top = Math.max(r.top, 0), bottom = Math.min(r.bottom, view.innerHeight);
    if (right <= left || bottom <= top) ({ left, right, top, bottom } = r);
    const off = frameOffset(view);
    return { left: left + off.x, right: right + off.x, top: top + off.y, bottom: bottom + off.y };
  }

  // frameOffset is where win's viewport sits in the top-level one, across
  // same-origin frames.
  function frameOffset(win) {
    let x = 0, y = 0;
    for (let w = win; w !== window && w !== w.parent; w = w.parent) {
      let fe = null;
      try { fe = w.frameElement; } catch (e) { break; }
      if (!fe) break;
      const r = fe.getBoundingClientRect();
      const st = h.styleOf(fe);
      x += r.left + fe.clientLeft + parseFloat(st.paddingLeft);
      y += r.top + fe.clientTop + parseFloat(st.paddingTop);
    }
    return { x, y };
  }

  // setRange sets the value x stands for along the slider's track. The
  // browser's value sanitization clamps it and aligns it to the step. The
  // prototype's setter is used so frameworks that wrap value notice.
  function setRange(el, x) {
    const r = el.getBoundingClientRect();
    const off = frameOffset(el.ownerDocument.defaultView);
    const min = el.min === '' ? 0 : Number(el.min);
    const max = el.max === '' ? 100 : Number(el.max);
    const frac = Math.min(1, Math.max(0, (x - (r.left + off.x)) / (r.width || 1)));
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    setter.call(el, String(min + frac * (max - min)));
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return el.value;
  }
}
