// extract (SPEC 11.6): table or list data under the target.
//
// a = {target, type: ''|'table'|'list', limit}. Returns
//   {type: 'table', headers, rows, rowCount}  rowCount counts every data row
//   {type: 'list', items, itemCount}          itemCount counts every item
// or {error}. Cells and items are their rendered text, whitespace collapsed.
function extract(h, a) {
  const found = h.find(a.target);
  if (found.error) return found;
  const root = found.el;

  const TABLE = 'table, [role="table"], [role="grid"], [role="treegrid"]';
  const LIST = 'ul, ol, [role="list"]';
  const ROW = 'tr, [role="row"]';
  const ITEM = 'li, [role="listitem"]';

  function text(el) {
    return h.norm(el.innerText || el.textContent);
  }

  function self(sel) {
    return root.matches(sel) ? root : root.querySelector(sel);
  }

  // detect follows SPEC 11.6: a table, then a list, at or under the root;
  // then loose rows, then loose items.
  function detect() {
    let el = self(TABLE);
    if (el) return ['table', el];
    el = self(LIST);
    if (el) return ['list', el];
    if (root.querySelector(ROW)) return ['table', root];
    if (root.querySelector(ITEM)) return ['list', root];
    return ['', null];
  }

  function explicit(type) {
    if (type === 'table') return ['table', self(TABLE) || (root.querySelector(ROW) ? root : null)];
    return ['list', self(LIST) || (root.querySelector(ITEM) ? root : null)];
  }

  // rowsOf lists the table's own rows (not those of nested tables) and
  // whether each one is a header row.
  function rowsOf(table) {
    if (table.localName === 'table') {
      return Array.from(table.rows).map((r) => ({
        cells: Array.from(r.cells),
        head: r.parentElement.localName === 'thead',
      }));
    }
    const rows = Array.from(table.querySelectorAll('[role="row"]'))
      .filter((r) => {
        // Rows of a nested table belong to it, not to this one.
        const t = r.closest(TABLE);
        return t === table || !(t && table.contains(t));
      });
    return rows.map((r) => ({
      cells: Array.from(r.querySelectorAll('[role="cell"], [role="gridcell"], [role="columnheader"], [role="rowheader"]')),
      head: false,
    }));
  }

  // A header row is the thead's, or else a first row made only of headers:
  // a table without one has no headers rather than losing its first row.
  function isHeaderCells(cells) {
    return cells.length > 0 && cells.every((c) => c.localName === 'th' || c.getAttribute('role') === 'columnheader');
  }

  function table(el) {
    const rows = rowsOf(el);
    let headers = [];
    let body = rows.filter((r) => !r.head);
    const head = rows.filter((r) => r.head);
    if (head.length) {
      headers = head[head.length - 1].cells.map(text);
    } else if (body.length && isHeaderCells(body[0].cells)) {
      headers = body[0].cells.map(text);
      body = body.slice(1);
    }
    body = body.filter((r) => r.cells.length);
    return {
      type: 'table',
      headers,
      rows: body.slice(0, a.limit).map((r) => r.cells.map(text)),
      rowCount: body.length,
    };
  }

  function list(el) {
    let items = Array.from(el.children).filter((c) => c.matches(ITEM));
    // A container of loose items, not a list itself: take its items.
    if (!items.length) items = Array.from(el.querySelectorAll(ITEM));
    return {
      type: 'list',
      items: items.slice(0, a.limit).map(text),
      itemCount: items.length,
    };
  }

  const [type, el] = a.type ? explicit(a.type) : detect();
  if (!el) {
    return a.type
      ? h.fail('noStructure', 'no ' + a.type + ' at or inside the element')
      : h.fail('noStructure', 'no table or list at or inside the element');
  }
  return type === 'table' ? table(el) : list(el);
}
