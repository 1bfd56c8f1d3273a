// The failure context of SPEC 16.3, gathered in one evaluation: where the
// page is, what a user could click (or, after a failed fill, type into)
// there, the error messages on show, and the elements whose text is close
// to what the agent searched for. Each part is best-effort: a part that
// throws is left empty, never the whole.
//
// a: {term, fields}: term is what the step looked for ("" for none);
// fields asks for the visible form fields instead of the buttons.
function (h, a) {
  const term = a.term || '';
  const out = { title: document.title, url: location.href };
  const part = (name, fn) => {
    try { out[name] = fn(); } catch (e) { /* leave the part out */ }
  };
  const visible = (el) => !h.hiddenReason(el);
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + '\u2026' : s);
  const textOf = (el) => h.norm(h.accessibleName(el) || h.ownText(el) || el.value || '');
  const FIELDS = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]), ' +
    'textarea, select, [contenteditable=""], [contenteditable=true], [role=textbox], [role=combobox], [role=searchbox]';
  // ERROR_WORDS make a status or toast message an error message.
  const ERROR_WORDS = /\b(error|errors|failed|fail|failure|invalid|incorrect|wrong|denied|forbidden|required|missing|unable|cannot|can't|couldn't|not allowed|expired|try again|problem)\b/i;
  const CONTROLS = 'button, a[href], input:not([type=hidden]), textarea, select, summary, ' +
    '[role=button], [role=link], [role=tab], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option], ' +
    '[role=checkbox], [role=radio], [role=switch], [role=treeitem], [role=gridcell]';

  part('scrollPosition', () => {
    const se = document.scrollingElement || document.documentElement;
    const maxY = Math.max(0, se.scrollHeight - window.innerHeight);
    return {
      x: Math.round(window.scrollX), y: Math.round(window.scrollY), maxY: Math.round(maxY),
      percentY: maxY > 0 ? Math.round((window.scrollY / maxY) * 100) : 0,
    };
  });
  if (a.fields) {
    part('visibleFields', () => pick(FIELDS, 8, (el) => withRef(el, fieldHint(el))));
  } else {
    part('visibleButtons', () => pick(
      'button, input[type=button], input[type=submit], input[type=reset], [role=button]', 8,
      (el) => withRef(el, { text: cut(textOf(el), 50), selector: h.selectorFor(el) })));
  }
  part('visibleLinks', () => pick('a[href]', 5,
    (el) => withRef(el, { text: cut(textOf(el), 50), href: cut(el.href, 100) })));
  part('visibleErrors', visibleErrors);
  if (h.norm(term)) part('nearMatches', () => nearMatches(term));
  return out;

  // pick maps the first n visible matches of sel that have something to
  // say: text, a link, or (for fields, which may be unlabelled) a selector.
  function pick(sel, n, fn) {
    const res = [];
    for (const el of document.querySelectorAll(sel)) {
      if (res.length === n) break;
      if (!visible(el)) continue;
      const v = fn(el);
      if (v && (typeof v === 'string' || v.text || v.href || (a.fields && v.selector))) res.push(v);
    }
    return res;
  }

  function fieldHint(el) {
    const label = textOf(el) || h.norm(el.getAttribute('placeholder')) || h.norm(el.getAttribute('name'));
    const o = { label: cut(label, 50), selector: h.selectorFor(el) };
    const type = el.localName === 'input' ? el.type : el.localName === 'select' ? 'select' : '';
    if (type && type !== 'text') o.type = type;
    return o;
  }

  function withRef(el, o) {
    const refs = window.__ariaRefOf;
    const ref = refs instanceof WeakMap ? refs.get(el) : undefined;
    if (ref && window.__ariaRefs instanceof Map && window.__ariaRefs.get(ref) === el) o.ref = ref;
    return o;
  }

  // ---- errors ---------------------------------------------------------

  // visibleErrors lists up to 3 messages that say something went wrong:
  // alerts and error-styled elements, the validation messages of fields
  // a user got wrong, and status or toast messages only when their words
  // or class say error. A status saying "Saved" is no error.
  function visibleErrors() {
    const res = [];
    const add = (s) => {
      s = cut(h.norm(s), 150);
      if (s && !res.includes(s) && res.length < 3) res.push(s);
    };
    const STRONG = '[role=alert], [role=alertdialog], .error, .errors, .error-message, .errorMessage, ' +
      '.invalid-feedback, .alert-danger, .alert-error, .field-error, .form-error, .text-danger, [aria-live=assertive]';
    const WEAK = '.alert, .warning, .message, .msg, [role=status], [aria-live=polite], .toast, .notification, .flash';
    for (const el of document.querySelectorAll(STRONG)) {
      if (visible(el)) add(el.innerText);
    }
    for (const el of document.querySelectorAll('[aria-invalid=true], :user-invalid')) {
      if (!visible(el)) continue;
      const msg = errorMessageOf(el);
      if (msg) add((textOf(el) ? textOf(el) + ': ' : '') + msg);
    }
    for (const el of document.querySelectorAll(WEAK)) {
      if (res.length === 3) break;
      if (!visible(el)) continue;
      const text = h.norm(el.innerText);
      const cls = typeof el.className === 'string' ? el.className : '';
      if (ERROR_WORDS.test(text) || /error|danger|fail|invalid/i.test(cls)) add(text);
    }
    return res;
  }

  // errorMessageOf is what an invalid field says is wrong with it: its
  // aria-errormessage, else the browser's validation message.
  function errorMessageOf(el) {
    const id = el.getAttribute('aria-errormessage');
    const m = id && document.getElementById(id);
    if (m && visible(m)) return m.innerText;
    return el.validationMessage || '';
  }

  // ---- near matches ---------------------------------------------------

  // words turns a search term into what a user would read: a CSS
  // selector's names ("#submit-btn" -> "submit btn"), text as it is.
  function words(t) {
    if (!isSelector(t)) return h.norm(t);
    return h.norm(t.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[^A-Za-z0-9]+/g, ' '));
  }

  function isSelector(t) {
    return /^[#.\[]|[>\[\]=:]/.test(t);
  }

  // score rates how close text is to the term: the tiers of SPEC 16.3
  // (100 the same, 80 containing it, 70 inside it, 50 a shared word), or
  // its similarity by edit distance when that is higher, so a misspelt
  // term ("Sgin in") finds its target first.
  function score(text, want) {
    const t = text.toLowerCase();
    if (!t) return 0;
    if (t === want) return 100;
    let s = 0;
    if (t.includes(want)) s = 80;
    else if (t.length > 2 && want.includes(t)) s = 70;
    else if (want.split(' ').some((w) => w.length > 2 && t.includes(w))) s = 50;
    return Math.max(s, similarity(t, want));
  }

  // similarity is 100 less the edit distance in percent of the longer
  // string; texts of very different length are not compared, and below
  // 60 it is no match (at 50, "done" would pass for "phonee").
  function similarity(t, want) {
    const long = Math.max(t.length, want.length);
    if (Math.abs(t.length - want.length) > long / 2) return 0;
    const s = closeness(t, want);
    return s >= 60 ? Math.min(s, 99) : 0;
  }

  // closeness is 100 less the edit distance in percent of the longer
  // string (0 for long texts); it also orders matches of equal score, so
  // that "#ad" finds #add before #load.
  function closeness(t, want) {
    const long = Math.max(t.length, want.length);
    if (long > 120) return 0;
    return Math.round(100 * (1 - distance(t, want) / long));
  }

  function distance(x, y) {
    let prev = [];
    for (let j = 0; j <= y.length; j++) prev.push(j);
    for (let i = 1; i <= x.length; i++) {
      const cur = [i];
      for (let j = 1; j <= y.length; j++) {
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      }
      prev = cur;
    }
    return prev[y.length];
  }

  // nearMatches scores the visible elements a user could mean: controls
  // by their name, text or placeholder; after a failed fill, fields by
  // their label, placeholder or name; for text, every element showing
  // text of its own (a list item's label too), as its clickable ancestor
  // when it has one; for a selector, ids and names as well. Best first;
  // at equal scores the closer by edit distance, then controls before
  // plain text, then in page order.
  function nearMatches(t) {
    const want = words(t).toLowerCase();
    if (!want) return [];
    const found = new Map(); // element -> match
    const consider = (el, texts) => {
      let best = 0;
      let close = 0;
      let shown = '';
      for (const s of texts) {
        const n = s ? h.norm(s).toLowerCase() : '';
        const v = n ? score(n, want) : 0;
        if (v > best) [best, shown] = [v, s];
        if (v > 0) close = Math.max(close, closeness(n, want));
      }
      if (best === 0) return;
      const prior = found.get(el);
      if (prior && (prior.score > best || (prior.score === best && prior.close >= close))) return;
      found.set(el, { el, score: best, close, text: cut(h.norm(textOf(el) || shown), 50) });
    };
    const sel = isSelector(t);
    for (const el of document.querySelectorAll(a.fields ? FIELDS : CONTROLS)) {
      const texts = [textOf(el), el.getAttribute('placeholder')];
      if (a.fields || sel) texts.push(el.getAttribute('name'), words(el.id || ''));
      consider(el, texts);
    }
    if (!a.fields) {
      const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
      const seen = new Set();
      for (let n = walker.nextNode(); n && seen.size < 5000; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || seen.has(el) || !n.data.trim() || /^(script|style|noscript|template)$/.test(el.localName)) continue;
        seen.add(el);
        const target = el.closest(CONTROLS) || el;
        consider(target, [h.ownText(el)]);
      }
      if (sel) {
        for (const el of document.querySelectorAll('[id], [name]')) consider(el, [words(el.id || ''), el.getAttribute('name')]);
      }
    }
    const list = [];
    for (const m of found.values()) {
      if (visible(m.el)) list.push(m);
    }
    const control = (el) => el.matches(CONTROLS);
    const order = (x, y) => (x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
    list.sort((x, y) => y.score - x.score || y.close - x.close || control(y.el) - control(x.el) || order(x.el, y.el));
    return list.slice(0, 5).map((m) => withRef(m.el, { text: m.text, selector: h.selectorFor(m.el), score: m.score }));
  }
}
