// fill focuses a field, sets its value and fires what typing fires.
function fill(selector, value) {
  const el = document.querySelector(selector);
  if (!el) throw new Error('no element matches ' + selector);
  el.focus();
  el.value = value;
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
}
