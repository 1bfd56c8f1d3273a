// query, CSS mode (SPEC 11.3): the elements matching q.selector, each
// reduced to what q.output asks for.
//
// q = {selector, limit, output, clean, metadata}; output is one of
//   {mode: 'text'|'html'|'href'|'value'|'tag'}  value is a string
//   {attribute: name}                           value is the attribute or null
//   {fields: [{mode} or {attr}, ...]}           value is an object keyed by them
//
// Returns {total, results: [{index, value, metadata?}]} or {error}.
function query(h, q) {
  const TEXT_MAX = 500;
  const HTML_MAX = 1000;
  const ATTR_MAX = 200;

  const found = h.all(q.selector);
  if (found.error) return found;

  function tidy(s) {
    return q.clean ? h.norm(s) : s;
  }

  function mode(el, m) {
    switch (m) {
      case 'text': return h.clip(tidy(el.textContent || ''), TEXT_MAX);
      case 'html': return h.clip(tidy(el.outerHTML), HTML_MAX);
      // An SVG link's href is an object; the attribute is what it says.
      case 'href': return typeof el.href === 'string' ? el.href : el.getAttribute('href') || el.getAttribute('xlink:href') || '';
      case 'value': {
        // Never echo a password.
        if (el.localName === 'input' && el.type === 'password') return el.value ? '********' : '';
        const v = 'value' in el && typeof el.value !== 'function' ? el.value : el.getAttribute('value');
        return tidy(v == null ? '' : String(v));
      }
      case 'tag': return el.localName;
    }
    return '';
  }

  function attribute(el, name) {
    const v = el.getAttribute(name);
    return v == null ? null : tidy(v);
  }

  function value(el) {
    const o = q.output || { mode: 'text' };
    if (o.attribute) return attribute(el, o.attribute);
    if (o.fields) {
      const out = {};
      for (const f of o.fields) {
        if (f.mode) out[f.mode] = mode(el, f.mode);
        else out[f.attr] = attribute(el, f.attr);
      }
      return out;
    }
    return mode(el, o.mode || 'text');
  }

  function metadata(el) {
    const attributes = {};
    for (const a of Array.from(el.attributes).slice(0, 20)) attributes[a.name] = h.clip(a.value, ATTR_MAX);
    return { tag: el.localName, attributes, box: h.box(el) };
  }

  const results = found.els.slice(0, q.limit).map((el, i) => {
    const r = { index: i + 1, value: value(el) };
    if (q.metadata) r.metadata = metadata(el);
    return r;
  });
  return { total: found.els.length, results };
}
