// One actionability attempt (SPEC 8): resolve the target, then check it in
// the order that lets permanent failures surface first — editable (fill),
// visible, scrolled into view, box stable across frames (click: when asked,
// or while an animation moves it), pointer-events, and the hit test at the action point. The first failing
// check is returned as {status, ...detail}; Go decides whether to retry.
//
// On success the element is pinned under req.token in the handle store and,
// when req.probe is set, a listener records whether the coming CDP click
// or hover reaches it. With req.force every check but editability is skipped.
async function actionable(h, req) {
  const found = h.resolve(req.target);
  if (found.error) return found.error;
  // A visually hidden checkbox or radio is clicked through its label, as a
  // user would (SPEC 19.16): the label toggles it.
  const proxy = req.action === 'click' ? visibleLabelOf(found.el) : null;
  // A code editor or rich text box takes its text in an element of its
  // own (an EditContext, a hidden textarea behind the rendered lines):
  // naming the editor, or the page's textarea it hides, fills that. What
  // a person sees, aims at and clicks is the editor's view.
  const input = req.action === 'fill' ? h.editor.inputOf(found.el) : null;
  const el = proxy || input || found.el;
  const shown = (input && h.editor.viewOf(input)) || el;
  const reply = (status, extra) => Object.assign({
    status, reResolved: found.reResolved, index: found.index, viaLabel: !!proxy,
  }, extra);
  // An element found again, or found anew after the last one was replaced
  // (req.describe), is named in the output: the agent should know what
  // was acted on.
  const named = () => (found.reResolved || req.describe ? { target: h.describeEl(found.el) } : {});
  const view = el.ownerDocument.defaultView;

  if (req.action === 'fill') {
    const why = notEditable(el);
    if (why) return reply('notEditable', why);
  }
  if (!req.force) {
    const hidden = h.hiddenReason(shown);
    if (hidden) return reply('notVisible', { detail: hidden });
  }

  scrollIntoViewIfNeeded(shown);
  if (!req.force && req.action === 'click') {
    // Stability costs animation frames, so it is checked when asked for,
    // or when an animation is moving the element (SPEC 8.6).
    const frames = req.stableFrames || (animating(el) ? 2 : 0);
    for (let i = 0, before = boxOf(el); i < frames; i++) {
      await nextFrame(view);
      const after = boxOf(el);
      if (!sameBox(before, after)) return reply('unstable', {});
      before = after;
    }
    const pe = pointerEventsNoneOrigin(el);
    if (pe) return reply('pointerEventsNone', { on: h.label(pe) });
  }

  const pt = actionPoint(shown, req.offset);
  let hit = null;
  if (pt && !req.force) {
    hit = interceptor(shown, pt);
    if (hit && req.action === 'click') return reply('covered', { by: h.describe(hit) });
  }

  h.handles().set(req.token, { el, probe: req.probe ? probe(el) : null });
  return reply('ok', Object.assign(named(), {
    point: pt ? topPoint(view, pt) : null,
    clickable: !!pt && !hit,
    focused: h.deepActiveElement() === el,
    inputType: el.tagName === 'INPUT' ? el.type : '',
    editor: input ? h.editor.kindOf(input) : '',
    partOfRow: !!found.partial && partOfRow(found.el),
  }));

  // ---- checks --------------------------------------------------------------

  // partOfRow says whether el, whose text the target's is only part of
  // ("Order #73" in "Order #730"), is or sits in a row, cell, option or
  // list item of a scrolling container: the row whose whole text it is
  // may be one a virtualized list has not rendered, which Go then looks
  // for in that container. A button in a scrolling app shell is not.
  function partOfRow(el) {
    const ROWS = ['row', 'gridcell', 'cell', 'rowheader', 'option', 'listitem', 'treeitem'];
    let row = false;
    for (let n = el; n && n !== el.ownerDocument.body; n = n.parentElement) {
      if (!row) row = ROWS.includes(h.role(n)) || n.hasAttribute('aria-rowindex');
      else if (n.scrollHeight > n.clientHeight + 1 && /(auto|scroll|overlay)/.test(h.styleOf(n).overflowY)) return true;
    }
    return false;
  }

  // visibleLabelOf returns the visible label of a checkbox or radio that a
  // user cannot see or hit itself (hidden, transparent, clipped, shrunk
  // to a pixel or moved off-screen, as custom-styled controls are), else
  // null.
  function visibleLabelOf(el) {
    if (el.localName !== 'input' || (el.type !== 'checkbox' && el.type !== 'radio')) return null;
    if (!visuallyHidden(el)) return null;
    for (const l of el.labels || []) {
      if (!h.hiddenReason(l) && !visuallyHidden(l)) return l;
    }
    return null;
  }

  function visuallyHidden(el) {
    if (h.hiddenReason(el)) return true;
    const r = el.getBoundingClientRect();
    if (r.width <= 2 || r.height <= 2) return true;
    const st = h.styleOf(el);
    if (st.clip === 'rect(0px, 0px, 0px, 0px)' || /inset\(50%\)/.test(st.clipPath)) return true;
    const win = el.ownerDocument.defaultView;
    return r.right + win.scrollX <= 0 || r.bottom + win.scrollY <= 0;
  }

  // notEditable says why fill cannot type into el (SPEC 8.2), or null.
  // Permanent reasons cannot change by waiting; disabled and readonly can.
  // A select, a checkbox, a radio or a switch takes no text, but fill
  // chooses in it (kind) rather than failing.
  function notEditable(el) {
    const TEXT_TYPES = ['text', 'password', 'email', 'number', 'search', 'tel', 'url',
      'date', 'datetime-local', 'month', 'time', 'week'];
    const tag = el.tagName;
    if (tag === 'SELECT') return { reason: 'a <select> takes an option, not text', permanent: true, kind: 'select' };
    if (tag === 'INPUT') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      if (type === 'checkbox' || type === 'radio') {
        return { reason: 'a ' + type + ' takes true or false, not text', permanent: true, kind: 'check' };
      }
      if (type === 'file') return { reason: 'a file input takes files: use upload', permanent: true };
      if (!TEXT_TYPES.includes(type)) return { reason: 'an input of type "' + type + '" does not accept text', permanent: true };
    } else if (tag !== 'TEXTAREA' && !el.isContentEditable && !el.editContext) {
      const role = el.getAttribute('role');
      if (role === 'checkbox' || role === 'switch' || role === 'radio' || role === 'menuitemcheckbox') {
        return { reason: 'a ' + role + ' takes true or false, not text', permanent: true, kind: 'check' };
      }
      return { reason: '<' + tag.toLowerCase() + '> is not a form field or contenteditable', permanent: true };
    }
    if (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true') return { reason: 'disabled', permanent: false };
    if (el.readOnly || el.getAttribute('aria-readonly') === 'true') return { reason: 'readonly', permanent: false };
    return null;
  }

  // pointerEventsNoneOrigin returns the outermost element of the run of
  // pointer-events:none that el inherits, or null. pointer-events is
  // inherited, so el's own computed value already accounts for ancestors.
  function pointerEventsNoneOrigin(el) {
    if (h.styleOf(el).pointerEvents !== 'none') return null;
    let origin = el;
    for (let n = el.parentElement; n && h.styleOf(n).pointerEvents === 'none'; n = n.parentElement) origin = n;
    return origin;
  }

  // interceptor returns the element found at pt instead of el, or null. A
  // label forwards its click to its control, so hitting it counts as el.
  // In a same-origin frame the point must also reach the frame element in
  // every document above, or something there covers the whole frame.
  function interceptor(el, pt) {
    const root = el.getRootNode();
    const at = (root.elementFromPoint ? root : el.ownerDocument).elementFromPoint(pt.x, pt.y);
    if (!at) return el.ownerDocument.documentElement;
    if (at !== el && !el.contains(at) && !shows(el, at)) {
      const lab = at.closest('label');
      if (!lab || lab.control !== el) return at;
    }
    let x = pt.x, y = pt.y;
    for (let fe = frameOf(view); fe; fe = frameOf(fe.ownerDocument.defaultView)) {
      const o = frameOffset(fe);
      x += o.x;
      y += o.y;
      const above = fe.ownerDocument.elementFromPoint(x, y);
      if (above !== fe) return above || fe.ownerDocument.documentElement;
    }
    return null;
  }

  // shows says whether hitting at is hitting el in the flat tree a person
  // sees: at is slotted into el (a web component's button shows the
  // page's <span>), or at is the host of the shadow tree el is in, which
  // is what a hit on the host's own slotted text reports from inside.
  function shows(el, at) {
    for (let n = at; n; n = n.assignedSlot || n.parentElement || n.getRootNode().host) {
      if (n === el) return true;
    }
    for (let r = el.getRootNode(); r.host; r = r.host.getRootNode()) {
      if (r.host === at) return true;
    }
    return false;
  }

  // ---- geometry --------------------------------------------------------------

  // boxOf is el's first non-empty client rect: for a link wrapping over
  // two lines, the first line is what a user would click. An inline
  // element around a block has only empty line boxes: then its bounding
  // box, which covers the block.
  function boxOf(el) {
    for (const r of el.getClientRects()) if (r.width > 0 && r.height > 0) return r;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? r : null;
  }

  function sameBox(a, b) {
    if (!a || !b) return a === b;
    return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  }

  // scrollIntoViewIfNeeded scrolls when el is outside its frame's viewport
  // or its frame is outside the one above; scrollIntoView scrolls every
  // frame up to the top.
  function scrollIntoViewIfNeeded(el) {
    const r = boxOf(el);
    if (!r) return;
    let top = r.top, left = r.left, bottom = r.bottom, right = r.right;
    for (let win = view; ; ) {
      if (top < 0 || left < 0 || bottom > win.innerHeight || right > win.innerWidth) {
        el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        return;
      }
      const fe = frameOf(win);
      if (!fe) return;
      const o = frameOffset(fe);
      top += o.y; bottom += o.y; left += o.x; right += o.x;
      win = fe.ownerDocument.defaultView;
    }
  }

  // animating reports whether a running animation or transition targets el
  // or an element around it: then a click aimed now may miss.
  function animating(el) {
    const doc = el.ownerDocument;
    if (!doc.getAnimations) return false;
    for (const a of doc.getAnimations()) {
      const t = a.playState === 'running' && a.effect && a.effect.target;
      if (t && (t === el || t.contains(el))) return true;
    }
    return false;
  }

  // nextFrame resolves on the next animation frame; a background tab may
  // never paint, so a timer bounds the wait.
  function nextFrame(win) {
    return new Promise((done) => {
      const t = win.setTimeout(done, 100);
      win.requestAnimationFrame(() => { win.clearTimeout(t); done(); });
    });
  }

  // actionPoint is where to act in el's own frame: the centre of the part
  // of its box inside the viewport, or offset from the box's top-left.
  function actionPoint(el, offset) {
    const r = boxOf(el);
    if (!r) return null;
    if (offset) return { x: r.left + offset.x, y: r.top + offset.y };
    const left = Math.max(r.left, 0), right = Math.min(r.right, view.innerWidth);
    const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, view.innerHeight);
    if (right <= left || bottom <= top) return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    return { x: (left + right) / 2, y: (top + bottom) / 2 };
  }

  // topPoint converts a point in win's viewport to the top-level viewport,
  // which is where Input.dispatchMouseEvent aims, across same-origin frames.
  function topPoint(win, pt) {
    let x = pt.x, y = pt.y;
    for (let fe = frameOf(win); fe; fe = frameOf(fe.ownerDocument.defaultView)) {
      const o = frameOffset(fe);
      x += o.x;
      y += o.y;
    }
    return { x, y };
  }

  // frameOf is the element that holds win's document, or null at the
  // evaluating window (the runner adds that frame's offset) or across an
  // origin boundary.
  function frameOf(win) {
    if (win === window) return null;
    try { return win.frameElement; } catch (e) { return null; }
  }

  // frameOffset is where the frame's viewport starts in its parent's
  // viewport: its box plus border and padding.
  function frameOffset(fe) {
    const r = fe.getBoundingClientRect();
    const st = h.styleOf(fe);
    return {
      x: r.left + fe.clientLeft + parseFloat(st.paddingLeft),
      y: r.top + fe.clientTop + parseFloat(st.paddingTop),
    };
  }

  // ---- event verification ----------------------------------------------------

  // probe records whether the action's pointer events reach el. It listens on the
  // window in the capture phase so that page handlers that stop
  // propagation lower down cannot hide the event from it.
  // When el was replaced by a re-render before the events came, whether
  // they reached what the target resolves to then is judged as they come:
  // a page that re-renders on a clock may replace that one too before Go
  // asks. A hover is judged by its boundary events too: they come before
  // the move, and a page that re-renders on mouseover sends the move to a
  // detached element no window listener hears. seen: any of them reached
  // this document at all.
  function probe(el) {
    const rec = { received: false, standIn: null, seen: false };
    const types = req.action === 'hover'
      ? ['pointerover', 'mouseover', 'pointermove', 'mousemove']
      : ['pointerdown', 'mousedown', 'click', 'contextmenu'];
    const on = (e) => {
      rec.seen = true;
      if (e.composedPath().includes(el)) {
        rec.received = true;
      } else if (rec.standIn === null) {
        const now = el.isConnected ? null : h.resolve(req.target).el;
        rec.standIn = !!now && e.composedPath().includes(now);
        if (rec.standIn) rec.target = h.describeEl(now);
      }
    };
    for (const t of types) view.addEventListener(t, on, true);
    rec.remove = () => { for (const t of types) view.removeEventListener(t, on, true); };
    return rec;
  }
}
