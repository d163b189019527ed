// A grid map (the view's board): squares, terrain, units with their facing rings and
// sizes. Select a unit to see its weapons framed by group colour. What a weapon may do
// comes from the view's offers (offers.js), never from a rule system's forms: where an
// offer takes one of the unit's weapons and a square (a War Engine declaration), click a
// weapon and then a square to send it (shift-click sets the offer's flag), and click a
// weapon's target again to send the one other offer that takes that weapon alone (its
// clearing); an offer that takes the weapon alone is a button beside it (a fire), and
// while no offer may move the weapon's target, the target is marked ready. Hovering any
// square asks the aim and the odds there, of the offer a click would send or else of the
// board's aim form (board.aim): the chance to hit and the exact landing heat-map.

import {ask, errorBox, showError} from './api.js';
import {h, s, pct, signed, sideColour, sideKey, num, length, status, touch, svgPoint} from './dom.js';
import {dangerImage} from './advisor.js';
import {unitsTable} from './units.js';
import {viewport} from './viewport.js';
import {gridMover} from './gridmove.js';
import {lastShot, marksOf} from './marks.js';
import {turnPaths} from './paths.js';
import {forBattle} from './backdrop.js';
import {actorOf, body, fieldsOf, flagField, needsMore, optionWords, squareField, takes} from './offers.js';

const S = 24; // pixels per square in the drawing's own units; the SVG scales to fit
const GROUP_COLOURS = ['#6b6b6b', '#c62828', '#1565c0', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f'];
const groupColour = (g) => GROUP_COLOURS[g % GROUP_COLOURS.length];

// Terrain colours by the words in a terrain's name; anything else gets a stable tint.
const TERRAIN = [
  [/open|grass|field|floor/i, '#eef0e2'], [/bush|hedge|scrub/i, '#a9cf86'], [/tree|wood|forest|jungle/i, '#5f9a4c'],
  [/wall|building|rock|cubicle|desk/i, '#8d8d8d'], [/rubble|ruin/i, '#b8a07e'], [/water|river|lake/i, '#8fc1e3'], [/road|path/i, '#d9c9a3'],
];
function terrainColour(name, i) {
  for (const [re, c] of TERRAIN) if (re.test(name)) return c;
  return `hsl(${(i * 67) % 360} 30% 75%)`;
}

export function mount(field, controls, ctx) {
  // The log's actions whose effects the board shows (the last shot, the turn's paths);
  // none where the page gives no log.
  ctx.entries ||= () => [];
  const st = {unit: null, weapon: null, hover: null, cursor: {x: 0, y: 0}, shift: false, aimSeq: 0, landed: [], landedAt: -1, heat: null, aim: null};
  const svg = s('svg', {class: 'board grid', role: 'application', tabindex: 0, id: 'board',
    'aria-label': 'The map. Arrow keys move the cursor, Enter clicks the square, Shift+Enter targets a friend, Escape drops the selection; + and − zoom, 0 fits the units.'});
  const info = h('p', {class: 'hover-info', id: 'hover-info', 'aria-live': 'polite'});
  const vp = viewport(svg, {
    world: () => [0, 0, ctx.view.board.width * S, ctx.view.board.height * S],
    units: () => {
      const us = ctx.view.board.units;
      if (!us.length) return null;
      const x0 = Math.min(...us.map((u) => u.x)), y0 = Math.min(...us.map((u) => u.y));
      const x1 = Math.max(...us.map((u) => u.x + u.size)), y1 = Math.max(...us.map((u) => u.y + u.size));
      return [x0 * S, y0 * S, (x1 - x0) * S, (y1 - y0) * S];
    },
    arrows: false, // they move the cursor, and the view follows it
    // A drag that starts on a unit of this page's sides (or on the ghost) moves it.
    claim: (ev) => moving.mv.claim(ev),
  });
  field.replaceChildren(vp.bar, svg, info);
  const units = unitsTable(ctx.unitsBox, {
    onHover: (id) => highlight(id),
    onPick: (id) => {
      if (!boardUnit(id)) return; // destroyed: no longer on the map
      st.unit = id === st.unit ? null : id;
      st.weapon = null;
      clearAim();
      redraw();
    },
    selected: (id) => id === st.unit,
  });
  // highlight marks a unit on the map and in the table of units (null: none).
  let hl = null;
  function highlight(id) {
    hl = id;
    for (const el of svg.querySelectorAll('.unit.hl')) el.classList.remove('hl');
    if (id) svg.querySelector(`.unit[data-unit="${CSS.escape(id)}"]`)?.classList.add('hl');
    units.highlight(id);
  }
  const panel = h('div', {class: 'panel'});
  const aimBox = h('section', {class: 'panel aim', id: 'aim', 'aria-live': 'polite', 'aria-labelledby': 'aim-h'});
  const resultBox = h('section', {class: 'panel result', id: 'result', 'aria-live': 'polite'});
  const actError = errorBox('act-error');
  controls.replaceChildren(panel, actError, aimBox, resultBox);

  const unitAt = (x, y) => ctx.view.board.units.find((u) => x >= u.x && y >= u.y && x < u.x + u.size && y < u.y + u.size);
  const stateOf = (id) => ctx.view.state.units.find((u) => u.id === id);
  const boardUnit = (id) => ctx.view.board.units.find((u) => u.id === id);
  const centre = (u) => [(u.x + u.size / 2) * S, (u.y + u.size / 2) * S];
  const sqCentre = (x, y) => [(x + 0.5) * S, (y + 0.5) * S];
  const declaredFor = (unitID, weapon) => (stateOf(unitID)?.targets || []).find((t) => t.weapon === weapon);

  // unitOffers are the view's offers that name unit id among their actors, each as {o,
  // a, fields} (the offer, the actor, the fields it fills); mine: only those of a side
  // this page holds the token of.
  function unitOffers(id, mine) {
    if (ctx.view.ended) return [];
    const out = [];
    for (const o of ctx.view.offers || []) {
      const a = actorOf(o, id);
      if (a && (!mine || ctx.token(o.side))) out.push({o, a, fields: fieldsOf(o, a)});
    }
    return out;
  }
  // weaponOffers are what unit id is offered with weapon w: aim, the offer that takes w
  // and a square (with pick, sq and flag: its fields for the weapon, the square and the
  // shift-click), and acts, those that take w and nothing more.
  function weaponOffers(id, w, mine = true) {
    let aim = null;
    const acts = [];
    for (const x of unitOffers(id, mine)) {
      const pick = x.fields.find((f) => takes(f, w));
      if (!pick) continue;
      const sq = squareField(x.fields);
      if (sq && !needsMore(x.fields, pick, sq)) aim ||= {...x, pick, sq, flag: flagField(x.fields)};
      else if (!sq && !needsMore(x.fields, pick)) acts.push({...x, pick});
    }
    return {aim, acts};
  }
  // ready says whether unit id's target for weapon w waits only to be acted on: an offer
  // takes the weapon alone, and none may move its target.
  const ready = (id, w) => {
    const x = weaponOffers(id, w, false);
    return !x.aim && x.acts.length > 0;
  };
  // choiceOffers are unit u's offers whose one field to fill is a select of values that
  // are not its weapons (a change of weapon group): a button each value.
  function choiceOffers(u) {
    const names = (u.weapons || []).map((w) => w.name);
    return unitOffers(u.id, true).flatMap((x) => {
      const need = x.fields.filter((f) => !f.optional);
      if (need.length !== 1 || need[0].kind !== 'select' || need[0].options.some((o) => names.includes(o.value))) return [];
      return [{...x, pick: need[0]}];
    });
  }
  // atSquare are the values offer x (with pick, sq, flag) sends for weapon w at square q.
  const atSquare = (x, w, q, shift) => ({[x.pick.key]: w, [x.sq.key]: [q.x, q.y], [x.flag?.key]: x.flag && shift ? true : undefined});
  // aimBody is what the aim and the odds are asked of the selected weapon at square q: the
  // offer a click there would send, else the board's aim form (board.aim), or null.
  function aimBody(q, shift) {
    const x = weaponOffers(st.unit, st.weapon).aim;
    if (x) return body(x.o, x.a, atSquare(x, st.weapon, q, shift));
    const f = ctx.view.board.aim;
    const fields = f?.fields || [];
    const pick = fields.find((x) => x.kind === 'select' && (!x.options?.length || takes(x, st.weapon)));
    const sq = squareField(fields), flag = flagField(fields);
    if (!f?.key || !pick || !sq) return null;
    return body(f, {action: {[f.key]: st.unit}}, {[pick.key]: st.weapon, [sq.key]: [q.x, q.y], [flag?.key]: flag && shift ? true : undefined});
  }

  function squareOf(ev) {
    const q = svgPoint(svg, ev);
    const b = ctx.view.board;
    const x = Math.floor(q.x / S), y = Math.floor(q.y / S);
    return x >= 0 && y >= 0 && x < b.width && y < b.height ? {x, y} : null;
  }

  svg.addEventListener('mousemove', (ev) => {
    const q = squareOf(ev);
    if (q && (!st.hover || q.x !== st.hover.x || q.y !== st.hover.y || ev.shiftKey !== st.shift)) {
      st.cursor = q;
      hover(q, ev.shiftKey);
    }
  });
  svg.addEventListener('mouseleave', () => { clearTimeout(timer); st.hover = null; highlight(null); drawOverlay(); });
  svg.addEventListener('focus', () => drawOverlay());
  svg.addEventListener('blur', () => drawOverlay());
  svg.addEventListener('click', (ev) => {
    // A tap on a unit's tap target, outside its squares, picks the unit, unless a weapon
    // is aiming: a target is a square, and the square is where the tap is.
    const hit = ev.target.closest?.('.unit[data-unit], .hit[data-unit]');
    if (ev.target.closest?.('[data-ghost]')) return;
    const aiming = !!(st.unit && st.weapon && weaponOffers(st.unit, st.weapon).aim);
    const u = hit && !aiming ? boardUnit(hit.dataset.unit) : null;
    const q = u ? {x: u.x, y: u.y} : squareOf(ev);
    // Off the units, a click is the mover's first: a point of the position map, or a leg.
    if (!hit && q && moving.click(q)) return;
    if (q) {
      if (ev.pointerType === 'touch' || !st.hover) hover(q, ev.shiftKey); // a tap is not a hover
      click(q, ev.shiftKey);
    }
  });
  svg.addEventListener('keydown', (ev) => {
    const b = ctx.view.board;
    const moves = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
    if (moves[ev.key]) {
      const [dx, dy] = moves[ev.key];
      st.cursor = {x: Math.min(b.width - 1, Math.max(0, st.cursor.x + dx)), y: Math.min(b.height - 1, Math.max(0, st.cursor.y + dy))};
      vp.keepInView([(st.cursor.x - 1) * S, (st.cursor.y - 1) * S, 3 * S, 3 * S]);
      hover(st.cursor, ev.shiftKey);
      ev.preventDefault();
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      click(st.cursor, ev.shiftKey);
      ev.preventDefault();
    } else if (ev.key === 'Escape') {
      if (st.weapon) st.weapon = null; else st.unit = null;
      clearAim();
      draw();
    }
  });

  // hover shows the aim of the selected weapon at square q, and its landing heat-map.
  let timer = 0;
  function hover(q, shift) {
    st.hover = q;
    st.shift = shift;
    const u = unitAt(q.x, q.y);
    const terr = ctx.view.board.legend[ctx.view.board.rows[q.y][q.x]] || '';
    info.textContent = `Square ${q.x},${q.y}: ${terr}${u ? ' — ' + (u.name || u.id) + ' (' + u.side + ')' : ''}`;
    if ((u?.id || null) !== hl) highlight(u?.id || null);
    drawOverlay();
    if (!st.unit || !st.weapon) return;
    clearTimeout(timer);
    timer = setTimeout(() => aimAt(q, shift), 40);
  }

  async function aimAt(q, shift) {
    if (!st.unit || !st.weapon) return;
    const seq = ++st.aimSeq;
    const action = aimBody(q, shift);
    if (!action) {
      aimBox.replaceChildren(h('h2', {id: 'aim-h'}, 'Aim'), h('p', {class: 'help'}, 'This battle\'s view says no way to ask a shot at a square.'));
      return;
    }
    try {
      const [aim, odds] = await Promise.all([ask(ctx.id, 'aim', action, ctx.reader()), ask(ctx.id, 'odds', action, ctx.reader())]);
      if (seq !== st.aimSeq) return; // the pointer has moved on
      st.aim = {q, aim: aim.aims[0], odds};
      st.heat = odds.squares || [];
      showAim();
      drawOverlay();
    } catch (err) {
      if (seq !== st.aimSeq) return;
      st.aim = null;
      st.heat = null;
      aimBox.replaceChildren(h('h2', {id: 'aim-h'}, 'Aim'), h('p', {class: 'error'}, (err.message || String(err))));
      drawOverlay();
    }
  }

  function clearAim() {
    clearTimeout(timer);
    st.aimSeq++;
    st.aim = null;
    st.heat = null;
    aimBox.replaceChildren(h('h2', {id: 'aim-h'}, 'Aim'),
      h('p', {class: 'help'}, st.weapon ? 'Point at a square to see the chance to hit there and where the shot may land.' : 'Select a unit, then one of its weapons.'));
  }

  function showAim() {
    const {q, aim, odds} = st.aim;
    const parts = [h('h2', {id: 'aim-h'}, 'Aim: ', st.weapon, ' → ', aim.target, ` (${q.x},${q.y})`)];
    if (aim.status !== 'ok') {
      const label = status(aim.status).replace(/^./, (c) => c.toUpperCase());
      parts.push(h('p', {class: 'status bad', id: 'aim-status'}, label), h('p', {id: 'aim-reason'}, aim.reason));
    } else {
      const cth = aim.die === 100 ? aim.need : aim.p_hit * 100;
      parts.push(
        h('p', {class: 'chance'}, 'Chance to hit ', h('strong', {id: 'aim-chance'}, `${cth}%`)),
        h('table', {class: 'terms', id: 'aim-terms'}, h('tbody', {},
          aim.modifiers.map((m) => h('tr', {}, h('td', {}, m.rule), h('td', {class: 'num'}, signed(m.value)))),
          h('tr', {class: 'total'}, h('td', {}, 'ChanceToHit'), h('td', {class: 'num'}, cth)))),
        h('p', {}, `Range ${length(aim.range, aim.range_unit)}`, ...valueWords(odds.values)),
        h('p', {}, 'True chance the shot ends on ', aim.target, ': ', h('strong', {id: 'aim-phit'}, pct(aim.p_hit))));
      for (const t of odds.targets || []) {
        parts.push(h('p', {class: 'help'}, `${t.target}: struck ${pct(t.mean.struck ?? 0)}, mean hits ${num(t.mean.hits ?? 0)}, destroyed ${pct(t.p_destroyed)}`));
      }
    }
    for (const n of aim.notes || []) parts.push(h('p', {class: 'help'}, n));
    aimBox.replaceChildren(...parts);
  }

  // valueWords are the odds' values in words: "· max distance missed by 4, picks 1".
  function valueWords(values) {
    const vs = Object.entries(values || {});
    return vs.length ? [' · ', vs.map(([k, v]) => `${k.replaceAll('_', ' ')} ${typeof v === 'number' ? num(v) : v}`).join(', ')] : [];
  }

  // click acts on square q: where an offer takes the selected weapon and a square, it is
  // sent at q (or, at the weapon's own target, the one offer that takes the weapon alone:
  // its clearing); else the click selects the unit there.
  async function click(q, shift) {
    const u = unitAt(q.x, q.y);
    const wo = st.unit && st.weapon ? weaponOffers(st.unit, st.weapon) : null;
    if (wo?.aim && !(u && u.id === st.unit)) {
      const d = declaredFor(st.unit, st.weapon);
      const undo = d && d.target === `${q.x},${q.y}` && wo.acts.length === 1 ? wo.acts[0] : null;
      const x = undo || wo.aim;
      const values = undo ? {[x.pick.key]: st.weapon} : atSquare(x, st.weapon, q, shift);
      await send(body(x.o, x.a, values), x.o.side, x.o.label);
      return;
    }
    st.unit = u ? u.id : null;
    st.weapon = null;
    if (u) moving.mv.select(u);
    clearAim();
    draw();
  }

  // send sends action for side; label names it in the result.
  async function send(action, side, label) {
    showError(actError, null);
    try {
      const res = await ctx.act(action, side);
      if (res.outcome.landed) {
        // A shot: its landing is marked until the next action.
        st.landed = res.outcome.landed;
        st.landedAt = ctx.view.actions;
        drawTargets();
      }
      showResult(action, res, label);
    } catch (err) {
      showError(actError, err);
    }
  }

  function showResult(action, res, label) {
    const o = res.outcome;
    const parts = [h('h2', {}, `#${res.seq} ${label || action.type}`)];
    if (o.landed) {
      const where = (o.landed || []).map((q) => `${q.x},${q.y}`).join(', ');
      parts.push(h('p', {id: 'landed'}, `${action.weapon} landed on ${where || '—'}.`));
      parts.push(h('p', {}, 'Dice: ', o.rolls.map((r) => `d${r.sides} ${r.value}`).join(', ') || 'none'));
      if (o.targets?.length) {
        parts.push(h('ul', {id: 'hits'}, o.targets.map((t) => h('li', {}, `${t.target}: struck ${t.struck ?? 0}, ${t.hits ?? 0} hits${t.destroyed ? ', destroyed' : ''}`))));
      } else {
        parts.push(h('p', {id: 'hits'}, 'Nothing was hit.'));
      }
    } else {
      parts.push(h('p', {}, o.trace.map((t) => t.result).join('; ')));
    }
    resultBox.replaceChildren(...parts);
  }

  // ---- drawing ----

  const layers = {};
  function draw() {
    const b = ctx.view.board;
    const symbols = Object.keys(b.legend).sort();
    const counts = {};
    for (const row of b.rows) for (const c of row) counts[c] = (counts[c] || 0) + 1;
    const common = Object.keys(counts).sort((a, c) => counts[c] - counts[a])[0];
    const colour = (c) => terrainColour(b.legend[c] || c, symbols.indexOf(c));
    const terrain = [s('rect', {x: 0, y: 0, width: b.width * S, height: b.height * S, fill: colour(common)})];
    b.rows.forEach((row, y) => [...row].forEach((c, x) => {
      if (c !== common) terrain.push(s('rect', {x: x * S, y: y * S, width: S, height: S, fill: colour(c)}, s('title', {}, b.legend[c] || c)));
    }));
    const lines = [];
    for (let x = 0; x <= b.width; x++) lines.push(s('line', {x1: x * S, y1: 0, x2: x * S, y2: b.height * S, class: x % 5 ? 'gl' : 'gl5'}));
    for (let y = 0; y <= b.height; y++) lines.push(s('line', {x1: 0, y1: y * S, x2: b.width * S, y2: y * S, class: y % 5 ? 'gl' : 'gl5'}));
    // The photo of the player's table (backdrop.js), over the squares' colours and under
    // the lines: its coordinates count squares up from the map's bottom left corner.
    const photo = forBattle(ctx.id, ([x, y]) => [x * S, (b.height - y) * S]);
    layers.terrain = s('g', {class: 'terrain'}, terrain, photo, s('g', {class: 'gridlines'}, lines));
    // The sides' deployment zones, while units may still be deployed: polygons whose
    // corners are the squares' corners.
    layers.zones = s('g', {class: 'zones'}, b.deploying ? Object.entries(b.zones || {}).map(([side, pts]) => {
      const zone = s('polygon', {points: pts.map(([x, y]) => `${x * S},${y * S}`).join(' '), class: 'zone', 'data-zone': side});
      zone.style.setProperty('fill', sideColour(ctx.view.sides, side));
      zone.style.setProperty('stroke', sideColour(ctx.view.sides, side));
      return s('g', {}, s('title', {}, `${side}'s deployment zone`), zone);
    }) : []);
    layers.heat = s('g', {class: 'heat', id: 'heat'});
    layers.paths = s('g', {class: 'paths', id: 'turn-paths'});
    layers.reach = s('g', {class: 'reach'});
    layers.targets = s('g', {class: 'targets'});
    layers.hits = s('g', {class: 'hits'});
    layers.units = s('g', {class: 'units'});
    layers.over = s('g', {class: 'over'});
    layers.danger = s('g', {class: 'danger', id: 'danger-layer'});
    layers.position = s('g', {class: 'position', id: 'position-overlay'});
    layers.ghost = s('g', {class: 'ghost', id: 'ghost'});
    // Found targets go above the units: a target is usually on one.
    svg.replaceChildren(layers.terrain, layers.zones, layers.danger, layers.position, layers.heat, layers.paths, layers.reach, layers.hits, layers.units, layers.ghost,
      layers.targets, layers.over);
    drawDanger();
    drawPaths();
    drawUnits();
    drawReach();
    drawTargets();
    drawOverlay();
    drawPanel();
    vp.update();
    units.draw(ctx.view);
    if (hl) highlight(hl);
    moving.redraw();
  }

  function drawUnits() {
    const sides = ctx.view.sides;
    // Each unit answers a tap within 22 pixels of its centre (a 44-pixel target), under
    // the units, so that a unit's own squares win over a neighbour's wider target.
    layers.hits.replaceChildren(...ctx.view.board.units.map((u) => {
      const [cx, cy] = centre(u);
      const r = (u.size * S) / 2;
      const hit = s('circle', {cx, cy, r, class: 'hit', 'data-unit': u.id});
      hit.style.setProperty('r', `max(${r}px, calc(22px * var(--upp, 1)))`);
      return hit;
    }));
    layers.units.replaceChildren(...ctx.view.board.units.map((u) => {
      const [cx, cy] = centre(u);
      const r = (u.size * S) / 2;
      const col = sideColour(sides, u.side);
      const rad = ((u.facing - 90) * Math.PI) / 180;
      const ring = r + 4;
      const tip = [cx + Math.cos(rad) * (ring + 6), cy + Math.sin(rad) * (ring + 6)];
      const l = [cx + Math.cos(rad - 0.35) * ring, cy + Math.sin(rad - 0.35) * ring];
      const rr = [cx + Math.cos(rad + 0.35) * ring, cy + Math.sin(rad + 0.35) * ring];
      const sel = u.id === st.unit;
      return s('g', {class: 'unit' + (sel ? ' selected' : ''), 'data-unit': u.id, 'data-x': u.x, 'data-y': u.y},
        s('title', {}, `${u.name || u.id} (${u.side}), size ${u.size}, facing ${u.facing}°`),
        s('rect', {x: u.x * S + 2, y: u.y * S + 2, width: u.size * S - 4, height: u.size * S - 4, rx: 4, fill: col, 'fill-opacity': 0.85, stroke: sel ? '#ffd600' : '#222', 'stroke-width': sel ? 3 : 1}),
        s('circle', {cx, cy, r: ring, class: 'facing-ring', stroke: col}),
        s('polygon', {points: `${tip} ${l} ${rr}`, fill: col, class: 'facing'}),
        s('text', {x: cx, y: cy + 4, class: 'label'}, shortName(u)),
        markText(u, cx, u.y * S + u.size * S + 12));
    }));
  }

  // drawPaths draws the turn's paths (paths.js): each move this turn, square by square
  // from where the unit stood, through its footprint's centre, in its side's colour.
  function drawPaths() {
    layers.paths.replaceChildren(...turnPaths(ctx.entries(), ctx.view.state.turn).map((p) => {
      const half = (boardUnit(p.unit)?.size || 1) / 2;
      const line = s('polyline', {points: p.points.map(([x, y]) => `${(x + half) * S},${(y + half) * S}`).join(' '), class: 'turn-path', 'data-unit': p.unit, 'data-seq': p.seq},
        s('title', {}, `#${p.seq}: ${p.unit}'s move this turn`));
      line.style.setProperty('stroke', sideColour(ctx.view.sides, p.side));
      return line;
    }));
  }

  // markText is what a unit's state says (marks.js), under it: hits lost, stunned…
  function markText(u, cx, y) {
    const su = stateOf(u.id);
    const marks = su ? marksOf(ctx.view, su, ctx.start) : [];
    return marks.length ? s('text', {x: cx, y, class: 'unit-mark', 'data-mark': u.id}, marks.join(' · ')) : null;
  }

  function shortName(u) {
    const n = u.name || u.id;
    return u.size >= 2 ? n.slice(0, 3 * u.size) : n.slice(0, 2);
  }

  // drawReach shows the selected weapon's arc and its range bands: squares, since the War
  // Engine counts distance in squares along rows, columns or diagonals.
  function drawReach() {
    layers.reach.replaceChildren();
    if (!st.unit || !st.weapon) return;
    const u = boardUnit(st.unit);
    const w = (u?.weapons || []).find((x) => x.name === st.weapon);
    if (!w) return;
    // Range and arc are counted from the square the weapon fires from.
    const [cx, cy] = w.from ? sqCentre(w.from[0], w.from[1]) : centre(u);
    for (const band of w.ranges) {
      const r = (band.reach + 0.5) * S;
      layers.reach.append(s('rect', {x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, class: 'band'}),
        s('text', {x: cx - r + 3, y: cy - r + 11, class: 'band-label'}, `${band.name} ${band.reach}`));
    }
    const far = (w.ranges[w.ranges.length - 1].reach + 0.5) * S * 1.5;
    for (const [from, to] of w.arcs || []) {
      if (to - from >= 360) continue;
      for (const a of [from, to]) {
        const rad = ((u.facing + a - 90) * Math.PI) / 180;
        layers.reach.append(s('line', {x1: cx, y1: cy, x2: cx + Math.cos(rad) * far, y2: cy + Math.sin(rad) * far, class: 'arc-edge'}));
      }
    }
  }

  // drawTargets draws every found target: a red dotted line from the unit to the square and
  // a marker there; a target that waits only to be acted on (ready) says "ready".
  function drawTargets() {
    const marks = [];
    for (const su of ctx.view.state.units) {
      const u = boardUnit(su.id);
      if (!u) continue;
      for (const t of su.targets || []) {
        const isReady = ready(u.id, t.weapon);
        const [x, y] = t.target.split(',').map(Number);
        const [fx, fy] = centre(u);
        const [tx, ty] = sqCentre(x, y);
        const cls = isReady ? 'found ready' : 'found';
        marks.push(s('g', {class: cls, 'data-unit': u.id, 'data-weapon': t.weapon},
          s('title', {}, `${u.id}: ${t.weapon} → ${t.target}${t.friendly ? ' (friendly)' : ''}${isReady ? ', ready' : ', found target'}`),
          s('line', {x1: fx, y1: fy, x2: tx, y2: ty, class: 'target-line'}),
          s('circle', {cx: tx, cy: ty, r: S * 0.42, class: 'marker'}),
          s('line', {x1: tx - S * 0.55, y1: ty, x2: tx + S * 0.55, y2: ty, class: 'marker'}),
          s('line', {x1: tx, y1: ty - S * 0.55, x2: tx, y2: ty + S * 0.55, class: 'marker'}),
          isReady ? s('text', {x: tx + S * 0.6, y: ty - S * 0.5, class: 'ready-label'}, 'ready') : null));
      }
    }
    // The last shot of the log: where it landed, and what it did.
    const shot = lastShot(ctx.entries(), (id) => boardUnit(id)?.side || stateOf(id)?.side);
    const landed = shot?.landed?.length ? shot.landed : st.landed;
    if (shot?.landed?.length) {
      const q = shot.landed.at(-1);
      const [x, y] = sqCentre(q.x, q.y);
      const text = shot.targets.length ? shot.targets.map((t) => `${t.id}: ${t.text}`).join('; ') : 'nothing hit';
      marks.push(s('text', {x: x + S * 0.7, y: y + S * 1.2, class: 'shot-label', id: 'shot-label'}, `#${shot.seq}: ${text}`));
    }
    for (const q of landed) {
      const [x, y] = sqCentre(q.x, q.y);
      const r = S * 0.45;
      marks.push(s('g', {class: 'landed'}, s('title', {}, `landed on ${q.x},${q.y}`),
        s('line', {x1: x - r, y1: y - r, x2: x + r, y2: y + r}), s('line', {x1: x - r, y1: y + r, x2: x + r, y2: y - r}),
        s('circle', {cx: x, cy: y, r: r * 1.2})));
    }
    layers.targets.replaceChildren(...marks);
  }

  function drawOverlay() {
    const parts = [];
    if (st.heat && st.heat.length) {
      const max = Math.max(...st.heat.map((q) => q.p));
      layers.heat.replaceChildren(...st.heat.map((q) => s('rect', {x: q.x * S, y: q.y * S, width: S, height: S, class: 'heat-sq',
        'fill-opacity': (0.15 + 0.7 * (q.p / max)).toFixed(3)}, s('title', {}, `${q.x},${q.y}: ${pct(q.p)}`))));
    } else {
      layers.heat.replaceChildren();
    }
    if (st.aim && st.aim.aim.line?.length) {
      const pts = st.aim.aim.line.map((q) => sqCentre(q.x, q.y).join(',')).join(' ');
      parts.push(s('polyline', {points: pts, class: 'aim-line ' + (st.aim.aim.status === 'ok' ? 'clear' : 'blocked')}));
    }
    const q = st.hover || (document.activeElement === svg ? st.cursor : null);
    if (q) parts.push(s('rect', {x: q.x * S, y: q.y * S, width: S, height: S, class: 'cursor', id: 'cursor'}));
    layers.over.replaceChildren(...parts);
  }

  // A redraw replaces the panel's buttons; the keyboard's place is kept by finding the
  // button for the same unit or weapon again.
  function focusKey() {
    const a = document.activeElement;
    if (!a || !(panel.contains(a) || ctx.unitsBox.contains(a))) return null;
    return a.dataset.act ? `button.weapon-act[data-act="${CSS.escape(a.dataset.act)}"]`
      : a.dataset.choice ? `button[data-choice="${CSS.escape(a.dataset.choice)}"]`
        : a.dataset.weapon ? `button.weapon[data-weapon="${CSS.escape(a.dataset.weapon)}"]`
        : a.dataset.unit ? `.unit-btn[data-unit="${CSS.escape(a.dataset.unit)}"]` : null;
  }
  function restoreFocus(key) {
    if (key) (panel.querySelector(key) || ctx.unitsBox.querySelector(key))?.focus();
  }
  function redraw() {
    const focus = focusKey();
    draw();
    restoreFocus(focus);
  }

  // drawPanel lists the units and the selected unit's weapons, framed by group, with what
  // the offers let it do: a button beside a weapon for each offer that takes the weapon
  // alone, a button for each value of an offer that chooses among other values (a weapon
  // group), and a line saying how to use the offer that takes a weapon and a square.
  function drawPanel() {
    const parts = [h('h2', {}, 'Orders')];
    const u = st.unit && boardUnit(st.unit);
    if (!u) parts.push(h('p', {class: 'help'}, 'Select a unit on the map or in the table of units to see its weapons.'));
    if (u) {
      const su = stateOf(u.id);
      parts.push(h('h3', {}, `${u.name || u.id} — ${u.side}`),
        h('p', {class: 'help'}, `hits ${su.values.hits}/${su.values.max_hits}, morale ${su.values.morale}, size ${u.size}, facing ${u.facing}°` +
          (u.group ? `, fires group ${u.group} this turn` : '')));
      const weapons = u.weapons || [];
      const groups = [...new Set(weapons.map((w) => w.group))].sort();
      if (!weapons.length) parts.push(h('p', {class: 'help'}, 'This unit carries no weapon.'));
      for (const g of groups) {
        const frame = h('fieldset', {class: 'group', 'data-group': g}, h('legend', {}, `Group ${g}`));
        frame.style.borderColor = groupColour(g);
        for (const w of weapons.filter((x) => x.group === g)) frame.append(weaponButton(u, w));
        parts.push(frame);
      }
      for (const x of choiceOffers(u)) {
        parts.push(h('div', {class: 'row choice-offer', role: 'group', 'aria-label': x.o.label, title: x.o.help || ''},
          x.pick.options.map((opt) => h('button', {class: 'quiet', 'data-choice': `${x.o.type}:${opt.value}`,
            onclick: () => send(body(x.o, x.a, {[x.pick.key]: opt.value}), x.o.side, x.o.label)}, `${x.o.label}: ${optionWords(opt)}`))));
      }
      parts.push(h('p', {class: 'help', id: 'orders-help'}, ordersHelp(u)));
    }
    panel.replaceChildren(...parts);
  }

  // ordersHelp says how to use what the offers let unit u do with its weapons, in the
  // offers' own words.
  function ordersHelp(u) {
    const all = (u.weapons || []).map((w) => weaponOffers(u.id, w.name));
    const aim = all.find((x) => x.aim)?.aim;
    const undo = all.find((x) => x.aim && x.acts.length === 1)?.acts[0];
    const acts = [...new Set(all.flatMap((x) => x.acts).map((x) => x.o.label))];
    const tap = touch() ? 'tap' : 'click';
    if (aim) {
      return `${aim.o.label}: ${tap} a weapon, then a square.` + (aim.flag && !touch() ? ` Shift-click: ${aim.flag.label}.` : '')
        + (undo ? ` ${tap[0].toUpperCase() + tap.slice(1)} the target again: ${undo.o.label.toLowerCase()}.` : '');
    }
    if (acts.length) return `Select a weapon to see its aim at any square; ${acts.join(', ')} beside a weapon acts at its target.`;
    return 'Select a weapon to see its aim at any square.';
  }

  // weaponButton selects a weapon, so that hovering shows its aim. Each offer that takes
  // the weapon alone gets its own button beside it: looking is never shooting.
  function weaponButton(u, w) {
    const d = declaredFor(u.id, w.name);
    const isReady = d && ready(u.id, w.name);
    const on = st.unit === u.id && st.weapon === w.name;
    const label = [h('span', {class: 'wname'}, w.name),
      h('span', {class: 'wstat'}, ` arc ${w.arcs?.[0] ? w.arcs[0][1] - w.arcs[0][0] : 360}°, ranges ${w.ranges.map((r) => r.reach).join('/')}`)];
    if (d) label.push(h('span', {class: isReady ? 'ready-tag' : 'found-tag'}, isReady ? ` ready → ${d.target}` : ` → ${d.target}`));
    const pick = h('button', {class: 'weapon' + (on ? ' on' : '') + (isReady ? ' ready' : ''), 'aria-pressed': String(on), 'data-weapon': w.name,
      onclick: () => {
        st.weapon = on ? null : w.name;
        clearAim();
        redraw();
        if (st.weapon && st.hover) hover(st.hover, st.shift);
      }}, label);
    const acts = weaponOffers(u.id, w.name).acts;
    if (!acts.length) return pick;
    // Each button names its offer's type as data-<type> (data-fire="HMG Model 50").
    return h('div', {class: 'weapon-row'}, pick, acts.map((x) => h('button', {class: 'weapon-act' + (isReady ? ' primary' : ''),
      'data-act': `${x.o.type}:${w.name}`, 'data-type': x.o.type, ['data-' + x.o.type.replace(/[^\w-]/g, '-')]: w.name,
      title: x.o.help || '', 'aria-label': `${x.o.label}: ${w.name}${d ? ' at ' + d.target : ''}`,
      onclick: () => send(body(x.o, x.a, {[x.pick.key]: w.name}), x.o.side, x.o.label)}, x.o.label)));
  }

  // The danger map (advisor.js asks for it): a pixel per square, under the units.
  function drawDanger() {
    const m = st.danger;
    if (!m) { layers.danger.replaceChildren(); return; }
    layers.danger.replaceChildren(s('image', {href: dangerImage(m), x: 0, y: 0, width: m.cols * S, height: m.rows * S,
      preserveAspectRatio: 'none', class: 'danger-map', dataset: {cols: m.cols, rows: m.rows, max: m.max, grid: 'true'}},
    s('title', {}, `danger map: ${m.scores} of ${m.placed} of ${m.side}`)));
  }

  const moving = gridMover({ctx, svg, S, vp, layers, unit: boardUnit});
  vp.bar.append(moving.mv.exportButton, sideKey(ctx.view.sides));
  controls.prepend(moving.mv.panel);
  clearAim();
  return {
    // setDanger shows a danger map over the map, or takes it away (null).
    setDanger(m) {
      st.danger = m;
      if (layers.danger) drawDanger();
    },
    // update redraws after the battle changed: an aim taken before the change is stale,
    // so it is dropped and asked again for the square under the pointer.
    update() {
      if (st.unit && !boardUnit(st.unit)) { st.unit = null; st.weapon = null; }
      if (ctx.view.actions !== st.landedAt) st.landed = [];
      const focus = focusKey();
      clearAim();
      draw();
      moving.mv.update();
      restoreFocus(focus);
      if (st.weapon && st.hover) hover(st.hover, st.shift);
    },
  };
}
