// Runs in the page's main world before refs_send.js runs in the helper
// world: collects the elements the helper world names by ref into a fresh
// window.__ariaRefs (SPEC 12.1 refs), for the agent's code. The events
// carry the ref as detail and the element as their target, the only way
// an element crosses between worlds; "-ref" is a ref whose element left
// the page (it maps to null); the one with no detail ends it.
function receiveRefs(name) {
  const refs = new Map();
  const on = (e) => {
    e.stopImmediatePropagation();
    if (typeof e.detail !== 'string') {
      removeEventListener(name, on, true);
      return;
    }
    if (e.detail[0] === '-') {
      refs.set(e.detail.slice(1), null);
      return;
    }
    const el = e.composedPath()[0];
    if (el) refs.set(e.detail, el);
  };
  addEventListener(name, on, true);
  window.__ariaRefs = refs;
}
