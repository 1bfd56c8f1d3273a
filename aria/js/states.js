// ariaStates reads the states, values and attributes a snapshot line or a
// role query shows (SPEC 7.1): checked, disabled, readonly, expanded,
// pressed, selected, a column's sort, required, invalid, heading level,
// current values, the form field name and the link URL. R is ariaRoles().
function ariaStates(R) {
  'use strict';
  const VALUED = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton',
    'slider', 'progressbar', 'meter', 'scrollbar']);
  const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox',
    'menuitemradio', 'treeitem']);
  const FIELDS = new Set(['input', 'select', 'textarea']);
  const FORM_STATE = new Set(['button', 'input', 'select', 'textarea',
    'option', 'optgroup', 'fieldset']);

  // stateOf reads the states SPEC 7.1 lists; absent ones are left out.
  function stateOf(el, tag, role) {
    const st = {};
    const attr = n => el.getAttribute(n);
    if (role === 'heading') {
      st.level = parseInt(attr('aria-level'), 10) || (/^h[1-6]$/.test(tag) ? +tag[1] : 2);
    }
    if (CHECKABLE.has(role)) {
      let c = attr('aria-checked');
      if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
        c = el.indeterminate ? 'mixed' : String(el.checked);
      }
      if (c === 'true' || c === 'mixed') st.checked = c;
      else if (role !== 'treeitem') st.checked = 'false';
    }
    if (attr('aria-disabled') === 'true' || (FORM_STATE.has(tag) && el.matches(':disabled'))) st.disabled = true;
    // A field that shows a value it will not take: the agent should not
    // try to fill it. readonly means nothing on a box or a button.
    else if (attr('aria-readonly') === 'true' || (VALUED.has(role) && (tag === 'input' || tag === 'textarea') && el.readOnly)) st.readonly = true;
    let exp = attr('aria-expanded');
    if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details') {
      exp = String(el.parentElement.open);
    }
    if (exp === 'true' || exp === 'false') st.expanded = exp === 'true';
    const pressed = attr('aria-pressed');
    if (pressed === 'true' || pressed === 'mixed') st.pressed = pressed;
    if (attr('aria-selected') === 'true' || (tag === 'option' && el.selected)) st.selected = true;
    if (role === 'columnheader' || role === 'rowheader') {
      const sort = attr('aria-sort');
      if (sort === 'ascending' || sort === 'descending' || sort === 'other') st.sort = sort;
    }
    if (attr('aria-required') === 'true' || (FIELDS.has(tag) && el.required)) st.required = true;
    const inv = attr('aria-invalid');
    if (inv === 'grammar' || inv === 'spelling') st.invalid = inv;
    else if ((inv && inv !== 'false') || (R.CONTROLS.has(tag) && el.matches(':user-invalid'))) st.invalid = 'true';
    return st;
  }

  // attrsOf renders a state as the snapshot's bracketed attributes, with
  // the form field name and the link URL; cut shortens long URLs.
  function attrsOf(st, el, tag, role, cut) {
    const a = [];
    if (st.level) a.push('level=' + st.level);
    if (st.checked === 'true') a.push('checked');
    else if (st.checked === 'mixed') a.push('checked=mixed');
    if (st.disabled) a.push('disabled');
    if (st.readonly) a.push('readonly');
    if (st.expanded === true) a.push('expanded');
    else if (st.expanded === false) a.push('collapsed');
    if (st.pressed === 'true') a.push('pressed');
    else if (st.pressed === 'mixed') a.push('pressed=mixed');
    if (st.selected) a.push('selected');
    if (st.sort) a.push('sort=' + st.sort);
    if (st.required) a.push('required');
    if (st.invalid === 'true') a.push('invalid');
    else if (st.invalid) a.push('invalid=' + st.invalid);
    // A file input is a button to Chrome; clicking it opens a chooser the
    // agent cannot use: upload is the way.
    if (tag === 'input' && el.type === 'file') a.push('file');
    if (FIELDS.has(tag) && el.name) a.push(bracket('name', el.name));
    if (role === 'link' && el.href) a.push(bracket('url', cut(shortURL(el.href))));
    return a;
  }

  // valueOf is the current value a field shows, or undefined.
  function valueOf(el, tag, role) {
    if (tag === 'input') {
      if (el.type === 'color') return el.value;
      if (!VALUED.has(role)) return undefined;
      return el.type === 'password' ? '\u2022'.repeat(el.value.length) : el.value;
    }
    if (tag === 'textarea') return R.editor.kindOf(el) === 'proxy' ? editorValue(el) : el.value;
    if (tag === 'select') {
      if (role !== 'combobox') return undefined;
      const o = el.selectedOptions[0];
      return o ? R.norm(o.label) : '';
    }
    if (tag === 'meter') return String(el.value);
    if (tag === 'progress') return el.position < 0 ? undefined : String(el.value);
    if (!VALUED.has(role)) return undefined;
    const vt = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
    if (vt !== null) return vt;
    if (role === 'textbox' || role === 'searchbox') return R.editor.kindOf(el) ? editorValue(el) : R.norm(el.textContent);
    return undefined;
  }

  // editorValue is what a code editor or rich text box shows, line by
  // line (R.editor.shown), its first 300 characters.
  function editorValue(el) {
    const v = R.editor.shown(el);
    return v.length > 300 ? v.slice(0, 300) + '\u2026' : v;
  }

  // shortURL drops the origin of the page the agent is on (the top
  // document, also for links in its frames): agents read the path.
  function shortURL(href) {
    const o = location.origin;
    if (o && o !== 'null' && href.startsWith(o + '/')) return href.slice(o.length);
    return href;
  }

  function bracket(key, v) {
    return key + '=' + (/^[^\s\]"]+$/.test(v) ? v : JSON.stringify(v));
  }

  return { stateOf, attrsOf, valueOf, shortURL, bracket };
}
