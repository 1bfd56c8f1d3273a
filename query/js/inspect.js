// inspect (SPEC 11.5): a cheap overview of the page without a snapshot.
//
// a = {selectors: [...], limit}. Returns {title, url, elements, custom?},
// where custom maps each selector to its count, or with a limit to
// {count, values}; or {error} naming a selector that does not parse.
function inspect(h, a) {
  const COMMON = ['a', 'button', 'input', 'textarea', 'select', 'h1', 'h2', 'h3', 'img', 'form'];
  const elements = {};
  for (const tag of COMMON) elements[tag] = document.getElementsByTagName(tag).length;
  const out = { title: document.title, url: location.href, elements };

  if (a.selectors && a.selectors.length) {
    out.custom = {};
    for (const sel of a.selectors) {
      const found = h.all(sel);
      if (found.error) return { error: Object.assign(found.error, { selector: sel }) };
      if (!a.limit) {
        out.custom[sel] = found.els.length;
        continue;
      }
      out.custom[sel] = {
        count: found.els.length,
        values: found.els.slice(0, a.limit).map((el) => h.clip(h.norm(el.textContent), 100)),
      };
    }
  }
  return out;
}
