// center scrolls the element into view when it is not, and returns the
// middle of its box in viewport pixels: where a click or a hover lands.
function center(selector) {
  const el = document.querySelector(selector);
  if (!el) throw new Error('no element matches ' + selector);
  let r = el.getBoundingClientRect();
  if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) {
    el.scrollIntoView({block: 'center', inline: 'center'});
    r = el.getBoundingClientRect();
  }
  return {x: r.left + r.width / 2, y: r.top + r.height / 2};
}
