// elementsAt (SPEC 11.9): the elements at viewport points, or near one,
// each with a ref (minted when it has none, in the current snapshot's
// namespace) so the agent can act on it at once.
//
// a = {points: [{x, y}], floors} for the topmost element at each point, or
// a = {near: {x, y, radius, limit}, floors} for every visible element whose
// centre is within radius of the point, closest first.
// Returns {hits, counters} where a hit is an element description, or
// {error} for a point with nothing there.
function elementsAt(h, a) {
  const refs = h.refs(a.floors);

  function describe(el) {
    const { ref, existing } = refs.refFor(el);
    const out = { ref, existing, tag: el.localName, selector: h.selectorFor(el), clickable: h.clickable(el) };
    const role = h.role(el);
    if (role) out.role = role;
    const name = h.name(el);
    if (name) out.name = name;
    out.box = h.box(el);
    return out;
  }

  function atPoints(points) {
    return points.map((p) => {
      const el = document.elementFromPoint(p.x, p.y);
      return el ? describe(el) : { error: 'no element at this point' };
    });
  }

  function near(n) {
    const found = [];
    for (const el of document.body ? document.body.querySelectorAll('*') : []) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const d = Math.hypot(r.x + r.width / 2 - n.x, r.y + r.height / 2 - n.y);
      if (d > n.radius) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      found.push([d, el]);
    }
    found.sort((p, q) => p[0] - q[0]);
    return found.slice(0, n.limit).map(([d, el]) => {
      const out = describe(el);
      out.distance = Math.round(d);
      return out;
    });
  }

  const hits = a.near ? near(a.near) : atPoints(a.points);
  return { hits, counters: refs.counters() };
}
