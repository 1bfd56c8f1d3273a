// Whether the page has stopped changing, asked after an attempt found
// nothing for its target (issue 21): a target that is nowhere on a still
// page will not come by waiting, so the wait may end early.
//
// A MutationObserver records when anything last changed (attributes and
// styles too: a script's spinner is a change), in the document and its
// open shadow roots. It stays for the document's life, so a later step
// knows how long the page has been still without waiting to find out:
// the first miss in a document installs it, and so does the end of each
// call that acted (op "watch"), so that the next call's miss knows what
// happened between the calls. Before it, nothing is known: the quiet is
// counted from its install.
//
// a: {op: "watch"} installs the observer and answers nothing;
//    {target} as resolve reads it, for a miss.
// returns {quiet, busy, candidate}: quiet, the ms since the DOM last
//   changed or a response last arrived (its rendering may follow);
//   busy, why the page is changing though its DOM is quiet ('' when it
//   is not): still loading, an animation running; candidate, an element
//   that matches the target but is hidden, which may yet show.
function isStill(h, a) {
  const KEY = Symbol.for('cdpskill.still');
  const OPTS = { subtree: true, childList: true, attributes: true, characterData: true };
  const now = performance.now();
  let st = document[KEY];
  if (!st) {
    st = { last: now, scanned: -1, observer: null };
    st.observer = new MutationObserver(() => { st.last = performance.now(); });
    st.observer.observe(document, OPTS);
    Object.defineProperty(document, KEY, { value: st, configurable: true });
  }
  if (a.op === 'watch') return null;
  if (st.observer.takeRecords().length) st.last = now;
  if (st.scanned < st.last) observeAll(); // new nodes may host shadow roots
  return { quiet: Math.max(0, now - Math.max(st.last, lastResponse())), busy: busy(), candidate: candidate(a.target) };

  // observeAll watches every open shadow root in the document too: only
  // a miss pays for the walk. Watching a root again is harmless.
  function observeAll() {
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) {
          st.observer.observe(el.shadowRoot, OPTS);
          walk(el.shadowRoot);
        }
      }
    };
    walk(document);
    st.scanned = now;
  }

  // lastResponse is when, on the document's clock, the latest response
  // the page's timing records hold finished (0: none).
  function lastResponse() {
    const list = performance.getEntriesByType('resource');
    let end = 0;
    for (let i = list.length - 1; i >= Math.max(0, list.length - 20); i--) end = Math.max(end, list[i].responseEnd);
    return end;
  }

  function busy() {
    if (document.readyState !== 'complete') return 'the page is still loading';
    // A spinner or a skeleton's shimmer says something is on its way,
    // though it changes no DOM.
    for (const an of document.getAnimations()) {
      const t = an.playState === 'running' && an.effect && an.effect.target;
      if (t && !h.hiddenReason(t)) return 'an animation runs on ' + h.label(t);
    }
    return '';
  }

  // candidate says whether a hidden element matches the target: resolve
  // leaves hidden elements out of text and label searches, but one that
  // shows later (a menu opening) is worth the wait. A selector's hidden
  // match is found, not missed, so only text and labels need this.
  function candidate(t) {
    const want = h.norm(t && t.value).toLowerCase();
    if (!want) return false;
    const has = (s) => {
      const v = h.norm(s).toLowerCase();
      return !!v && (t.exact ? v === want : v.includes(want));
    };
    if (t.kind === 'text') {
      let scope = document;
      if (t.within) {
        try { scope = document.querySelector(t.within); } catch (e) { return false; }
        if (!scope) return false;
      }
      // resolve's clickable tiers (SPEC 6.4), by the texts it reads.
      for (const el of scope.querySelectorAll(h.clickables)) {
        if (has(h.accessibleName(el)) || (el.localName !== 'input' && has(h.ownText(el)))) return true;
      }
      return false;
    }
    if (t.kind === 'label') {
      // resolve's fields, by their labels, aria-labels and placeholders.
      for (const l of document.querySelectorAll('label')) if (l.control && has(h.ownText(l))) return true;
      for (const f of document.querySelectorAll(h.fields)) {
        if (has(f.getAttribute('aria-label')) || has(f.getAttribute('placeholder'))) return true;
      }
    }
    return false;
  }
}
