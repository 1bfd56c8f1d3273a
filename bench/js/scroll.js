// scroll brings the element into view.
function scroll(selector) {
  const el = document.querySelector(selector);
  if (!el) throw new Error('no element matches ' + selector);
  el.scrollIntoView({block: 'center'});
}
