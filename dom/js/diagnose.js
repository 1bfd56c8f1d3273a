// The failure context of SPEC 16.3, gathered in one evaluation: where the
// page is, what a user could click there, the error messages on show, and
// the elements whose text is close to what the agent searched for. Each
// part is best-effort: a part that throws is left empty, never the whole.
function (h, term) {
  const out = { title: document.title, url: location.href };
  const part = (name, fn) => {
    try { out[name] = fn(); } catch (e) { /* leave the part out */ }
  };
  const visible = (el) => !h.hiddenReason(el);
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + '\u2026' : s);
  const textOf = (el) => h.norm(h.accessibleName(el) || h.ownText(el) || el.value || '');

  part('scrollPosition', () => {
    const se = document.scrollingElement || document.documentElement;
    const maxY = Math.max(0, se.scrollHeight - window.innerHeight);
    return {
      x: Math.round(window.scrollX), y: Math.round(window.scrollY), maxY: Math.round(maxY),
      percentY: maxY > 0 ? Math.round((window.scrollY / maxY) * 100) : 0,
    };
  });
  part('visibleButtons', () => pick(
    'button, input[type=button], input[type=submit], input[type=reset], [role=button]', 8,
    (el) => withRef(el, { text: cut(textOf(el), 50), selector: h.selectorFor(el) })));
  part('visibleLinks', () => pick('a[href]', 5,
    (el) => ({ text: cut(textOf(el), 50), href: cut(el.href, 100) })));
  part('visibleErrors', () => pick(
    '.error, .alert, .warning, .message, [role=alert], [role=status], .toast, .notification', 3,
    (el) => cut(h.norm(el.innerText), 150)).filter(Boolean));
  if (h.norm(term)) part('nearMatches', () => nearMatches(term));
  return out;

  // pick maps the first n visible matches of sel that have text.
  function pick(sel, n, fn) {
    const res = [];
    for (const el of document.querySelectorAll(sel)) {
      if (res.length === n) break;
      if (!visible(el)) continue;
      const v = fn(el);
      if (v && (typeof v === 'string' || v.text || v.href)) res.push(v);
    }
    return res;
  }

  function withRef(el, o) {
    const refs = window.__ariaRefOf;
    const ref = refs instanceof WeakMap ? refs.get(el) : undefined;
    if (ref && window.__ariaRefs instanceof Map && window.__ariaRefs.get(ref) === el) o.ref = ref;
    return o;
  }

  // words turns a search term into what a user would read: a CSS
  // selector's names ("#submit-btn" -> "submit btn"), text as it is.
  function words(t) {
    if (!/^[#.\[]|[>\[\]=:]/.test(t)) return h.norm(t);
    return h.norm(t.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[^A-Za-z0-9]+/g, ' '));
  }

  // score rates how close text is to the term (SPEC 16.3).
  function score(text, want) {
    const t = text.toLowerCase();
    if (t === want) return 100;
    if (t.includes(want)) return 80;
    if (t.length > 2 && want.includes(t)) return 70;
    if (typo(t, want)) return 60;
    if (want.split(' ').some((w) => w.length > 2 && t.includes(w))) return 50;
    return 0;
  }

  // typo: the term is the text misspelt — at most one edit in four
  // characters, so "Subscrbe" finds "Subscribe" (not in SPEC 16.3's tiers,
  // but an agent's most common miss).
  function typo(t, want) {
    if (want.length < 4 || Math.abs(t.length - want.length) > want.length / 4) return false;
    return distance(t, want) <= Math.floor(want.length / 4);
  }

  function distance(a, b) {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const cur = [i];
      for (let j = 1; j <= b.length; j++) {
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
      prev = cur;
    }
    return prev[b.length];
  }

  function nearMatches(term) {
    const want = words(term).toLowerCase();
    if (!want) return [];
    const sel = 'button, a[href], input:not([type=hidden]), textarea, select, ' +
      '[role=button], [role=link], [role=tab], [role=menuitem]';
    const found = [];
    for (const el of document.querySelectorAll(sel)) {
      if (!visible(el)) continue;
      const text = textOf(el) || h.norm(el.getAttribute('placeholder'));
      const s = text ? score(text, want) : 0;
      if (s > 0) found.push(withRef(el, { text: cut(text, 50), selector: h.selectorFor(el), score: s }));
    }
    found.sort((a, b) => b.score - a.score); // stable: document order within a score
    return found.slice(0, 5);
  }
}
