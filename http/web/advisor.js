// The advisor: the best fire plans of a side by their exact odds, each with what it does
// to every target, a button that fires it; and the danger map, drawn over the board, of
// where a unit of a chosen type would be hurt by the other sides' next fire. It knows no
// rule system: it asks the API (docs/api.md, advice and danger) and shows the answers.

import {call, errorBox, showError} from './api.js';
import {h, pct} from './dom.js';

export function mount(box, board, ctx) {
  const err = errorBox('advice-error');
  const side = h('select', {id: 'advice-side'});
  const objective = h('select', {id: 'advice-objective'},
    h('option', {value: 'expected'}, 'expected damage, hits or kills'),
    h('option', {value: 'destroyed'}, 'expected units destroyed'));
  const list = h('div', {id: 'advice', 'aria-live': 'polite'});
  const ask = h('button', {id: 'advise', type: 'button'}, 'Best plans');
  const dangerSide = h('select', {id: 'danger-side'});
  const dangerAs = h('select', {id: 'danger-as'});
  const toggle = h('input', {type: 'checkbox', id: 'danger-toggle'});
  const legend = h('p', {class: 'help', id: 'danger-legend', 'aria-live': 'polite'});
  let seq = 0;

  ask.addEventListener('click', async () => {
    const my = ++seq;
    showError(err, null);
    ask.disabled = true;
    list.replaceChildren(h('p', {class: 'help'}, 'Searching…'));
    try {
      const q = new URLSearchParams({objective: objective.value, top: '3'});
      if (side.value) q.set('side', side.value);
      const res = await call('GET', `/api/battles/${ctx.id}/advice?${q}`, {token: ctx.reader()});
      if (my !== seq) return;
      list.replaceChildren(...res.advice.map((a) => adviceBox(a)));
    } catch (e) {
      list.replaceChildren();
      showError(err, e);
    } finally { ask.disabled = false; }
  });

  function adviceBox(a) {
    const value = (v) => (a.objective === 'destroy' || a.objective.startsWith('at_least') ? pct(v) : v.toFixed(3));
    const head = h('p', {class: 'help'}, `${a.actor} (${a.side}): ${a.total} legal plans, ${a.scored} scored, ${a.bounded} set aside by the bound`,
      a.complete ? '' : h('strong', {}, ` — cut short: ${a.stopped}`));
    const plans = h('ol', {class: 'plans'}, a.plans.map((p) => {
      const fire = h('button', {type: 'button', class: 'fire-plan', onclick: async (ev) => {
        ev.target.disabled = true;
        try {
          // A plan of several actions (a War Engine group, then each declaration) is sent in order.
          for (const step of p.steps || [p.action]) await ctx.act(step, a.side);
          showError(err, null);
          list.replaceChildren(h('p', {class: 'help'}, `Plan #${p.rank} fired: see the log.`));
        } catch (e) { showError(err, e); } finally { ev.target.disabled = false; }
      }}, 'Fire this plan');
      return h('li', {class: 'plan', dataset: {rank: p.rank}},
        h('div', {class: 'plan-head'}, h('strong', {class: 'plan-value'}, `${a.scores}: ${value(p.value)}`),
          ` (${value(p.gap)} above the next)`, p.variant ? ` [${p.variant}]` : '', ' ', ctx.view.ended || !(p.action || p.steps?.length) || !ctx.token(a.side) ? '' : fire),
        h('ul', {class: 'picks'}, p.picks.map((k) => h('li', {}, `${k.slot} → ${k.target || 'holds fire'}`))),
        h('ul', {class: 'plan-targets'}, (p.targets || []).map((t) => h('li', {},
          `${t.target}: mean ${t.mean.toFixed(2)} ${a.measure}, destroyed ${pct(t.p_destroyed)}`))));
    }));
    const notes = (a.notes || []).map((n) => h('li', {}, n));
    return h('div', {class: 'advice-actor'}, head, notes.length ? h('ul', {class: 'help advice-notes'}, notes) : '', plans);
  }

  async function showDanger() {
    const my = ++seq;
    showError(err, null);
    if (!toggle.checked) {
      board.setDanger?.(null);
      legend.replaceChildren();
      return;
    }
    legend.textContent = 'Mapping…';
    try {
      const q = new URLSearchParams({side: dangerSide.value, as: dangerAs.value});
      const res = await call('GET', `/api/battles/${ctx.id}/danger?${q}`, {token: ctx.reader()});
      if (my !== seq || !toggle.checked) return;
      board.setDanger?.(res.danger);
      const m = res.danger;
      legend.replaceChildren(h('span', {class: 'danger-scale'}),
        ` ${m.scores} of ${m.placed} of ${m.side}, from 0 (clear) to ${m.objective === 'expected' ? m.max.toFixed(2) : pct(m.max)} (darkest), `
        + `${m.cols} × ${m.rows} points ${m.step}${m.unit === 'cm' ? 'cm' : m.unit === 'in' ? '"' : ' square'} apart; firers: ${m.firers.join(', ') || 'none'}.`);
    } catch (e) {
      toggle.checked = false;
      board.setDanger?.(null);
      legend.replaceChildren();
      showError(err, e);
    }
  }
  toggle.addEventListener('change', showDanger);
  dangerSide.addEventListener('change', () => { fillTypes(); if (toggle.checked) showDanger(); });
  dangerAs.addEventListener('change', () => { if (toggle.checked) showDanger(); });

  // The unit types a player may place: those of the chosen side's units first.
  // Where targets are squads of models (WarStrike), what is placed is a copy of a unit,
  // named by its id.
  function fillTypes() {
    const units = ctx.view.table?.units || ctx.view.board?.units || [];
    const key = ctx.view.table?.declare?.target_squad ? (u) => u.squad : (u) => u.name;
    const mine = [...new Set(units.filter((u) => u.side === dangerSide.value).map(key))];
    const rest = [...new Set(units.map(key))].filter((n) => !mine.includes(n));
    const keep = dangerAs.value;
    dangerAs.replaceChildren(...[...mine, ...rest].filter(Boolean).map((n) => h('option', {value: n}, n)));
    if ([...mine, ...rest].includes(keep)) dangerAs.value = keep;
  }

  box.replaceChildren(h('h2', {id: 'advisor-h'}, 'Advisor'),
    h('p', {class: 'help'}, 'The best plans of a side\'s squads that may act now, by their exact odds; and where a unit would be in danger from the other side\'s next fire.'),
    h('div', {class: 'row'}, h('label', {for: 'advice-side'}, 'Side '), side, ' ',
      h('label', {for: 'advice-objective'}, 'by '), objective, ' ', ask),
    list,
    h('div', {class: 'row'}, h('label', {for: 'danger-toggle'}, toggle, ' Danger map'), ' for a ',
      dangerAs, ' ', h('label', {for: 'danger-side'}, 'of '), dangerSide),
    legend, err);

  return {
    update(v) {
      const keep = [side.value, dangerSide.value];
      side.replaceChildren(...v.sides.map((x) => h('option', {value: x}, x)));
      dangerSide.replaceChildren(...v.sides.map((x) => h('option', {value: x}, x)));
      side.value = v.sides.includes(keep[0]) ? keep[0] : (v.state.turn?.side || v.sides[0]);
      // By default the map is for the side that is not acting: where it is unsafe to stand.
      dangerSide.value = v.sides.includes(keep[1]) ? keep[1] : (v.sides.find((x) => x !== v.state.turn?.side) || v.sides[0]);
      fillTypes();
      if (toggle.checked) showDanger();
    },
  };
}

// dangerColour is a value's colour: pale yellow for clear, through orange, to dark red
// for the map's worst; the same scale as `volley danger --plot`.
export function dangerColour(v, peak) {
  const stops = [[0xff, 0xff, 0xe5], [0xfe, 0xc4, 0x4f], [0xec, 0x70, 0x14], [0x99, 0x34, 0x04], [0x4a, 0x14, 0x04]];
  const t = peak > 0 ? v / peak : 0;
  const x = t * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2);
  const f = x - i;
  return stops[i].map((a, k) => Math.round(a + (stops[i + 1][k] - a) * f));
}

// dangerImage paints a map's values into a data URL, one pixel per point, row 0 at the
// bottom when north is up (or at the top on a grid map); solid points are transparent.
export function dangerImage(m) {
  const c = document.createElement('canvas');
  c.width = m.cols;
  c.height = m.rows;
  const g = c.getContext('2d');
  const img = g.createImageData(m.cols, m.rows);
  for (let r = 0; r < m.rows; r++) {
    for (let col = 0; col < m.cols; col++) {
      const v = m.values[r * m.cols + col];
      const y = m.grid ? r : m.rows - 1 - r;
      const o = (y * m.cols + col) * 4;
      if (v === null) { img.data[o + 3] = 0; continue; }
      const [R, G, B] = dangerColour(v, m.max);
      img.data[o] = R; img.data[o + 1] = G; img.data[o + 2] = B; img.data[o + 3] = 255;
    }
  }
  g.putImageData(img, 0, 0);
  return c.toDataURL('image/png');
}
