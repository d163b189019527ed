// A grid map's side of moving a unit (move.js) and of its position map (position.js),
// where the view says moves are paths of squares (board.moves.grid): the pointer's square,
// each leg written square by square, one step at a time (diagonals included), a path's
// length in steps, and the drawing of the ghost, its path and the map, in squares of S
// drawing units. grid.js mounts it.

import {s, svgPoint} from './dom.js';
import {boardReads, mover} from './move.js';
import {positionMap, offenceColour} from './position.js';
import {dangerImage} from './advisor.js';

// g is what grid.js shares: {ctx, svg, S, vp, layers, unit(id)}.
export function gridMover(g) {
  const {ctx, svg, S} = g;
  const B = () => ctx.view.board;
  const clamp = (v, hi) => Math.min(hi - 1, Math.max(0, v));
  const a = {
    ctx,
    svg,
    unitWord: ' square',
    ...boardReads(B),
    unit: (id) => g.unit(id),
    // pointer is the point under the pointer in squares, fractions kept: a drag keeps the
    // offset it took hold at, and the facing handle turns smoothly.
    pointer(ev) {
      const q = svgPoint(svg, ev);
      return [q.x / S, q.y / S];
    },
    // legs writes a leg square by square: diagonal steps while both ways remain, then
    // straight ones.
    legs(from, to) {
      const out = [];
      let [x, y] = from;
      while (x !== to[0] || y !== to[1]) {
        x += Math.sign(to[0] - x);
        y += Math.sign(to[1] - y);
        out.push([x, y]);
      }
      return out;
    },
    length: (from, path) => path.length,
    // lift is px CSS pixels up the screen, in squares (rows grow down the map).
    lift: (px) => [0, -(px * g.vp.upp()) / S],
    snap: (p) => [clamp(Math.round(p[0]), B().width), clamp(Math.round(p[1]), B().height)],
    step: () => 1,
    arrow: (key) => ({ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]})[key],
    // bearing is the facing from a unit's square towards a point: clockwise from north,
    // which is up the map.
    bearing(from, to) {
      const u = g.unit(mv.ghost()?.unit);
      const half = (u?.size || 1) / 2;
      return (Math.atan2(to[0] - from[0] - half, -(to[1] - from[1] - half)) * 180) / Math.PI;
    },
    fmt: (n) => `${n} square${n === 1 ? '' : 's'}`,
    // A grid map's shots aim at squares with weapons the page chooses elsewhere: the
    // ghost asks only the rules and the danger.
    enemies: () => [],
    then: () => null,
    draw: (gh) => {
      if (g.layers.ghost) drawGhost(gh);
    },
    after: () => pos?.update(),
    focus: () => svg.focus({preventScroll: true}),
  };
  const mv = mover(a);
  const pos = positionMap({
    ctx,
    mv,
    unit: (id) => g.unit(id),
    unitWord: ' square',
    draw: (map, layer, values, max) => {
      shown = map ? {map, layer, values, max} : null;
      drawPosition();
    },
  });
  mv.extra.append(pos.part);
  let shown = null;

  function drawGhost(gh) {
    const u = gh && g.unit(gh.unit);
    if (!u) {
      // No ghost: the reach of the unit selected for moving, if it may move.
      const sel = !gh && g.unit(mv.mover());
      const left = sel ? mv.leftFor(sel) : undefined;
      g.layers.ghost.replaceChildren(...(left > 0 ? [reachSquare(sel, [sel.x, sel.y], left)] : []));
      return;
    }
    const upp = g.vp.upp();
    const path = mv.path(gh);
    const [ex, ey] = path.at(-1) || gh.start;
    const ans = gh.answer;
    const state = !mv.has(gh) || !ans || ans.failed ? 'pending' : ans.legal ? 'legal' : 'illegal';
    // Each step, within what the unit may still move or beyond it; and its reach.
    const left = gh.kind === 'move' ? mv.left(gh) : undefined;
    const items = left !== undefined ? [reachSquare(u, gh.start, left)] : [];
    items.push(...path.map(([x, y], i) => s('rect', {x: x * S + S * 0.3, y: y * S + S * 0.3, width: S * 0.4, height: S * 0.4,
      class: 'ghost-step ' + state + (left !== undefined && i >= left ? ' beyond' : '')})));
    const size = u.size * S, cx = ex * S + size / 2, cy = ey * S + size / 2;
    const facing = gh.facing ?? gh.base;
    const hit = s('circle', {cx, cy, r: size / 2, class: 'hit'});
    hit.style.setProperty('r', `max(${size / 2}px, calc(22px * var(--upp, 1)))`);
    const grab = s('g', {class: 'ghost-base ' + state, 'data-ghost': 'end', id: 'ghost-base', 'data-x': ex, 'data-y': ey},
      s('title', {}, `${u.id} would stand here: drag to move it`), hit,
      s('rect', {x: ex * S + 2, y: ey * S + 2, width: size - 4, height: size - 4, rx: 4, class: 'ghost-shape'}));
    items.push(grab);
    if (facing !== null && facing !== undefined) {
      const rad = ((facing - 90) * Math.PI) / 180;
      const hr = size / 2 + 22 * upp, hx = cx + Math.cos(rad) * hr, hy = cy + Math.sin(rad) * hr;
      grab.append(s('line', {x1: cx, y1: cy, x2: cx + Math.cos(rad) * (size / 2 + 4), y2: cy + Math.sin(rad) * (size / 2 + 4), class: 'facing-tick'}));
      if (a.form()?.facing) {
        const knob = s('circle', {cx: hx, cy: hy, r: 7, class: 'knob'});
        knob.style.setProperty('r', 'calc(7px * var(--upp, 1))');
        const h = s('circle', {cx: hx, cy: hy, r: 0, class: 'hit'});
        h.style.setProperty('r', 'calc(22px * var(--upp, 1))');
        items.push(s('g', {class: 'ghost-handle', 'data-ghost': 'facing', id: 'ghost-handle'}, s('title', {}, `facing ${facing}°: drag to turn`),
          s('line', {x1: cx, y1: cy, x2: hx, y2: hy}), h, knob));
      }
    }
    items.push(s('text', {x: cx, y: cy + size / 2 + 16 * upp, class: 'ghost-label ' + state, id: 'ghost-label'}, mv.words(gh)));
    g.layers.ghost.replaceChildren(...items);
  }

  // reachSquare is the move a unit has left, on the squares: a square of that many steps
  // each way (a step may be diagonal) round its footprint, terrain aside.
  function reachSquare(u, [x, y], left) {
    const n = Math.max(0, Math.floor(left));
    return s('rect', {x: (x - n) * S, y: (y - n) * S, width: (u.size + 2 * n) * S, height: (u.size + 2 * n) * S, class: 'reach-sq', id: 'reach-ring', 'data-left': left},
      s('title', {}, `${u.id} may move ${n} square${n === 1 ? '' : 's'} more`));
  }

  // drawPosition draws the unit's position map: a pixel a square, under the units.
  function drawPosition() {
    if (!g.layers.position) return;
    if (!shown) {
      g.layers.position.replaceChildren();
      return;
    }
    const {map, layer, values, max} = shown;
    g.layers.position.replaceChildren(s('image', {href: dangerImage({cols: map.cols, rows: map.rows, values, max, grid: true}, layer === 'offence' ? offenceColour : undefined),
      x: map.x0 * S, y: map.y0 * S, width: map.cols * map.step * S, height: map.rows * map.step * S, preserveAspectRatio: 'none',
      class: 'position-map', 'data-position': layer}, s('title', {}, `where ${map.unit} could stand: ${layer}; click a square to move there`)),
    ...map.pareto.map((q) => s('rect', {x: q.x * S + S * 0.25, y: q.y * S + S * 0.25, width: S * 0.5, height: S * 0.5, class: 'position-pareto'})));
  }

  return {
    mv,
    pos,
    // redraw draws the ghost and the map again after the board was drawn.
    redraw() {
      drawPosition();
      mv.render();
    },
    // click takes a click on square q, off the units: a point of the map starts the move
    // there, and with a ghost out it adds a leg. It answers whether it took the click.
    click(q) {
      if (pos.shown() && pos.pick([q.x, q.y])) return true;
      if (mv.ghost()) return mv.clickAt([q.x, q.y]);
      return false;
    },
  };
}
