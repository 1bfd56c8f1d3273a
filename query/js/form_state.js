// formState (SPEC 11.10): every field of a form, read without touching it.
//
// a = {target}: a form, or any container of fields. Returns
// {valid, fieldCount, fields} or {error}. A field is
// {name, type, label?, value, required?, valid, message?, disabled?}; value
// is a string, a boolean for a checkbox, the checked value (or null) for a
// radio group, a list for <select multiple> and file inputs. Passwords
// read "********" (or "" when empty); long values are cut at 200.
function formState(h, a) {
  const VALUE_MAX = 200;
  const found = h.find(a.target);
  if (found.error) return found;

  function valueOf(f) {
    if (f.localName === 'select' && f.multiple) return Array.from(f.selectedOptions).map((o) => o.value);
    if (f.localName !== 'input') return h.clip(f.value, VALUE_MAX);
    switch (f.type) {
      case 'password': return f.value ? '********' : '';
      case 'checkbox': return f.checked;
      case 'file': return Array.from(f.files || []).map((file) => file.name);
    }
    return h.clip(f.value, VALUE_MAX);
  }

  function isValid(f) {
    return !f.willValidate || f.validity.valid;
  }

  function describe(f, value, group) {
    const out = { name: h.fieldName(f), type: f.type };
    const label = group ? groupLabel(group) : h.fieldLabel(f);
    if (label) out.label = label;
    out.value = value;
    const members = group || [f];
    if (members.some((m) => m.required)) out.required = true;
    out.valid = members.every(isValid);
    const bad = members.find((m) => !isValid(m));
    if (bad) out.message = bad.validationMessage;
    if (members.every((m) => m.matches(':disabled'))) out.disabled = true;
    return out;
  }

  // A radio group is labelled by its fieldset's legend, else by its first
  // button's label.
  function groupLabel(group) {
    const fs = group[0].closest('fieldset');
    const legend = fs && fs.querySelector(':scope > legend');
    return legend ? h.clip(h.norm(legend.textContent), 80) : h.fieldLabel(group[0]);
  }

  const fields = [];
  const groups = new Map();
  for (const f of h.fieldsOf(found.el)) {
    if (f.localName === 'input' && f.type === 'radio' && f.name) {
      if (!groups.has(f.name)) {
        groups.set(f.name, []);
        fields.push({ radio: f.name });
      }
      groups.get(f.name).push(f);
      continue;
    }
    fields.push(describe(f, valueOf(f)));
  }
  const out = fields.map((entry) => {
    if (!entry.radio) return entry;
    const group = groups.get(entry.radio);
    const checked = group.find((r) => r.checked);
    return describe(group[0], checked ? checked.value : null, group);
  });
  return { valid: out.every((f) => f.valid), fieldCount: out.length, fields: out };
}
