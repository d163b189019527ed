// Drawing the tabletop (table.js holds the model m): the cloth and its ruler, the terrain
// with its names, the danger map, the chosen firer's arcs, rings and the shapes its rules
// measure with, the declared targets, the lines of sight, the last shot and what it did,
// the turn's paths, and the units (the destroyed where they fell, crossed out) with
// labels that never overlap (labels.js): each unit's name, and what its state says
// (marks.js: damage, suppression, morale, limbered…).

import {s, pct, sideColour, status} from './dom.js';
import {lastShot, marksOf} from './marks.js';
import {split, turnPaths} from './paths.js';
import {dangerImage} from './advisor.js';
import {placeLabels} from './labels.js';
import {offenceColour} from './position.js';
import {forBattle} from './backdrop.js';

// TAP is the least radius, in CSS pixels, that a unit answers a tap or a click within:
// a 44-pixel target however small its base is drawn.
const TAP = 22;

export function drawTable(m) {
  const {T, X, Y, K, layers, svg} = m;
  const [x0, y0, x1, y1] = m.B();
  const unitName = T().unit === 'cm' ? 'cm' : '"';
  const lines = [];
  const major = T().unit === 'cm' ? 10 : 6;
  for (let x = Math.ceil(x0); x <= x1; x++) lines.push(s('line', {x1: X(x), y1: 0, x2: X(x), y2: (y1 - y0) * K, class: x % major ? 'gl' : 'gl5'}));
  for (let y = Math.ceil(y0); y <= y1; y++) lines.push(s('line', {x1: 0, y1: Y(y), x2: (x1 - x0) * K, y2: Y(y), class: y % major ? 'gl' : 'gl5'}));
  const ruler = [];
  // The x labels run along the bottom and the y labels up the left: a y label too near the
  // bottom would sit on the first x label, and an x label too near the right edge would be
  // cut off, so neither is written.
  for (let x = Math.ceil(x0 / major) * major; x <= x1 - major / 2; x += major) ruler.push(s('text', {x: X(x) + 2, y: (y1 - y0) * K - 4, class: 'ruler'}, `${x}${unitName}`));
  for (let y = Math.ceil(y0 / major) * major; y <= y1; y += major) {
    if (y - y0 >= major / 2) ruler.push(s('text', {x: 2, y: Y(y) - 2, class: 'ruler'}, `${y}${unitName}`));
  }
  // The table's edge, where the scenario gives one: no base may cross it.
  const e = T().edge;
  const edge = e ? s('rect', {x: X(e[0]), y: Y(e[3]), width: (e[2] - e[0]) * K, height: (e[3] - e[1]) * K, class: 'table-edge'}) : null;
  // The photo of the player's own table, if they gave one in the editor (backdrop.js).
  const photo = forBattle(m.ctx.id, ([x, y]) => [X(x), Y(y)]);
  layers.ground = s('g', {}, s('rect', {x: 0, y: 0, width: (x1 - x0) * K, height: (y1 - y0) * K, class: 'cloth'}), photo, lines, ruler, edge);
  // The sides' deployment zones, while units may still be deployed.
  const sides = m.ctx.view.sides;
  layers.zones = s('g', {class: 'zones'}, T().deploying ? Object.entries(T().zones || {}).map(([side, pts]) => {
    const xs = pts.map((p) => X(p[0])), ys = pts.map((p) => Y(p[1]));
    const zone = s('polygon', {points: pts.map(([x, y]) => `${X(x)},${Y(y)}`).join(' '), class: 'zone', 'data-zone': side});
    zone.style.setProperty('fill', sideColour(sides, side));
    zone.style.setProperty('stroke', sideColour(sides, side));
    return s('g', {}, s('title', {}, `${side}'s deployment zone`), zone,
      // In the zone's corner, where units are seldom deployed, rather than over them.
      s('text', {x: Math.min(...xs) + 30, y: Math.min(...ys) + 16, class: 'zone-label'}, `${side}'s deployment zone`));
  }) : []);
  const terrainLabels = [];
  layers.terrain = s('g', {class: 'terrain'}, T().terrain.map((t) => {
    const xs = t.polygon.map((p) => X(p[0])), ys = t.polygon.map((p) => Y(p[1]));
    const label = s('text', {class: 'label terrain-label'}, `${t.id} ${t.height}${unitName}`);
    terrainLabels.push({el: label, x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2,
      rx: 0, ry: 0, owner: 'terrain:' + t.id, px: 11, inside: true});
    return s('g', {class: 'piece-g'},
      s('title', {}, `${t.id}: height ${t.height}${t.blocks_los ? ', blocks line of sight' : ''}`),
      s('polygon', {points: t.polygon.map(([x, y]) => `${X(x)},${Y(y)}`).join(' '), class: t.blocks_los ? 'piece solid' : 'piece'}),
      label);
  }));
  layers.paths = s('g', {class: 'paths', id: 'turn-paths'});
  layers.shot = s('g', {class: 'last-shot', id: 'last-shot'});
  layers.reach = s('g', {class: 'reach'});
  layers.decl = s('g', {class: 'decl'});
  layers.sight = s('g', {class: 'sight', id: 'sight'});
  layers.hits = s('g', {class: 'hits'});
  layers.units = s('g', {class: 'units'});
  layers.labels = s('g', {class: 'labels'});
  layers.danger = s('g', {class: 'danger', id: 'danger-layer'});
  layers.position = s('g', {class: 'position', id: 'position-overlay'});
  layers.ghost = s('g', {class: 'ghost', id: 'ghost'});
  svg.replaceChildren(layers.ground, layers.zones, layers.danger, layers.terrain, layers.position, layers.paths, layers.reach, layers.decl, layers.sight,
    layers.shot, layers.hits, layers.units, layers.ghost, layers.labels);
  drawDanger(m);
  drawPosition(m);
  const unitLabels = drawUnits(m);
  const shotLabels = drawShot(m);
  drawPaths(m);
  drawReach(m);
  drawDeclared(m);
  drawSight(m);
  // Units' boxes are what labels keep off; a unit's own label may touch its own base.
  const pieces = T().units.filter(m.drawn).map((u) => {
    const r = m.radius(u) * K;
    return {box: [X(u.x) - r, Y(u.y) - r, X(u.x) + r, Y(u.y) + r], owner: 'unit:' + m.labelOwner(u)};
  });
  // Names first, then what the last shot did, then the units' marks, then the terrain's.
  const names = unitLabels.filter((l) => !l.mark), marks = unitLabels.filter((l) => l.mark);
  m.placeLabels = (upp) => {
    const vb = svg.viewBox?.baseVal;
    const view = vb && vb.width ? [vb.x, vb.y, vb.x + vb.width, vb.y + vb.height] : null;
    m.taken = placeLabels([...names, ...shotLabels, ...marks, ...terrainLabels], pieces, upp, [], view);
    m.pieces = pieces;
  };
}

// drawUnits draws every placed unit, and answers their labels: one a unit, or one a
// squad where targets are squads of models (the models' ids are in their tooltips).
function drawUnits(m) {
  const {T, D, X, Y, K, ctx, layers, st} = m;
  const sides = ctx.view.sides;
  const firing = new Set(m.firers().map((u) => u.id));
  const bySquad = !!D().target_squad;
  m.labelOwner = (u) => (bySquad && u.squad ? u.squad : u.id);
  const listen = (el, u) => {
    el.addEventListener('mouseenter', () => m.hoverUnit(u));
    el.addEventListener('mouseleave', () => m.hoverUnit(null));
    el.addEventListener('click', () => m.clickUnit(u));
  };
  // The tap targets lie under every unit, so that a unit's own base wins over a
  // neighbour's wider target.
  layers.hits.replaceChildren(...T().units.filter((u) => u.placed && !u.destroyed).map((u) => {
    const c = hitCircle(X(u.x), Y(u.y), m.radius(u) * K);
    c.dataset.unit = u.id;
    listen(c, u);
    return c;
  }));
  layers.units.replaceChildren(...T().units.filter(m.drawn).map((u) => {
    const cx = X(u.x), cy = Y(u.y), r = m.radius(u) * K;
    const col = sideColour(sides, u.side);
    const g = s('g', {class: 'unit' + (firing.has(u.id) ? ' selected' : '') + (u.destroyed ? ' destroyed' : ''), 'data-unit': u.id, 'data-x': u.x, 'data-y': u.y,
      'data-state': m.stateID(u), tabindex: 0, role: 'button', 'aria-label': `${u.name} ${u.id}, ${u.side}${u.destroyed ? ', destroyed' : ''}`},
    s('title', {}, `${u.name} ${u.id} (${u.side})${u.destroyed ? ', destroyed' : ''}`),
    // Rectangular bases where the system has them, else one round base.
    u.bases?.length ? u.bases.map((b) => s('polygon', {points: b.map(([x, y]) => `${X(x)},${Y(y)}`).join(' '), fill: col, 'fill-opacity': 0.85, class: 'base rect'}))
      : s('circle', {cx, cy, r, fill: col, 'fill-opacity': 0.85, class: 'base'}));
    if (u.facing !== undefined && u.facing !== null) {
      const rad = ((u.facing - 90) * Math.PI) / 180;
      g.append(s('line', {x1: cx, y1: cy, x2: cx + Math.cos(rad) * (r + 6), y2: cy + Math.sin(rad) * (r + 6), class: 'facing-tick'}));
    }
    if (u.destroyed) g.append(s('line', {x1: cx - r, y1: cy - r, x2: cx + r, y2: cy + r, class: 'x'}), s('line', {x1: cx - r, y1: cy + r, x2: cx + r, y2: cy - r, class: 'x'}));
    listen(g, u);
    g.addEventListener('focus', () => m.hoverUnit(u));
    g.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); m.clickUnit(u); } });
    return g;
  }));
  // One label a unit, or a squad, at the middle of what it names.
  const groups = new Map();
  for (const u of T().units.filter(m.drawn)) {
    const key = m.labelOwner(u);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(u);
  }
  const labels = [];
  for (const [key, us] of groups) {
    const xs = us.flatMap((u) => [X(u.x) - m.radius(u) * K, X(u.x) + m.radius(u) * K]);
    const ys = us.flatMap((u) => [Y(u.y) - m.radius(u) * K, Y(u.y) + m.radius(u) * K]);
    const [ax, bx, ay, by] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const destroyed = us.every((u) => u.destroyed);
    const el = s('text', {class: 'label unit-label' + (destroyed ? ' destroyed' : ''), 'data-label': key, 'data-state': m.stateID(us[0])}, key);
    layers.labels.append(el);
    // The chosen firer's and its targets' labels are placed first.
    const first = us.some((u) => st.choice?.units.includes(u.id)) ? 0 : destroyed ? 2 : 1;
    const box = {x: (ax + bx) / 2, y: (ay + by) / 2, rx: (bx - ax) / 2, ry: (by - ay) / 2, owner: 'unit:' + key};
    labels.push({el, ...box, px: 12, first});
    // What its state says, beside it: damage, suppression, morale, limbered…
    const su = m.stateOf(m.stateID(us[0]));
    const marks = su && !destroyed ? marksOf(ctx.view, su, ctx.start) : [];
    if (marks.length) {
      const mark = s('text', {class: 'label unit-mark', 'data-mark': su.id, 'data-state': su.id}, marks.join(' · '));
      layers.labels.append(mark);
      labels.push({el: mark, ...box, px: 10, first: first + 0.5, mark: true});
    }
  }
  return labels.sort((a, b) => a.first - b.first);
}

// hitCircle is a unit's tap target: at least TAP pixels round its centre whatever the
// zoom. (Its radius is set through the CSSOM: the page's policy refuses style attributes.)
function hitCircle(cx, cy, r) {
  const c = s('circle', {cx, cy, r, class: 'hit'});
  c.style.setProperty('r', `max(${r}px, calc(${TAP}px * var(--upp, 1)))`);
  return c;
}

// drawPaths draws the turn's paths (paths.js): each move made this turn, from where the
// unit stood, in its side's colour, its end marked.
function drawPaths(m) {
  const {X, Y, ctx, layers} = m;
  const sides = ctx.view.sides;
  layers.paths.replaceChildren(...turnPaths(ctx.entries(), ctx.view.state.turn).map((p) => {
    const colour = sideColour(sides, p.side);
    const line = s('polyline', {points: p.points.map(([x, y]) => `${X(x)},${Y(y)}`).join(' '), class: 'turn-path', 'data-unit': p.unit, 'data-seq': p.seq},
      s('title', {}, `#${p.seq}: ${p.unit}'s move this turn`));
    line.style.setProperty('stroke', colour);
    const [sx, sy] = p.points[0];
    const start = pxCircle(X(sx), Y(sy), 3, {class: 'turn-path-start'});
    start.style.setProperty('stroke', colour);
    return s('g', {class: 'turn-path-g'}, line, start);
  }));
}

// drawShot draws the last shot of the log (marks.js): a line from who acted to each
// target, and beside the target what it did. It answers the outcome's labels, placed
// with the units' (labels.js).
function drawShot(m) {
  const {T, X, Y, ctx, layers} = m;
  const sideOf = (id) => (m.members(id)[0] || null)?.side;
  const shot = lastShot(ctx.entries(), sideOf);
  const items = [], labels = [];
  if (shot) {
    const centre = (id) => {
      const us = m.members(id).filter(m.drawn);
      if (!us.length) return null;
      return [us.reduce((n, u) => n + u.x, 0) / us.length, us.reduce((n, u) => n + u.y, 0) / us.length, us];
    };
    for (const t of shot.targets) {
      const to = centre(t.id);
      if (!to) continue;
      const who = shot.pairs.length ? shot.pairs.filter(([, x]) => x === t.id).map(([f]) => f) : shot.actors;
      for (const f of [...new Set(who)].map(centre).filter(Boolean)) {
        items.push(s('line', {x1: X(f[0]), y1: Y(f[1]), x2: X(to[0]), y2: Y(to[1]), class: 'shot-line' + (t.destroyed ? ' destroyed' : ''),
          'data-target': t.id}, s('title', {}, `#${shot.seq} ${shot.side} → ${t.id}: ${t.text}`)));
      }
      const r = Math.max(...to[2].map((u) => m.radius(u))) * m.K;
      items.push(s('circle', {cx: X(to[0]), cy: Y(to[1]), r: r + 4, class: 'shot-ring' + (t.destroyed ? ' destroyed' : '')}));
      const el = s('text', {class: 'label shot-label' + (t.destroyed ? ' destroyed' : ''), 'data-shot': t.id}, `#${shot.seq}: ${t.text}`);
      layers.labels.append(el);
      labels.push({el, x: X(to[0]), y: Y(to[1]), rx: r, ry: r, owner: 'unit:' + m.labelOwner(to[2][0]), px: 11});
    }
  }
  layers.shot.replaceChildren(...items);
  return labels;
}

// highlightUnit marks the drawn units of a unit of the state (null: none), and its label.
export function highlightUnit(m, id) {
  for (const el of m.svg.querySelectorAll('.hl')) el.classList.remove('hl');
  if (!id) return;
  for (const el of m.svg.querySelectorAll(`[data-state="${CSS.escape(id)}"]`)) el.classList.add('hl');
}

// drawReach draws, for the active weapon (or every weapon of the firing unit), its arcs
// as wedges and its range bands as rings, and the shapes the rules measure with.
function drawReach(m) {
  const {T, D, X, Y, K, st} = m;
  const items = [];
  const active = D().rows === 'weapons' ? st.rows[st.active] : null;
  for (const u of m.firers()) {
    if (!u.placed) continue;
    const ws = active ? (active.unit === u.id ? u.weapons.filter((w) => w.name === active.weapon) : []) : u.weapons;
    const edge = T().measured === 'edge' ? m.radius(u) : 0;
    for (const w of ws) {
      const finite = w.ranges.filter((r) => !r.unlimited);
      const far = Math.max(...finite.map((r) => r.reach), 12) + edge;
      for (const [from, to] of w.arcs || []) {
        if (to - from >= 360 || u.facing === undefined) continue;
        items.push(s('path', {d: wedge(X(u.x), Y(u.y), far * K, u.facing + from, u.facing + to), class: 'arc'}));
      }
      for (const r of finite) {
        items.push(s('circle', {cx: X(u.x), cy: Y(u.y), r: (r.reach + edge) * K, class: 'ring'}, s('title', {}, `${w.name}: ${r.name} ${r.reach}`)),
          s('text', {x: X(u.x) + 3, y: Y(u.y) - (r.reach + edge) * K + 11, class: 'ring-label'}, `${r.name} ${r.reach}`));
      }
    }
  }
  const own = new Set(m.firers().map((u) => u.id));
  for (const o of T().overlays || []) {
    if (o.owner && !own.has(o.owner)) continue; // no owner: always drawn (obstacles)
    const pts = o.points.map(([x, y]) => `${X(x)},${Y(y)}`).join(' ');
    items.push(o.kind === 'line' || o.kind === 'obstacle'
      ? s('polyline', {points: pts, class: 'overlay line', 'data-overlay': o.kind}, s('title', {}, o.label))
      : s('polygon', {points: pts, class: 'overlay ' + o.kind, 'data-overlay': o.kind}, s('title', {}, o.label)));
  }
  m.layers.reach.replaceChildren(...items);
}

function wedge(cx, cy, r, from, to) {
  const p = (a) => [cx + Math.cos(((a - 90) * Math.PI) / 180) * r, cy + Math.sin(((a - 90) * Math.PI) / 180) * r];
  const [ax, ay] = p(from), [bx, by] = p(to);
  return `M${cx},${cy} L${ax},${ay} A${r},${r} 0 ${to - from > 180 ? 1 : 0} 1 ${bx},${by} Z`;
}

function drawDeclared(m) {
  const {D, X, Y, K, st} = m;
  const marks = [];
  // Each weapon to its target, or every acting unit (a group of batteries) to each target.
  const pairs = D().rows === 'weapons' ? st.rows.filter((r) => r.target).map((r) => [r.unit, r.target])
    : st.targets.flatMap((t) => m.firers().map((f) => [f.id, t.unit]));
  for (const [a, b] of pairs) {
    const u = m.unit(a);
    if (!u?.placed) continue;
    // A target squad is marked on each of its models, with one line to the nearest.
    const ts = m.members(b).filter((t) => t.placed && !t.destroyed);
    const t = ts.reduce((best, x) => (!best || Math.hypot(x.x - u.x, x.y - u.y) < Math.hypot(best.x - u.x, best.y - u.y) ? x : best), null);
    if (!t) continue;
    marks.push(s('line', {x1: X(u.x), y1: Y(u.y), x2: X(t.x), y2: Y(t.y), class: 'target-line'}),
      ...ts.map((x) => s('circle', {cx: X(x.x), cy: Y(x.y), r: (m.radius(x) + 0.3) * K, class: 'marker'})));
  }
  m.layers.decl.replaceChildren(...marks);
}

export function drawSight(m) {
  const {D, X, Y, st, layers} = m;
  const a = st.aim;
  const hovered = st.hoverUnit && m.unit(st.hoverUnit);
  if (D().sight_lines && a && hovered && st.aimTarget === m.targetOf(hovered)) {
    // Every pair's line: green where it can fire, red with its reason where not.
    const lines = [];
    for (const x of st.aims) {
      const u = m.unit(x.shooter), t = m.unit(x.target);
      if (!u?.placed || !t?.placed) continue;
      const ok = x.status === 'ok';
      lines.push(s('line', {x1: X(u.x), y1: Y(u.y), x2: X(t.x), y2: Y(t.y), class: 'los sight-line ' + (ok ? 'clear' : 'blocked'),
        id: lines.length ? null : 'los-line', 'data-shooter': x.shooter, 'data-target': x.target},
      s('title', {}, `${x.shooter} → ${x.target}: ${ok ? pct(x.p_hit) + ' — ' : ''}${x.reason}`)));
    }
    layers.sight.replaceChildren(...lines);
    return;
  }
  if (!a || !st.hoverUnit || a.target !== st.hoverUnit) { layers.sight.replaceChildren(); return; }
  const u = m.unit(a.shooter), t = m.unit(a.target);
  if (!u?.placed || !t?.placed) { layers.sight.replaceChildren(); return; }
  const ok = a.status === 'ok';
  const label = s('text', {x: (X(u.x) + X(t.x)) / 2 + 6, y: (Y(u.y) + Y(t.y)) / 2, class: 'los-label ' + (ok ? 'clear' : 'blocked')}, ok ? pct(a.p_hit) : status(a.status));
  layers.sight.replaceChildren(
    s('line', {x1: X(u.x), y1: Y(u.y), x2: X(t.x), y2: Y(t.y), class: 'los ' + (ok ? 'clear' : 'blocked'), id: 'los-line'}), label);
  placeFree(m, [{el: label, x: (X(u.x) + X(t.x)) / 2, y: (Y(u.y) + Y(t.y)) / 2, rx: 0, ry: 0, owner: 'los', px: 12}], m.vp.upp());
}

// drawDanger draws the danger map (advisor.js asks for it): one pixel per point,
// stretched over the area it covers, under the terrain and the units.
export function drawDanger(m) {
  const {X, Y, K, st, layers} = m;
  const d = st.danger;
  if (!d) { layers.danger.replaceChildren(); return; }
  const half = d.step / 2;
  layers.danger.replaceChildren(s('image', {href: dangerImage(d), x: X(d.x0 - half), y: Y(d.y0 - half + d.rows * d.step),
    width: d.cols * d.step * K, height: d.rows * d.step * K, preserveAspectRatio: 'none', class: 'danger-map',
    dataset: {x0: d.x0, y0: d.y0, step: d.step, cols: d.cols, rows: d.rows, max: d.max}},
  s('title', {}, `danger map: ${d.scores} of ${d.placed} of ${d.side}`)));
}

// pxCircle is a circle of px CSS pixels' radius whatever the zoom: a mark, not a shape.
function pxCircle(cx, cy, px, attrs) {
  const c = s('circle', {cx, cy, r: px, ...attrs});
  c.style.setProperty('r', `calc(${px}px * var(--upp, 1))`);
  return c;
}

// drawGhost draws the move being made (move.js): its path and waypoints, the base where
// it would stand, turned to its facing (green when the rules take the move, red when
// not, grey while they are asked; rectangles as the preview laid them out), the handle
// that turns it, the path's length, and the line of sight from there to the enemy it
// aims at.
export function drawGhost(m, g, mv) {
  const {X, Y, K, layers} = m;
  const u = g && m.unit(g.unit);
  if (!u) {
    // No ghost: the reach of the unit selected for moving, if it may move.
    // Where its move must first choose (an action), what each choice allows, as bands.
    const sel = !g && m.unit(mv.mover());
    const left = sel ? mv.leftFor(sel) : undefined;
    const bands = sel ? bandRings(m, sel, mv.bands(sel)) : [];
    layers.ghost.replaceChildren(...(left > 0 ? [reachRing(m, [sel.x, sel.y], left, sel)] : []), ...bands);
    return;
  }
  const upp = m.vp.upp();
  const pts = [g.start, ...mv.path(g)];
  const [ex, ey] = pts.at(-1);
  const cx = X(ex), cy = Y(ey), r = m.radius(u) * K;
  const ans = g.answer;
  const state = !mv.has(g) || !ans || ans.failed ? 'pending' : ans.legal ? 'legal' : 'illegal';
  const poly = (ps, cls, id) => s('polyline', {points: ps.map(([x, y]) => `${X(x)},${Y(y)}`).join(' '), class: cls, id});
  // The path within what the unit may still move, and beyond it; the move left, a ring.
  const left = g.kind === 'move' ? mv.left(g) : undefined;
  const items = [];
  if (left !== undefined) items.push(reachRing(m, g.start, left, u));
  if (left !== undefined && pts.length > 1) {
    const [inside, beyond] = split(pts, left, (p, q) => Math.hypot(q[0] - p[0], q[1] - p[1]));
    items.push(poly(pts, 'ghost-path ' + state, 'ghost-path'), poly(inside, 'ghost-within', 'ghost-within'));
    if (beyond.length > 1) items.push(poly(beyond, 'ghost-beyond', 'ghost-beyond'));
  } else {
    items.push(poly(pts, 'ghost-path ' + state, 'ghost-path'));
  }
  for (const [x, y] of g.anchors.slice(0, -1)) items.push(pxCircle(X(x), Y(y), 4, {class: 'ghost-waypoint'}));
  // The line of sight from the ghost to the enemy aimed at, and the best chance there.
  const aimed = g.target === '*' ? ans?.aims?.[0]?.target : g.target; // '*': whom the rules chose
  const ts = ans?.legal && ans.aims?.length && aimed ? m.members(aimed).filter((t) => t.placed && !t.destroyed) : [];
  const t = ts.reduce((best, x) => (!best || Math.hypot(x.x - ex, x.y - ey) < Math.hypot(best.x - ex, best.y - ey) ? x : best), null);
  if (t) {
    const ok = ans.aims.filter((x) => x.status === 'ok');
    const best = ok.reduce((b, x) => (!b || x.p_hit > b.p_hit ? x : b), null);
    const cls = best ? 'clear' : 'blocked';
    items.push(s('line', {x1: cx, y1: cy, x2: X(t.x), y2: Y(t.y), class: 'los ghost-los ' + cls, id: 'ghost-los'},
      s('title', {}, ans.aims.map((x) => `${x.weapon}: ${x.status === 'ok' ? pct(x.p_hit) : x.reason}`).join('\n'))),
    s('text', {x: (cx + X(t.x)) / 2 + 6 * upp, y: (cy + Y(t.y)) / 2, class: 'los-label ' + cls, id: 'ghost-los-label'}, best ? pct(best.p_hit) : status(ans.aims[0].status)));
  }
  // The base, moved and turned: rectangles turn about the unit's centre.
  const facing = g.facing ?? g.base;
  const turn = (((facing ?? 0) - (u.facing ?? 0)) * Math.PI) / 180;
  const moved = ([x, y]) => {
    const dx = x - u.x, dy = y - u.y;
    return [ex + dx * Math.cos(turn) + dy * Math.sin(turn), ey - dx * Math.sin(turn) + dy * Math.cos(turn)];
  };
  // Once the rules took the move, its bases are where the preview's battle put them (a
  // new formation, a wheel about a corner).
  const after = ans?.legal && ans.table?.units?.find((x) => x.id === u.id)?.bases;
  const base = after?.length
    ? after.map((b) => s('polygon', {points: b.map(([x, y]) => `${X(x)},${Y(y)}`).join(' '), class: 'ghost-shape'}))
    : u.bases?.length
      ? u.bases.map((b) => s('polygon', {points: b.map(moved).map(([x, y]) => `${X(x)},${Y(y)}`).join(' '), class: 'ghost-shape'}))
      : s('circle', {cx, cy, r, class: 'ghost-shape'});
  const grab = s('g', {class: 'ghost-base ' + state, 'data-ghost': 'end', id: 'ghost-base', 'data-x': ex, 'data-y': ey},
    s('title', {}, `${u.id} would stand here: drag to move it`), hitCircle(cx, cy, r), base);
  if (facing !== null && facing !== undefined) {
    const rad = ((facing - 90) * Math.PI) / 180;
    grab.append(s('line', {x1: cx, y1: cy, x2: cx + Math.cos(rad) * (r + 6 * upp), y2: cy + Math.sin(rad) * (r + 6 * upp), class: 'facing-tick'}));
    if (m.T().moves?.facing) {
      const hr = r + 22 * upp, hx = cx + Math.cos(rad) * hr, hy = cy + Math.sin(rad) * hr;
      items.push(grab, s('g', {class: 'ghost-handle', 'data-ghost': 'facing', id: 'ghost-handle'}, s('title', {}, `facing ${facing}°: drag to turn`),
        s('line', {x1: cx, y1: cy, x2: hx, y2: hy}), hitCircle(hx, hy, 0), pxCircle(hx, hy, 7, {class: 'knob'})));
    } else {
      items.push(grab);
    }
  } else {
    items.push(grab);
  }
  items.push(s('text', {x: cx, y: cy + r + 16 * upp, class: 'ghost-label ' + state, id: 'ghost-label'}, mv.words(g)));
  layers.ghost.replaceChildren(...items);
  // The ghost's labels keep clear of the units' labels and bases, as those keep clear
  // of each other.
  const free = [{el: layers.ghost.querySelector('#ghost-label'), x: cx, y: cy, rx: r, ry: r, owner: 'ghost', px: 12}];
  const los = layers.ghost.querySelector('#ghost-los-label');
  if (los && t) free.push({el: los, x: (cx + X(t.x)) / 2, y: (cy + Y(t.y)) / 2, rx: 0, ry: 0, owner: 'los', px: 12});
  placeFree(m, free, upp);
}

// placeFree places labels drawn after the board's (the ghost's, a line of sight's) where
// they cover no label placed and no unit.
function placeFree(m, labels, upp) {
  if (!m.taken) return;
  for (const l of labels) l.el.classList.add('label-free');
  placeLabels(labels, m.pieces || [], upp, m.taken);
}

// reachRing is the move a unit has left, as a ring round where it stands: where its
// centre may go, terrain and other units aside.
function reachRing(m, [x, y], left, u) {
  const {X, Y, K} = m;
  return s('circle', {cx: X(x), cy: Y(y), r: Math.max(0, left) * K, class: 'reach-ring', id: 'reach-ring', 'data-left': left},
    s('title', {}, `${u.id} may move ${Math.round(left * 100) / 100}${m.T().unit === 'cm' ? ' cm' : '″'} more`));
}

// bandRings are the rings of what each choice of a unit's move allows it (bands from
// move.js: {label, left}), the widest first, each labelled at its top.
function bandRings(m, u, bands) {
  const {X, Y, K} = m;
  const unit = m.T().unit === 'cm' ? ' cm' : '″';
  const by = new Map();
  for (const b of bands.filter((x) => x.left > 0)) by.set(b.left, [...(by.get(b.left) || []), b.label]);
  return [...by].sort(([x], [y]) => y - x).map(([left, labels]) => s('g', {class: 'band-ring', 'data-left': left},
    s('circle', {cx: X(u.x), cy: Y(u.y), r: left * K}),
    s('text', {x: X(u.x), y: Y(u.y) - left * K - 3, class: 'band-label'}, `${labels.join(', ')} ${Math.round(left * 100) / 100}${unit}`)));
}

// drawPosition draws a unit's position map (position.js): one pixel per point of the
// layer shown, stretched over the area it covers, above the terrain and under the units;
// the Pareto front ringed, the best point by offence marked. A click on it picks a point.
export function drawPosition(m) {
  const {X, Y, K, st, layers} = m;
  const p = st.position;
  if (!p) {
    layers.position.replaceChildren();
    return;
  }
  const {map, layer, values, max} = p;
  const half = map.step / 2;
  const img = s('image', {href: dangerImage({cols: map.cols, rows: map.rows, values, max}, layer === 'offence' ? offenceColour : undefined),
    x: X(map.x0 - half), y: Y(map.y0 - half + map.rows * map.step), width: map.cols * map.step * K, height: map.rows * map.step * K,
    preserveAspectRatio: 'none', class: 'position-map', 'data-position': layer, dataset: {x0: map.x0, y0: map.y0, step: map.step, cols: map.cols, rows: map.rows}},
  s('title', {}, `where ${map.unit} could stand: ${layer}; click a point to move there`));
  const marks = map.pareto.map((q) => pxCircle(X(q.x), Y(q.y), 3, {class: 'position-pareto', 'data-x': q.x, 'data-y': q.y}));
  const best = map.top?.[0];
  if (best) {
    marks.push(pxCircle(X(best.x), Y(best.y), 7, {class: 'position-best', id: 'position-best', 'data-x': best.x, 'data-y': best.y}));
  }
  layers.position.replaceChildren(img, s('g', {class: 'position-marks'}, marks));
}
