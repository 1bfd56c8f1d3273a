// storage runs the storage step's operations on one Web Storage area
// ('local' or 'session') in a fixed order — clear, remove, set, get — so
// that a get in the same step sees the changes. Each operation asked for
// reports a count or the items; a page whose origin has no storage
// (about:blank, data: URLs, sandboxed frames) reports an error instead.
function storage(area, ops) {
  let store;
  try {
    store = area === 'session' ? window.sessionStorage : window.localStorage;
  } catch (e) {
    return { error: e.name + ': ' + e.message };
  }
  if (!store) return { error: area + 'Storage is not available' };

  const out = {};
  if (ops.clear) {
    out.cleared = store.length;
    store.clear();
  }
  if (ops.remove) {
    out.removed = 0;
    for (const key of ops.remove) {
      if (store.getItem(key) !== null) out.removed++;
      store.removeItem(key);
    }
  }
  if (ops.set) {
    try {
      for (const [key, value] of Object.entries(ops.set)) store.setItem(key, value);
    } catch (e) {
      return { error: e.name + ': ' + e.message };
    }
    out.set = Object.keys(ops.set).length;
  }
  if (ops.getAll) {
    out.items = {};
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i);
      out.items[key] = store.getItem(key);
    }
    out.count = store.length;
  } else if (ops.get) {
    out.items = {};
    for (const key of ops.get) out.items[key] = store.getItem(key);
  }
  return out;
}
