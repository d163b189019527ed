// Small helpers to build HTML and SVG elements without a framework.

const SVG = 'http://www.w3.org/2000/svg';

// h builds an HTML element: h('button', {class: 'x', onclick: f}, 'text', child…).
// Attributes starting with "on" become listeners; false and null attributes are left out.
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

// s builds an SVG element the same way.
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// svgPoint is the point under a pointer event in svg's own units (its viewBox's), as
// the board or table drawn in it counts them.
export function svgPoint(svg, ev) {
  const p = svg.createSVGPoint();
  p.x = ev.clientX;
  p.y = ev.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

// pct writes a probability as a percentage a player reads: 55%, 51.6%, 0.04%, <0.01%.
export function pct(p) {
  if (p <= 0) return '0%';
  if (p >= 1) return '100%';
  const x = p * 100;
  if (x < 0.01) return '<0.01%';
  if (x < 1) return x.toFixed(2) + '%';
  if (Math.abs(x - Math.round(x)) < 1e-9) return Math.round(x) + '%';
  return x.toFixed(1) + '%';
}

// possessive writes a name's possessive as English does: "Scourge's", "trenchers'".
export function possessive(name) {
  return /s$/i.test(name) ? name + '\'' : name + '\'s';
}

// signed writes a modifier with its sign: +20, -5, 0.
export function signed(v) {
  return v > 0 ? '+' + v : String(v);
}

// sideColour gives each side a stable colour by its place in the battle's side list.
const SIDE_COLOURS = ['#1f5fa8', '#b3261e', '#2e7d32', '#8a4fb0', '#b26a00', '#00838f'];
export function sideColour(sides, side) {
  const i = sides.indexOf(side);
  return SIDE_COLOURS[(i < 0 ? 0 : i) % SIDE_COLOURS.length];
}

// swatch is a small square of colour beside a name.
export function swatch(colour) {
  const el = h('span', {class: 'swatch', 'aria-hidden': 'true'});
  el.style.background = colour;
  return el;
}

// num writes a number as a player reads it: at most two decimals, none that are 0
// (3, 3.5, 18.17).
export function num(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return String(x);
  const r = Math.round(x * 100) / 100;
  return String(Object.is(r, -0) ? 0 : r);
}

// length writes a distance in its unit: 3.5″, 12 cm, 4 squares.
export function length(x, unit) {
  if (unit === 'in' || unit === '"' || unit === '″') return `${num(x)}″`;
  if (unit === 'square' || unit === 'squares') return `${num(x)} square${x === 1 ? '' : 's'}`;
  return unit ? `${num(x)} ${unit}` : num(x);
}

// STATUS are the words for an aim's status: what a player reads instead of the API's code.
const STATUS = {ok: 'may fire', blocked: 'no line of sight', out_of_range: 'out of range', out_of_arc: 'out of arc',
  not_eligible: 'may not fire', no_target: 'no target'};

// status is an aim's status in words.
export function status(code) {
  return STATUS[code] || String(code || '').replaceAll('_', ' ');
}

// tidy makes a line of the API's words read well: inches as ″ rather than ", and no
// number with more than two decimals.
export function tidy(line) {
  return String(line)
    .replace(/-?\d+\.\d{3,}/g, (m) => num(Number(m)))
    .replace(/(\d)"/g, '$1″');
}

// sideKey is the key of the sides' colours on a board: a swatch and a name each.
export function sideKey(sides) {
  return h('span', {class: 'side-key', id: 'side-key', 'aria-label': 'the sides\' colours'},
    sides.map((s) => h('span', {class: 'side-key-item', 'data-side': s}, swatch(sideColour(sides, s)), s)));
}

// touch says whether the page is used with a finger (a phone, a tablet): its help then
// says nothing of keys a touch screen lacks.
export function touch() {
  return globalThis.matchMedia?.('(pointer: coarse)').matches || navigator.maxTouchPoints > 0;
}
