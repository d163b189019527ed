// Zoom and pan of a board: the wheel zooms at the pointer, a drag pans (a mouse's or one
// finger's), two fingers pinch, and the keyboard zooms (+, −), fits the units (0) and
// pans (the arrows, where the board does not use them itself). Buttons do the same and
// show the whole table. Only the SVG's viewBox changes: the drawing keeps its own
// coordinates, so whatever maps a pointer through getScreenCTM still works.
//
// A drag that starts on something the board claims (claim(ev) answers a handler with
// move(ev) and end(ev, moved)) is the board's, not a pan: that is where dragging a unit
// to move it belongs, once the rules have movement.

import {h} from './dom.js';

// A pointer that moves less than this many CSS pixels between down and up has tapped or
// clicked; more, and it drags.
const SLOP = {mouse: 4, pen: 6, touch: 10};
const MAX_ZOOM = 40;

// view(svg, opts) manages svg's viewBox. opts.world() is the whole drawing [x, y, w, h];
// opts.units() the box of the units [x, y, w, h], or null; opts.onChange() is called
// (once a frame at most) after the view changed, with the drawing's units per CSS pixel.
export function viewport(svg, {world, units, onChange = () => {}, arrows = true, claim = () => null}) {
  let vb = null; // {x, y, w, h}: what the SVG shows
  let worldKey = '';
  // fitted is the box the view was last fitted to, until the player zooms or pans: a new
  // size of the board fits it again.
  let fitted = null;
  const size = () => [Math.max(svg.clientWidth, 1), Math.max(svg.clientHeight, 1)];
  // upp is the drawing's units per CSS pixel.
  const upp = () => (vb ? vb.w / size()[0] : 1);

  // The SVG is as tall as the table is deep at its width, within the screen: on a phone
  // at least half the screen, so that a wide table still leaves room to tap.
  function fitElement() {
    const [, , ww, wh] = world();
    const width = svg.parentElement?.clientWidth || svg.clientWidth || 800;
    const phone = window.innerWidth < 900;
    const most = window.innerHeight * (phone ? 0.62 : 0.78);
    const least = phone ? Math.min(most, 260) : 120;
    svg.style.height = Math.round(Math.min(most, Math.max(least, (width * wh) / ww))) + 'px';
  }

  // show puts the box [x, y, w, h] in view, whole, centred, at the element's aspect.
  function show(box, margin = 1.04) {
    const [cw, ch] = size();
    const [x, y, w, h] = box;
    const vw = Math.max(w, (h * cw) / ch) * margin;
    set(x + w / 2, y + h / 2, vw);
    fitted = [box, margin];
  }

  // set centres the view on (cx, cy), vw units wide, within the zoom's bounds and never
  // further from the drawing than half a view.
  function set(cx, cy, vw) {
    const [cw, ch] = size();
    const [wx, wy, ww, wh] = world();
    const widest = Math.max(ww, (wh * cw) / ch) * 1.5;
    vw = Math.min(widest, Math.max(Math.max(ww, wh) / MAX_ZOOM, vw));
    const vh = (vw * ch) / cw;
    cx = Math.min(wx + ww, Math.max(wx, cx));
    cy = Math.min(wy + wh, Math.max(wy, cy));
    vb = {x: cx - vw / 2, y: cy - vh / 2, w: vw, h: vh};
    apply();
  }

  let frame = 0;
  function apply() {
    svg.setAttribute('viewBox', `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
    svg.style.setProperty('--upp', String(upp()));
    if (!frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        onChange(upp());
      });
    }
  }

  // point is the drawing's point under a viewport point.
  function point(clientX, clientY) {
    const r = svg.getBoundingClientRect();
    return [vb.x + ((clientX - r.left) / r.width) * vb.w, vb.y + ((clientY - r.top) / r.height) * vb.h];
  }

  // zoomAt zooms by factor (above 1: closer) keeping the drawing's point under the
  // viewport point (clientX, clientY) where it is.
  function zoomAt(clientX, clientY, factor) {
    fitted = null;
    const [px, py] = point(clientX, clientY);
    const r = svg.getBoundingClientRect();
    const vw = vb.w / factor;
    const fx = (clientX - r.left) / r.width, fy = (clientY - r.top) / r.height;
    const vh = (vw * vb.h) / vb.w;
    set(px - fx * vw + vw / 2, py - fy * vh + vh / 2, vw);
  }
  function zoomCentre(factor) {
    const r = svg.getBoundingClientRect();
    zoomAt(r.left + r.width / 2, r.top + r.height / 2, factor);
  }
  function pan(dxPx, dyPx) {
    fitted = null;
    const u = upp();
    set(vb.x + vb.w / 2 + dxPx * u, vb.y + vb.h / 2 + dyPx * u, vb.w);
  }
  const fitUnits = () => show(units() || world(), 1.15);
  const whole = () => show(world());

  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const unit = ev.deltaMode === 1 ? 0.05 : ev.deltaMode === 2 ? 0.5 : 0.0015;
    zoomAt(ev.clientX, ev.clientY, Math.exp(-ev.deltaY * unit));
  }, {passive: false});

  // ---- drags and pinches ----
  const pointers = new Map(); // pointerId → {x, y}
  let gesture = null; // {kind: 'maybe' | 'pan' | 'pinch' | 'claimed', …}
  let swallowClick = false;

  svg.addEventListener('pointerdown', (ev) => {
    if (ev.pointerType === 'mouse' && ev.button !== 0) return;
    pointers.set(ev.pointerId, {x: ev.clientX, y: ev.clientY});
    if (pointers.size === 1) {
      const handler = claim(ev);
      gesture = handler ? {kind: 'claimed', handler, x0: ev.clientX, y0: ev.clientY, moved: false, type: ev.pointerType}
        : {kind: 'maybe', x0: ev.clientX, y0: ev.clientY, vb: {...vb}, type: ev.pointerType, id: ev.pointerId};
    } else if (pointers.size === 2) {
      startPinch();
    }
  });
  function startPinch() {
    const [a, b] = [...pointers.values()];
    const mid = [(a.x + b.x) / 2, (a.y + b.y) / 2];
    gesture = {kind: 'pinch', d0: Math.max(Math.hypot(a.x - b.x, a.y - b.y), 1), p0: point(...mid), vb: {...vb}};
    for (const id of pointers.keys()) capture(id);
  }
  function capture(id) {
    try { svg.setPointerCapture(id); } catch { /* the pointer is gone already */ }
  }
  svg.addEventListener('pointermove', (ev) => {
    const p = pointers.get(ev.pointerId);
    if (!p || !gesture) return;
    p.x = ev.clientX;
    p.y = ev.clientY;
    const g = gesture;
    const far = Math.hypot(ev.clientX - g.x0, ev.clientY - g.y0) > (SLOP[g.type] || 6);
    if (g.kind === 'claimed') {
      if (far) g.moved = true;
      if (g.moved) g.handler.move(ev);
    } else if (g.kind === 'maybe' && far) {
      g.kind = 'pan';
      capture(ev.pointerId);
    }
    if (g.kind === 'pan' || g.kind === 'pinch') fitted = null;
    if (g.kind === 'pan') {
      const u = g.vb.w / size()[0];
      set(g.vb.x + g.vb.w / 2 - (ev.clientX - g.x0) * u, g.vb.y + g.vb.h / 2 - (ev.clientY - g.y0) * u, g.vb.w);
    } else if (g.kind === 'pinch' && pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.max(Math.hypot(a.x - b.x, a.y - b.y), 1);
      const vw = (g.vb.w * g.d0) / d;
      // The drawing's point first under the fingers' midpoint stays under it.
      const r = svg.getBoundingClientRect();
      const fx = ((a.x + b.x) / 2 - r.left) / r.width, fy = ((a.y + b.y) / 2 - r.top) / r.height;
      const vh = (vw * g.vb.h) / g.vb.w;
      set(g.p0[0] - fx * vw + vw / 2, g.p0[1] - fy * vh + vh / 2, vw);
    }
  });
  function end(ev) {
    if (!pointers.delete(ev.pointerId) || !gesture) return;
    const g = gesture;
    if (g.kind === 'claimed') g.handler.end(ev, g.moved);
    if (g.kind === 'pan' || g.kind === 'pinch' || (g.kind === 'claimed' && g.moved)) swallowClick = true;
    if (g.kind === 'pinch' && pointers.size === 1) {
      // One finger stays: it pans from here.
      const [[id, p]] = [...pointers.entries()];
      gesture = {kind: 'pan', x0: p.x, y0: p.y, vb: {...vb}, type: 'touch', id};
      return;
    }
    if (pointers.size === 0) gesture = null;
  }
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);
  // A drag or a pinch ends with no click on what it started or ended over.
  svg.addEventListener('click', (ev) => {
    if (!swallowClick) return;
    swallowClick = false;
    ev.stopPropagation();
    ev.preventDefault();
  }, true);
  svg.addEventListener('pointerdown', () => { swallowClick = false; }, true);

  svg.addEventListener('keydown', (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const step = 60;
    const keys = {'+': () => zoomCentre(1.4), '=': () => zoomCentre(1.4), '-': () => zoomCentre(1 / 1.4), _: () => zoomCentre(1 / 1.4), 0: fitUnits};
    if (arrows) Object.assign(keys, {ArrowLeft: () => pan(-step, 0), ArrowRight: () => pan(step, 0), ArrowUp: () => pan(0, -step), ArrowDown: () => pan(0, step)});
    if (keys[ev.key]) {
      keys[ev.key]();
      ev.preventDefault();
    }
  });

  const button = (label, text, act, id) => h('button', {type: 'button', class: 'tool', id, 'aria-label': label, title: label, onclick: act}, text);
  const bar = h('div', {class: 'board-tools', role: 'toolbar', 'aria-label': 'Zoom and pan'},
    button('Zoom out (−)', '−', () => zoomCentre(1 / 1.4), 'zoom-out'),
    button('Zoom in (+)', '+', () => zoomCentre(1.4), 'zoom-in'),
    button('Fit the view to the units (0)', 'Fit to units', fitUnits, 'fit-units'),
    button('Show the whole table', 'Whole table', whole, 'fit-all'));

  // A new size fits again what was fitted, or keeps the middle and the zoom the player
  // chose.
  new ResizeObserver(() => {
    if (!vb) return;
    fitElement();
    if (fitted) show(...fitted);
    else set(vb.x + vb.w / 2, vb.y + vb.h / 2, vb.w);
  }).observe(svg.parentElement || svg);

  return {
    bar,
    upp,
    fitUnits,
    whole,
    // update is called after every redraw: the first shows the whole drawing, and so does
    // a drawing of another size; otherwise the view stays where the player left it.
    update() {
      const key = world().join(',');
      if (key === worldKey && vb) {
        apply();
        return;
      }
      worldKey = key;
      fitElement();
      whole();
    },
    // keepInView pans, if it must, so that the box [x, y, w, h] is in view (a keyboard
    // cursor).
    keepInView([x, y, w, h]) {
      if (!vb) return;
      let cx = vb.x + vb.w / 2, cy = vb.y + vb.h / 2;
      if (x < vb.x) cx -= vb.x - x; else if (x + w > vb.x + vb.w) cx += x + w - vb.x - vb.w;
      if (y < vb.y) cy -= vb.y - y; else if (y + h > vb.y + vb.h) cy += y + h - vb.y - vb.h;
      if (cx !== vb.x + vb.w / 2 || cy !== vb.y + vb.h / 2) {
        fitted = null;
        set(cx, cy, vb.w);
      }
    },
  };
}
