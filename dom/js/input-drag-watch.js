// Watches the page during a mouse drag, so that drag's auto method can
// tell whether the mouse events did anything: phase "start" records DOM
// mutations and HTML5 drag events under args.token; phase "stop" waits
// two frames (a drop may be processed after the last mouse event),
// reports what it saw and forgets the record.
async function (h, args) {
  const store = h.handles();
  if (args.phase === 'start') {
    const rec = { mutations: 0, dragstart: false, drop: false };
    rec.observer = new MutationObserver((list) => { rec.mutations += list.length; });
    rec.observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
    const on = (e) => { rec[e.type] = true; };
    rec.types = ['dragstart', 'drop'];
    for (const t of rec.types) window.addEventListener(t, on, true);
    rec.remove = () => { for (const t of rec.types) window.removeEventListener(t, on, true); };
    store.set(args.token, rec);
    return null;
  }
  const rec = store.get(args.token);
  store.delete(args.token);
  if (!rec) return { mutations: 0, dragstart: false, drop: false };
  await frames(2);
  rec.mutations += rec.observer.takeRecords().length;
  rec.observer.disconnect();
  rec.remove();
  return { mutations: rec.mutations, dragstart: rec.dragstart, drop: rec.drop };

  function frames(n) {
    return new Promise((done) => {
      const t = setTimeout(done, 100 * n);
      const step = () => (--n <= 0 ? (clearTimeout(t), done()) : requestAnimationFrame(step));
      requestAnimationFrame(step);
    });
  }
}
