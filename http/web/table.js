// The tabletop board, for systems measured in inches or centimetres (Dropzone, Warfare
// and those to come): the table with its bases, facings and terrain; the selected
// weapon's arcs and range rings; the line of sight to the hovered target, green when
// clear and red when not, with the reason. Build a shooting declaration for a squad (or
// a unit's fire), see its exact odds as histograms before rolling, then roll.

import {ask, errorBox, showError} from './api.js';
import {h, s, pct, signed, sideColour, swatch} from './dom.js';
import {histogram} from './chart.js';
import {resultText} from './log.js';
import {dangerImage} from './advisor.js';

// The drawing is about 800 units wide whatever the table's size, so that labels and
// markers keep their size on screen; K is its pixels per inch or centimetre.
const DRAWING_WIDTH = 800;
let K = 24;

export function mount(field, controls, ctx) {
  // choice is what acts (a squad, a unit, a battery…: one of the view's declare.choices);
  // rows are its weapons' targets (rows "weapons") or its targets (rows "targets" or
  // "single"); fields the action's own fields.
  const st = {choice: null, rows: [], active: -1, fields: {}, targets: [], hoverUnit: null, aim: null, aims: [], aimTarget: null, aimSeq: 0, oddsSeq: 0};
  const svg = s('svg', {class: 'board table', id: 'board', tabindex: 0, role: 'application',
    'aria-label': 'The table. Tab to a unit and press Enter to select it or make it the target.'});
  const info = h('p', {class: 'hover-info', id: 'hover-info'});
  field.replaceChildren(svg, info);
  const panel = h('div', {class: 'panel', id: 'declare'});
  const actError = errorBox('act-error');
  const aimBox = h('section', {class: 'panel aim', id: 'aim', 'aria-live': 'polite'});
  const oddsBox = h('section', {class: 'panel odds', id: 'odds', 'aria-live': 'polite'});
  const resultBox = h('section', {class: 'panel result', id: 'result', 'aria-live': 'polite'});
  controls.replaceChildren(panel, actError, aimBox, oddsBox, resultBox);

  const T = () => ctx.view.table;
  const D = () => ctx.view.table.declare;
  const unit = (id) => T().units.find((u) => u.id === id);
  const stateOf = (id) => ctx.view.state.units.find((u) => u.id === id);
  const X = (x) => (x - T().bounds[0]) * K;
  const Y = (y) => (T().bounds[3] - y) * K; // y grows north, drawn upwards
  // choiceOf is the choice a clicked unit acts in: the chosen one if it holds the unit (a
  // group of batteries), else the first that does.
  const choiceOf = (id) => (st.choice?.units.includes(id) ? st.choice : D().choices.find((c) => c.units.includes(id)));
  const sameChoice = (a, b) => a && b && JSON.stringify(a.action) === JSON.stringify(b.action);
  const radius = (u) => (u.base > 0 ? u.base / 2 : 12 / K); // no base size: a 12-unit marker
  // targetOf is what pointing at u aims at: u, or its squad where targets are squads of
  // models; members are the drawn units a target stands for.
  const targetOf = (u) => (D().target_squad && u.squad ? u.squad : u.id);
  const members = (id) => (unit(id) ? [unit(id)] : T().units.filter((u) => u.squad === id));
  const targetName = (id) => {
    const m = members(id)[0];
    return m ? `${stateOf(id)?.name || m.name} (${m.side})` : id;
  };

  // ---- the action being built ----

  // The acting units: those of the chosen squad, unit, battery or marker.
  function firers() {
    return T().units.filter((u) => st.choice && st.choice.units.includes(u.id) && !u.destroyed);
  }
  const firingSide = () => st.choice?.side;

  // row is one declared target as the action sends it, with the row's fields.
  function row(t) {
    const r = {[D().target_key]: t.unit};
    for (const f of D().row_fields || []) {
      const x = t[f.key];
      if (f.kind === 'number' && Number(x)) r[f.key] = Number(x);
      else if (f.kind === 'checks' && x?.length) r[f.key] = x;
      else if (f.kind === 'select' && x) r[f.key] = x;
    }
    return r;
  }

  // verbs are the buttons that resolve the action: the view's verbs, else its one verb.
  const verbs = () => (D().verbs?.length ? D().verbs : [{label: D().verb}]);
  // The verb whose action the odds show: the first that declares targets.
  const mainVerb = () => verbs().find((v) => !v.no_target) || verbs()[0];

  // action is the action as verb sends it: what the choice and the verb fix, the targets
  // (unless the verb takes none) and the action's own fields.
  function action(verb = mainVerb()) {
    const a = {...st.choice.action, ...verb.action};
    if (verb.no_target) {
      // Nothing to aim at (saving fire).
    } else if (D().rows === 'weapons') {
      a[D().rows_key] = st.rows.filter((r) => r.target).map((r) => ({unit: r.unit, weapon: r.weapon, [D().target_key]: r.target}));
    } else if (D().rows === 'targets') {
      a[D().rows_key] = st.targets.map(row);
    } else if (st.targets[0]) {
      a[D().target_key] = st.targets[0].unit;
    }
    for (const f of D().fields || []) {
      const x = st.fields[f.key];
      if (f.kind === 'flag' && x) a[f.key] = true;
      if (f.kind === 'select' && x) a[f.key] = x;
      if (f.kind === 'unit_numbers') {
        const n = Object.fromEntries(Object.entries(x || {}).filter(([, v]) => Number(v) > 0).map(([k, v]) => [k, Number(v)]));
        if (Object.keys(n).length) a[f.key] = n;
      }
    }
    return a;
  }
  // A single target may be left to the rules (Republique's main target rule).
  const hasTargets = () => (D().rows === 'weapons' ? st.rows.some((r) => r.target) : D().rows === 'single' || st.targets.length > 0);

  // aimOne is the action of one weapon (or the chosen firer) at one target: what hovering
  // a target asks about.
  function aimOne(targetID) {
    if (!st.choice) return null;
    const a = {...st.choice.action, ...mainVerb().action};
    if (D().rows === 'weapons') {
      const r = st.rows[st.active] || st.rows[0];
      if (!r) return null;
      a[D().rows_key] = [{unit: r.unit, weapon: r.weapon, [D().target_key]: targetID}];
    } else if (D().rows === 'targets') {
      a[D().rows_key] = [{[D().target_key]: targetID}];
    } else {
      a[D().target_key] = targetID;
    }
    return a;
  }

  // select chooses c to act: the choice unit u is in when it was clicked (its first weapon
  // becomes the active row), or a choice from the list (with its first row active).
  function select(c, u = null) {
    clearTimeout(timer);
    st.aimSeq++;
    if (!c) return;
    if (!sameChoice(c, st.choice)) {
      st.choice = c;
      st.rows = [];
      st.targets = [];
      st.fields = {};
      if (D().rows === 'weapons') {
        for (const m of T().units.filter((x) => c.units.includes(x.id) && !x.destroyed)) {
          for (const w of m.weapons) st.rows.push({unit: m.id, weapon: w.name, target: ''});
        }
      }
    }
    st.active = u ? st.rows.findIndex((r) => r.unit === u.id) : (st.rows.length ? 0 : -1);
    st.aim = null;
    draw();
    refreshOdds();
  }

  // share divides the choice's count among the target rows for fields that share it
  // (Warfare's stands), the first targets taking any remainder; the player may change it.
  function share() {
    const n = st.choice.count || 0;
    for (const f of (D().row_fields || []).filter((x) => x.share)) {
      st.targets.forEach((t, j) => { t[f.key] = Math.floor(n / st.targets.length) + (j < n % st.targets.length ? 1 : 0); });
    }
  }

  // choose makes u the target of the active weapon, adds or removes it as a target, or
  // makes it the one target, as the view's rows say.
  function choose(u) {
    const id = targetOf(u);
    if (D().rows === 'weapons') {
      const r = st.rows[st.active];
      if (!r) return;
      r.target = r.target === id ? '' : id;
    } else {
      const i = st.targets.findIndex((t) => t.unit === id);
      if (i >= 0) st.targets.splice(i, 1);
      else if (D().rows === 'single') st.targets = [{unit: id}];
      else st.targets.push(Object.fromEntries([['unit', id], ...(D().row_fields || []).map((f) => [f.key, f.kind === 'checks' ? [] : ''])]));
      share();
    }
    draw();
    refreshOdds();
  }

  function clickUnit(u) {
    const side = firingSide();
    if (side && u.side !== side && !u.destroyed && !ctx.view.ended) choose(u);
    else if (!u.destroyed) select(choiceOf(u.id), u);
    // The redraw replaced the unit's node: give the keyboard its place back.
    svg.querySelector(`[data-unit="${CSS.escape(u.id)}"]`)?.focus();
  }

  // ---- aim on hover: the line of sight and its reason ----

  let timer = 0;
  function hoverUnit(u) {
    st.hoverUnit = u ? u.id : null;
    info.textContent = u ? `${u.name} ${u.id} (${u.side})${u.destroyed ? ', destroyed' : ''}` : '';
    const side = firingSide();
    clearTimeout(timer);
    if (!u || !side || u.side === side) { st.aim = null; st.aims = []; drawSight(); return; }
    timer = setTimeout(async () => {
      const target = targetOf(u);
      const a = aimOne(target);
      if (!a) return;
      const seq = ++st.aimSeq;
      try {
        const res = await ask(ctx.id, 'aim', a, ctx.reader());
        if (seq !== st.aimSeq) return;
        // With sight lines the aim is every firer–target pair: show the first that can
        // fire in detail, and draw them all.
        st.aims = res.aims;
        st.aimTarget = target;
        st.aim = (D().sight_lines && res.aims.find((x) => x.status === 'ok')) || res.aims[0];
        showAim();
      } catch (err) {
        if (seq !== st.aimSeq) return;
        st.aim = null;
        st.aims = [];
        aimBox.replaceChildren(h('h2', {}, 'Aim'), h('p', {class: 'error'}, err.message));
      }
      drawSight();
    }, 40);
  }

  function showAim() {
    const a = st.aim;
    const parts = [h('h2', {}, `Aim: ${a.shooter} ${a.weapon} → ${a.target}`)];
    if (D().sight_lines && st.aims.length > 1) {
      const seen = st.aims.filter((x) => x.status === 'ok').length;
      parts.push(h('p', {class: 'help', id: 'aim-summary'}, `${seen} of ${st.aims.length} lines of sight can fire; each is drawn on the table (hover one for its reason).`));
    }
    if (a.status === 'ok') {
      parts.push(h('p', {class: 'status ok', id: 'aim-status'}, 'Line of sight clear'),
        h('p', {class: 'chance'}, 'Chance to hit ', h('strong', {id: 'aim-chance', 'data-p': a.p_hit}, pct(a.p_hit)),
          a.die ? ` (${a.need}+ on a d${a.die})` : ''));
    } else {
      const label = {blocked: 'Line of sight blocked', out_of_range: 'Out of range', out_of_arc: 'Out of arc', not_eligible: 'Cannot fire'}[a.status] || a.status;
      parts.push(h('p', {class: 'status bad', id: 'aim-status'}, label));
    }
    parts.push(h('p', {id: 'aim-reason'}, a.reason), h('p', {}, `Range ${a.range} ${a.range_unit}`));
    if (a.modifiers?.length) {
      parts.push(h('table', {class: 'terms', id: 'aim-terms'}, h('tbody', {}, a.modifiers.map((m) => h('tr', {}, h('td', {}, m.rule), h('td', {class: 'num'}, signed(m.value)))))));
    }
    for (const n of a.notes || []) parts.push(h('p', {class: 'help'}, n));
    aimBox.replaceChildren(...parts);
  }

  // ---- the odds of the whole declaration, before rolling ----

  async function refreshOdds() {
    const seq = ++st.oddsSeq;
    if (!hasTargets()) {
      oddsBox.replaceChildren(h('h2', {}, 'Odds'), h('p', {class: 'help'}, 'Declare a target to see the exact odds.'));
      return;
    }
    try {
      const res = await ask(ctx.id, 'odds', action(), ctx.reader());
      if (seq !== st.oddsSeq) return;
      const parts = [h('h2', {}, 'Odds before rolling')];
      // A shot the rules refuse is a fact of the declaration, not a failure of the page.
      for (const a of res.aims.filter((x) => x.status !== 'ok')) {
        parts.push(h('p', {class: 'refused'}, `${a.shooter} ${a.weapon} → ${a.target}: ${a.reason}`));
      }
      for (const t of res.targets) {
        const [measure, dist] = Object.entries(t.distributions).find(([k]) => k === 'damage' || k === 'casualties') || Object.entries(t.distributions)[0] || [];
        if (!dist) continue;
        parts.push(histogram(dist, {title: `${t.target}: ${measure}`, id: 'hist-' + t.target}),
          h('p', {class: 'help'}, `P(destroyed) ${pct(t.p_destroyed)}`));
      }
      const vals = Object.entries(res.values || {});
      if (vals.length) parts.push(h('p', {class: 'help'}, vals.map(([k, v]) => `${k.replaceAll('_', ' ')} ${Number.isInteger(v) ? v : v.toFixed(3)}`).join(' · ')));
      oddsBox.replaceChildren(...parts);
    } catch (err) {
      if (seq !== st.oddsSeq) return;
      const box = errorBox('odds-error');
      oddsBox.replaceChildren(h('h2', {}, 'Odds'), box);
      showError(box, err);
    }
  }

  async function shoot(button, verb) {
    showError(actError, null);
    button.disabled = true;
    try {
      const res = await ctx.act(action(verb), firingSide());
      const o = res.outcome;
      resultBox.replaceChildren(h('h2', {}, `#${res.seq}: rolled`),
        h('p', {id: 'dice'}, 'Dice: ', o.rolls.map((r) => `d${r.sides} ${r.value}`).join(', ') || 'none'),
        o.targets?.length ? h('ul', {id: 'hits'}, o.targets.map((t) => h('li', {}, resultText(t)))) : h('p', {id: 'hits'}, 'No effect.'));
      for (const r of st.rows) r.target = '';
      st.targets = [];
      draw();
      refreshOdds();
    } catch (err) {
      showError(actError, err);
    } finally { button.disabled = false; }
  }

  // ---- drawing ----

  const layers = {};
  function draw() {
    const [x0, y0, x1, y1] = T().bounds;
    K = Math.min(80, Math.max(4, DRAWING_WIDTH / Math.max(x1 - x0, y1 - y0)));
    svg.setAttribute('viewBox', `0 0 ${(x1 - x0) * K} ${(y1 - y0) * K}`);
    const lines = [];
    const major = T().unit === 'cm' ? 10 : 6;
    for (let x = Math.ceil(x0); x <= x1; x++) lines.push(s('line', {x1: X(x), y1: 0, x2: X(x), y2: (y1 - y0) * K, class: x % major ? 'gl' : 'gl5'}));
    for (let y = Math.ceil(y0); y <= y1; y++) lines.push(s('line', {x1: 0, y1: Y(y), x2: (x1 - x0) * K, y2: Y(y), class: y % major ? 'gl' : 'gl5'}));
    const labels = [];
    for (let x = Math.ceil(x0 / major) * major; x <= x1; x += major) labels.push(s('text', {x: X(x) + 2, y: (y1 - y0) * K - 4, class: 'ruler'}, `${x}${T().unit === 'cm' ? 'cm' : '"'}`));
    for (let y = Math.ceil(y0 / major) * major; y <= y1; y += major) labels.push(s('text', {x: 2, y: Y(y) - 2, class: 'ruler'}, `${y}${T().unit === 'cm' ? 'cm' : '"'}`));
    layers.ground = s('g', {}, s('rect', {x: 0, y: 0, width: (x1 - x0) * K, height: (y1 - y0) * K, class: 'cloth'}), lines, labels);
    layers.terrain = s('g', {class: 'terrain'}, T().terrain.map((t) => s('g', {},
      s('title', {}, `${t.id}: height ${t.height}${t.blocks_los ? ', blocks line of sight' : ''}`),
      s('polygon', {points: t.polygon.map(([x, y]) => `${X(x)},${Y(y)}`).join(' '), class: t.blocks_los ? 'piece solid' : 'piece'}),
      s('text', {x: X(t.polygon.reduce((m, p) => m + p[0], 0) / t.polygon.length), y: Y(t.polygon.reduce((m, p) => m + p[1], 0) / t.polygon.length), class: 'label'}, `${t.id} ${t.height}${T().unit === 'cm' ? 'cm' : '"'}`))));
    layers.reach = s('g', {class: 'reach'});
    layers.decl = s('g', {class: 'decl'});
    layers.sight = s('g', {class: 'sight', id: 'sight'});
    layers.units = s('g', {class: 'units'});
    layers.danger = s('g', {class: 'danger', id: 'danger-layer'});
    svg.replaceChildren(layers.ground, layers.danger, layers.terrain, layers.reach, layers.decl, layers.sight, layers.units);
    drawDanger();
    drawUnits();
    drawReach();
    drawDeclared();
    drawSight();
    drawPanel();
  }

  // The danger map (advisor.js asks for it): one pixel per point, stretched over the
  // area it covers, under the terrain and the units.
  function drawDanger() {
    const m = st.danger;
    if (!m) { layers.danger.replaceChildren(); return; }
    const half = m.step / 2;
    layers.danger.replaceChildren(s('image', {href: dangerImage(m), x: X(m.x0 - half), y: Y(m.y0 - half + m.rows * m.step),
      width: m.cols * m.step * K, height: m.rows * m.step * K, preserveAspectRatio: 'none', class: 'danger-map',
      dataset: {x0: m.x0, y0: m.y0, step: m.step, cols: m.cols, rows: m.rows, max: m.max}},
    s('title', {}, `danger map: ${m.scores} of ${m.placed} of ${m.side}`)));
  }

  function drawUnits() {
    const sides = ctx.view.sides;
    const firing = new Set(firers().map((u) => u.id));
    layers.units.replaceChildren(...T().units.filter((u) => u.placed).map((u) => {
      const cx = X(u.x), cy = Y(u.y), r = radius(u) * K;
      const col = u.destroyed ? '#9e9e9e' : sideColour(sides, u.side);
      const g = s('g', {class: 'unit' + (firing.has(u.id) ? ' selected' : '') + (u.destroyed ? ' destroyed' : ''), 'data-unit': u.id, tabindex: 0, role: 'button',
        'aria-label': `${u.name} ${u.id}, ${u.side}${u.destroyed ? ', destroyed' : ''}`},
      s('title', {}, `${u.name} ${u.id} (${u.side})`),
      // Rectangular bases where the system has them (Republique), else one round base.
      u.bases?.length ? u.bases.map((b) => s('polygon', {points: b.map(([x, y]) => `${X(x)},${Y(y)}`).join(' '), fill: col, 'fill-opacity': 0.85, class: 'base rect'}))
        : s('circle', {cx, cy, r, fill: col, 'fill-opacity': 0.85, class: 'base'}));
      if (u.facing !== undefined && u.facing !== null) {
        const rad = ((u.facing - 90) * Math.PI) / 180;
        g.append(s('line', {x1: cx, y1: cy, x2: cx + Math.cos(rad) * (r + 6), y2: cy + Math.sin(rad) * (r + 6), class: 'facing-tick'}));
      }
      g.append(s('text', {x: cx, y: cy + r + 12, class: 'label'}, u.id));
      if (u.destroyed) g.append(s('line', {x1: cx - r, y1: cy - r, x2: cx + r, y2: cy + r, class: 'x'}), s('line', {x1: cx - r, y1: cy + r, x2: cx + r, y2: cy - r, class: 'x'}));
      g.addEventListener('mouseenter', () => hoverUnit(u));
      g.addEventListener('mouseleave', () => hoverUnit(null));
      g.addEventListener('focus', () => hoverUnit(u));
      g.addEventListener('click', () => clickUnit(u));
      g.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); clickUnit(u); } });
      return g;
    }));
  }

  // drawReach draws, for the active weapon (or every weapon of the firing unit), its arcs
  // as wedges and its range bands as rings.
  function drawReach() {
    const items = [];
    const active = D().rows === 'weapons' ? st.rows[st.active] : null;
    for (const u of firers()) {
      if (!u.placed) continue;
      const ws = active ? (active.unit === u.id ? u.weapons.filter((w) => w.name === active.weapon) : []) : u.weapons;
      const edge = T().measured === 'edge' ? radius(u) : 0;
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
    // The shapes the rules measure with, for the acting units: arcs, zones, lines.
    const own = new Set(firers().map((u) => u.id));
    for (const o of T().overlays || []) {
      if (o.owner && !own.has(o.owner)) continue; // no owner: always drawn (obstacles)
      const pts = o.points.map(([x, y]) => `${X(x)},${Y(y)}`).join(' ');
      items.push(o.kind === 'line' || o.kind === 'obstacle'
        ? s('polyline', {points: pts, class: 'overlay line', 'data-overlay': o.kind}, s('title', {}, o.label))
        : s('polygon', {points: pts, class: 'overlay ' + o.kind, 'data-overlay': o.kind}, s('title', {}, o.label)));
    }
    layers.reach.replaceChildren(...items);
  }

  function wedge(cx, cy, r, from, to) {
    const p = (a) => [cx + Math.cos(((a - 90) * Math.PI) / 180) * r, cy + Math.sin(((a - 90) * Math.PI) / 180) * r];
    const [ax, ay] = p(from), [bx, by] = p(to);
    return `M${cx},${cy} L${ax},${ay} A${r},${r} 0 ${to - from > 180 ? 1 : 0} 1 ${bx},${by} Z`;
  }

  function drawDeclared() {
    const marks = [];
    // Each weapon to its target, or every acting unit (a group of batteries) to each target.
    const pairs = D().rows === 'weapons' ? st.rows.filter((r) => r.target).map((r) => [r.unit, r.target])
      : st.targets.flatMap((t) => firers().map((f) => [f.id, t.unit]));
    for (const [a, b] of pairs) {
      const u = unit(a);
      if (!u?.placed) continue;
      // A target squad is marked on each of its models, with one line to the nearest.
      const ts = members(b).filter((t) => t.placed && !t.destroyed);
      const t = ts.reduce((best, m) => (!best || Math.hypot(m.x - u.x, m.y - u.y) < Math.hypot(best.x - u.x, best.y - u.y) ? m : best), null);
      if (!t) continue;
      marks.push(s('line', {x1: X(u.x), y1: Y(u.y), x2: X(t.x), y2: Y(t.y), class: 'target-line'}),
        ...ts.map((m) => s('circle', {cx: X(m.x), cy: Y(m.y), r: (radius(m) + 0.3) * K, class: 'marker'})));
    }
    layers.decl.replaceChildren(...marks);
  }

  function drawSight() {
    const a = st.aim;
    const hovered = st.hoverUnit && unit(st.hoverUnit);
    if (D().sight_lines && a && hovered && st.aimTarget === targetOf(hovered)) {
      // Every pair's line: green where it can fire, red with its reason where not.
      const lines = [];
      for (const x of st.aims) {
        const u = unit(x.shooter), t = unit(x.target);
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
    const u = unit(a.shooter), t = unit(a.target);
    if (!u?.placed || !t?.placed) { layers.sight.replaceChildren(); return; }
    const ok = a.status === 'ok';
    layers.sight.replaceChildren(
      s('line', {x1: X(u.x), y1: Y(u.y), x2: X(t.x), y2: Y(t.y), class: 'los ' + (ok ? 'clear' : 'blocked'), id: 'los-line'}),
      s('text', {x: (X(u.x) + X(t.x)) / 2 + 6, y: (Y(u.y) + Y(t.y)) / 2, class: 'los-label ' + (ok ? 'clear' : 'blocked')}, ok ? pct(a.p_hit) : a.status.replaceAll('_', ' ')));
  }

  // drawPanel is the declaration as the view describes it: the choice of who acts, its
  // rows of targets with their fields, the action's own fields, and the button.
  function drawPanel() {
    const v = ctx.view;
    const d = D();
    const parts = [];
    const chooser = h('select', {id: 'firer', 'aria-label': d.firer_label},
      h('option', {value: ''}, d.prompt || `— choose: ${d.firer_label.toLowerCase()} —`));
    // A choice is named in the list by its first unit, as a player knows it; a group that
    // shares its first unit with an earlier choice, by all its units.
    const key = (c, i) => (d.choices.findIndex((x) => x.units[0] === c.units[0]) === i ? c.units[0] : c.units.join('+'));
    d.choices.forEach((c, i) => chooser.append(h('option', {value: key(c, i), selected: sameChoice(c, st.choice)}, c.label)));
    chooser.addEventListener('change', () => select(d.choices.find((c, i) => key(c, i) === chooser.value)));
    parts.push(h('h2', {}, d.title), h('label', {class: 'block', for: 'firer'}, d.firer_label), chooser);
    const enemyUnits = T().units.filter((u) => firingSide() && u.side !== firingSide() && !u.destroyed);
    // The targets a player may add: enemy units, or their squads where targets are squads.
    const enemies = [...new Map(enemyUnits.map((u) => [targetOf(u), {id: targetOf(u), name: targetName(targetOf(u)).replace(/ \(.*\)$/, ''), side: u.side}])).values()];
    if (st.choice && d.help) parts.push(h('p', {class: 'help'}, d.help));
    if (st.choice?.note) parts.push(h('p', {class: 'help', id: 'choice-note'}, st.choice.note));
    if (st.choice && d.rows === 'weapons') {
      const rows = st.rows.map((r, i) => {
        const sel = h('select', {'aria-label': `${r.unit} ${r.weapon} target`, 'data-row': i}, h('option', {value: ''}, '— no target —'),
          enemies.map((e) => h('option', {value: e.id, selected: e.id === r.target}, e.id)));
        sel.addEventListener('change', () => { r.target = sel.value; st.active = i; draw(); refreshOdds(); });
        const pick = h('button', {class: 'weapon' + (i === st.active ? ' on' : ''), 'aria-pressed': String(i === st.active), 'data-weapon': r.weapon, 'data-unit': r.unit,
          onclick: () => { st.active = i; draw(); }}, `${r.unit}: ${r.weapon}`);
        return h('tr', {class: i === st.active ? 'active' : ''}, h('td', {}, pick), h('td', {}, sel));
      });
      parts.push(h('table', {class: 'decl-table'}, h('tbody', {}, rows)));
    }
    if (st.choice && d.rows !== 'weapons') {
      const u = firers()[0];
      const add = h('select', {id: 'add-target', 'aria-label': d.rows === 'single' ? 'Target' : 'Add a target'},
        h('option', {value: ''}, d.rows === 'single' ? '— the rules choose —' : '— add a target —'),
        enemies.filter((e) => d.rows === 'single' || !st.targets.some((t) => t.unit === e.id)).map((e) => h('option', {value: e.id, selected: d.rows === 'single' && st.targets[0]?.unit === e.id}, `${e.name} (${e.side})`)));
      add.addEventListener('change', () => {
        const e = members(add.value)[0];
        if (e) choose(e);
        else { st.targets = []; draw(); refreshOdds(); }
      });
      parts.push(add);
      for (const t of d.rows === 'targets' ? st.targets : []) {
        const fields = (d.row_fields || []).map((f) => rowField(f, t, u));
        parts.push(h('fieldset', {class: 'group'}, h('legend', {}, '→ ', t.unit), fields));
      }
    }
    if (st.choice) for (const f of d.fields || []) parts.push(actionField(f));
    if (st.choice && !v.ended) {
      // The first button is #shoot, whatever its verb; a verb without targets needs none.
      const buttons = verbs().map((verb, i) => {
        const b = h('button', {id: i ? `shoot-${i}` : 'shoot', class: i ? '' : 'primary', 'data-verb': verb.label, disabled: !verb.no_target && !hasTargets()}, verb.label);
        b.addEventListener('click', () => shoot(b, verb));
        return b;
      });
      parts.push(h('div', {class: 'row'}, buttons));
    }
    const valuesOf = (su) => Object.entries(su?.values || {}).filter(([k]) => !k.startsWith('max_'))
      .map(([k, x]) => `${k.replaceAll('_', ' ')} ${d.values?.[k]?.[x] ?? x}`).join(', ');
    // Drawn units with a state of their own, then squads of models, their models named.
    const own = T().units.filter((u) => stateOf(u.id) || !u.squad || !stateOf(u.squad));
    const squads = v.state.units.filter((su) => !unit(su.id) && T().units.some((u) => u.squad === su.id));
    parts.push(h('h3', {}, 'Units'), h('ul', {class: 'unit-list'}, own.map((u) =>
      h('li', {}, swatch(sideColour(v.sides, u.side)), `${u.id} (${u.name}) ${valuesOf(stateOf(u.id))}${u.destroyed ? ' — destroyed' : ''}${u.placed ? '' : ' — not on the table'}`)),
    squads.map((su) => {
      const ms = T().units.filter((u) => u.squad === su.id);
      return h('li', {'data-squad': su.id}, swatch(sideColour(v.sides, su.side)), `${su.id} (${su.name}) ${valuesOf(su)}${su.destroyed ? ' — destroyed' : ''}; models ${ms.map((m) => m.id + (m.destroyed ? ' †' : '')).join(', ')}`);
    })));
    panel.replaceChildren(...parts);
  }

  // rowField is one field of a target row.
  function rowField(f, t, u) {
    if (f.kind === 'number') {
      const inp = h('input', {type: 'number', min: 1, value: t[f.key], placeholder: 'all', class: 'short', 'aria-label': `${f.label} firing at ${t.unit}`});
      inp.addEventListener('change', () => { t[f.key] = inp.value; refreshOdds(); });
      return h('label', {}, f.label + ' ', inp);
    }
    if (f.kind === 'select') {
      const empty = unit(t.unit).placed && u?.placed ? f.empty : `— ${f.label} band —`;
      const sel = h('select', {'aria-label': `${f.label} band to ${t.unit}`}, h('option', {value: ''}, empty),
        f.options.map((o) => h('option', {value: o, selected: t[f.key] === o}, o)));
      sel.addEventListener('change', () => { t[f.key] = sel.value; refreshOdds(); });
      return h('label', {}, f.label + ' ', sel);
    }
    return (f.options || []).map((m) => {
      const c = h('input', {type: 'checkbox', checked: t[f.key].includes(m)});
      c.addEventListener('change', () => { t[f.key] = c.checked ? [...t[f.key], m] : t[f.key].filter((x) => x !== m); refreshOdds(); });
      return h('label', {class: 'check'}, c, ' ', m);
    });
  }

  // actionField is one field of the whole action: a flag, or a number per acting unit.
  function actionField(f) {
    if (f.kind === 'select') {
      const sel = h('select', {'aria-label': f.label, 'data-field': f.key}, h('option', {value: ''}, f.empty || '—'),
        (f.options || []).map((o) => h('option', {value: o, selected: st.fields[f.key] === o}, o.replaceAll('_', ' '))));
      sel.addEventListener('change', () => { st.fields[f.key] = sel.value; refreshOdds(); });
      return h('label', {class: 'block'}, f.label + ' ', sel);
    }
    if (f.kind === 'flag') {
      const c = h('input', {type: 'checkbox', checked: !!st.fields[f.key]});
      c.addEventListener('change', () => { st.fields[f.key] = c.checked; refreshOdds(); });
      return h('label', {class: 'check'}, c, ' ', f.label);
    }
    st.fields[f.key] ||= {};
    return h('div', {class: 'moved'}, h('span', {}, `${f.label}: `),
      firers().map((u) => {
        const inp = h('input', {type: 'number', min: 0, step: 0.5, value: st.fields[f.key][u.id] || 0, 'aria-label': `${u.id} ${f.key}`, class: 'short'});
        inp.addEventListener('change', () => { st.fields[f.key][u.id] = inp.value; refreshOdds(); });
        return h('label', {}, u.id, ' ', inp);
      }));
  }

  aimBox.replaceChildren(h('h2', {}, 'Aim'), h('p', {class: 'help'}, 'Choose who fires, then point at an enemy.'));
  refreshOdds();
  return {
    // setDanger shows a danger map over the table, or takes it away (null).
    setDanger(m) {
      st.danger = m;
      if (layers.danger) drawDanger();
    },
    // update redraws after the battle changed; aims and odds taken before are stale.
    update() {
      clearTimeout(timer);
      st.aimSeq++;
      if (st.hoverUnit && st.aim) aimBox.replaceChildren(h('h2', {}, 'Aim'), h('p', {class: 'help'}, 'Point at an enemy again to see its aim now.'));
      st.aim = null;
      draw();
      refreshOdds();
    },
  };
}
