// The table editor's pointer (editor.js holds the editor's state): a click or a tap
// places what the drawing mode places (a corner of a piece or a zone, a unit, a mark on
// the photo); with no mode on, a press takes a piece, a zone, a unit or one of the
// chosen outline's handles, and a drag moves, turns or reshapes it; in the paint mode a
// press and a drag paint squares. Mouse, pen and finger alike: pointer events, the
// table's drawing captured for the length of a drag.

import {svgPoint} from './dom.js';
import {centre, moved, round, turned} from './editor-shape.js';

// DOUBLE is how soon, in milliseconds, a second press on a corner must follow the first
// to take the corner off: a double click or a double tap.
const DOUBLE = 450;

// DRAG is how far, in CSS pixels, a press must move to be a drag rather than a click.
const DRAG = 8;

// listen makes the editor's drawing svg answer the pointer; ed is the editor's state and
// what changes it.
export function listen(svg, ed) {
  const {st, doc, bd, open, place, nested, U, bdU, H, outline, placed, placeUnit, changed, draw, gridCells, setCells, finishDraft} = ed;

  // The pointer: a press let go where it began (a click or a tap) places what the mode
  // places; with no mode, a press takes a piece, a zone, a unit or a handle and a drag
  // moves, turns or reshapes it. A tap is read from the pointer's own press and release
  // rather than from a click event: the table is redrawn when a check answers, and a
  // browser sends no click when the element pressed is gone before the release.
  function tap(q, target) {
    if (bd?.marking()) { bd.mark(bdU(q)); return; }
    if (st.mode === 'unit') {
      // A tap on a unit while placing units takes it off the table again.
      const hit = target?.closest?.('[data-unit]');
      if (hit) {
        doc.units = doc.units.filter((u) => u.id !== hit.dataset.unit);
        changed();
        return;
      }
      placeUnit(open ? U(q) : [Math.floor(q.x), Math.floor(q.y)]);
      return;
    }
    if (st.mode === 'terrain' || st.mode === 'zone') {
      st.draft.push(U(q));
      draw();
    }
  }

  svg.addEventListener('pointerdown', (ev) => {
    if (ev.button > 0) return; // a right or middle button places nothing
    st.press = {x: ev.clientX, y: ev.clientY, target: ev.target, id: ev.pointerId};
    if (bd?.marking()) return;
    const q = svgPoint(svg, ev);
    // A zone may be dragged out as a rectangle, corner to corner, rather than clicked
    // corner by corner: it is one once the pointer has moved DRAG pixels.
    if (st.mode === 'zone' && !st.draft.length) {
      st.drag = {rect: U(q), x: ev.clientX, y: ev.clientY, moved: false};
      svg.setPointerCapture?.(ev.pointerId);
      return;
    }
    if (st.mode === 'paint') {
      svg.setPointerCapture?.(ev.pointerId);
      st.drag = {paint: true};
      paintAt(q);
      return;
    }
    if (st.mode) return;
    const at = open ? [q.x, H() - q.y] : [q.x, q.y];
    const handle = ev.target.closest?.('.ed-handle');
    const o = outline();
    let drag = null;
    if (handle && o) {
      if (handle.dataset.mid) {
        const i = Number(handle.dataset.mid);
        const pts = o.pts.slice();
        const a = pts[i - 1], b = pts[i % pts.length];
        pts.splice(i, 0, [round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2)]);
        o.set(pts);
        drag = {corner: i};
      } else if (handle.dataset.corner) {
        const i = Number(handle.dataset.corner);
        // A second press on the same corner soon after the first takes it off.
        if (st.lastCorner.i === i && ev.timeStamp - st.lastCorner.t < DOUBLE && o.pts.length > (o.closed ? 3 : 2)) {
          const pts = o.pts.slice();
          pts.splice(i, 1);
          o.set(pts);
          st.lastCorner = {i: -1, t: 0};
          changed();
          return;
        }
        st.lastCorner = {i, t: ev.timeStamp};
        drag = {corner: i};
      } else if (handle.dataset.rotate) {
        const c = centre(o.pts);
        drag = {rotate: c, from: Math.atan2(at[1] - c[1], at[0] - c[0]), pts: o.pts.map((p) => p.slice())};
      }
    } else {
      const piece = ev.target.closest?.('[data-piece]');
      const unit = ev.target.closest?.('[data-unit]');
      const zone = ev.target.closest?.('[data-zone]');
      if (unit) {
        st.sel = {what: 'unit', i: Number(unit.dataset.index)};
        const u = doc.units[st.sel.i];
        const pl = placed(u).find((x) => (x.model?.id ?? null) === (unit.dataset.model ?? null)) || placed(u)[0];
        drag = {unit: u, model: pl?.model || null};
      } else if (piece) {
        st.sel = {what: 'terrain', i: Number(piece.dataset.index)};
      } else if (zone) {
        st.sel = {what: 'zone', side: zone.dataset.zone};
      } else {
        st.sel = null;
      }
      const o2 = outline();
      if (o2) drag = {move: o2.pts.map((p) => p.slice())};
    }
    if (drag) {
      drag.start = at;
      drag.moved = false;
      st.drag = drag;
      svg.setPointerCapture?.(ev.pointerId);
      ev.preventDefault();
    }
    draw();
  });

  svg.addEventListener('pointermove', (ev) => {
    const d = st.drag;
    if (!d) return;
    const q = svgPoint(svg, ev);
    if (d.paint) { paintAt(q); return; }
    if (d.rect) {
      if (!d.moved && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < DRAG) return;
      const [x0, y0] = d.rect, [x1, y1] = U(q);
      d.moved = true;
      st.draft = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
      draw();
      return;
    }
    const at = open ? [q.x, H() - q.y] : [q.x, q.y];
    const o = outline();
    if (d.corner != null && o) {
      const pts = o.pts.slice();
      pts[d.corner] = [round(at[0]), round(at[1])];
      o.set(pts);
    } else if (d.rotate && o) {
      const a = Math.atan2(at[1] - d.rotate[1], at[0] - d.rotate[0]) - d.from;
      o.set(turned(d.pts, d.rotate, a));
    } else if (d.move && o) {
      o.set(moved(d.move, at[0] - d.start[0], at[1] - d.start[1]));
    } else if (d.unit) {
      const target = d.model || d.unit;
      const key = d.model ? nested.at.key : place?.key;
      if (!key) return;
      target[key] = open ? [round(at[0]), round(at[1])] : [Math.floor(at[0]), Math.floor(at[1])];
    } else return;
    d.moved = true;
    draw();
  });

  const endDrag = () => {
    const d = st.drag;
    st.drag = null;
    if (d?.rect) {
      if (d.moved) finishDraft();
      return d.moved;
    }
    if (d && (d.moved || d.corner != null || d.paint)) changed();
    return !!d?.moved;
  };
  svg.addEventListener('pointerup', (ev) => {
    const press = st.press;
    st.press = null;
    const dragged = endDrag();
    if (!press || press.id !== ev.pointerId || dragged || Math.hypot(ev.clientX - press.x, ev.clientY - press.y) >= DRAG) return;
    tap(svgPoint(svg, ev), press.target);
  });
  svg.addEventListener('pointercancel', () => { st.press = null; endDrag(); });

  // paintAt paints the square under q with the chosen symbol.
  function paintAt(q) {
    const c = gridCells();
    const x = Math.floor(q.x), y = Math.floor(q.y);
    if (!c[y] || c[y][x] === undefined || c[y][x] === st.paint) return;
    c[y][x] = st.paint;
    setCells(c);
    draw();
  }
}
