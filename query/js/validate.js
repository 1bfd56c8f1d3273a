// validate (SPEC 11.11): the constraint-validation state of one field,
// read without firing invalid events.
//
// a = {target}. Returns {valid, message?, validity} where validity lists
// the flags that are set (valueMissing, typeMismatch, ...). A form gives
// {valid, errors} for its failing fields instead. Or {error}.
function validate(h, a) {
  const FLAGS = ['valueMissing', 'typeMismatch', 'patternMismatch', 'tooLong', 'tooShort',
    'rangeUnderflow', 'rangeOverflow', 'stepMismatch', 'badInput', 'customError'];
  const found = h.find(a.target);
  if (found.error) return found;
  const el = found.el;

  if (el.localName === 'form') {
    const errors = h.invalidFields(h.fieldsOf(el));
    return { valid: errors.length === 0, errors };
  }
  if (!el.validity) {
    return h.fail('notField', el.localName + ' is not a form field; validate takes an input, select, textarea or form');
  }
  const validity = {};
  for (const f of FLAGS) if (el.validity[f]) validity[f] = true;
  const out = { valid: !el.willValidate || el.validity.valid };
  if (el.validationMessage) out.message = el.validationMessage;
  out.validity = validity;
  return out;
}
