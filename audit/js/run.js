// auditRun runs axe-core, which Go loaded into this world (audit/axe.go),
// on this frame's document and its open shadow roots, not on its frames,
// which Go audits each in its own world. It answers the rules broken and
// the rules passed or left to a person; the elements that break each
// rule, a.cap at most, wait for aria's describe.js in
// window[Symbol.for(a.key)] under a.held, rule after rule.
//
// a: {version, root, rules, tags, skip, cap, key, held}: rules (ids) or
//    tags pick the rules, else axe's defaults run; skip turns rules off
//    (in a frame, those about the page as a whole, judged on the
//    document audited first, as axe does when it audits frames itself).
// returns {violations: [{rule, impact, help, count, held}], passes: [id],
//          incomplete: [id]} where count is the rule's elements, held
//          those held for it
//      or {error: 'noAxe'} when this document has no axe of a.version
//      or {error: 'invalidSelector'|'notFound'|'running'|'failed', message}
async function auditRun(a) {
  'use strict';
  const axe = globalThis.axe;
  if (!axe || axe.version !== a.version) return { error: 'noAxe' };
  let include = document;
  if (a.root) {
    try {
      include = document.querySelector(a.root);
    } catch (e) {
      return { error: 'invalidSelector', message: String((e && e.message) || e) };
    }
    if (!include) return { error: 'notFound', message: '' };
  }
  // Selectors are for people reading a report; refs replace them, and
  // working them out for every element costs.
  const options = { resultTypes: ['violations'], elementRef: true, iframes: false, selectors: false };
  if (a.rules) options.runOnly = { type: 'rule', values: a.rules };
  else if (a.tags) options.runOnly = { type: 'tag', values: a.tags };
  if (a.skip) {
    options.rules = {};
    for (const id of a.skip) options.rules[id] = { enabled: false };
  }
  let res;
  try {
    res = await axe.run(include, options);
  } catch (e) {
    const message = String((e && e.message) || e);
    return { error: /already running/i.test(message) ? 'running' : 'failed', message };
  }
  const held = [];
  const violations = res.violations.map((v) => {
    const nodes = v.nodes.slice(0, a.cap);
    for (const n of nodes) held.push(n.element);
    return { rule: v.id, impact: v.impact || '', help: v.help, count: v.nodes.length, held: nodes.length };
  });
  const key = Symbol.for(a.key);
  if (!(window[key] instanceof Map)) window[key] = new Map();
  window[key].set(a.held, held);
  const ids = (list) => list.map((r) => r.id);
  return { violations, passes: ids(res.passes), incomplete: ids(res.incomplete) };
}
