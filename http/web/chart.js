// A histogram of one exact distribution, drawn in SVG: one bar per outcome, its
// probability written above it. (uPlot was allowed, but a bar chart this small needs no
// library, and the page stays free of anything it did not write.)

import {h, s, pct, num} from './dom.js';

export function histogram(dist, {title, id, unit = ''}) {
  const keys = Object.keys(dist).map(Number).sort((a, b) => a - b);
  const max = Math.max(...keys.map((k) => dist[k]), 1e-12);
  const n = keys.length;
  const bw = n > 30 ? 8 : 30, gap = n > 30 ? 1 : 6, top = 18, hgt = 90, base = top + hgt;
  const width = n * (bw + gap) + gap;
  const every = Math.ceil(n / 15); // label at most 15 bars below the axis
  const bars = keys.map((k, i) => {
    const p = dist[k];
    const x = gap + i * (bw + gap);
    const y = base - (p / max) * hgt;
    return s('g', {class: 'bar'},
      s('title', {}, `${k}${unit}: ${pct(p)}`),
      s('rect', {x, y, width: bw, height: Math.max(base - y, 0.5)}),
      n <= 12 ? s('text', {x: x + bw / 2, y: y - 4, class: 'p'}, pct(p)) : null,
      i % every === 0 ? s('text', {x: x + bw / 2, y: base + 13, class: 'k'}, k) : null);
  });
  const mean = keys.reduce((m, k) => m + k * dist[k], 0);
  return h('figure', {class: 'hist', id},
    s('svg', {viewBox: `0 0 ${Math.max(width, 120)} ${base + 18}`, width: Math.max(width, 120) * 1.4, height: (base + 18) * 1.4, role: 'img', 'aria-label': `${title}: ` + keys.map((k) => `${k} ${pct(dist[k])}`).join(', ')},
      s('line', {x1: 0, y1: base, x2: Math.max(width, 120), y2: base, class: 'axis'}), bars),
    h('figcaption', {}, `${title} — mean ${num(mean)}`));
}
