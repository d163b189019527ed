// The tabletop board, for systems measured in inches or centimetres: the table with its
// bases, facings and terrain; the chosen firer's arcs and range rings; the line of sight
// to the unit pointed at, green when clear and red when not, with the reason. Build a
// declaration (who fires, at what), see its exact odds as histograms before rolling,
// then roll. What an action holds, and how it is built, comes from the view's
// table.declare (docs/json.md): the page knows no rule system.
//
// This file holds the declaration being built and what the API answers about it;
// tabledraw.js draws the table, declare.js the panel that builds the declaration.

import {ask, errorBox, explain, showError} from './api.js';
import {h, s, pct, signed, sideKey, num, length, status, tidy} from './dom.js';
import {histogram} from './chart.js';
import {resultText} from './log.js';
import {drawTable, drawSight, drawDanger, drawGhost, highlightUnit} from './tabledraw.js';
import {drawPanel} from './declare.js';
import {unitsTable} from './units.js';
import {viewport} from './viewport.js';
import {tableMover} from './tablemove.js';

// The drawing is about 800 units wide whatever the table's size; K is its units per
// inch or centimetre.
const DRAWING_WIDTH = 800;

export function mount(field, controls, ctx) {
  // The log's actions whose effects the board shows (the last shot, the turn's paths);
  // none where the page gives no log.
  ctx.entries ||= () => [];
  // choice is what acts (a squad, a unit, a battery…: one of the view's declare.choices);
  // rows are its weapons' targets (rows "weapons") or its targets (rows "targets" or
  // "single"); fields the action's own fields.
  const st = {choice: null, rows: [], active: -1, fields: {}, targets: [], hoverUnit: null, hl: null, aim: null, aims: [], aimTarget: null, aimSeq: 0, oddsSeq: 0, danger: null};
  const svg = s('svg', {class: 'board table', id: 'board', tabindex: 0, role: 'application',
    'aria-label': 'The table. Tab to a unit and press Enter to choose it or make it the target; + and − zoom, 0 fits the units, the arrows pan.'});
  const info = h('p', {class: 'hover-info', id: 'hover-info', 'aria-live': 'polite'});
  const panel = h('div', {class: 'panel', id: 'declare'});
  const actError = errorBox('act-error');
  const warnBox = h('div', {class: 'warn', id: 'shoot-warn', role: 'alert', hidden: true});
  const aimBox = h('section', {class: 'panel aim', id: 'aim', 'aria-live': 'polite'});
  const oddsBox = h('section', {class: 'panel odds', id: 'odds', 'aria-live': 'polite'});
  const resultBox = h('section', {class: 'panel result', id: 'result', 'aria-live': 'polite'});
  controls.replaceChildren(panel, warnBox, actError, aimBox, oddsBox, resultBox);

  const T = () => ctx.view.table;
  const D = () => ctx.view.table.declare;
  const m = {
    svg, st, ctx, T, D, layers: {}, K: 24,
    unit: (id) => T().units.find((u) => u.id === id),
    stateOf: (id) => ctx.view.state.units.find((u) => u.id === id),
    // B is what the drawing covers: the view's bounds, and the table's edge where it has one.
    B: () => {
      const b = T().bounds, e = T().edge;
      return e ? [Math.min(b[0], e[0]), Math.min(b[1], e[1]), Math.max(b[2], e[2]), Math.max(b[3], e[3])] : b;
    },
    X: (x) => (x - m.B()[0]) * m.K,
    Y: (y) => (m.B()[3] - y) * m.K, // y grows north, drawn upwards
    radius: (u) => (u.base > 0 ? u.base / 2 : 12 / m.K), // no base size: a 12-unit marker
    // drawn says whether a unit is drawn: placed on the table, or destroyed where it fell
    // (a model removed from play keeps the place it fell at).
    drawn: (u) => u.placed || (u.destroyed && Number.isFinite(u.x) && Number.isFinite(u.y)),
    // targetOf is what pointing at u aims at: u, or its squad where targets are squads
    // of models; members are the drawn units a target stands for.
    targetOf: (u) => (D().target_squad && u.squad ? u.squad : u.id),
    members: (id) => (m.unit(id) ? [m.unit(id)] : T().units.filter((u) => u.squad === id)),
    // stateID is the unit of the state (a row of the units table) a drawn unit is part of.
    stateID: (u) => (m.stateOf(u.id) || !u.squad ? u.id : u.squad),
    // The acting units: those of the chosen squad, unit, battery or marker.
    firers: () => T().units.filter((u) => st.choice && st.choice.units.includes(u.id) && !u.destroyed),
    firingSide: () => st.choice?.side,
    // playing says whether this page may act for side: it holds the side's token.
    playing: (side) => !!ctx.token(side),
    hoverUnit, clickUnit, select, choose, refreshOdds, shoot, redraw: () => draw(),
    verbs: () => (D().verbs?.length ? D().verbs : [{label: D().verb}]),
    // hasTargets says whether the declaration says whom it fires at: its rows' targets,
    // or, where rows are single, a target chosen or one the rules choose.
    hasTargets: () => !!st.choice && (D().rows === 'weapons' ? st.rows.some((r) => r.target)
      : D().rows === 'single' ? st.targets.length > 0 || !st.choice.needs_target : st.targets.length > 0),
    panel,
  };
  // targetName names a target as a player knows it, with its id where its name is not
  // (two Hunters are "Hunter hunter-1" and "Hunter hunter-2"), and its side.
  const targetName = (id) => {
    const u = m.members(id)[0];
    if (!u) return id;
    const name = m.stateOf(id)?.name || u.name;
    return `${name && name !== id ? `${name} ${id}` : id} (${u.side})`;
  };
  m.targetName = targetName;
  // choiceOf is the choice a clicked unit acts in: the chosen one if it holds the unit (a
  // group of batteries), else the first that does, of a side this page plays.
  const choiceOf = (id) => (st.choice?.units.includes(id) ? st.choice : D().choices.find((c) => c.units.includes(id) && m.playing(c.side)));
  const sameChoice = (a, b) => a && b && JSON.stringify(a.action) === JSON.stringify(b.action);
  m.sameChoice = sameChoice;

  const vp = viewport(svg, {
    world: () => {
      const [x0, y0, x1, y1] = m.B();
      return [0, 0, (x1 - x0) * m.K, (y1 - y0) * m.K];
    },
    units: () => {
      const us = T().units.filter((u) => u.placed);
      if (!us.length) return null;
      const xs = us.flatMap((u) => [m.X(u.x) - m.radius(u) * m.K, m.X(u.x) + m.radius(u) * m.K]);
      const ys = us.flatMap((u) => [m.Y(u.y) - m.radius(u) * m.K, m.Y(u.y) + m.radius(u) * m.K]);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)];
    },
    onChange: (upp) => {
      m.placeLabels?.(upp);
      if (moving.mv.ghost()) moving.mv.render(); // the ghost's handles keep their size on screen
    },
    // A drag that starts on a unit of this page's sides (or on the ghost) moves it.
    claim: (ev) => moving.mv.claim(ev),
  });
  m.vp = vp;
  const moving = tableMover(m);
  vp.bar.append(moving.mv.exportButton, sideKey(ctx.view.sides));
  controls.prepend(moving.mv.panel);
  field.replaceChildren(vp.bar, svg, info);

  const units = unitsTable(ctx.unitsBox, {
    onHover: (id) => highlight(id),
    onPick: (id) => {
      const u = m.members(id).find((x) => x.placed && !x.destroyed) || m.members(id)[0];
      if (u) clickUnit(u);
    },
    selected: (id) => m.members(id).some((u) => st.choice?.units.includes(u.id)),
  });
  // highlight marks a unit of the state on the table and in the units table.
  function highlight(id) {
    st.hl = id;
    highlightUnit(m, id);
    units.highlight(id);
  }
  m.highlight = highlight;

  // ---- the action being built ----

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

  // The verb whose action the odds show: the first that declares targets.
  const mainVerb = () => m.verbs().find((v) => !v.no_target) || m.verbs()[0];

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

  // aimOne is the action of one weapon (or the chosen firer) at one target: what pointing
  // at a target asks about.
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
        for (const x of T().units.filter((y) => c.units.includes(y.id) && !y.destroyed)) {
          for (const w of x.weapons) st.rows.push({unit: x.id, weapon: w.name, target: ''});
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
    const id = m.targetOf(u);
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

  // clickUnit is a click, a tap or Enter on a unit: an enemy of the chosen firer becomes
  // a target (and its aim is shown: a tap is not a hover), a unit of a side this page
  // plays is chosen to fire, and any other unit is only pointed at.
  function clickUnit(u) {
    // With a ghost out, an enemy clicked is what the ghost aims at, and nothing more.
    const g = moving.mv.ghost();
    if (g && u.side !== g.side && !u.destroyed) {
      hoverUnit(u);
      moving.mv.aimAt(m.targetOf(u));
      return;
    }
    const side = m.firingSide();
    if (side && u.side !== side && !u.destroyed && !ctx.view.ended && m.playing(side)) {
      choose(u);
      hoverUnit(u);
    } else {
      // Not a target: the unit is selected for moving too, if this page plays it.
      moving.mv.select(u);
      if (!u.destroyed && choiceOf(u.id)) select(choiceOf(u.id), u);
      else hoverUnit(u);
    }
    // The redraw replaced the unit's node: give the keyboard its place back.
    if (svg.contains(document.activeElement) || document.activeElement === document.body) {
      svg.querySelector(`[data-unit="${CSS.escape(u.id)}"]`)?.focus({preventScroll: true});
    }
  }

  // ---- aim on hover: the line of sight and its reason ----

  let timer = 0;
  function hoverUnit(u) {
    st.hoverUnit = u ? u.id : null;
    highlight(u ? m.stateID(u) : null);
    info.textContent = u ? `${u.name} ${u.id} (${u.side})${u.destroyed ? ', destroyed' : ''}` : '';
    const side = m.firingSide();
    clearTimeout(timer);
    if (u && moving.mv.ghost()) moving.mv.aimAt(m.targetOf(u));
    if (!u || !side || u.side === side) { st.aim = null; st.aims = []; drawSight(m); return; }
    timer = setTimeout(async () => {
      const target = m.targetOf(u);
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
      drawSight(m);
    }, 40);
  }

  function showAim() {
    const a = st.aim;
    const parts = [h('h2', {}, `Aim: ${a.shooter} ${a.weapon} → ${a.target}`)];
    if (D().sight_lines && st.aims.length > 1) {
      const seen = st.aims.filter((x) => x.status === 'ok').length;
      parts.push(h('p', {class: 'help', id: 'aim-summary'}, `${seen} of ${st.aims.length} lines of sight can fire; each is drawn on the table (its reason in its tooltip).`));
    }
    if (a.status === 'ok') {
      parts.push(h('p', {class: 'status ok', id: 'aim-status'}, 'Line of sight clear'),
        h('p', {class: 'chance'}, 'Chance to hit ', h('strong', {id: 'aim-chance', 'data-p': a.p_hit}, pct(a.p_hit)),
          a.die ? ` (${a.need}+ on a d${a.die})` : ''));
    } else {
      const label = status(a.status).replace(/^./, (c) => c.toUpperCase());
      parts.push(h('p', {class: 'status bad', id: 'aim-status'}, label));
    }
    parts.push(h('p', {id: 'aim-reason'}, tidy(a.reason)), h('p', {}, `Range ${length(a.range, a.range_unit)}`));
    if (a.modifiers?.length) {
      parts.push(h('table', {class: 'terms', id: 'aim-terms'}, h('tbody', {}, a.modifiers.map((x) => h('tr', {}, h('td', {}, x.rule), h('td', {class: 'num'}, signed(x.value)))))));
    }
    for (const n of a.notes || []) parts.push(h('p', {class: 'help'}, n));
    aimBox.replaceChildren(...parts);
  }

  // ---- the odds of the whole declaration, before rolling ----

  async function refreshOdds() {
    const seq = ++st.oddsSeq;
    refuse('');
    if (!m.hasTargets()) {
      oddsBox.replaceChildren(h('h2', {}, 'Odds'), h('p', {class: 'help'}, st.choice ? 'Declare a target to see the exact odds.' : 'Choose who fires and a target to see the exact odds.'));
      return;
    }
    try {
      const res = await ask(ctx.id, 'odds', action(), ctx.reader());
      if (seq !== st.oddsSeq) return;
      const parts = [h('h2', {}, 'Odds before rolling')];
      // A shot the rules refuse is a fact of the declaration, not a failure of the page;
      // one of which nothing may fire is not offered.
      for (const a of res.aims.filter((x) => x.status !== 'ok')) {
        parts.push(h('p', {class: 'refused'}, `${a.shooter} ${a.weapon} → ${a.target}: ${tidy(a.reason)}`));
      }
      const none = res.aims.length && res.aims.every((x) => x.status !== 'ok');
      refuse(none ? `${status(res.aims[0].status).replace(/^./, (c) => c.toUpperCase())}: ${tidy(res.aims[0].reason)}` : '');
      for (const t of res.targets) {
        const [measure, dist] = Object.entries(t.distributions).find(([k]) => k === 'damage' || k === 'casualties') || Object.entries(t.distributions)[0] || [];
        if (!dist) continue;
        parts.push(histogram(dist, {title: `${t.target}: ${measure}`, id: 'hist-' + t.target}),
          h('p', {class: 'help'}, `P(destroyed) ${pct(t.p_destroyed)}`));
      }
      const vals = Object.entries(res.values || {});
      if (vals.length) parts.push(h('p', {class: 'help'}, vals.map(([k, v]) => `${k.replaceAll('_', ' ')} ${num(v)}`).join(' · ')));
      oddsBox.replaceChildren(...parts);
    } catch (err) {
      if (seq !== st.oddsSeq) return;
      const box = errorBox('odds-error');
      oddsBox.replaceChildren(h('h2', {}, 'Odds'), box);
      showError(box, err);
      // The rules refuse the declaration as it stands (not the server failing): it is
      // not offered, and why is said beside it.
      if (err.status === 400 || err.status === 409) refuse(explain(err));
    }
  }

  // refuse disables the verbs that declare targets, with the rules' reason beside them
  // ('' offers them again).
  function refuse(reason) {
    st.refused = reason;
    for (const b of m.panel.querySelectorAll('button[data-verb]')) {
      const verb = m.verbs().find((v) => v.label === b.dataset.verb);
      if (verb && !verb.no_target) b.disabled = !!reason || !m.hasTargets();
    }
    const why = m.panel.querySelector('#shoot-why');
    if (why) {
      why.textContent = reason;
      why.hidden = !reason;
    }
  }

  // activation is a warning where acting now with the choice would end a unit's move
  // under way: the last action was a move of another unit (or a model of it) of the same
  // side, which may still move. The page cannot know the rules of activations; it says
  // what it sees, and the player decides. '' when there is nothing to say.
  function activation() {
    const last = ctx.log?.actions?.at(-1);
    if (!last || last.side !== m.firingSide()) return '';
    let body;
    try { body = JSON.parse(last.action); } catch { return ''; }
    if (body.type !== 'move') return '';
    const moved = m.unit(body.unit) || m.members(body.unit)[0];
    if (!moved) return '';
    const sid = m.stateID(moved);
    const acting = new Set(m.firers().map((u) => m.stateID(u)));
    if (acting.has(sid)) return '';
    const more = T().units.filter((u) => m.stateID(u) === sid && !u.destroyed && u.move?.left > 0);
    if (!more.length) return '';
    const name = m.stateOf(sid)?.name || sid;
    return `${name} moved last and may still move (${more.map((u) => u.id).join(', ')}). Acting with ${[...acting].join(', ')} now may end its move for this turn.`;
  }

  async function shoot(button, verb) {
    showError(actError, null);
    const warn = activation();
    if (warn && warnBox.dataset.ok !== warn) {
      warnBox.replaceChildren(h('p', {}, warn),
        h('div', {class: 'row'},
          h('button', {type: 'button', id: 'shoot-anyway', class: 'primary', onclick: () => { warnBox.dataset.ok = warn; warnBox.hidden = true; shoot(button, verb); }}, `${verb.label} anyway`),
          h('button', {type: 'button', id: 'shoot-not-now', onclick: () => { warnBox.hidden = true; }}, 'Not now')));
      warnBox.hidden = false;
      return;
    }
    warnBox.hidden = true;
    button.disabled = true;
    try {
      const res = await ctx.act(action(verb), m.firingSide());
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

  function draw() {
    // A redraw replaces the units' nodes: the keyboard keeps its place on the same unit.
    const focused = svg.contains(document.activeElement) ? document.activeElement.closest?.('[data-unit]')?.dataset.unit : null;
    const [x0, y0, x1, y1] = m.B();
    m.K = Math.min(80, Math.max(4, DRAWING_WIDTH / Math.max(x1 - x0, y1 - y0)));
    // How the table maps onto the drawing, for whatever maps a point of the table to the
    // screen (the browser tests' drags).
    svg.dataset.scale = m.K;
    svg.dataset.origin = `${x0},${y1}`;
    drawTable(m);
    vp.update();
    m.placeLabels(vp.upp());
    drawPanel(m);
    units.draw(ctx.view);
    if (st.hl) highlight(st.hl);
    moving.mv.render();
    if (focused) svg.querySelector(`.unit[data-unit="${CSS.escape(focused)}"]`)?.focus({preventScroll: true});
  }

  aimBox.replaceChildren(h('h2', {}, 'Aim'), h('p', {class: 'help'}, 'Choose who fires, then point at (or tap) an enemy.'));
  refreshOdds();
  return {
    // setDanger shows a danger map over the table, or takes it away (null).
    setDanger(d) {
      st.danger = d;
      if (m.layers.danger) drawDanger(m);
    },
    // update redraws after the battle changed; aims and odds taken before are stale.
    update() {
      clearTimeout(timer);
      st.aimSeq++;
      if (st.choice) {
        // The same choice in the new view, or none: it may act no more (it was destroyed).
        st.choice = D().choices.find((c) => sameChoice(c, st.choice)) || null;
        if (!st.choice) {
          st.rows = [];
          st.targets = [];
        }
      }
      if (st.hoverUnit && st.aim) aimBox.replaceChildren(h('h2', {}, 'Aim'), h('p', {class: 'help'}, 'Point at an enemy again to see its aim now.'));
      st.aim = null;
      draw();
      moving.mv.update();
      refreshOdds();
    },
  };
}
