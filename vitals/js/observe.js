// vitalsObserve keeps, in this world and for this document, what Chrome
// reports of the document's loading and of the interactions with it,
// from the moment it runs: the largest paints, layout shifts, long tasks
// and long animation frames, and the timing of events down to 16 ms
// (Chrome buffers only those of 104 ms and over for a reader that comes
// later, and at most 150 of each kind of entry). A load's init script
// runs it before the page's own scripts, for every type; a batch that
// acts before its vitals step runs it for the events only. A type is
// observed once per document; the entries' elements are kept with them,
// for read.js to hand to aria's describe.
//
// a: {key, types: ['largest-contentful-paint', 'event', …]}
// returns the types observed now
function vitalsObserve(a) {
  'use strict';
  const MAX = 500; // entries kept of a kind: a page that shifts forever
  const key = Symbol.for(a.key);
  const st = (window[key] ||= {
    observed: {}, lcp: null, shifts: [], tasks: [], frames: [], events: new Map(), last: 0, eventsFrom: -1,
    // flush takes in the entries Chrome queued for the observers and has
    // not handed them yet: a reader calls it first.
    flush() {
      for (const [type, o] of Object.entries(st.observed)) for (const e of o.takeRecords()) take(type, e);
    },
  });
  const keep = {
    'largest-contentful-paint': (e) => { st.lcp = e; },
    'layout-shift': (e) => { if (st.shifts.length < MAX) st.shifts.push(e); },
    longtask: (e) => { if (st.tasks.length < MAX) st.tasks.push(e); },
    'long-animation-frame': (e) => { if (st.frames.length < MAX) st.frames.push(e); },
    // An interaction is several events (pointerdown, pointerup, click):
    // its latency is the longest of them.
    event: (e) => {
      if (!e.interactionId) return;
      const had = st.events.get(e.interactionId);
      if (had ? e.duration > had.duration : st.events.size < MAX) st.events.set(e.interactionId, e);
    },
  };
  const supported = PerformanceObserver.supportedEntryTypes || [];
  for (const type of a.types) {
    if (st.observed[type] || !keep[type] || !supported.includes(type)) continue;
    const options = { type, buffered: true };
    if (type === 'event') {
      options.durationThreshold = 16; // the least Chrome takes
      st.eventsFrom = performance.interactionCount || 0;
    }
    const o = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) take(type, e);
    });
    o.observe(options);
    st.observed[type] = o;
  }
  return Object.keys(st.observed);

  function take(type, e) {
    keep[type](e);
    // When the page last painted larger, shifted or blocked: the read
    // waits for a quiet moment after it.
    if (type !== 'event') st.last = Math.max(st.last, e.startTime + (e.duration || 0));
  }
}
