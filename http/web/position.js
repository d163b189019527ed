// Where to stand (docs/advise.md): while a unit is selected for moving, its position map
// over the board — every point it can reach now, coloured by what it could do from there
// (offence) or by what it would face there (danger), the Pareto front ringed and the best
// point marked. A click on a point starts the move there: the ghost jumps to it along
// the way the map found. The same points are listed as buttons (the best by offence, and
// the front, least danger first), so a keyboard or a screen reader reaches them too. It
// asks GET …/position, which is heavy work: a slow map shows its rows done as it works
// and can be cancelled, as the danger map does.
//
// Where the view's move form says so (squad_position: Dropzone), the map may be of the
// selected unit's whole squad, moved as a formation: its best points then carry the moves
// that take it there, one a unit, which a button sends in turn. A squad's map has no ghost:
// the map is its preview, and only its best points (whose moves the server checked) move it.
//
// It knows no rule system. The board draws the map (a.draw(map, layer, values) or
// a.draw(null)), calls pick([x, y]) with the point clicked, and says a unit's squad
// (a.squadOf(id): its name where the squad has other units on the table, else null).

import {errorBox, lines, showError} from './api.js';
import {h, pct, num, tidy} from './dom.js';

// A map not back within this many milliseconds shows its progress and a Cancel button;
// a quick one shows nothing but itself.
const SLOW = 200;

// FRONT is how many of the Pareto front's score pairs the panel lists as buttons.
const FRONT = 5;

export function positionMap(a) {
  const {ctx, mv} = a;
  const err = errorBox('position-error');
  const toggle = h('input', {type: 'checkbox', id: 'position-toggle'});
  const layer = h('select', {id: 'position-layer', 'aria-label': 'what the position map shows'},
    h('option', {value: 'offence'}, 'offence: the best shot from there'),
    h('option', {value: 'danger'}, 'danger: the enemy\'s next fire there'));
  const of = h('select', {id: 'position-of', 'aria-label': 'whose position map', hidden: true});
  const bar = h('progress', {id: 'position-progress', max: 1, hidden: true});
  const stop = h('button', {type: 'button', id: 'position-cancel', class: 'quiet', hidden: true}, 'Cancel');
  const legend = h('p', {class: 'help', id: 'position-legend', 'aria-live': 'polite'});
  const whyP = h('p', {class: 'help', id: 'position-why', hidden: true});
  const points = h('div', {id: 'position-points', class: 'position-points', hidden: true});
  const part = h('div', {id: 'position-part'},
    h('div', {class: 'row'}, h('label', {class: 'check', for: 'position-toggle'}, toggle, ' Where to stand'), ' ', layer, ' ', of), whyP,
    h('div', {class: 'row'}, bar, stop), legend, points, err);
  let map = null; // the map shown
  let ofSquad = false; // whether it is a squad's, moved as a formation
  let shownFor = ''; // the unit and the battle's length it was asked for
  let run = null; // the AbortController of the map under way

  toggle.addEventListener('change', () => refresh(true));
  layer.addEventListener('change', () => draw());
  of.addEventListener('change', () => refresh(true));
  stop.addEventListener('click', () => run?.abort());

  // refresh asks for the selected unit's map if the one shown is not of it, or of an
  // older battle; or takes the map away when the toggle is off or no unit is selected.
  async function refresh(force = false) {
    const mover = mv.ghost()?.unit || mv.mover();
    offerSquad(mover);
    // The map is of the unit the battle moves: the drawn unit itself, or the unit of the
    // state it is part of (a WarStrike model's unit), whose map then moves it whole.
    const own = mover && a.unitOf ? a.unitOf(mover) : mover;
    const unit = of.value === 'squad' && !of.hidden && !mv.ghost() ? a.squadOf(mover) : own;
    const key = `${unit} ${ctx.view.actions}`;
    gate(mover);
    if (!toggle.checked || !unit) {
      run?.abort();
      map = null;
      shownFor = '';
      legend.replaceChildren(toggle.checked ? 'Select one of your units to see where it could stand.' : '');
      draw();
      return;
    }
    if (!force && key === shownFor) return;
    run?.abort();
    shownFor = key;
    const my = run = new AbortController();
    showError(err, null);
    legend.textContent = `Mapping where ${unit} could stand…`;
    bar.removeAttribute('value'); // no rows done yet: an indeterminate bar
    const slow = setTimeout(() => { if (run === my) bar.hidden = stop.hidden = false; }, SLOW);
    try {
      const q = new URLSearchParams({unit, progress: 'true'});
      const res = await lines(`/api/battles/${ctx.id}/position?${q}`, {token: ctx.reader(), signal: my.signal,
        onProgress: (p) => {
          if (run !== my) return;
          bar.max = p.rows;
          bar.value = p.done;
          legend.textContent = `Mapping where ${unit} could stand… ${Math.round((100 * p.done) / p.rows)}%`;
        }});
      if (run !== my) return;
      map = res.position;
      ofSquad = unit !== mover;
      draw();
    } catch (e) {
      if (run !== my) return;
      map = null;
      shownFor = '';
      draw();
      if (my.signal.aborted) {
        toggle.checked = false;
        legend.textContent = 'Cancelled: no position map.';
      } else {
        legend.replaceChildren();
        showError(err, e);
      }
    } finally {
      clearTimeout(slow);
      if (run === my) {
        run = null;
        bar.hidden = stop.hidden = true;
      }
    }
  }

  // gate offers the map only for a unit that may move now; for another the toggle is
  // disabled, and says why.
  function gate(mover) {
    const why = mover ? mv.why(a.unit?.(mover) || {id: mover}) : '';
    toggle.disabled = !!why;
    whyP.textContent = why ? `Where to stand: ${mover} may not move now (${tidy(why)}).` : '';
    whyP.hidden = !why;
    if (why) toggle.checked = false;
  }

  // offerSquad offers the mover's squad as the map's subject where the battle maps squads
  // as formations and the squad has other units on the table.
  function offerSquad(mover) {
    const squad = mover && ctx.view.table?.moves?.squad_position ? a.squadOf?.(mover) : null;
    of.hidden = !squad;
    if (!squad) return;
    const keep = of.value || 'unit';
    of.replaceChildren(h('option', {value: 'unit'}, mover), h('option', {value: 'squad'}, `squad ${squad}, as a formation`));
    of.value = keep;
  }

  // squadMap says whether the map shown is of a squad (its best points carry moves).
  const squadMap = () => !!map && ofSquad;

  // moveSquad sends a squad map's moves to point p, one unit after another, as the server
  // wrote them; a refusal stops it there (the moves made stay made: each is an action).
  async function moveSquad(p, button) {
    showError(err, null);
    button.disabled = true;
    const {side, unit} = map; // each move brings a new battle, and a new map is asked for
    try {
      for (const m of p.moves || [p.move]) await ctx.act(m, side);
      legend.textContent = `Squad ${unit} moved to ${num(p.x)}, ${num(p.y)}.`;
    } catch (e) {
      showError(err, e);
    } finally {
      button.disabled = false;
    }
  }

  // draw shows the map's chosen layer over the board, and says what it shows.
  function draw() {
    if (!map) {
      a.draw(null);
      points.hidden = true;
      points.replaceChildren();
      return;
    }
    const which = layer.value;
    const values = new Array(map.cols * map.rows).fill(null);
    for (const p of map.points || []) {
      const i = index(map, p.x, p.y);
      if (i >= 0) values[i] = p[which];
    }
    const max = Math.max(0, ...values.filter((v) => v !== null));
    a.draw(map, which, values, max);
    const words = which === 'offence' ? map.offence : map.danger;
    const best = map.top?.[0];
    legend.replaceChildren(h('span', {class: which === 'offence' ? 'offence-scale' : 'danger-scale'}),
      ` ${ofSquad ? 'squad ' : ''}${map.unit}${map.unit.endsWith('s') ? "'" : "'s"} ${which} (${words}) at the ${map.reachable} points it can reach, ${map.step}${a.unitWord} apart: from 0 to `
      + `${words.startsWith('P(') ? pct(max) : num(max)}. Ringed: the ${map.pareto.length} points no other beats on both scores`
      + (best ? `; the best by offence is at ${num(best.x)}, ${num(best.y)}` : '')
      + (squadMap() ? `. Choose one of the best points below to move the whole of ${map.unit} there.` : '. Click a point, or choose one below, to move there.'));
    list();
  }

  // list writes the map's best points by offence and its front (least danger first, at
  // most FRONT of it, the points of one score pair once) as buttons that start the move.
  function list() {
    const fmt = (words, v) => (words.startsWith('P(') ? pct(v) : num(v));
    const squad = squadMap();
    const button = (p, kind) => {
      const b = h('button', {type: 'button', class: 'quiet position-point', dataset: {x: p.x, y: p.y, kind},
        'aria-label': `move ${squad ? 'squad ' : ''}${map.unit} to ${num(p.x)}, ${num(p.y)}: offence ${fmt(map.offence, p.offence)}, danger ${fmt(map.danger, p.danger)}, ${p.reach}${a.unitWord} away`},
      `${num(p.x)}, ${num(p.y)}`, h('span', {class: 'help'}, ` · offence ${fmt(map.offence, p.offence)} · danger ${fmt(map.danger, p.danger)}`
        + (squad && p.moves ? ` · ${p.moves.length} move${p.moves.length === 1 ? '' : 's'}` : '')));
      b.addEventListener('click', () => (squad ? moveSquad(p, b) : pick([p.x, p.y])));
      return b;
    };
    const seen = new Set();
    const front = [];
    for (const p of map.pareto || []) {
      const key = `${p.offence} ${p.danger}`;
      if (seen.has(key)) continue;
      seen.add(key);
      front.push(p);
      if (front.length === FRONT) break;
    }
    const top = (map.top || []).filter((p) => !squad || p.moves?.length || p.move);
    if (squad) front.length = 0; // a squad moves only to points whose moves the server wrote
    points.replaceChildren(
      ...(top.length ? [h('p', {class: 'help'}, 'Best by offence:'), h('ol', {id: 'position-top'}, ...top.map((p) => h('li', {}, button(p, 'top'))))] : []),
      ...(front.length ? [h('p', {class: 'help'}, 'The front, least danger first:'), h('ol', {id: 'position-front'}, ...front.map((p) => h('li', {}, button(p, 'front'))))] : []));
    points.hidden = !top.length && !front.length;
  }

  // pick starts the move at the reachable point nearest [x, y], along the map's way.
  function pick([x, y]) {
    if (!map) return false;
    if (squadMap()) {
      // A squad has no ghost: a click on one of its best points brings its button forward.
      const b = [...points.querySelectorAll('button.position-point')].find((e) => Math.hypot(e.dataset.x - x, e.dataset.y - y) <= map.step);
      if (b) b.focus();
      else legend.textContent = `The squad moves only to its best points, listed below; move a single unit by dragging it.`;
      return true;
    }
    const c = Math.round((x - map.x0) / map.step), r = Math.round((y - map.y0) / map.step);
    const reach = reachOf(map);
    const here = reach.get(c + ',' + r);
    if (here === undefined) return false;
    mv.startAt(map.unit, pathTo(map, reach, [c, r], a.way));
    return true;
  }

  return {
    part,
    pick,
    // update follows the selection and the battle (a new battle: a new map).
    update() {
      gate(mv.ghost()?.unit || mv.mover());
      if (toggle.checked) refresh();
      else if (map) { map = null; draw(); }
    },
    shown: () => map,
  };
}

// index is a point's place in a map's values, -1 when it is off the map.
function index(map, x, y) {
  const c = Math.round((x - map.x0) / map.step), r = Math.round((y - map.y0) / map.step);
  return c >= 0 && r >= 0 && c < map.cols && r < map.rows ? r * map.cols + c : -1;
}

// reachOf is each reachable point's way there, by its column and row.
function reachOf(map) {
  const out = new Map();
  for (const p of map.points || []) {
    out.set(Math.round((p.x - map.x0) / map.step) + ',' + Math.round((p.y - map.y0) / map.step), p.reach);
  }
  return out;
}

// pathTo is a move's points from where the unit stands to map point [c, r]: the best
// points' own moves where the point is one of them; one leg where the point is reached in
// a straight line; else the board's shortest way round its obstacles (way(map, to), null
// when it has none, ways.js) if it is as long as the map's. Failing that, legs along the
// map's ways: each leg ends at the point, nearest the start along the ways, from which
// the rest of the way is straight: its way plus the straight line is the point's way
// (within a third of a step), and the line crosses only points the unit can reach. The
// preview then checks the move as the rules do.
export function pathTo(map, reach, [c, r], way) {
  const at = (i, j) => [map.x0 + i * map.step, map.y0 + j * map.step].map((v) => Math.round(v * 1e6) / 1e6);
  const [x, y] = at(c, r);
  const top = (map.top || []).find((p) => Math.abs(p.x - x) < 1e-6 && Math.abs(p.y - y) < 1e-6);
  if (top?.move?.path) return top.move.path;
  if (map.grid) return [[x, y]]; // a grid's path is written square by square by the board
  const tol = map.step / 3;
  const from = map.from;
  const wayHere0 = reach.get(c + ',' + r);
  if (wayHere0 > Math.hypot(x - from[0], y - from[1]) + 1e-6 && way) {
    const w = way(map, [x, y]);
    let len = 0, p = from;
    for (const q of w || []) {
      len += Math.hypot(q[0] - p[0], q[1] - p[1]);
      p = q;
    }
    if (w && len <= wayHere0 + tol) return w;
  }
  const clear = ([i0, j0], [i1, j1]) => {
    const n = Math.ceil(Math.hypot(i1 - i0, j1 - j0) * 3);
    for (let k = 1; k < n; k++) {
      const i = Math.round(i0 + ((i1 - i0) * k) / n), j = Math.round(j0 + ((j1 - j0) * k) / n);
      if (!reach.has(i + ',' + j)) return false;
    }
    return true;
  };
  const fromIJ = [(from[0] - map.x0) / map.step, (from[1] - map.y0) / map.step];
  const legs = [[x, y]];
  let cur = [c, r];
  for (let n = 0; n < 32; n++) {
    const wayHere = reach.get(cur.join(','));
    const [cx, cy] = at(...cur);
    if (wayHere <= Math.hypot(cx - from[0], cy - from[1]) + tol && clear(fromIJ, cur)) break;
    let best = null, bestWay = wayHere;
    for (const [k, way] of reach) {
      if (way >= bestWay) continue;
      const q = k.split(',').map(Number);
      const [qx, qy] = at(...q);
      if (way + Math.hypot(cx - qx, cy - qy) > wayHere + tol || !clear(q, cur)) continue;
      best = q;
      bestWay = way;
    }
    if (!best) break;
    cur = best;
    legs.unshift(at(...cur));
  }
  return legs;
}

// offenceColour is a value's colour on the offence layer: pale for nothing, through
// green, to dark blue for the map's best.
export function offenceColour(v, peak) {
  const stops = [[0xf7, 0xfc, 0xf0], [0xa8, 0xdd, 0xb5], [0x4e, 0xb3, 0xd3], [0x08, 0x68, 0xac], [0x08, 0x40, 0x81]];
  const t = peak > 0 ? v / peak : 0;
  const x = t * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2);
  const f = x - i;
  return stops[i].map((s, k) => Math.round(s + (stops[i + 1][k] - s) * f));
}
