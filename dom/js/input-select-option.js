// Selects options of the <select> pinned under args.token (SPEC 9.8).
// args.by says how the wanted options are named: "value", "label",
// "index" or "values" (each matched by value, then by label). A single
// select keeps only the chosen option; a multiple select has its whole
// selection replaced. input and change follow, as after a user's choice.
//
// Replies with {selected, multiple}, or with why not: notSelect (the tag
// and role of what it is instead), disabled, missing (with the first 10
// options), tooMany (several values for a single select) or
// optionDisabled.
function selectOptions(h, args) {
  const entry = h.handles().get(args.token);
  const el = entry && entry.el;
  if (!el || !el.isConnected) return { detached: true };
  if (el.tagName !== 'SELECT') return { notSelect: { tag: el.tagName.toLowerCase(), role: h.role(el) } };
  if (el.disabled || el.matches(':disabled')) return { disabled: true };

  const options = [...el.options];
  const wanted = args.by === 'values' ? args.values : [args.by === 'index' ? args.index : args.value];
  if (!el.multiple && wanted.length > 1) return { tooMany: wanted.length };
  const chosen = [];
  const missing = [];
  for (const w of wanted) {
    const opt = find(w);
    if (opt) chosen.push(opt);
    else missing.push(String(w));
  }
  if (missing.length) {
    return {
      missing,
      options: options.slice(0, 10).map((o) => ({ value: o.value, label: h.norm(o.label) })),
      total: options.length,
    };
  }
  const off = chosen.find((o) => o.disabled);
  if (off) return { optionDisabled: h.norm(off.label) };

  const set = new Set(chosen);
  for (const o of options) o.selected = set.has(o);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: [...el.selectedOptions].map((o) => o.value), multiple: el.multiple };

  // find matches one wanted option: by index, by value, by label exactly
  // (spacing normalised), then by label ignoring case.
  function find(w) {
    switch (args.by) {
      case 'index': return options[w] || null;
      case 'value': return options.find((o) => o.value === w) || null;
    }
    const label = h.norm(w);
    const byLabel = options.find((o) => h.norm(o.label) === label) ||
      options.find((o) => h.norm(o.label).toLowerCase() === label.toLowerCase());
    if (args.by === 'label') return byLabel || null;
    return options.find((o) => o.value === w) || byLabel || null;
  }
}
