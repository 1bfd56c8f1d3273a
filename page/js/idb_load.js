// idbLoad makes each database of a state (idbSave's shape, which is
// Playwright's) in the document's origin, in place of the database of
// its name: that one is deleted, then the database is opened at the
// state's version, and its upgrade makes the stores and indexes and adds
// every record, all in the upgrade's one transaction, so that a database
// is loaded whole or not at all. Keys and values in Playwright's encoding
// are decoded first. A failure names the database, the store and the
// record, and deletes again the databases this load made where there
// were none; a database another tab holds open, and does not close when
// asked, fails the load. It answers the names of the databases it made
// where there were none, which a failed load elsewhere deletes.
async function idbLoad(databases) {
  const arrays = { i8: Int8Array, ui8: Uint8Array, ui8c: Uint8ClampedArray, i16: Int16Array,
    ui16: Uint16Array, i32: Int32Array, ui32: Uint32Array, f32: Float32Array, f64: Float64Array,
    bi64: BigInt64Array, bui64: BigUint64Array };
  const specials = { undefined: undefined, null: null, NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };
  const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

  const decode = (e, refs = new Map()) => {
    if (e === null || typeof e !== 'object') return e;
    const made = (value, fill) => {
      refs.set(e.id, value);
      fill(value);
      return value;
    };
    if ('ref' in e) return refs.get(e.ref);
    if ('v' in e) return specials[e.v];
    if ('d' in e) return new Date(e.d);
    if ('bi' in e) return BigInt(e.bi);
    if ('r' in e) return new RegExp(e.r.p, e.r.f);
    if ('e' in e) return Object.assign(new Error(e.e.m), { name: e.e.n, stack: e.e.s });
    if ('ta' in e) return new arrays[e.ta.k](bytes(e.ta.b).buffer);
    if ('ab' in e) return bytes(e.ab.b).buffer;
    if ('a' in e) return made([], (a) => e.a.forEach((x) => a.push(decode(x, refs))));
    if ('o' in e) return made({}, (o) => e.o.forEach(({ k, v }) => { if (k !== '__proto__') o[k] = decode(v, refs); }));
    if ('m' in e) return made(new Map(), (m) => e.m.forEach(({ k, v }) => m.set(decode(k, refs), decode(v, refs))));
    if ('s' in e) return made(new Set(), (s) => e.s.forEach((x) => s.add(decode(x, refs))));
    return e;
  };

  const remove = (name) => new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('database ' + JSON.stringify(name) +
      ' is open in another tab of this browser context, which does not let it go: close that tab, then load again'));
  });

  // fill runs in the upgrade: a store's records follow its indexes, so
  // that a unique index checks them. A record refused later, when its
  // request fails, aborts the upgrade; fail keeps the first word why.
  const fill = (db, info, fail) => {
    for (const s of info.stores) {
      const store = db.createObjectStore(s.name, { autoIncrement: s.autoIncrement, keyPath: s.keyPathArray ?? s.keyPath ?? null });
      for (const index of s.indexes) {
        store.createIndex(index.name, index.keyPathArray ?? index.keyPath, { unique: index.unique, multiEntry: index.multiEntry });
      }
      s.records.forEach((r, i) => {
        const where = 'database ' + JSON.stringify(info.name) + ', store ' + JSON.stringify(s.name) + ', record ' + i;
        const value = 'value' in r ? r.value : decode(r.valueEncoded);
        const keyed = 'key' in r || 'keyEncoded' in r;
        let request;
        try {
          request = keyed ? store.add(value, 'key' in r ? r.key : decode(r.keyEncoded)) : store.add(value);
        } catch (e) {
          throw new Error(where + ': ' + e.message);
        }
        request.onerror = () => fail(new Error(where + ': ' + request.error.message));
      });
    }
  };

  const make = (info) => new Promise((resolve, reject) => {
    const open = indexedDB.open(info.name, info.version);
    let failure;
    const fail = (e) => { failure ??= e; };
    open.onupgradeneeded = () => {
      try {
        fill(open.result, info, fail);
      } catch (e) {
        fail(e);
        open.transaction.abort();
      }
    };
    open.onsuccess = () => {
      open.result.close();
      resolve();
    };
    open.onerror = () => reject(failure ?? open.error);
  });

  const before = new Set((await indexedDB.databases()).map((d) => d.name));
  const made = [];
  try {
    for (const info of databases) {
      await remove(info.name);
      await make(info);
      if (!before.has(info.name)) made.push(info.name);
    }
  } catch (e) {
    await Promise.allSettled(made.map(remove));
    throw e;
  }
  return made;
}
