// The declaration panel of the tabletop (table.js holds the model m), as the view's
// table.declare describes it: the choice of who acts, among the sides this page plays;
// its rows of targets with their fields; the action's own fields; and the buttons that
// resolve it. A page that plays no side (a spectator's) has nothing here to choose.

import {h} from './dom.js';

export function drawPanel(m) {
  const {ctx, st, D, T} = m;
  const v = ctx.view;
  const d = D();
  const parts = [h('h2', {}, d.title)];
  // A choice is named in the list by its first unit, as a player knows it; a group that
  // shares its first unit with an earlier choice, by all its units.
  const key = (c, i) => (d.choices.findIndex((x) => x.units[0] === c.units[0]) === i ? c.units[0] : c.units.join('+'));
  const mine = d.choices.map((c, i) => [c, i]).filter(([c]) => m.playing(c.side));
  if (v.ended) {
    parts.push(h('p', {class: 'help', id: 'watching'}, v.replay !== undefined
      ? 'The battle as it stood at this step of the replay: point at a unit to see it.'
      : 'The battle has ended: point at a unit to see it; the log shows every shot.'));
    m.panel.replaceChildren(...parts);
    return;
  }
  if (!mine.length) {
    parts.push(h('p', {class: 'help', id: 'watching'}, v.sides.some((x) => m.playing(x))
      ? 'None of your units may act now.'
      : 'You are watching: point at or tap a unit to see it, and the log shows every shot. A side\'s token lets you play it.'));
    m.panel.replaceChildren(...parts);
    return;
  }
  const chooser = h('select', {id: 'firer', 'aria-label': d.firer_label},
    h('option', {value: ''}, d.prompt || `— choose: ${d.firer_label.toLowerCase()} —`));
  for (const [c, i] of mine) chooser.append(h('option', {value: key(c, i), selected: m.sameChoice(c, st.choice)}, c.label));
  chooser.addEventListener('change', () => m.select(d.choices.find((c, i) => key(c, i) === chooser.value)));
  parts.push(h('label', {class: 'block', for: 'firer'}, d.firer_label), chooser);
  const enemyUnits = T().units.filter((u) => m.firingSide() && u.side !== m.firingSide() && !u.destroyed);
  // The targets a player may add: enemy units, or their squads where targets are squads.
  const enemies = [...new Map(enemyUnits.map((u) => [m.targetOf(u), {id: m.targetOf(u), name: m.targetName(m.targetOf(u)).replace(/ \(.*\)$/, ''), side: u.side}])).values()];
  if (st.choice && d.help) parts.push(h('p', {class: 'help'}, d.help));
  if (st.choice?.note) parts.push(h('p', {class: 'help', id: 'choice-note'}, st.choice.note));
  if (st.choice && d.rows === 'weapons') {
    const rows = st.rows.map((r, i) => {
      const sel = h('select', {'aria-label': `${r.unit} ${r.weapon} target`, 'data-row': i}, h('option', {value: ''}, '— no target —'),
        enemies.map((e) => h('option', {value: e.id, selected: e.id === r.target}, e.id)));
      sel.addEventListener('change', () => { r.target = sel.value; st.active = i; m.redraw(); m.refreshOdds(); });
      const pick = h('button', {class: 'weapon' + (i === st.active ? ' on' : ''), 'aria-pressed': String(i === st.active), 'data-weapon': r.weapon, 'data-unit': r.unit,
        onclick: () => { st.active = i; m.redraw(); }}, `${r.unit}: ${r.weapon}`);
      return h('tr', {class: i === st.active ? 'active' : ''}, h('td', {}, pick), h('td', {}, sel));
    });
    parts.push(h('table', {class: 'decl-table'}, h('tbody', {}, rows)));
  }
  if (st.choice && d.rows !== 'weapons') {
    const u = m.firers()[0];
    const add = h('select', {id: 'add-target', 'aria-label': d.rows === 'single' ? 'Target' : 'Add a target'},
      h('option', {value: ''}, d.rows === 'single' ? '— the rules choose —' : '— add a target —'),
      enemies.filter((e) => d.rows === 'single' || !st.targets.some((t) => t.unit === e.id)).map((e) => h('option', {value: e.id, selected: d.rows === 'single' && st.targets[0]?.unit === e.id}, `${e.name} (${e.side})`)));
    add.addEventListener('change', () => {
      const e = m.members(add.value)[0];
      if (e) m.choose(e);
      else { st.targets = []; m.redraw(); m.refreshOdds(); }
    });
    parts.push(add);
    for (const t of d.rows === 'targets' ? st.targets : []) {
      const fields = (d.row_fields || []).map((f) => rowField(m, f, t, u));
      parts.push(h('fieldset', {class: 'group'}, h('legend', {}, '→ ', t.unit), fields));
    }
  }
  if (st.choice) for (const f of d.fields || []) parts.push(actionField(m, f));
  if (st.choice && !v.ended) {
    // The first button is #shoot, whatever its verb; a verb without targets needs none.
    const buttons = m.verbs().map((verb, i) => {
      const b = h('button', {id: i ? `shoot-${i}` : 'shoot', class: i ? '' : 'primary', 'data-verb': verb.label,
        disabled: !verb.no_target && (!m.hasTargets() || !!st.refused)}, verb.label);
      b.addEventListener('click', () => m.shoot(b, verb));
      return b;
    });
    parts.push(h('div', {class: 'row'}, buttons), h('p', {class: 'why-not', id: 'shoot-why', hidden: !st.refused}, st.refused || ''));
  }
  m.panel.replaceChildren(...parts);
}

// rowField is one field of a target row.
function rowField(m, f, t, u) {
  if (f.kind === 'number') {
    const inp = h('input', {type: 'number', min: 1, value: t[f.key], placeholder: 'all', class: 'short', 'aria-label': `${f.label} firing at ${t.unit}`});
    inp.addEventListener('change', () => { t[f.key] = inp.value; m.refreshOdds(); });
    return h('label', {}, f.label + ' ', inp);
  }
  if (f.kind === 'select') {
    const empty = m.unit(t.unit).placed && u?.placed ? f.empty : `— ${f.label} band —`;
    const sel = h('select', {'aria-label': `${f.label} band to ${t.unit}`}, h('option', {value: ''}, empty),
      f.options.map((o) => h('option', {value: o, selected: t[f.key] === o}, o)));
    sel.addEventListener('change', () => { t[f.key] = sel.value; m.refreshOdds(); });
    return h('label', {}, f.label + ' ', sel);
  }
  return (f.options || []).map((x) => {
    const c = h('input', {type: 'checkbox', checked: t[f.key].includes(x)});
    c.addEventListener('change', () => { t[f.key] = c.checked ? [...t[f.key], x] : t[f.key].filter((y) => y !== x); m.refreshOdds(); });
    return h('label', {class: 'check'}, c, ' ', x);
  });
}

// actionField is one field of the whole action: a select, a flag, or a number per acting unit.
function actionField(m, f) {
  const {st} = m;
  if (f.kind === 'select') {
    const sel = h('select', {'aria-label': f.label, 'data-field': f.key}, h('option', {value: ''}, f.empty || '—'),
      (f.options || []).map((o) => h('option', {value: o, selected: st.fields[f.key] === o}, o.replaceAll('_', ' '))));
    sel.addEventListener('change', () => { st.fields[f.key] = sel.value; m.refreshOdds(); });
    return h('label', {class: 'block'}, f.label + ' ', sel);
  }
  if (f.kind === 'flag') {
    const c = h('input', {type: 'checkbox', checked: !!st.fields[f.key]});
    c.addEventListener('change', () => { st.fields[f.key] = c.checked; m.refreshOdds(); });
    return h('label', {class: 'check'}, c, ' ', f.label);
  }
  st.fields[f.key] ||= {};
  return h('div', {class: 'moved'}, h('span', {}, `${f.label}: `),
    m.firers().map((u) => {
      const inp = h('input', {type: 'number', min: 0, step: 0.5, value: st.fields[f.key][u.id] || 0, 'aria-label': `${u.id} ${f.key}`, class: 'short'});
      inp.addEventListener('change', () => { st.fields[f.key][u.id] = inp.value; m.refreshOdds(); });
      return h('label', {}, u.id, ' ', inp);
    }));
}
