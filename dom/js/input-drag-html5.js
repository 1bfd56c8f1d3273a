// Drags with synthetic HTML5 drag-and-drop events sharing one
// DataTransfer, for pages whose drop targets only listen to those:
// dragstart and drag on the source, dragenter and dragover on the target,
// then drop if the target accepted it (cancelled dragover, as a real drag
// requires) or dragleave if not, and dragend on the source. Endpoints are
// pinned elements ({token}) or top-level points ({x, y}); points are the
// client coordinates the events carry.
function dragHTML5(h, args) {
  const grabbed = element(args.source);
  // A real drag starts on the draggable ancestor of what was grabbed.
  const src = grabbed && (grabbed.closest('[draggable=true]') || grabbed);
  const tgt = element(args.target);
  if (!src) return { missing: 'source' };
  if (!tgt) return { missing: 'target' };
  const dt = new DataTransfer();
  const fire = (el, type, pt) => !el.dispatchEvent(new DragEvent(type, {
    bubbles: true, cancelable: type !== 'dragleave' && type !== 'dragend', composed: true,
    dataTransfer: dt, clientX: pt.x, clientY: pt.y, screenX: pt.x, screenY: pt.y, buttons: 1,
  }));

  if (fire(src, 'dragstart', args.from)) return { started: false };
  fire(src, 'drag', args.from);
  fire(tgt, 'dragenter', args.to);
  fire(src, 'drag', args.to);
  const accepted = fire(tgt, 'dragover', args.to);
  if (accepted) {
    if (dt.dropEffect === 'none') dt.dropEffect = dt.effectAllowed === 'copy' ? 'copy' : 'move';
    fire(tgt, 'drop', args.to);
  } else {
    fire(tgt, 'dragleave', args.to);
  }
  fire(src, 'dragend', args.to);
  return { started: true, dropped: accepted };

  function element(ep) {
    if (ep.token) {
      const entry = h.handles().get(ep.token);
      return entry && entry.el && entry.el.isConnected ? entry.el : null;
    }
    return document.elementFromPoint(ep.x, ep.y);
  }
}
