// Finds the <input type=file> an upload is for: the target itself, the
// input a <label> controls, or the one file input inside the target (a
// drop zone or styled button wrapping it). With no target it is the
// page's only file input. File inputs are usually hidden behind a styled
// control, so visibility is not required.
//
// Returns the element itself (Go needs its object id for
// DOM.setFileInputFiles), or, when there is none, {status, message} as a
// JSON string, so that one evaluation not returned by value still reads
// it: the statuses of the target resolution, plus notFileInput and
// ambiguous.
function findFileInput(h, args) {
  const isFileInput = (el) => !!el && el.localName === 'input' && el.type === 'file';

  // fileInputs lists the file inputs under root, open shadow roots included.
  function fileInputs(root) {
    const out = [...root.querySelectorAll('input[type=file]')];
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) out.push(...fileInputs(el.shadowRoot));
    }
    return out;
  }

  function ready(el) {
    if (el.disabled) return { status: 'notEditable', reason: 'the file input is disabled' };
    return el;
  }

  function find() {
    if (!args.target) {
      const all = fileInputs(document);
      if (all.length === 1) return ready(all[0]);
      if (all.length === 0) return { status: 'notFound', message: 'the page has no <input type=file>' };
      return {
        status: 'ambiguous',
        message: 'the page has ' + all.length + ' file inputs (' + all.slice(0, 5).map(h.label).join(', ') +
          '): say which with selector or ref',
      };
    }
    const r = h.resolve(args.target);
    if (r.error) return r.error;
    const el = r.el;
    if (isFileInput(el)) return ready(el);
    if (el.localName === 'label' && isFileInput(el.control)) return ready(el.control);
    const inside = fileInputs(el);
    if (inside.length === 1) return ready(inside[0]);
    return {
      status: 'notFileInput',
      message: h.label(el) + (inside.length > 1
        ? ' holds ' + inside.length + ' file inputs: target one of them'
        : ' is not an <input type=file>, a label for one, or an element holding one'),
    };
  }

  const found = find();
  return found && found.nodeType === 1 ? found : JSON.stringify(found);
}
