// The failure context of SPEC 16.3, gathered in one evaluation: where the
// page is, what a user could click (or, after a failed fill, type into)
// there, the error messages on show, and the elements whose text is close
// to what the agent searched for. Each part is best-effort: a part that
// throws is left empty, never the whole.
//
// a: {term, fields}: term is what the step looked for ("" for none);
// fields asks for the visible form fields instead of the buttons.
function diagnose(h, a) {
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
  // CLICKABLE is what a click is for, to rank near matches by the
  // action (issue 21): a click wants something clickable, a fill a field.
  const CLICKABLE = 'button, a[href], summary, option, input[type=button], input[type=submit], input[type=reset], ' +
    'input[type=image], input[type=checkbox], input[type=radio], [role=button], [role=link], [role=tab], ' +
    '[role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option], [role=checkbox], [role=radio], ' +
    '[role=switch], [role=treeitem], [role=gridcell], [onclick]';

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
      (el) => withRef(el, { text: cut(textOf(el), 50), selector: selectorOf(el) })));
  }
  part('visibleLinks', () => pick('a[href]', 5,
    (el) => withRef(el, { text: cut(textOf(el), 50), href: cut(el.href, 100) })));
  part('visibleErrors', visibleErrors);
  if (h.norm(term)) part('nearMatches', () => nearMatches(term));
  return out;

  // pick maps the first n visible matches of sel, in the document and
  // then in open shadow roots (a web component's fields and buttons), that
  // have something to say: text, a link, or for a field its label, its
  // selector or its ref.
  function pick(sel, n, fn) {
    const res = [];
    for (const root of roots()) {
      for (const el of root.querySelectorAll(sel)) {
        if (res.length === n) return res;
        if (!visible(el)) continue;
        const v = fn(el);
        if (v && (typeof v === 'string' || v.text || v.href || (a.fields && (v.label || v.selector || v.ref)))) res.push(v);
      }
    }
    return res;
  }

  // selectorOf is el's selector from the document; none reaches into a
  // shadow root, where its ref is the way.
  function selectorOf(el) {
    return el.getRootNode() === document ? h.selectorFor(el) : undefined;
  }

  function fieldHint(el) {
    const label = textOf(el) || h.norm(el.getAttribute('placeholder')) || h.norm(el.getAttribute('name'));
    const o = { label: cut(label, 50), selector: selectorOf(el) };
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
  // (100 the same, 80 containing it, 70 inside it, 50 a shared word, a
  // misspelt one too), or its similarity by edit distance when that is
  // higher, so a misspelt term ("Sgin in") finds its target first.
  function score(text, want) {
    const t = text.toLowerCase();
    if (!t) return 0;
    if (t === want) return 100;
    let s = 0;
    if (t.includes(want)) s = 80;
    else if (t.length > 2 && want.includes(t)) s = 70;
    else if (sharesWord(t, want)) s = 50;
    return Math.max(s, similarity(t, want));
  }

  // sharesWord: a word of the term and one of text, both longer than 2
  // letters, where one starts the other ("item", "items"; not "all" in
  // "call"), or, from 4 letters, is a typo away from it ("itme", "item":
  // one edit or two letters swapped; two edits from 8 letters on).
  function sharesWord(t, want) {
    const split = (s) => s.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2);
    const theirs = split(t);
    return split(want).some((w) => theirs.some((u) => u.startsWith(w) || w.startsWith(u) ||
      (Math.min(u.length, w.length) > 3 && Math.abs(u.length - w.length) <= 1 && distance(u, w) <= (w.length >= 8 ? 2 : 1))));
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

  // distance is the edit distance with two swapped letters as one edit
  // (optimal string alignment): "itme" is one typo from "item".
  function distance(x, y) {
    let back = [];
    let prev = [];
    for (let j = 0; j <= y.length; j++) prev.push(j);
    for (let i = 1; i <= x.length; i++) {
      const cur = [i];
      for (let j = 1; j <= y.length; j++) {
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) cur[j] = Math.min(cur[j], back[j - 2] + 1);
      }
      back = prev;
      prev = cur;
    }
    return prev[y.length];
  }

  // kind is 'field', 'choice' (a checkbox, radio or switch: clicked,
  // or filled with true or false), 'clickable' or 'text'. A label of a
  // text field names it; one of a checkbox is clicked; an element the
  // page lets focus or styles with a pointer is most likely clickable.
  function kind(el) {
    if (el.matches('input[type=checkbox], input[type=radio], [role=checkbox], [role=radio], [role=switch]')) return 'choice';
    if (el.matches(FIELDS)) return 'field';
    if (el.matches(CLICKABLE)) return 'clickable';
    if (el.localName === 'label') return el.control ? kind(el.control) : 'clickable';
    if (el.tabIndex >= 0 && el.hasAttribute('tabindex')) return 'clickable';
    return h.styleOf(el).cursor === 'pointer' ? 'clickable' : 'text';
  }

  // rank puts the action's own kind first: fields for a step that types
  // or chooses (a.fields), else what can be clicked; plain text last.
  function rank(k) {
    if (k === 'choice') return 0;
    if (k === 'text') return 2;
    return (k === 'field') === !!a.fields ? 0 : 1;
  }

  // valueOf is what a field shows inside it: typed text, the chosen
  // option; never a password.
  function valueOf(el) {
    if (el.localName === 'select') return el.selectedOptions.length ? el.selectedOptions[0].textContent : '';
    if (el.localName === 'textarea') return el.value;
    if (el.localName === 'input' && !/^(password|hidden|checkbox|radio|file)$/.test(el.type)) return el.value;
    return '';
  }

  // roots is the document and every open shadow root in it: a web
  // component's buttons and text are on screen too.
  function roots() {
    if (roots.list) return roots.list;
    const out = (roots.list = [document]);
    for (let i = 0; i < out.length && out.length < 500; i++) {
      for (const el of out[i].querySelectorAll('*')) if (el.shadowRoot) out.push(el.shadowRoot);
    }
    return out;
  }

  // owner is the element a text stands for: the control it sits in, or
  // the control of the label it sits in (a label and its checkbox are
  // one suggestion), else the element itself.
  function owner(el) {
    const c = el.closest(CONTROLS);
    if (c) return c;
    const l = el.closest('label');
    if (!l) return el;
    // A custom checkbox hides its input: then the label is what shows.
    return l.control && visible(l.control) ? l.control : l;
  }

  // nearMatches scores the visible elements a user could mean: controls
  // and fields by their name, text, placeholder, title and value (what a
  // field holds: an edit not yet saved shows there); every element
  // showing text of its own (a list item's label too), as the control it
  // belongs to; for a selector, ids and names as well. Best first for
  // the action: its own kind, then other controls, then plain text;
  // within each, by score, then the closer by edit distance, then in
  // page order. Each hint shows the text that matched (the control's own
  // when a name or id did) and the element's role.
  function nearMatches(t) {
    const want = words(t).toLowerCase();
    if (!want) return [];
    const sel = isSelector(t);
    const found = new Map(); // element -> match
    // texts are [text, shown]: shown, the text to show when it matched;
    // '' shows the element's own.
    const consider = (el, texts) => {
      let best = 0;
      let close = 0;
      let shown = '';
      for (const [s, show] of texts) {
        const n = s ? h.norm(s).toLowerCase() : '';
        const v = n ? score(n, want) : 0;
        if (v > best) [best, shown] = [v, show];
        if (v > 0) close = Math.max(close, closeness(n, want));
      }
      if (best === 0) return;
      const prior = found.get(el);
      if (prior && (prior.score > best || (prior.score === best && prior.close >= close))) return;
      found.set(el, { el, score: best, close, shown });
    };
    // Each element is tried on its own: one the page made odd must not
    // cost the agent every suggestion.
    const each = (list, fn) => {
      for (const el of list) {
        try { fn(el); } catch (e) { /* skip it */ }
      }
    };
    const all = roots();
    for (const root of all) {
      each(root.querySelectorAll(CONTROLS + ', ' + FIELDS + ', [onclick]'), (el) => {
        const texts = [[textOf(el), '']];
        for (const s of [el.getAttribute('placeholder'), el.getAttribute('title'), valueOf(el)]) texts.push([s, s]);
        if (a.fields || sel) texts.push([el.getAttribute('name'), ''], [words(el.id || ''), '']);
        consider(el, texts);
      });
    }
    const seen = new Set();
    for (const root of all) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n && seen.size < 5000; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || seen.has(el) || !n.data.trim() || /^(script|style|noscript|template|option)$/.test(el.localName)) continue;
        seen.add(el);
        each([el], () => {
          const text = h.ownText(el);
          const o = owner(el);
          consider(o, [[text, o === el ? text : '']]);
        });
      }
      if (sel) each(root.querySelectorAll('[id], [name]'), (el) => consider(el, [[words(el.id || ''), ''], [el.getAttribute('name'), '']]));
    }
    const list = [];
    each(found.values(), (m) => {
      if (!visible(m.el)) return;
      m.rank = rank(kind(m.el));
      list.push(m);
    });
    const order = (x, y) => (x.el.compareDocumentPosition(y.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
    list.sort((x, y) => x.rank - y.rank || y.score - x.score || y.close - x.close || order(x, y));
    const out = [];
    each(list.slice(0, 5), (m) => {
      const o = { text: cut(h.norm(m.shown || textOf(m.el) || m.el.id), 50), score: m.score };
      // A selector reaches only the document, not into a shadow root:
      // there the ref, from a snapshot, is the way.
      if (m.el.getRootNode() === document) o.selector = h.selectorFor(m.el);
      const role = h.role(m.el);
      if (role && !/^(generic|none|presentation)$/.test(role)) o.role = role;
      out.push(withRef(m.el, o));
    });
    return out;
  }
}
