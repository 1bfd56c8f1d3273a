// context is the page context a call reports: where the page is, how far
// it is scrolled, the viewport and the focused element.
function context() {
  const el = document.activeElement;
  const max = Math.max(1, document.documentElement.scrollHeight - innerHeight);
  return {
    url: location.href,
    title: document.title,
    scroll: {y: scrollY, percent: Math.round(100 * scrollY / max)},
    viewport: {width: innerWidth, height: innerHeight},
    active: el && el !== document.body ? el.tagName.toLowerCase() : '',
  };
}
