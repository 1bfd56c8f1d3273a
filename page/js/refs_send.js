// Runs in the helper world after refs_receive.js: names each connected
// ref's element to the main world with an event dispatched on it, and each
// stale ref as "-ref", then ends the exchange.
function sendRefs(name) {
  const refs = window.__ariaRefs;
  const send = (target, detail) => target.dispatchEvent(new CustomEvent(name, { detail, composed: true }));
  if (refs instanceof Map) {
    for (const [ref, el] of refs) {
      if (el && el.isConnected) send(el, ref);
      else send(document, '-' + ref);
    }
  }
  send(document, null);
}
