// idbSave reads every IndexedDB database of the document's origin, in
// the shape Playwright's storageState writes: [{name, version, stores:
// [{name, autoIncrement, keyPath? | keyPathArray?, indexes: [{name,
// keyPath? | keyPathArray?, multiEntry, unique}], records: [{key? |
// keyEncoded?, value? | valueEncoded?}]}]}. A record has a key only in a
// store that keeps keys apart from values (no key path). A value JSON
// holds as it is (strings, finite numbers, booleans, null, plain objects
// and arrays of them) is written as it is; any other in Playwright's
// encoding, so that either tool loads what the other saved: {v:
// 'undefined'|'NaN'|'Infinity'|'-Infinity'|'-0'}, {d: date}, {bi},
// {r: {p, f}}, {e: {n, m, s}}, {ta: {b, k}}, {ab: {b}}, and around them
// {a: [...], id}, {o: [{k, v}], id}, {m: [{k, v}], id}, {s: [...], id},
// {ref: id} for an object met before. A value with no such form (a Blob,
// a File) fails the read, naming its database and store.
async function idbSave() {
  const done = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const arrays = [['i8', Int8Array], ['ui8', Uint8Array], ['ui8c', Uint8ClampedArray],
    ['i16', Int16Array], ['ui16', Uint16Array], ['i32', Int32Array], ['ui32', Uint32Array],
    ['f32', Float32Array], ['f64', Float64Array], ['bi64', BigInt64Array], ['bui64', BigUint64Array]];
  const base64 = (bytes) => {
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  };
  const isPlainObject = (v) => {
    const proto = Object.getPrototypeOf(v);
    return proto === Object.prototype || proto === null;
  };

  // encode answers {value} for a value JSON holds as it is, else
  // {encoded}.
  const encode = (root, where) => {
    let plain = true;
    const seen = new Map();
    const walk = (v) => {
      if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
      if (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0)) return v;
      if (typeof v === 'number') {
        plain = false;
        return { v: Object.is(v, -0) ? '-0' : String(v) };
      }
      if (typeof v !== 'object') {
        plain = false;
        return typeof v === 'bigint' ? { bi: v.toString() } : { v: 'undefined' };
      }
      if (seen.has(v)) {
        plain = false;
        return { ref: seen.get(v) };
      }
      const id = seen.size + 1;
      if (Array.isArray(v)) {
        seen.set(v, id);
        return { a: Array.from(v, walk), id };
      }
      if (isPlainObject(v)) {
        seen.set(v, id);
        return { o: Object.keys(v).map((k) => ({ k, v: walk(v[k]) })), id };
      }
      plain = false;
      if (v instanceof Date) return { d: v.toJSON() };
      if (v instanceof RegExp) return { r: { p: v.source, f: v.flags } };
      if (v instanceof Error) return { e: { n: v.name, m: v.message, s: String(v.stack) } };
      if (v instanceof ArrayBuffer) return { ab: { b: base64(new Uint8Array(v)) } };
      for (const [k, T] of arrays) {
        if (v instanceof T) return { ta: { b: base64(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)), k } };
      }
      seen.set(v, id);
      if (v instanceof Map) return { m: Array.from(v, ([k, x]) => ({ k: walk(k), v: walk(x) })), id };
      if (v instanceof Set) return { s: Array.from(v, walk), id };
      const kind = Object.prototype.toString.call(v).slice(8, -1);
      throw new Error(where + ' holds a ' + kind + ', which a state file cannot hold: save without indexedDB');
    };
    const encoded = walk(root);
    return plain ? { value: root } : { encoded };
  };
  const keyPath = (path) => typeof path === 'string' ? { keyPath: path }
    : Array.isArray(path) ? { keyPathArray: Array.from(path) } : {};

  const readStore = async (dbName, store) => {
    const where = 'database ' + JSON.stringify(dbName) + ', store ' + JSON.stringify(store.name);
    // One transaction: the keys and the values come in the same order.
    const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
    const records = keys.map((key, i) => {
      const record = {};
      if (store.keyPath === null) {
        const k = encode(key, where);
        if ('value' in k) record.key = k.value;
        else record.keyEncoded = k.encoded;
      }
      const v = encode(values[i], where);
      if ('value' in v) record.value = v.value;
      else record.valueEncoded = v.encoded;
      return record;
    });
    const indexes = Array.from(store.indexNames, (name) => {
      const index = store.index(name);
      return { name, ...keyPath(index.keyPath), multiEntry: index.multiEntry, unique: index.unique };
    });
    return { name: store.name, autoIncrement: store.autoIncrement, ...keyPath(store.keyPath), indexes, records };
  };

  const databases = [];
  for (const info of await indexedDB.databases()) {
    const db = await done(indexedDB.open(info.name));
    try {
      const names = Array.from(db.objectStoreNames);
      const tx = names.length ? db.transaction(names, 'readonly') : null;
      const stores = await Promise.all(names.map((name) => readStore(info.name, tx.objectStore(name))));
      databases.push({ name: info.name, version: info.version, stores });
    } finally {
      db.close();
    }
  }
  return databases;
}
