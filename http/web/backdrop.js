// The photo of a player's table as the board's backdrop. The player chooses an image
// file; it stays in the browser (in localStorage as a data URL, or only in this page's
// memory when it is too large to keep), and is never sent to the server. To lay it over
// the board, the player marks two points on the photo, says how far apart they are on
// the table (in the table's unit), where the first lies and which way the second lies
// from it; the photo is then scaled and turned so that the two points fall exactly
// there. The editor keeps the backdrop of the table being built; a battle started from
// it keeps a copy under the battle's id, which the battle's board draws behind the
// table's grid.
//
// The fit is a similarity (scale, turn, shift), done with complex numbers: a pixel
// (u, v) of the photo, v down, is z = u − iv, and lies on the table at a·z + b. Two
// points fix a and b.

import {h, s} from './dom.js';

const PREFIX = 'volley.backdrop.';
const memory = new Map(); // key → backdrop, for photos too large for localStorage

// load is the backdrop kept under key, or null.
export function load(key) {
  if (memory.has(key)) return memory.get(key);
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw ? JSON.parse(raw) : null;
  } catch { return null; }
}

// save keeps bd under key (null forgets it), and says whether it outlives the page.
export function save(key, bd) {
  memory.delete(key);
  try {
    if (!bd) { localStorage.removeItem(PREFIX + key); return true; }
    localStorage.setItem(PREFIX + key, JSON.stringify(bd));
    return true;
  } catch {
    // Over the browser's quota: kept for this page only.
    if (bd) memory.set(key, bd);
    return false;
  }
}

// copy keeps the backdrop of one key under another too (a started battle's id).
export function copy(from, to) {
  const bd = load(from);
  if (bd) save(to, bd);
}

// toTable is where the photo's pixel [u, v] lies on the table under the fit m
// ([re a, im a, re b, im b]).
export function toTable(m, [u, v]) {
  const [ar, ai, bx, by] = m;
  return [ar * u + ai * v + bx, ai * u - ar * v + by];
}

// toImage is the photo's pixel under the table's point [x, y]: toTable undone.
export function toImage(m, [x, y]) {
  const [ar, ai, bx, by] = m;
  const px = x - bx, py = y - by, n = ar * ar + ai * ai;
  // z = (w − b) / a; u = re z, v = −im z.
  return [(px * ar + py * ai) / n, -(py * ar - px * ai) / n];
}

// fit is the similarity that lays the photo's pixels p1 and p2 on the table's points
// q1 and q2. The pixels must differ.
export function fit(p1, p2, q1, q2) {
  const z1 = [p1[0], -p1[1]], z2 = [p2[0], -p2[1]];
  const dz = [z2[0] - z1[0], z2[1] - z1[1]], dq = [q2[0] - q1[0], q2[1] - q1[1]];
  const n = dz[0] * dz[0] + dz[1] * dz[1];
  if (n === 0) throw new Error('backdrop: the two points are the same pixel');
  const ar = (dq[0] * dz[0] + dq[1] * dz[1]) / n, ai = (dq[1] * dz[0] - dq[0] * dz[1]) / n;
  return [ar, ai, q1[0] - (ar * z1[0] - ai * z1[1]), q1[1] - (ai * z1[0] + ar * z1[1])];
}

// image draws the backdrop bd where P maps a table point to the drawing's: an SVG
// image with the photo's pixels mapped through the fit and P (both affine).
export function image(bd, P) {
  if (!bd?.src || !bd.m) return null;
  const o = P(toTable(bd.m, [0, 0])), ex = P(toTable(bd.m, [1, 0])), ey = P(toTable(bd.m, [0, 1]));
  return s('image', {href: bd.src, width: bd.w, height: bd.h, class: 'backdrop', preserveAspectRatio: 'none',
    transform: `matrix(${ex[0] - o[0]} ${ex[1] - o[1]} ${ey[0] - o[0]} ${ey[1] - o[1]} ${o[0]} ${o[1]})`});
}

// forBattle draws a battle's backdrop, if the player gave it one, for the board.
export function forBattle(id, P) {
  return image(load(id), P);
}

// panel is the editor's backdrop controls for the table being built under key, whose
// width and height table() gives. changed is told when the backdrop or its marks
// change; while marking, the editor hands each point the player marks to mark().
export function panel(key, table, changed) {
  const st = {marking: false, marks: []};
  const file = h('input', {id: 'bd-file', type: 'file', accept: 'image/*'});
  const status = h('span', {id: 'bd-status', class: 'help'});
  const markBtn = h('button', {id: 'bd-mark', 'aria-pressed': 'false', onclick: () => {
    st.marking = !st.marking;
    if (st.marking) st.marks = [];
    show();
  }}, 'Mark two points on the photo');
  const num = (id, label, value) => h('label', {}, label + ' ', h('input', {id, type: 'number', step: 'any', value, inputmode: 'decimal'}));
  const dist = num('bd-dist', 'they are apart by', '');
  const fx = num('bd-x', 'the first lies at x', 0);
  const fy = num('bd-y', 'y', 0);
  const bearing = num('bd-angle', 'the second lies at (degrees from the x axis)', 0);
  const fitBtn = h('button', {id: 'bd-fit', onclick: () => {
    const bd = load(key);
    const d = Number(dist.querySelector('input').value);
    if (!bd || st.marks.length !== 2 || !(d > 0)) { status.textContent = 'Mark two points and give the distance between them first.'; return; }
    const q1 = [Number(fx.querySelector('input').value) || 0, Number(fy.querySelector('input').value) || 0];
    const a = (Number(bearing.querySelector('input').value) || 0) * Math.PI / 180;
    const q2 = [q1[0] + d * Math.cos(a), q1[1] + d * Math.sin(a)];
    try {
      bd.m = fit(st.marks[0], st.marks[1], q1, q2);
    } catch (err) { status.textContent = err.message; return; }
    bd.marks = st.marks;
    save(key, bd);
    st.marks = [];
    status.textContent = `The photo is fitted: the two points lie ${d} apart.`;
    changed();
    show();
  }}, 'Fit the photo');
  const clear = h('button', {id: 'bd-clear', class: 'quiet', onclick: () => { save(key, null); st.marks = []; st.marking = false; changed(); show(); }}, 'Remove the photo');
  file.addEventListener('change', () => {
    const f = file.files?.[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => {
      const img = new Image();
      img.onload = () => {
        const {width: W, height: H} = table();
        // At first the photo spans the table's width from its top left corner.
        const k = W / img.naturalWidth;
        const kept = save(key, {src: reader.result, w: img.naturalWidth, h: img.naturalHeight, m: [k, 0, 0, H]});
        status.textContent = kept ? 'The photo is kept in this browser only.' : 'The photo is too large to keep: it is shown until the page closes.';
        changed();
        show();
      };
      img.onerror = () => { status.textContent = 'That file is not an image the browser can show.'; };
      img.src = reader.result;
    };
    reader.readAsDataURL(f);
  });
  const el = h('details', {class: 'ed-backdrop', id: 'ed-backdrop'},
    h('summary', {}, 'The photo of your table'),
    h('p', {class: 'help'}, 'Choose a photo of your table (it stays in this browser). Mark two points on it, say how far apart they are on the table and where they lie, and the photo is scaled and turned to lie under the board. On a map of squares, count squares from its bottom left corner.'),
    h('div', {class: 'row'}, h('label', {for: 'bd-file'}, 'Photo '), file),
    h('div', {class: 'row'}, markBtn, dist, fx, fy, bearing, fitBtn, clear), status);
  function show() {
    markBtn.setAttribute('aria-pressed', String(st.marking));
    const has = !!load(key);
    markBtn.disabled = !has;
    fitBtn.disabled = !has;
    clear.disabled = !has;
    if (st.marking) status.textContent = `Click or tap point ${st.marks.length + 1} of 2 on the photo.`;
  }
  show();
  return {
    el,
    marking: () => st.marking,
    marks: () => st.marks,
    // mark takes a point of the table the player marked, as the photo's pixel there.
    mark(at) {
      const bd = load(key);
      if (!bd) return;
      st.marks.push(toImage(bd.m, at));
      if (st.marks.length === 2) st.marking = false;
      show();
      changed();
    },
  };
}
