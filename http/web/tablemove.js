// The tabletop's side of moving a unit (move.js) and of its position map (position.js):
// where the pointer is on the table, how a leg is written (one point: legs are
// straight), how long a path is, what the moving unit would aim at from the ghost (the
// view's declaration for its squad or unit), and the drawing (tabledraw.js). table.js
// holds the model m.

import {svgPoint} from './dom.js';
import {boardReads, mover} from './move.js';
import {positionMap} from './position.js';
import {drawGhost, drawPosition} from './tabledraw.js';
import {grown, shortestWay} from './ways.js';

const round = (x) => Math.round(x * 100) / 100;

// AUTO is the target the rules choose, where the declaration may leave it out.
export const AUTO = '*';

export function tableMover(m) {
  const {T, D, ctx, svg, st} = m;
  const unitWord = () => (T().unit === 'cm' ? ' cm' : '″');
  // enemies are what the moving unit may aim at: the other sides' units (or squads,
  // where targets are squads of models), nearest first.
  const enemies = (u) => {
    if (!u) return [];
    const seen = new Map();
    for (const e of T().units) {
      if (e.side === u.side || !e.placed || e.destroyed) continue;
      const id = m.targetOf(e);
      const d = Math.hypot(e.x - u.x, e.y - u.y);
      if (!seen.has(id) || d < seen.get(id).d) seen.set(id, {id, name: m.targetName(id), d});
    }
    const out = [...seen.values()].sort((x, y) => x.d - y.d);
    // Where the rules choose the target (a battery's main target), the ghost aims as
    // they would, first: a target they refuse is not asked about by construction.
    if (D().rows === 'single' && out.length) out.unshift({id: AUTO, name: 'whom the rules choose', d: -1});
    return out;
  };
  // way is the shortest way for a map's unit to a point round what stops it: the other
  // bases, and the terrain pieces it may not stand in (those holding none of the map's
  // points), near enough to matter.
  const way = (map, to) => {
    const u = m.unit(map.unit);
    if (!u) return null;
    const r = m.radius(u);
    const [fx, fy] = map.from;
    const far = map.left + 2 * r + 1;
    const near = (pts) => Math.min(...pts.map(([x]) => x)) < fx + far && Math.max(...pts.map(([x]) => x)) > fx - far &&
      Math.min(...pts.map(([, y]) => y)) < fy + far && Math.max(...pts.map(([, y]) => y)) > fy - far;
    const obstacles = [];
    for (const t of T().terrain) {
      if (!near(t.polygon) || map.points.some((p) => within([p.x, p.y], t.polygon))) continue;
      obstacles.push(grown(t.polygon, r));
    }
    for (const o of T().units) {
      if (o.id === u.id || !o.placed || o.destroyed || !near([[o.x, o.y]])) continue;
      obstacles.push(grown([[o.x, o.y]], m.radius(o) + r));
    }
    return shortestWay(map.from, to, obstacles);
  };
  const a = {
    ctx,
    svg,
    unitWord: unitWord(),
    ...boardReads(T),
    unit: (id) => m.unit(id),
    pointer(ev) {
      const q = svgPoint(svg, ev);
      const B = m.B();
      return [B[0] + q.x / m.K, B[3] - q.y / m.K];
    },
    legs: (from, to) => [to],
    // lift is px CSS pixels up the screen, in the table's units (north is up).
    lift: (px) => [0, (px * m.vp.upp()) / m.K],
    length(from, path) {
      let n = 0, p = from;
      for (const q of path) {
        n += Math.hypot(q[0] - p[0], q[1] - p[1]);
        p = q;
      }
      return n;
    },
    snap: (p) => [round(p[0]), round(p[1])],
    step: () => (T().unit === 'cm' ? 1 : 0.5),
    arrow: (key) => ({ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]})[key],
    // bearing is the facing from one point towards another: clockwise from north.
    bearing: (from, to) => (Math.atan2(to[0] - from[0], to[1] - from[1]) * 180) / Math.PI,
    fmt: (len) => `${round(len)}${unitWord()}`,
    enemies,
    // then is the shot the preview aims from the ghost: what the view's declaration
    // would send for the unit's squad (or unit), every weapon of the unit at target.
    then(u, target) {
      const c = D().choices.find((x) => x.side === u.side && x.units.includes(u.id));
      if (!c) return null;
      const verb = m.verbs().find((v) => !v.no_target) || m.verbs()[0];
      const act = {...c.action, ...verb.action};
      if (D().rows === 'weapons') {
        if (!u.weapons?.length) return null;
        act[D().rows_key] = u.weapons.map((w) => ({unit: u.id, weapon: w.name, [D().target_key]: target}));
      } else if (D().rows === 'targets') {
        act[D().rows_key] = [{[D().target_key]: target}];
      } else if (target !== AUTO) {
        act[D().target_key] = target;
      }
      return act;
    },
    pointed: () => {
      const u = st.hoverUnit && m.unit(st.hoverUnit);
      return u ? m.targetOf(u) : null;
    },
    draw: (g) => {
      if (m.layers.ghost) drawGhost(m, g, mv);
    },
    after: () => pos?.update(),
    focus: () => svg.focus({preventScroll: true}),
  };
  const mv = mover(a);
  const pos = positionMap({
    ctx,
    mv,
    way,
    // unitOf is the unit of the state a drawn unit is part of: what its map is of.
    unitOf: (id) => {
      const u = m.unit(id);
      return u ? m.stateID(u) : id;
    },
    unit: (id) => m.unit(id),
    // squadOf is the squad of unit id where it has other units on the table.
    squadOf: (id) => {
      const u = m.unit(id);
      if (!u?.squad || u.squad === id) return null;
      return T().units.filter((o) => o.squad === u.squad && o.placed && !o.destroyed).length > 1 ? u.squad : null;
    },
    unitWord: unitWord(),
    draw: (map, layer, values, max) => {
      m.st.position = map ? {map, layer, values, max} : null;
      if (m.layers.position) drawPosition(m);
    },
  });
  mv.extra.append(pos.part);
  // A click on the table, off the units and the ghost: a point of the position map shown
  // starts the move there; else, while a ghost is out, it adds a leg to that point.
  svg.addEventListener('click', (ev) => {
    if (ev.target.closest?.('[data-unit], [data-ghost]')) return;
    const p = a.pointer(ev);
    if (pos.shown() && pos.pick(p)) return;
    if (mv.ghost()) mv.clickAt(a.snap(p));
  });
  return {mv, pos};
}

// within says whether point p lies inside polygon poly (any simple polygon: the ray test).
function within([x, y], poly) {
  let in_ = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) in_ = !in_;
  }
  return in_;
}
