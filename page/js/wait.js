// Resolves once a page condition holds, or once budgetMs has passed.
//
// cond is one of
//   {selector, hidden, minCount}   visible matches (or none, when hidden)
//   {text, caseSensitive}          text in the page's rendered text
//   {textRegex}                    "source" or "/source/flags"
//   {urlContains}                  substring of location.href
//
// Checks run when the DOM mutates (coalesced) and on a slow poll, which
// catches what no mutation announces: CSS changes, pushState, layout.
//
// Resolves {ok: true, count?, url?}, or {ok: false, seen} when the budget
// ran out (seen says how close the page came), or {invalid: message} when
// the selector or regex cannot be parsed: that is reported at once.
function waitForCondition(cond, budgetMs) {
  const POLL_MS = 100;
  const MIN_GAP_MS = 30;

  function isVisible(el) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : true;
  }

  function pageText() {
    const root = document.body || document.documentElement;
    return root ? root.innerText || '' : '';
  }

  function squash(s) {
    return s.replace(/\s+/g, ' ').trim();
  }

  function parseRegex(src) {
    const m = /^\/(.*)\/([a-z]*)$/s.exec(src);
    return m ? new RegExp(m[1], m[2]) : new RegExp(src);
  }

  // Each checker returns {ok, ...result} and, when not ok, what it saw.
  function selectorChecker() {
    try {
      document.querySelectorAll(cond.selector);
    } catch (e) {
      return { invalid: e.message };
    }
    const want = Math.max(1, cond.minCount || 0);
    return {
      check() {
        const all = document.querySelectorAll(cond.selector);
        let visible = 0;
        for (const el of all) if (isVisible(el)) visible++;
        const ok = cond.hidden ? visible === 0 : visible >= want;
        return { ok, count: visible, seen: { matched: all.length, visible } };
      },
    };
  }

  function textChecker() {
    const sensitive = cond.caseSensitive !== false;
    const needle = squash(cond.text);
    return {
      check() {
        const hay = squash(pageText());
        if (sensitive ? hay.includes(needle) : hay.toLowerCase().includes(needle.toLowerCase())) {
          return { ok: true };
        }
        const otherCase = sensitive && hay.toLowerCase().includes(needle.toLowerCase());
        return { ok: false, seen: { otherCase } };
      },
    };
  }

  function regexChecker() {
    let re;
    try {
      re = parseRegex(cond.textRegex);
    } catch (e) {
      return { invalid: e.message };
    }
    return {
      check() {
        re.lastIndex = 0;
        return { ok: re.test(pageText()), seen: {} };
      },
    };
  }

  function urlChecker() {
    return {
      check() {
        const url = location.href;
        return { ok: url.includes(cond.urlContains), url, seen: { url } };
      },
    };
  }

  const checker =
    cond.selector != null ? selectorChecker()
    : cond.text != null ? textChecker()
    : cond.textRegex != null ? regexChecker()
    : urlChecker();
  if (checker.invalid !== undefined) return Promise.resolve({ invalid: checker.invalid });

  return new Promise((resolve) => {
    let finished = false;
    let queued = false;
    let lastCheck = 0;
    let observer = null;
    let poll = 0;
    let budget = 0;

    function finish(value) {
      if (finished) return;
      finished = true;
      if (observer) observer.disconnect();
      clearInterval(poll);
      clearTimeout(budget);
      resolve(value);
    }

    function run() {
      queued = false;
      if (finished) return;
      lastCheck = performance.now();
      const r = checker.check();
      if (r.ok) finish({ ok: true, count: r.count, url: r.url });
      return r;
    }

    // A burst of mutations costs one check, at most one per MIN_GAP_MS.
    function schedule() {
      if (queued || finished) return;
      queued = true;
      setTimeout(run, Math.max(0, lastCheck + MIN_GAP_MS - performance.now()));
    }

    const first = run();
    if (finished) return;
    if (budgetMs <= 0) {
      finish({ ok: false, seen: first.seen });
      return;
    }
    observer = new MutationObserver(schedule);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    poll = setInterval(run, POLL_MS);
    budget = setTimeout(() => {
      const last = run();
      if (!finished) finish({ ok: false, seen: last.seen });
    }, budgetMs);
  });
}
