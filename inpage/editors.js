// ariaEditors knows the code editors and custom text inputs real apps are
// built from, which take text somewhere other than where they show it:
//
//   editcontext  an element with an EditContext (CodeMirror 6, VS Code's
//                new input): no contenteditable, no value; the page renders
//                the text from textupdate events.
//   proxy        a textarea hidden behind a rendered view (CodeMirror 5,
//                Ace, Monaco's classic input): 1px, transparent or clipped,
//                it takes focus and keys; the lines are divs elsewhere.
//   rich         a contenteditable (ProseMirror, Lexical): paragraphs.
//
// inputOf finds the element that takes an editor's text from what an agent
// names (the input, the visible editor, or the page's own textarea an
// editor hides and stands in for); textOf reads what the editor shows. R
// is ariaRoles(). Nothing here depends on what the page can rewrite but
// the DOM itself.
function ariaEditors(R) {
  'use strict';
  // The line elements of the editors that render their own lines, in
  // the order of their blocks; a view without them is read whole.
  const LINES = '.cm-line, .CodeMirror-line, .ace_line, .view-line';
  // The outer elements of the editors that render their own lines: a
  // hidden textarea is an editor's input only inside one of them or
  // beside such lines, and a page's own textarea an editor hides stands
  // for the one its library puts right after it.
  const WRAPPERS = '.CodeMirror, .ace_editor, .monaco-editor, .cm-editor';
  // What an editor shows in an empty document, which is not its text.
  const PLACEHOLDERS = '.cm-placeholder, .CodeMirror-placeholder';

  function styleOf(el) {
    return el.ownerDocument.defaultView.getComputedStyle(el);
  }

  // kindOf says which kind of editor input el is, or ''.
  function kindOf(el) {
    if (!el || el.nodeType !== 1) return '';
    if (el.editContext) return 'editcontext';
    if (el.localName === 'textarea') return viewOf(el) ? 'proxy' : '';
    if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) return 'rich';
    return '';
  }

  // tiny: a textarea a person cannot see or aim at, as editors hide the
  // one that takes their keys (1-3 px, transparent, or clipped to nothing
  // by a small wrapper).
  function tiny(ta) {
    const r = ta.getBoundingClientRect();
    if (r.width <= 3 || r.height <= 3) return true;
    if (styleOf(ta).opacity === '0') return true;
    for (let n = ta.parentElement, i = 0; n && i < 3; n = n.parentElement, i++) {
      const b = n.getBoundingClientRect();
      if (styleOf(n).overflow !== 'visible' && (b.width <= 3 || b.height <= 3)) return true;
    }
    return false;
  }

  // viewOf is the region that shows a proxy textarea's text: its nearest
  // ancestor, a few levels up, big enough to read, holding rendered text
  // of its own and no other field a person can see, in an editor (one of
  // WRAPPERS, or lines of LINES); null when ta is an ordinary textarea.
  // A textarea that opts out of being reached (aria-hidden, readonly,
  // tabindex -1, visibility hidden) takes no editor's keys: MUI's
  // multiline TextField keeps such a twin beside its real textarea, to
  // measure its height.
  function viewOf(ta) {
    if (ta.localName !== 'textarea' || !ta.isConnected || ta.readOnly || ta.getAttribute('aria-hidden') === 'true' ||
      ta.getAttribute('tabindex') === '-1' || !ta.checkVisibility({ visibilityProperty: true }) || !tiny(ta)) return null;
    const wrapped = ta.parentElement && ta.parentElement.closest(WRAPPERS);
    for (let n = ta.parentElement, i = 0; n && i < 6; n = n.parentElement, i++) {
      if (otherField(n, ta)) return null;
      const b = n.getBoundingClientRect();
      if (b.width >= 40 && b.height >= 14 && ownText(n, ta) && (wrapped ? wrapped.contains(n) : n.querySelector(LINES))) return n;
    }
    return null;
  }

  // otherField: n holds a field other than ta that a person can see.
  function otherField(n, ta) {
    for (const f of n.querySelectorAll('input, select, textarea')) {
      if (f !== ta && f.type !== 'hidden' && f.checkVisibility({ visibilityProperty: true })) return true;
    }
    return false;
  }

  // ownText: n shows text outside skip.
  function ownText(n, skip) {
    const walker = n.ownerDocument.createTreeWalker(n, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!skip.contains(t) && t.data.trim()) return true;
    }
    return n.querySelector(LINES) !== null;
  }

  // inputOf is the element that takes the text of the editor el names:
  // el itself when it is an editor's input, the input inside a visible
  // editor region, or the editor that stands in for a page's own textarea
  // it hid (CodeMirror's fromTextArea inserts it right after); else null.
  function inputOf(el) {
    if (!el || el.nodeType !== 1) return null;
    if (kindOf(el)) return el;
    if (el.localName === 'textarea' && styleOf(el).display === 'none') {
      const next = standIn(el);
      return next ? inside(next) : null;
    }
    if (el.localName === 'input' || el.localName === 'select' || el.localName === 'textarea') return null;
    return inside(el);
  }

  // standIn is the editor that stands in for a page's textarea it hid:
  // the editor right after it (CodeMirror's fromTextArea puts it there),
  // never another field or rich text box that happens to follow.
  function standIn(ta) {
    const next = ta.nextElementSibling;
    return next && next.matches(WRAPPERS) ? next : null;
  }

  // inside is the one editor input within region, or null when it holds
  // none or several.
  function inside(region) {
    let found = null;
    for (const c of region.querySelectorAll('textarea, [contenteditable], [role=textbox], [tabindex]')) {
      if (!kindOf(c) || (found && found.contains(c))) continue;
      if (found) return null;
      found = c;
    }
    return found;
  }

  // textOf is the text the editor whose input is el shows now, one line
  // per line; '' for anything else. A placeholder shown in an empty
  // editor is not its text. An EditContext editor that renders only the
  // lines in view (CodeMirror 6 on a long document) holds its whole text
  // in its EditContext: that is its text when the lines it shows are
  // lines of it, in order; when they are not, the page did not render
  // what it took, and what it shows is the truth.
  function textOf(el) {
    const kind = kindOf(el);
    if (!kind) return '';
    const region = kind === 'proxy' ? viewOf(el) : el;
    const lines = linesOf(region);
    let text;
    if (lines.length) {
      // Monaco positions its lines absolutely and reuses them out of order.
      if (lines.some((l) => styleOf(l).position === 'absolute')) {
        lines.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
      }
      text = lines.map(lineText).join('\n');
    } else {
      text = region.innerText;
    }
    text = text.replace(/[\u200b\ufeff]/g, '').replace(/\u00a0/g, ' ');
    if (kind === 'editcontext' && lines.length && partial(el)) {
      const whole = el.editContext.text;
      if (linesIn(text, whole)) return whole;
    }
    return text;
  }

  function linesOf(region) {
    return [...region.querySelectorAll(LINES)].filter((l) => !l.parentElement.closest(LINES));
  }

  // lineText is a line's text without a placeholder in it.
  function lineText(line) {
    if (!line.querySelector(PLACEHOLDERS)) return line.textContent;
    let out = '';
    const walker = line.ownerDocument.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.parentElement.closest(PLACEHOLDERS)) out += t.data;
    }
    return out;
  }

  // partial: the editor whose input is el renders only some of its lines,
  // as editors do for long documents (Monaco, CodeMirror 5 and 6): its
  // lines sit in a scroller they overflow, or between the gaps that stand
  // for the lines not rendered.
  function partial(el) {
    const kind = kindOf(el);
    const region = kind === 'proxy' ? viewOf(el) : kind ? el : null;
    const first = region && linesOf(region)[0];
    if (!first) return false;
    if (region.querySelector('.cm-gap')) return true;
    const outer = region.closest(WRAPPERS) || region.parentElement;
    for (let n = first.parentElement, i = 0; n && i < 8; n = n.parentElement, i++) {
      if (styleOf(n).overflowY !== 'visible' && n.scrollHeight > n.clientHeight + 1) return true;
      if (n === outer) break;
    }
    return false;
  }

  // linesIn: the lines of part are lines of whole, in order (trailing
  // spaces aside).
  function linesIn(part, whole) {
    const want = whole.split('\n').map((l) => l.replace(/\s+$/, ''));
    let i = 0;
    for (const l of part.split('\n').map((x) => x.replace(/\s+$/, ''))) {
      while (i < want.length && want[i] !== l) i++;
      if (i++ >= want.length) return false;
    }
    return true;
  }

  // shown is the editor's text as a snapshot shows it: code keeps its
  // indentation and loses trailing spaces and blank lines at the ends;
  // rich text is its paragraphs, one per line, spaces collapsed.
  function shown(el) {
    const text = textOf(el);
    if (kindOf(el) === 'rich' && !/^pre/.test(styleOf(el).whiteSpace)) {
      return text.split('\n').map(R.norm).filter(Boolean).join('\n');
    }
    return text.split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').replace(/^\n+|\n+$/g, '');
  }

  // nameOf names a proxy textarea after the page's own textarea its
  // editor stands in for (its label), when it has no name of its own.
  function nameOf(ta) {
    const view = viewOf(ta);
    const prev = view && view.previousElementSibling;
    if (!prev || prev.localName !== 'textarea' || styleOf(prev).display !== 'none' || standIn(prev) !== view) return '';
    return R.norm([...(prev.labels || [])].map((l) => l.textContent).join(' ')) || R.norm(prev.getAttribute('aria-label'));
  }

  // views maps each proxy's view in doc to the proxy, for a walk that
  // shows the editor as its textbox instead of its lines.
  function views(doc) {
    const out = new Map();
    for (const ta of doc.querySelectorAll('textarea')) {
      const v = viewOf(ta);
      if (v && !out.has(v)) out.set(v, ta);
    }
    return out;
  }

  return { kindOf, inputOf, viewOf, textOf, partial, linesIn, shown, nameOf, views };
}
