// Runs a pipeline of micro-operations (SPEC 12.3) in one evaluation.
//
// ops are data: {op: 'fill'|'click'|'type'|'check'|'select', find, text,
// check} act on the element find names (a CSS selector or a ref);
// {op: 'waitFor', fn, ms} polls fns[fn] every 100 ms for up to ms;
// {op: 'sleep', ms} pauses; {op: 'return', fn} records fns[fn]()'s value.
// fns are the agent's own functions, the only code not written here.
//
// budgetMs bounds the whole run: an operation that would outlast it
// fails as a timeout, so the caller learns where it stopped.
//
// Resolves {completed: true, steps, results} or {completed: false,
// failedAt, kind, error, results}; results hold one entry per completed
// operation: true, or the value a return produced (as JSON).
async function runPipeline(ops, fns, budgetMs) {
  const POLL_MS = 100;
  const start = Date.now();
  const results = [];

  const left = () => budgetMs - (Date.now() - start);
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // Failure is a failed operation, as opposed to an exception the agent's
  // code threw.
  class Failure {
    constructor(kind, message) {
      this.kind = kind;
      this.message = message;
    }
  }

  function describeError(e) {
    if (e instanceof Error) return e.name + ': ' + e.message;
    return 'Uncaught ' + String(e);
  }

  function find(target) {
    if (/^s\d+e\d+$/.test(target)) {
      const refs = window.__ariaRefs;
      const el = refs instanceof Map ? refs.get(target) : null;
      if (el && el.isConnected) return el;
      const stale = el || (refs instanceof Map && refs.has(target));
      throw new Failure('notFound', 'ref ' + target + (stale ? ' is stale (its element left the page)' : ' is unknown') + '; take a fresh snapshot');
    }
    let el;
    try {
      el = document.querySelector(target);
    } catch (e) {
      throw new Failure('invalidSelector', 'invalid CSS selector ' + JSON.stringify(target) + ': ' + e.message);
    }
    if (!el) throw new Failure('notFound', 'no element matches ' + JSON.stringify(target));
    return el;
  }

  const NOT_TEXT = /^(checkbox|radio|file|submit|button|reset|image|range|color)$/;

  // textField checks that el takes typed text and returns the prototype
  // whose native value setter frameworks such as React cannot intercept.
  function textField(el, what) {
    let proto;
    if (el instanceof HTMLTextAreaElement) proto = HTMLTextAreaElement.prototype;
    else if (el instanceof HTMLInputElement && !NOT_TEXT.test(el.type)) proto = HTMLInputElement.prototype;
    else throw new Failure('notEditable', 'cannot ' + what + ' ' + describe(el) + ': not a text field');
    if (el.disabled || el.readOnly) {
      throw new Failure('notEditable', 'cannot ' + what + ' ' + describe(el) + ': it is ' + (el.disabled ? 'disabled' : 'readonly'));
    }
    return proto;
  }

  function setNative(proto, el, prop, value) {
    Object.getOwnPropertyDescriptor(proto, prop).set.call(el, value);
  }

  function fire(el, type) {
    el.dispatchEvent(new Event(type, { bubbles: true }));
  }

  function describe(el) {
    let s = el.localName;
    if (el.id) s += '#' + el.id;
    if (el.type && el.localName === 'input') s += '[type=' + el.type + ']';
    return s;
  }

  function fill(el, text) {
    const proto = textField(el, 'fill');
    setNative(proto, el, 'value', text);
    fire(el, 'input');
    fire(el, 'change');
  }

  function type(el, text) {
    const proto = textField(el, 'type into');
    el.focus();
    for (const ch of text) {
      el.dispatchEvent(new KeyboardEvent('keydown', { key: ch, bubbles: true, cancelable: true }));
      el.dispatchEvent(new KeyboardEvent('keypress', { key: ch, charCode: ch.codePointAt(0), bubbles: true, cancelable: true }));
      setNative(proto, el, 'value', el.value + ch);
      el.dispatchEvent(new InputEvent('input', { data: ch, inputType: 'insertText', bubbles: true }));
      el.dispatchEvent(new KeyboardEvent('keyup', { key: ch, bubbles: true, cancelable: true }));
    }
  }

  // check clicks when the state must change, as a user would, so the
  // page's click handlers run too; the property is the fallback for what
  // a click cannot do (uncheck a radio button).
  function check(el, want) {
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      if (el.disabled) throw new Failure('notEditable', 'cannot check ' + describe(el) + ': it is disabled');
      if (el.checked !== want) el.click();
      if (el.checked !== want) {
        setNative(HTMLInputElement.prototype, el, 'checked', want);
        fire(el, 'input');
        fire(el, 'change');
      }
      return;
    }
    if (/^(checkbox|switch|radio|menuitemcheckbox)$/.test(el.getAttribute('role') || '')) {
      if ((el.getAttribute('aria-checked') === 'true') !== want) el.click();
      return;
    }
    throw new Failure('notEditable', 'cannot check ' + describe(el) + ': not a checkbox or radio button');
  }

  // select picks the option whose value, else whose label, is text.
  function select(el, text) {
    if (!(el instanceof HTMLSelectElement)) throw new Failure('notEditable', 'cannot select in ' + describe(el) + ': not a <select>');
    const opts = Array.from(el.options);
    const opt = opts.find((o) => o.value === text) || opts.find((o) => o.label.trim() === text.trim());
    if (!opt) {
      const have = opts.slice(0, 10).map((o) => JSON.stringify(o.value)).join(', ');
      throw new Failure('noOption', 'no option ' + JSON.stringify(text) + ' in ' + describe(el) + ' (values: ' + have + ')');
    }
    setNative(HTMLSelectElement.prototype, el, 'value', opt.value);
    fire(el, 'input');
    fire(el, 'change');
  }

  function truthy(v) {
    return !!v;
  }

  // waitFor keeps polling through exceptions, like the poll step: the
  // predicate may read what has not loaded yet.
  async function waitFor(fn, ms) {
    const limit = Math.min(ms, left());
    const until = Date.now() + limit;
    let last = '';
    for (;;) {
      try {
        if (truthy(await fn())) return true;
        last = '';
      } catch (e) {
        last = describeError(e);
      }
      const rest = until - Date.now();
      if (rest <= 0) {
        const why = limit < ms ? 'the pipeline ran out of time' : 'waitFor timed out after ' + ms + 'ms';
        throw new Failure('timeout', why + (last ? ' (last error: ' + last + ')' : ''));
      }
      await pause(Math.min(POLL_MS, rest));
    }
  }

  function nodeValue(n) {
    if (n.nodeType !== 1) return n.textContent;
    const out = { tag: n.localName };
    if (n.id) out.id = n.id;
    const text = (n.textContent || '').replace(/\s+/g, ' ').trim();
    if (text) out.text = text.length > 80 ? text.slice(0, 80) + '\u2026' : text;
    return out;
  }

  // plain makes a returned value JSON: nodes are described, the rest
  // goes through JSON (undefined becomes null).
  function plain(v) {
    if (v instanceof Node) return nodeValue(v);
    if (v instanceof NodeList || v instanceof HTMLCollection) return Array.from(v).slice(0, 20).map(nodeValue);
    try {
      const s = JSON.stringify(v);
      return s === undefined ? null : JSON.parse(s);
    } catch (e) {
      return String(v);
    }
  }

  async function run(op) {
    switch (op.op) {
      case 'fill': fill(find(op.find), op.text); return true;
      case 'click': find(op.find).click(); return true;
      case 'type': type(find(op.find), op.text); return true;
      case 'check': check(find(op.find), op.check); return true;
      case 'select': select(find(op.find), op.text); return true;
      case 'waitFor': return waitFor(fns[op.fn], op.ms);
      case 'sleep':
        if (op.ms > left()) throw new Failure('timeout', 'sleep ' + op.ms + 'ms would outlast the pipeline\'s remaining ' + Math.max(0, left()) + 'ms');
        await pause(op.ms);
        return true;
      case 'return': return plain(await fns[op.fn]());
    }
    throw new Failure('invalid', 'unknown operation ' + op.op);
  }

  for (let i = 0; i < ops.length; i++) {
    try {
      if (left() <= 0) throw new Failure('timeout', 'the pipeline ran out of time after ' + budgetMs + 'ms');
      results.push(await run(ops[i]));
    } catch (e) {
      const failed = e instanceof Failure ? e : new Failure('threw', describeError(e));
      return { completed: false, failedAt: i, kind: failed.kind, error: failed.message, results };
    }
  }
  return { completed: true, steps: ops.length, results };
}
