// serialize describes the object it is applied to (`this`, through
// Runtime.callFunctionOn) as a typed descriptor {type, value, truncated,
// total} that survives JSON. Nested values that JSON carries as they are
// stay plain; only values JSON cannot carry (undefined, NaN, Date, Element,
// Map, ...) and cut containers become nested descriptors, because agents
// pay for every byte. Limits, a depth cap, an ancestor set for cycles and a
// total budget keep huge or circular graphs from hanging the page.
function serialize() {
  "use strict";
  const LIMIT = {
    items: 100,     // array items
    keys: 50,       // object keys
    entries: 50,    // Map entries, Set values
    nodes: 20,      // NodeList / HTMLCollection items
    attributes: 20, // element attributes
    depth: 8,       // nesting below the top value
    budget: 2000,   // values described in all
    text: 100,      // element text, attribute values
    source: 200,    // function source
    stack: 1000,    // error stack
  };
  let budget = LIMIT.budget;
  const ancestors = new Set();

  const cut = (s, n) => (s.length > n ? s.slice(0, n) + "…" : s);
  const squash = (s) => cut(String(s ?? "").replace(/\s+/g, " ").trim(), LIMIT.text);
  const tagOf = (v) => Object.prototype.toString.call(v).slice(8, -1);

  function describe(v, depth) {
    budget--;
    switch (typeof v) {
      case "string":
        return { type: "string", value: v };
      case "boolean":
        return { type: "boolean", value: v };
      case "undefined":
        return { type: "undefined" };
      case "number":
        if (Object.is(v, -0)) return { type: "number", value: "-0" };
        return { type: "number", value: Number.isFinite(v) ? v : String(v) };
      case "bigint":
        return { type: "bigint", value: v.toString() };
      case "symbol":
        return { type: "symbol", value: v.toString() };
      case "function":
        return describeFunction(v);
    }
    if (v === null) return { type: "null", value: null };
    try {
      return describeObject(v, depth);
    } catch (e) {
      // Cross-origin windows and hostile getters throw on access.
      return { type: "unreadable", value: String(e && e.message) };
    }
  }

  // embed is what a container holds for v: the plain JSON value when JSON
  // can carry it unchanged, the descriptor otherwise.
  function embed(v, depth) {
    const d = describe(v, depth);
    switch (d.type) {
      case "string":
      case "boolean":
      case "null":
        return d.value;
      case "number":
        return typeof d.value === "number" ? d.value : d;
      case "array":
      case "object":
        return d.truncated ? d : d.value;
    }
    return d;
  }

  function describeFunction(fn) {
    const src = Function.prototype.toString.call(fn);
    const d = { type: "function", value: cut(src, LIMIT.source) };
    if (src.length > LIMIT.source) d.truncated = true;
    return d;
  }

  function describeObject(v, depth) {
    if (isWindow(v)) return describeWindow(v);
    if (typeof v.nodeType === "number" && typeof v.nodeName === "string") return describeNode(v);
    const tag = tagOf(v);
    switch (tag) {
      case "Date":
        return describeDate(v);
      case "RegExp":
        return { type: "regexp", value: String(v) };
      case "Promise":
        return { type: "promise" };
      case "NodeList":
      case "HTMLCollection":
      case "RadioNodeList":
      case "HTMLFormControlsCollection":
      case "HTMLOptionsCollection":
        return describeList(v, "nodelist", v.length, LIMIT.nodes, (i) => nodeValue(v[i]));
    }
    if (v instanceof Error || tag === "Error" || tag === "DOMException") return describeError(v);
    if (ancestors.has(v)) return { type: "circular" };
    const kind = Array.isArray(v) || isTypedArray(v) ? "array" : tag === "Map" ? "map" : tag === "Set" ? "set" : "object";
    const size = kind === "array" ? v.length : kind === "object" ? null : v.size;
    if (depth > LIMIT.depth || budget <= 0) {
      const d = { type: kind, truncated: true };
      if (size !== null) d.total = size;
      return d;
    }
    if (kind === "object" && typeof v.toJSON === "function") {
      return describe(v.toJSON(), depth + 1);
    }
    ancestors.add(v);
    try {
      return describeContainer(v, kind, depth + 1);
    } finally {
      ancestors.delete(v);
    }
  }

  function describeContainer(v, kind, depth) {
    switch (kind) {
      case "array":
        return describeList(v, "array", v.length, LIMIT.items, (i) => embed(read(v, i), depth));
      case "map": {
        const it = v.entries();
        return describeList(v, "map", v.size, LIMIT.entries, () => {
          const [k, val] = it.next().value;
          return [embed(k, depth), embed(val, depth)];
        });
      }
      case "set": {
        const it = v.values();
        return describeList(v, "set", v.size, LIMIT.entries, () => embed(it.next().value, depth));
      }
    }
    const keys = Object.keys(v);
    const out = {};
    const n = Math.min(keys.length, LIMIT.keys);
    for (let i = 0; i < n; i++) out[keys[i]] = embed(read(v, keys[i]), depth);
    const d = { type: "object", value: out };
    if (keys.length > n) {
      d.truncated = true;
      d.total = keys.length;
    }
    return d;
  }

  // describeList takes the first limit of size items from item(i).
  function describeList(v, type, size, limit, item) {
    const n = Math.min(size, limit);
    const out = [];
    for (let i = 0; i < n; i++) out.push(item(i));
    const d = { type, value: out };
    if (size > n) {
      d.truncated = true;
      d.total = size;
    }
    return d;
  }

  // read survives getters that throw.
  function read(v, key) {
    try {
      return v[key];
    } catch (e) {
      return e;
    }
  }

  function isWindow(v) {
    try {
      return v === v.window && tagOf(v) === "Window";
    } catch (e) {
      return true; // only a cross-origin window refuses both
    }
  }

  function isTypedArray(v) {
    return ArrayBuffer.isView(v) && tagOf(v) !== "DataView";
  }

  function describeDate(v) {
    const time = v.getTime();
    return { type: "date", value: { iso: isNaN(time) ? null : v.toISOString(), time: isNaN(time) ? null : time } };
  }

  function describeError(v) {
    const value = { name: String(v.name), message: String(v.message) };
    if (v.stack) value.stack = cut(String(v.stack), LIMIT.stack);
    return { type: "error", value };
  }

  function describeWindow(w) {
    try {
      return {
        type: "window",
        value: {
          location: w.location.href,
          innerWidth: w.innerWidth,
          innerHeight: w.innerHeight,
          scrollX: w.scrollX,
          scrollY: w.scrollY,
        },
      };
    } catch (e) {
      return { type: "window", value: { crossOrigin: true } };
    }
  }

  function describeNode(n) {
    if (n.nodeType === Node.DOCUMENT_NODE) {
      return { type: "document", value: { title: n.title, url: n.URL, readyState: n.readyState } };
    }
    return { type: n.nodeType === Node.ELEMENT_NODE ? "element" : "node", value: nodeValue(n) };
  }

  // nodeValue summarises a node; empty fields are left out.
  function nodeValue(n) {
    if (!n || n.nodeType !== Node.ELEMENT_NODE) {
      const v = { name: n ? n.nodeName : "null" };
      const text = n ? squash(n.textContent) : "";
      if (text) v.text = text;
      return v;
    }
    const v = { tag: n.localName };
    if (n.id) v.id = n.id;
    const cls = n.getAttribute("class");
    if (cls) v.class = cls;
    const attrs = {};
    let count = 0;
    for (const a of n.attributes) {
      if (a.name === "id" || a.name === "class") continue;
      if (count++ === LIMIT.attributes) break;
      attrs[a.name] = cut(a.value, LIMIT.text);
    }
    if (count > 0) v.attributes = attrs;
    // A form control's live value is what an agent usually came for.
    if (n.localName === "input" || n.localName === "textarea" || n.localName === "select") v.value = n.value;
    const text = squash(n.textContent);
    if (text) v.text = text;
    v.isConnected = n.isConnected;
    v.childCount = n.childElementCount;
    return v;
  }

  return describe(this, 0);
}
