// The table editor's grid: a map of squares written as rows of symbols, each symbol a
// kind of terrain its legend names. The editor paints squares with a symbol chosen from
// the legend (a press and a drag paint every square the pointer crosses), and sizes the
// map by its columns and rows. The map's row 0 is its top row.

import {h, s} from './dom.js';

// cells reads a map's rows into a list of lists of symbols; short rows are filled with
// the legend's first symbol.
export function cells(rows, fill) {
  const lines = String(rows || '').split('\n').filter((l) => l.length);
  const w = Math.max(0, ...lines.map((l) => [...l].length));
  return lines.map((l) => { const c = [...l]; while (c.length < w) c.push(fill); return c; });
}

// rowsText writes the cells back as the map's rows, one a line.
export function rowsText(c) {
  return c.map((r) => r.join('')).join('\n') + '\n';
}

// resized is c made cols × rows, new squares filled with fill.
export function resized(c, cols, rows, fill) {
  const out = [];
  for (let y = 0; y < rows; y++) {
    const r = [];
    for (let x = 0; x < cols; x++) r.push(c[y]?.[x] ?? fill);
    out.push(r);
  }
  return out;
}

// colour gives the i-th symbol of the legend a colour of its own: the first (most often
// the open ground) pale, the others apart on the colour wheel.
export function colour(i) {
  if (i === 0) return '#e6ecd9';
  return `hsl(${(i * 137) % 360}, 35%, ${i % 2 ? 45 : 60}%)`;
}

// squares draws the map's squares, one unit each in the drawing.
export function squares(c, symbols) {
  const out = [];
  c.forEach((row, y) => row.forEach((sym, x) => {
    const i = symbols.indexOf(sym);
    out.push(s('rect', {x, y, width: 1, height: 1, class: 'ed-square', 'data-square': `${x},${y}`, 'data-symbol': sym,
      fill: colour(i < 0 ? symbols.length : i)}));
  }));
  return out;
}

// palette lists the legend's symbols as buttons that choose the paint; chosen says
// which is chosen, and pick is told of a choice.
export function palette(legend, chosen, pick) {
  return h('div', {class: 'row ed-palette', id: 'ed-palette', role: 'group', 'aria-label': 'paint squares with'},
    Object.entries(legend).map(([sym, t], i) => {
      // The swatch's colour is set through the style object: the page's policy refuses
      // style attributes.
      const swatch = h('span', {class: 'ed-swatch'});
      swatch.style.setProperty('background', colour(i));
      return h('button', {class: 'ed-paint', 'data-symbol': sym, 'aria-pressed': String(sym === chosen), onclick: () => pick(sym)},
        swatch, ` ${t?.name || sym} (${sym})`);
    }));
}
