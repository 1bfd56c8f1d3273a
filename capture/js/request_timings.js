// requestTimings looks up, in the page's own timing records (Navigation
// and Resource Timing), requests an earlier call saw begin but not end.
// Each wanted {url, start} (start in ms since the epoch) is matched to
// the record of that URL which began nearest to it, within a second, each
// record once; it comes back as what the record says of the request's
// end, or null when the page has no record of it.
function requestTimings(wanted) {
  const records = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'));
  const origin = performance.timeOrigin;
  const used = new Set();
  return wanted.map((w) => {
    let best = null;
    let gap = 1000;
    for (const r of records) {
      if (r.name !== w.url || used.has(r)) continue;
      const d = Math.abs(origin + r.startTime - w.start);
      if (d <= gap) {
        best = r;
        gap = d;
      }
    }
    if (!best) return null;
    used.add(best);
    return {
      status: best.responseStatus || 0,
      ms: Math.round(best.duration),
      responseMs: best.responseStart > 0 ? Math.round(best.responseStart - best.startTime) : 0,
      delivery: best.deliveryType || '',
      worker: best.workerStart > 0,
      bytes: best.transferSize || 0,
    };
  });
}
