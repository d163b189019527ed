// The advisor: the best fire plans of a side by their exact odds, each with what it does
// to every target and a button that fires it; and the danger map, drawn over the board,
// of where a unit would be hurt by the other sides' next fire. It knows no rule system:
// the battle's view says what it offers (view.advisor: plans, a danger map and what the
// map may place, or why not), and it asks the API (docs/api.md, advice and danger).
// Both searches show that they are working and can be cancelled; a map shows its rows
// as they are done.

import {call, lines, errorBox, showError} from './api.js';
import {h, pct, num} from './dom.js';

// A plan whose value is this small does nothing: it is shown, not offered as a move.
const NOTHING = 1e-12;

export function mount(box, board, ctx) {
  const err = errorBox('advice-error');
  const side = h('select', {id: 'advice-side'});
  const objective = h('select', {id: 'advice-objective'},
    h('option', {value: 'expected'}, 'expected damage, hits or kills'),
    h('option', {value: 'destroyed'}, 'expected units destroyed'));
  const list = h('div', {id: 'advice', 'aria-live': 'polite'});
  const ask = h('button', {id: 'advise', type: 'button'}, 'Best plans');
  const stopAdvice = h('button', {id: 'advise-cancel', type: 'button', class: 'quiet', hidden: true}, 'Cancel');
  const dangerSide = h('select', {id: 'danger-side'});
  const dangerAs = h('select', {id: 'danger-as'});
  const dangerObjective = h('select', {id: 'danger-objective', 'aria-label': 'what the map shows'},
    h('option', {value: 'destroyed'}, 'chance destroyed'),
    h('option', {value: 'expected'}, 'expected loss'));
  const toggle = h('input', {type: 'checkbox', id: 'danger-toggle'});
  const bar = h('progress', {id: 'danger-progress', max: 1, value: 0, hidden: true});
  const stopDanger = h('button', {id: 'danger-cancel', type: 'button', class: 'quiet', hidden: true}, 'Cancel');
  const legend = h('p', {class: 'help', id: 'danger-legend', 'aria-live': 'polite'});
  const plansPart = h('div', {id: 'plans-part'});
  const dangerPart = h('div', {id: 'danger-part'});
  let adviceRun = null; // the AbortController of the search under way
  let dangerRun = null; // of the map under way
  let seq = 0;

  ask.addEventListener('click', async () => {
    const my = ++seq;
    adviceRun?.abort();
    const run = adviceRun = new AbortController();
    showError(err, null);
    ask.disabled = true;
    stopAdvice.hidden = false;
    list.replaceChildren(h('p', {class: 'help'}, 'Searching…'));
    try {
      const q = new URLSearchParams({objective: objective.value, top: '3'});
      if (side.value) q.set('side', side.value);
      const res = await call('GET', `/api/battles/${ctx.id}/advice?${q}`, {token: ctx.reader(), signal: run.signal});
      if (my !== seq) return;
      list.replaceChildren(...(res.advice.length ? res.advice.map((a) => adviceBox(a)) : [h('p', {class: 'help'}, `Nothing of ${side.value} may fire now.`)]));
    } catch (e) {
      if (run.signal.aborted) list.replaceChildren(h('p', {class: 'help'}, 'Cancelled.'));
      else {
        list.replaceChildren();
        showError(err, e);
      }
    } finally {
      if (adviceRun === run) adviceRun = null;
      ask.disabled = false;
      stopAdvice.hidden = true;
    }
  });
  stopAdvice.addEventListener('click', () => adviceRun?.abort());

  function adviceBox(a) {
    const value = (v) => (a.objective === 'destroy' || a.objective.startsWith('at_least') ? pct(v) : num(v));
    const head = h('p', {class: 'help'}, `${a.actor} (${a.side}): ${a.total} legal plans, ${a.scored} scored, ${a.bounded} set aside by the bound`,
      a.complete ? '' : h('strong', {}, ` — cut short: ${a.stopped}`));
    const plans = h('ol', {class: 'plans'}, a.plans.map((p) => {
      const nothing = !(p.value > NOTHING);
      const fire = h('button', {type: 'button', class: 'fire-plan', onclick: async (ev) => {
        // The battle may have moved on since the plans were listed (another phase): a
        // plan it no longer offers is not sent.
        if (!(p.steps || [p.action]).every((st) => offeredNow(ctx.view, a.side, st))) {
          ev.target.disabled = true;
          showError(err, new Error('Not now: the battle has moved on since these plans were found; ask for the best plans again.'));
          return;
        }
        ev.target.disabled = true;
        try {
          // A plan of several actions (a War Engine group, then each declaration) is sent in order.
          for (const step of p.steps || [p.action]) await ctx.act(step, a.side);
          showError(err, null);
          list.replaceChildren(h('p', {class: 'help'}, `Plan #${p.rank} fired: see the log.`));
        } catch (e) { showError(err, e); } finally { ev.target.disabled = false; }
      }}, 'Fire this plan');
      const first = p.steps?.[0] || p.action;
      // A plan of several steps (a War Engine group, then its declarations) is offered
      // now when each of its steps is.
      const now = first && (p.steps || [p.action]).every((st) => offeredNow(ctx.view, a.side, st));
      const offered = !nothing && !ctx.view.ended && first && ctx.token(a.side) && now;
      if (!nothing && !ctx.view.ended && first && ctx.token(a.side) && !now) {
        fire.disabled = true;
        fire.title = 'not now: the battle does not offer this action now (another phase, step or turn)';
      }
      return h('li', {class: 'plan' + (nothing ? ' worthless' : ''), dataset: {rank: p.rank}},
        h('div', {class: 'plan-head'}, h('strong', {class: 'plan-value'}, `${a.scores}: ${value(p.value)}`),
          nothing ? h('span', {class: 'nothing'}, ' — worth nothing: it cannot hurt anything from here') : ` (${value(p.gap)} above the next)`,
          p.variant ? ` [${p.variant}]` : '', ' ', offered ? fire : '',
          !nothing && first && ctx.token(a.side) && !now && !ctx.view.ended ? h('span', {class: 'help not-now'}, ' not now: the battle does not offer this action in this phase or step') : ''),
        h('ul', {class: 'picks'}, p.picks.map((k) => h('li', {}, `${k.slot} → ${k.target || 'holds fire'}`))),
        h('ul', {class: 'plan-targets'}, (p.targets || []).map((t) => h('li', {},
          `${t.target}: mean ${num(t.mean)} ${a.measure}, destroyed ${pct(t.p_destroyed)}`))));
    }));
    const notes = (a.notes || []).map((n) => h('li', {}, n));
    return h('div', {class: 'advice-actor'}, head, notes.length ? h('ul', {class: 'help advice-notes'}, notes) : '', plans);
  }

  // showDanger asks for the map as the controls say, with its progress, and draws it; or
  // takes it away when the toggle is off. A map asked while another runs replaces it.
  async function showDanger() {
    dangerRun?.abort();
    showError(err, null);
    if (!toggle.checked) {
      board.setDanger?.(null);
      legend.replaceChildren();
      return;
    }
    const run = dangerRun = new AbortController();
    bar.hidden = false;
    bar.removeAttribute('value'); // no rows done yet: an indeterminate bar
    stopDanger.hidden = false;
    legend.textContent = 'Mapping…';
    try {
      const q = new URLSearchParams({side: dangerSide.value, as: dangerAs.value, objective: dangerObjective.value, progress: 'true'});
      const res = await lines(`/api/battles/${ctx.id}/danger?${q}`, {token: ctx.reader(), signal: run.signal,
        onProgress: (p) => {
          if (run !== dangerRun) return;
          bar.max = p.rows;
          bar.value = p.done;
          legend.textContent = `Mapping… ${p.done} of ${p.rows} rows`;
        }});
      if (run !== dangerRun || !toggle.checked) return;
      board.setDanger?.(res.danger);
      const m = res.danger;
      legend.replaceChildren(h('span', {class: 'danger-scale'}),
        ` ${m.scores} of ${m.placed} of ${m.side}, from 0 (clear) to ${m.objective === 'expected' ? num(m.max) : pct(m.max)} (darkest), `
        + `${m.cols} × ${m.rows} points ${m.step}${m.unit === 'cm' ? 'cm' : m.unit === 'in' ? '"' : ' square'} apart; firers: ${m.firers.join(', ') || 'none'}.`);
    } catch (e) {
      if (run !== dangerRun) return; // replaced by another map
      toggle.checked = false;
      board.setDanger?.(null);
      if (run.signal.aborted) legend.textContent = 'Cancelled: no map.';
      else {
        legend.replaceChildren();
        showError(err, e);
      }
    } finally {
      if (run === dangerRun) {
        dangerRun = null;
        bar.hidden = true;
        stopDanger.hidden = true;
      }
    }
  }
  toggle.addEventListener('change', showDanger);
  stopDanger.addEventListener('click', () => dangerRun?.abort());
  dangerSide.addEventListener('change', () => { fillPlaces(); if (toggle.checked) showDanger(); });
  dangerAs.addEventListener('change', () => { if (toggle.checked) showDanger(); });
  dangerObjective.addEventListener('change', () => { if (toggle.checked) showDanger(); });

  // fillPlaces offers what the map may place (the view's advisor.places): those of the
  // chosen side first.
  function fillPlaces() {
    const places = ctx.view.advisor?.places || [];
    const mine = places.filter((p) => p.side === dangerSide.value);
    const rest = places.filter((p) => p.side !== dangerSide.value);
    const keep = dangerAs.value;
    dangerAs.replaceChildren(...[...mine, ...rest].map((p) => h('option', {value: p.as}, p.label === p.as ? p.as : `${p.label} (${p.as})`)));
    if (places.some((p) => p.as === keep)) dangerAs.value = keep;
  }

  box.replaceChildren(h('h2', {id: 'advisor-h'}, 'Advisor'), plansPart, dangerPart, err);

  return {
    update(v) {
      const adv = v.advisor || {};
      if (adv.plans) {
        if (!plansPart.firstChild) {
          plansPart.replaceChildren(
            h('p', {class: 'help'}, 'The best plans of a side\'s units that may act now, by their exact odds.'),
            h('div', {class: 'row'}, h('label', {for: 'advice-side'}, 'Side '), side, ' ',
              h('label', {for: 'advice-objective'}, 'by '), objective, ' ', ask, stopAdvice),
            list);
        }
      } else {
        plansPart.replaceChildren(h('p', {class: 'help', id: 'no-plans'}, `No best plans: ${adv.no_plans || 'the battle offers none'}.`));
      }
      if (adv.danger) {
        if (!dangerPart.firstChild) {
          dangerPart.replaceChildren(
            h('p', {class: 'help'}, 'Where a unit would be in danger from the other sides\' next fire.'),
            h('div', {class: 'row'}, h('label', {for: 'danger-toggle'}, toggle, ' Danger map'), ' of ', dangerObjective, ' for ',
              dangerAs, ' ', h('label', {for: 'danger-side'}, 'of '), dangerSide),
            h('div', {class: 'row'}, bar, stopDanger), legend);
        }
      } else {
        // The API says why there is no map; the page offers none.
        dangerPart.replaceChildren(h('p', {class: 'help', id: 'no-danger'}, `No danger map: ${adv.no_danger || 'the battle offers none'}.`));
      }
      const keep = [side.value, dangerSide.value];
      side.replaceChildren(...v.sides.map((x) => h('option', {value: x}, x)));
      dangerSide.replaceChildren(...v.sides.map((x) => h('option', {value: x}, x)));
      side.value = v.sides.includes(keep[0]) ? keep[0] : (v.state.turn?.side || v.sides[0]);
      // By default the map is for the side that is not acting: where it is unsafe to stand.
      dangerSide.value = v.sides.includes(keep[1]) ? keep[1] : (v.sides.find((x) => x !== v.state.turn?.side) || v.sides[0]);
      fillPlaces();
      if (toggle.checked && adv.danger) showDanger();
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
// colour is the scale (a position map's offence has its own).
export function dangerImage(m, colour = dangerColour) {
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
      const [R, G, B] = colour(v, m.max);
      img.data[o] = R; img.data[o + 1] = G; img.data[o + 2] = B; img.data[o + 3] = 255;
    }
  }
  g.putImageData(img, 0, 0);
  return c.toDataURL('image/png');
}

// offeredNow says whether the battle offers side, now, an action like step: an offer of
// the same type whose actor is the one step names. A plan whose body names no type (a
// system's fire, sent without one) matches an offer for an actor, its one, that is not one
// of the kinds every battle shares (a move, a deployment, a take-back, an offer to end).
// The page reads it from the view's offers: it knows no rule.
const shared = /^(move|deploy|take_back|offer_end)$/;
function offeredNow(view, side, step) {
  // An actor field may name several (a Republique battery's tandem, batteries: [a, b]):
  // each must be one the offer names.
  const ids = (v) => (Array.isArray(v) ? v : [v]).map(String);
  return (view.offers || []).some((o) => {
    if (o.side !== side || !(step.type === undefined ? o.key && !shared.test(o.type) : (o.action?.type ?? o.type) === step.type)) return false;
    // The offer's fixed fields are the step's too (a saved fire is not a fire).
    if (Object.entries(o.action || {}).some(([k, v]) => k !== 'type' && JSON.stringify(step[k]) !== JSON.stringify(v))) return false;
    if (!o.key || !(o.actors || []).length) return true;
    const offered = new Set(o.actors.flatMap((x) => ids(x.action?.[o.key])));
    return step[o.key] !== undefined && ids(step[o.key]).every((id) => offered.has(id));
  });
}
