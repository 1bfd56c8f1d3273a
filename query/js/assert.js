// assert (SPEC 11.13): check the URL and text conditions; the Go side
// turns failures into an error.
//
// a = {url: [{mode, expected}], text: {expected, target, caseSensitive}}.
// mode is contains, equals, startsWith, endsWith or matches (a regular
// expression, "source" or "/source/flags"). Returns {assertions: [...]}
// each {type, mode?, selector?, expected, actual, passed, error?}, or
// {error} for a regular expression or selector the browser cannot parse.
function assert(h, a) {
  const ACTUAL_MAX = 200;
  const out = [];
  const url = location.href;

  function regex(src) {
    const m = /^\/(.*)\/([a-z]*)$/s.exec(src);
    return m ? new RegExp(m[1], m[2]) : new RegExp(src);
  }

  for (const c of a.url || []) {
    let passed;
    switch (c.mode) {
      case 'contains': passed = url.includes(c.expected); break;
      case 'equals': passed = url === c.expected; break;
      case 'startsWith': passed = url.startsWith(c.expected); break;
      case 'endsWith': passed = url.endsWith(c.expected); break;
      case 'matches':
        try {
          passed = regex(c.expected).test(url);
        } catch (e) {
          return h.fail('invalidRegex', e.message, { pattern: c.expected });
        }
        break;
    }
    out.push({ type: 'url', mode: c.mode, expected: c.expected, actual: url, passed });
  }

  if (a.text) {
    const t = a.text;
    const entry = { type: 'text', expected: t.expected };
    if (t.target) entry.selector = t.target;
    const found = t.target ? h.find(t.target) : { el: document.body || document.documentElement };
    if (found.error && found.error.status === 'invalidSelector') return found;
    if (found.error) {
      Object.assign(entry, { actual: null, passed: false, error: found.error.status === 'notFound' ? 'no element matches' : found.error.message });
    } else {
      // Rendered text: words in hidden elements do not count. (An element
      // that is not rendered itself gives its textContent.)
      const el = found.el;
      const have = h.norm(typeof el.innerText === 'string' ? el.innerText : el.textContent);
      const want = h.norm(t.expected);
      const passed = t.caseSensitive ? have.includes(want) : have.toLowerCase().includes(want.toLowerCase());
      Object.assign(entry, { actual: passed ? undefined : h.clip(have, ACTUAL_MAX), passed });
    }
    out.push(entry);
  }
  return { assertions: out };
}
