// ariaRender turns the walk's tree into the YAML-like text of SPEC 7.2, at
// the detail levels of SPEC 7.3. cfg: {includeText, uids}: uids shows the
// element identities of nodes without a ref (report.js), for the diff. A
// node's context (context.js) follows its attributes: ` in "Buy milk"`.
function ariaRender(cfg) {
  'use strict';
  const includeText = cfg.includeText !== false;
  const uids = cfg.uids === true;
  const LANDMARKS = new Set(['banner', 'complementary', 'contentinfo', 'form',
    'main', 'navigation', 'region', 'search']);
  // What the interactive level keeps around the controls it shows.
  const STRUCTURE = new Set([...LANDMARKS, 'dialog', 'alertdialog', 'group',
    'radiogroup', 'tablist', 'menu', 'menubar', 'toolbar', 'tree', 'grid',
    'document']);

  // onlyInteractive keeps interactive nodes (with their own text) and the
  // landmarks and groups on the way to them; everything else is dropped
  // and its kept descendants promoted. It only removes lines and shortens
  // others; the contexts context.js adds to its lines are all that can
  // make it longer than the full tree.
  function onlyInteractive(nodes) {
    const out = [];
    for (const n of nodes) {
      if (n.text !== undefined || !n.widget) continue;
      if (n.xframe !== undefined) {
        out.push(n); // a frame's content comes later, from Go
      } else if (n.interactive) {
        const kids = [];
        for (const c of n.children) {
          if (c.text !== undefined) kids.push(c);
          else append(kids, onlyInteractive([c]));
        }
        out.push(Object.assign({}, n, { children: kids }));
      } else if (STRUCTURE.has(n.role)) {
        out.push(Object.assign({}, n, { children: onlyInteractive(n.children) }));
      } else if (n.role === 'row') {
        const kids = onlyInteractive(n.children);
        if (kids.some(k => CELLS.has(k.role))) out.push(Object.assign({}, n, { children: kids }));
        else append(out, kids);
      } else {
        append(out, onlyInteractive(n.children));
      }
    }
    return out;
  }

  // lean is the report's view of the screen (the call's
  // viewportSnapshot): what an agent acts on and what a person reads
  // first. It keeps interactive elements with their own text, headings,
  // live messages (alert, status, log) and dialogs with their text,
  // notice text (walk's markNotices) and frames; menus, lists of options
  // and other groups stay around their items, and a grid's rows around
  // their cells. Landmarks and wrappers are
  // flattened (context.js says where an unnamed or repeated control is);
  // link URLs and field names are left out.
  function lean(nodes) {
    const out = [];
    for (const n of nodes) {
      if (n.text !== undefined) {
        if (n.notice) out.push(n);
      } else if (n.interactive || READ.has(n.role)) {
        out.push(slim(n, leanKids(n, true)));
      } else if (n.role === 'heading') {
        out.push(slim(n, leanKids(n, false)));
      } else if (n.role === 'iframe' || n.role === 'document') {
        out.push(slim(n, lean(n.children))); // a frame is where the frame step goes
      } else {
        const kids = lean(n.children);
        if (kids.length && (GROUPS.has(n.role) || (n.role === 'row' && kids.some(k => CELLS.has(k.role))))) out.push(slim(n, kids));
        else append(out, kids);
      }
    }
    return out;
  }
  const READ = new Set(['alert', 'status', 'log', 'dialog', 'alertdialog']);
  const GROUPS = new Set(['menu', 'menubar', 'listbox', 'tablist', 'radiogroup', 'tree', 'grid', 'toolbar']);
  // A grid's row stays around its cells, which read as a row only there.
  const CELLS = new Set(['gridcell', 'cell', 'columnheader', 'rowheader']);

  function leanKids(n, withText) {
    const kids = [];
    for (const c of n.children) {
      if (c.text !== undefined) {
        if (withText || c.notice) kids.push(c);
      } else {
        append(kids, lean([c]));
      }
    }
    return kids;
  }

  function slim(n, children) {
    const attrs = n.attrs.filter(a => !a.startsWith('url=') && !a.startsWith('name='));
    return Object.assign({}, n, { children, attrs });
  }

  function render(nodes, indent, lines) {
    indent = indent || '';
    lines = lines || [];
    for (const n of nodes) {
      if (n.text !== undefined) {
        if (includeText) lines.push(indent + '- text: ' + JSON.stringify(n.text));
        continue;
      }
      let line = indent + '- ' + n.role;
      if (n.name) line += ' ' + JSON.stringify(n.name);
      for (const a of n.attrs) line += ' [' + a + ']';
      if (n.ref) line += ' [ref=' + n.ref + ']';
      else if (uids && n.uid) line += ' [uid=' + n.uid + ']';
      if (n.context) line += ' in ' + JSON.stringify(n.context);
      // An interactive node's own text is its label: it stays.
      const kids = includeText || n.interactive ? n.children : n.children.filter(c => c.text === undefined);
      if (n.value !== undefined) {
        lines.push(line + ': ' + JSON.stringify(n.value));
      } else if (kids.length === 1 && kids[0].text !== undefined) {
        lines.push(line + ': ' + JSON.stringify(kids[0].text));
      } else if (kids.length) {
        lines.push(line + ':');
        render(kids, indent + '  ', lines);
      } else {
        lines.push(line);
      }
    }
    return lines;
  }

  // summary lists landmarks (with counts of the interactive elements
  // inside them, by role) and headings.
  function summary(nodes) {
    const total = new Map();
    const tally = { landmarks: 0, headings: 0 };
    const body = summarize(nodes, '', total, tally);
    let n = 0;
    for (const v of total.values()) n += v;
    const head = '# summary: ' + tally.landmarks + ' landmarks, ' + tally.headings +
      ' headings, ' + n + ' interactive';
    body.unshift(head);
    return body;
  }

  function summarize(nodes, indent, counts, tally) {
    const lines = [];
    for (const n of nodes) {
      if (n.text !== undefined) continue;
      if (n.xframe !== undefined) {
        lines.push(indent + '- iframe [' + n.mark + ']'); // Go puts the frame's summary here
        continue;
      }
      if (n.interactive) counts.set(n.role, (counts.get(n.role) || 0) + 1);
      if (n.role === 'heading') {
        tally.headings++;
        lines.push(indent + '- heading ' + JSON.stringify(n.name) + ' [' + n.attrs[0] + ']');
        summarize(n.children, indent, counts, tally); // links inside still count
        continue;
      }
      if (!LANDMARKS.has(n.role) && n.role !== 'dialog') {
        append(lines, summarize(n.children, indent, counts, tally));
        continue;
      }
      tally.landmarks++;
      const own = new Map();
      const sub = summarize(n.children, indent + '  ', own, tally);
      let line = indent + '- ' + n.role + (n.name ? ' ' + JSON.stringify(n.name) : '');
      let all = 0;
      for (const v of own.values()) all += v;
      line += ' [interactive=' + all + ']';
      for (const [role, k] of [...own].sort((x, y) => y[1] - x[1])) {
        line += ' [' + role + '=' + k + ']';
        counts.set(role, (counts.get(role) || 0) + k);
      }
      lines.push(sub.length ? line + ':' : line);
      append(lines, sub);
    }
    return lines;
  }

  // append adds src to dst; a spread would overflow the argument limit on
  // a page of a hundred thousand lines.
  function append(dst, src) {
    for (const x of src) dst.push(x);
  }

  return { render, onlyInteractive, lean, summary, LANDMARKS };
}
