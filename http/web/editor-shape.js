// The table editor's handles: a chosen outline (a piece's polygon or line, a side's
// deployment zone) is moved by dragging it, turned by its rotate handle about its
// centre, reshaped by dragging a corner; a handle in the middle of each edge adds a
// corner there, and a double click (or a double tap) on a corner takes it off. The
// geometry is done in the table's own coordinates, each point kept to a tenth of the
// table's unit as a player measures.

import {s} from './dom.js';

// TAP is the radius, in CSS pixels, a handle answers a pointer within: a 44-pixel
// target on a phone, however small the table is drawn.
export const TAP = 22;

// round keeps a coordinate to a tenth of the table's unit.
export function round(v) { return Math.round(v * 10) / 10; }

// centre is the middle of an outline's bounding box: what it turns about.
export function centre(pts) {
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
}

// moved is pts shifted by [dx, dy].
export function moved(pts, dx, dy) {
  return pts.map(([x, y]) => [round(x + dx), round(y + dy)]);
}

// turned is pts turned by a radians (anticlockwise, y north) about c.
export function turned(pts, c, a) {
  const cos = Math.cos(a), sin = Math.sin(a);
  return pts.map(([x, y]) => {
    const dx = x - c[0], dy = y - c[1];
    return [round(c[0] + dx * cos - dy * sin), round(c[1] + dx * sin + dy * cos)];
  });
}

// midpoints are the middles of an outline's edges, each with the index its new corner
// takes; a closed outline has an edge from its last corner back to its first.
export function midpoints(pts, closed) {
  const out = [];
  const n = closed ? pts.length : pts.length - 1;
  for (let i = 0; i < n; i++) {
    const a = pts[i], b = pts[(i + 1) % pts.length];
    out.push({at: [round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2)], index: i + 1});
  }
  return out;
}

// rotateHandle is where an outline's rotate handle stands: above its centre, clear of
// its top by reach.
export function rotateHandle(pts, reach) {
  const c = centre(pts);
  const top = Math.max(...pts.map((p) => p[1]));
  return [c[0], top + reach];
}

// handles draws the handles of the outline pts: corners, edge middles and the rotate
// handle, where P maps a table point to the drawing's; r is the handle's drawn radius
// and hit its answering one (both in the drawing's units).
export function handles(pts, closed, P, r, hit, reach) {
  const out = [];
  const target = (cls, at, data, label) => {
    const [x, y] = P(at);
    return s('g', {class: 'ed-handle ' + cls, dataset: data},
      s('title', {}, label),
      s('circle', {cx: x, cy: y, r: hit, class: 'ed-hit'}),
      s('circle', {cx: x, cy: y, r, class: 'ed-dot'}));
  };
  const rh = rotateHandle(pts, reach);
  const c = centre(pts);
  const [cx, cy] = P([c[0], Math.max(...pts.map((p) => p[1]))]);
  const [rx, ry] = P(rh);
  out.push(s('line', {x1: cx, y1: cy, x2: rx, y2: ry, class: 'ed-stem'}));
  midpoints(pts, closed).forEach((m) => out.push(target('ed-mid', m.at, {mid: m.index}, 'add a corner here')));
  pts.forEach((p, i) => out.push(target('ed-corner', p, {corner: i}, `corner ${i + 1}: drag to reshape, double-click to take off`)));
  out.push(target('ed-rotate', rh, {rotate: '1'}, 'drag to turn'));
  return out;
}
