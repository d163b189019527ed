// Labels that never overlap. Each label is tried beside its piece, below first, then
// above, to the right, to the left and at the corners, then a step further out, and
// takes the first place where it covers no label already placed and no piece but its
// own. A label with no free place is hidden until its piece is pointed at or
// highlighted (its name is in the table of units and in the piece's tooltip); zooming in
// makes room, and the labels are placed again at every zoom.
//
// Sizes are the drawing's: upp is its units per CSS pixel, so that a label keeps its size
// on screen at any zoom (the CSS sizes the text with the same --upp).

const measure = document.createElement('canvas').getContext('2d');

// textWidth is a text's width in CSS pixels at size px in the page's bold label font.
function textWidth(text, px) {
  measure.font = `600 ${px}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
  return measure.measureText(text).width;
}

const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

// placeLabels positions labels, each {el (an SVG text), x, y (its piece's centre), rx,
// ry (the piece's half width and height), owner, px (font size in CSS pixels), inside
// (try the centre first: a terrain piece's name)}, avoiding the pieces' boxes ({box
// [x0, y0, x1, y1], owner}). Labels earlier in the list have the first pick, and the
// boxes in taken (labels placed before) are kept clear of. A place inside view (the part
// of the drawing shown, [x0, y0, x1, y1]) is preferred to one partly out of it. It answers
// the boxes taken, those given and its own, so that labels drawn later (the ghost's) keep
// clear of them.
export function placeLabels(labels, pieces, upp, taken = [], view = null) {
  const placed = [...taken];
  const inside = (b) => !view || (b[0] >= view[0] && b[1] >= view[1] && b[2] <= view[2] && b[3] <= view[3]);
  for (const l of labels) {
    const w = (textWidth(l.el.textContent, l.px) + 4) * upp;
    const hgt = l.px * 1.2 * upp;
    const gap = 2 * upp;
    const spots = [];
    if (l.inside) spots.push([0, 0]);
    for (const k of [1, 1.9, 2.8]) {
      const dx = l.rx + gap + (w / 2) * k, dy = l.ry + gap + (hgt / 2) * k;
      const ax = k === 1 ? 0 : (k - 1) * w * 0.25;
      spots.push([0, dy], [0, -dy], [dx, 0], [-dx, 0], [dx - ax, dy], [-dx + ax, dy], [dx - ax, -dy], [-dx + ax, -dy]);
    }
    let at = null, out = null;
    for (const [ox, oy] of spots) {
      const cx = l.x + ox, cy = l.y + oy;
      const box = [cx - w / 2, cy - hgt / 2, cx + w / 2, cy + hgt / 2];
      if (placed.some((b) => overlaps(b, box))) continue;
      if (pieces.some((p) => p.owner !== l.owner && overlaps(p.box, box))) continue;
      if (!inside(box)) {
        out ||= [cx, cy, box];
        continue;
      }
      at = [cx, cy, box];
      break;
    }
    at ||= out;
    l.el.classList.toggle('crowded', !at);
    if (!at) {
      // Hidden, it still shows below its piece while the piece is pointed at.
      l.el.setAttribute('x', l.x);
      l.el.setAttribute('y', l.y + l.ry + gap + hgt / 2);
      continue;
    }
    placed.push(at[2]);
    l.el.setAttribute('x', at[0]);
    l.el.setAttribute('y', at[1]);
  }
  return placed;
}
