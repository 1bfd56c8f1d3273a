// Waits for the document to stop changing (click's waitAfter): resolves
// once no DOM mutation has happened for a.stable ms, or after a.timeout
// ms with settled false. Mutations in the whole document count: attributes,
// children and text alike, since any of them is what the agent would see.
function settleDOM(h, a) {
  return new Promise((done) => {
    const start = performance.now();
    let mutations = 0;
    let quiet = null;
    const finish = (settled) => {
      observer.disconnect();
      clearTimeout(quiet);
      clearTimeout(limit);
      done({ settled, mutations, ms: Math.round(performance.now() - start) });
    };
    const observer = new MutationObserver((records) => {
      mutations += records.length;
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(true), a.stable);
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    quiet = setTimeout(() => finish(true), a.stable);
    const limit = setTimeout(() => finish(false), a.timeout);
  });
}
