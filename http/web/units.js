// The table of units: a row for every unit the battle keeps a state of, with the
// columns the battle's view names (view.table.columns or view.board.columns: what
// matters in its system, how each value reads), each row in its side's colour and
// destroyed units struck through. A header sorts by its column, again the other way.
// Pointing at a row highlights the unit on the board, and the board highlights the row
// of the unit pointed at there; pressing the unit's name picks it, as a click on the
// board would. It knows no rule system.

import {h, sideColour, swatch} from './dom.js';

// columnsOf is the view's columns, or, for a view that names none, every value as it is.
export function columnsOf(v) {
  const named = (v.table || v.board)?.columns;
  if (named?.length) return named;
  const keys = [...new Set(v.state.units.flatMap((u) => Object.keys(u.values || {})))].filter((k) => !k.startsWith('max_')).sort();
  const levels = v.table?.declare?.values || {};
  return keys.map((k) => ({label: k.replaceAll('_', ' '), key: k, levels: levels[k]}));
}

// cell is what a column shows for a unit's values, and the number it sorts by (null:
// the unit has no such value).
export function cell(col, values = {}) {
  if (col.flags?.length) {
    const on = col.flags.filter((f) => values[f.key]);
    return {text: on.map((f) => (f.count ? `${f.label} ${values[f.key]}` : f.label)).join(', '),
      sort: on.length ? on.reduce((n, f) => n + values[f.key], 0) : null};
  }
  const x = values[col.key];
  if (x === undefined) return {text: '', sort: null};
  let text = col.levels?.[x] ?? String(x);
  if (col.of && values[col.of] !== undefined) text = `${x}/${values[col.of]}`;
  return {text, sort: x};
}

// unitsTable draws into box. onHover(id or null) is called when a row is pointed at,
// onPick(id) when the unit's name is pressed; selected(id) says whether a unit is
// chosen, for its button's pressed state.
export function unitsTable(box, {onHover, onPick, selected = () => false}) {
  // The column sorted by, by its label ('' for the side), null for the battle's order;
  // by label, since columns without values come and go.
  const sort = {col: null, dir: 1};
  let rows = new Map();
  let hl = null;

  function draw(v) {
    // A column no unit has a value in says nothing.
    const cols = columnsOf(v).filter((c) => v.state.units.some((u) => cell(c, u.values).sort !== null));
    const order = v.state.units.map((u, i) => ({u, i}));
    const by = cols.find((c) => c.label === sort.col);
    if (sort.col === '' || by) {
      const key = by ? ({u}) => cell(by, u.values).sort : ({u}) => u.side;
      order.sort((a, b) => {
        const x = key(a), y = key(b);
        if (x === y) return a.i - b.i;
        if (x === null) return 1; // no value: last, whichever way
        if (y === null) return -1;
        return (x < y ? -1 : 1) * sort.dir;
      });
    }
    const header = (label, key, help, cls = 'num') => {
      const dir = sort.col === key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none';
      return h('th', {scope: 'col', 'aria-sort': dir, class: cls},
        h('button', {type: 'button', class: 'sort', title: help || `Sort by ${label}`, 'data-col': label, onclick: () => {
          sort.dir = sort.col === key ? -sort.dir : 1;
          sort.col = key;
          draw(v);
        }}, label, dir === 'none' ? '' : dir === 'ascending' ? ' ▲' : ' ▼'));
    };
    rows = new Map();
    const drawn = new Map(((v.table || v.board)?.units || []).map((x) => [x.id, x]));
    const body = order.map(({u}) => {
      const colour = sideColour(v.sides, u.side);
      const name = u.name || drawn.get(u.id)?.name || u.id;
      const pick = h('button', {type: 'button', class: 'unit-btn' + (selected(u.id) ? ' on' : ''), 'data-unit': u.id,
        'aria-pressed': String(selected(u.id)), onclick: () => onPick(u.id)},
      swatch(colour), h('span', {class: 'uname'}, name), name !== u.id ? h('span', {class: 'uid'}, ' ', u.id) : '');
      const tr = h('tr', {class: 'unit-row' + (u.destroyed ? ' destroyed' : '') + (hl === u.id ? ' hl' : ''), 'data-unit': u.id},
        h('th', {scope: 'row'}, pick),
        h('td', {class: 'side'}, u.side),
        cols.map((c) => h('td', {class: 'num'}, cell(c, u.values).text)));
      tr.style.borderLeftColor = colour;
      tr.addEventListener('mouseenter', () => onHover(u.id));
      tr.addEventListener('mouseleave', () => onHover(null));
      rows.set(u.id, tr);
      return tr;
    });
    const table = h('table', {class: 'units', id: 'units-table'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'unit'), header('side', '', 'Sort by side', 'side'), cols.map((c) => header(c.label, c.label, c.help)))),
      h('tbody', {}, body));
    box.replaceChildren(h('h2', {id: 'units-h'}, 'Units'), h('div', {class: 'scroll-x'}, table),
      h('p', {class: 'help'}, 'Press a heading to sort by it. Point at a unit, or press its name, to find it on the table.'));
  }

  return {
    draw,
    // highlight marks the row of unit id (null: none), as its unit is pointed at on the board.
    highlight(id) {
      rows.get(hl)?.classList.remove('hl');
      hl = id;
      rows.get(id)?.classList.add('hl');
    },
  };
}
