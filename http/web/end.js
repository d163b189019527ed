// The end of a battle (docs/api.md, "The end of a battle"): how it stands while it is
// played (the round of the last, the score, an offer to end it, a move that may be taken
// back: the header's part), and once it is over an end screen on the first screen: who
// won and why, the scores and the objectives held, each side's luck over the battle, the
// seed revealed and the dice checked at once, and a replay that steps through the log
// with the board as it stood after each action (GET …/replay?at=N), drawn by the same
// board code, read-only. It knows no rule system: the battle's view says its result.

import {call, errorBox, showError} from './api.js';
import {h, num, sideColour, swatch} from './dom.js';
import {luckBySide, luckWords, verifyPanel, wordsOf} from './log.js';

// score writes the sides' scores as they stand: "UCM 3 · Scourge 0".
export function score(v) {
  const r = v.result;
  if (!r?.scores) return '';
  return v.sides.filter((s) => s in r.scores).map((s) => `${s} ${num(r.scores[s])}`).join(' · ');
}

// roundWords is the round against the last: "round 2 of 4", or "round 2".
export function roundWords(v) {
  const r = v.result;
  const n = r?.round || v.state.turn?.number;
  if (!n) return '';
  return r?.last_round ? `round ${Math.min(n, r.last_round)} of ${r.last_round}` : `round ${n}`;
}

// endControls are the header's buttons of a battle being played: take back the last
// move (where the battle says this page's side may), and offer to end the battle (or
// accept the other side's offer), with the offers made so far. box takes their errors.
export function endControls(v, ctx, box) {
  const out = [];
  if (v.ended) return out;
  const act = (action, side) => async (ev) => {
    const b = ev.currentTarget;
    b.disabled = true;
    try {
      await ctx.act(action, side);
      showError(box, null);
    } catch (err) {
      showError(box, err);
    } finally {
      b.disabled = false;
    }
  };
  const tb = v.take_back;
  if (tb && ctx.token(tb.side)) {
    out.push(h('button', {type: 'button', id: 'take-back', title: `Undo ${tb.what}: the battle goes back to how it stood before it`,
      onclick: act({type: 'take_back'}, tb.side)}, 'Take back ', h('span', {class: 'what'}, tb.what)));
  }
  const r = v.result;
  if (r && !r.over) {
    const offers = r.offers || [];
    const mine = v.sides.filter((s) => ctx.token(s) && !offers.includes(s));
    for (const [i, side] of mine.entries()) {
      const accept = offers.some((s) => s !== side);
      const label = (accept ? 'Accept the offer to end' : 'Offer to end') + (mine.length > 1 ? ` (${side})` : '');
      out.push(h('button', {type: 'button', id: i ? `offer-end-${i}` : 'offer-end', class: accept ? 'primary' : 'quiet', 'data-side': side,
        title: accept ? 'End the battle now, as it stands: the scores decide' : 'Offer to end the battle as it stands; it ends when every side has offered, with no other action between',
        onclick: act({type: 'offer_end', side}, side)}, label));
    }
  }
  return out;
}

// offersLine says who has offered to end the battle, or null.
export function offersLine(v, ctx) {
  const offers = v.result?.offers || [];
  if (v.ended || v.result?.over || !offers.length) return null;
  const words = offers.map((s) => (ctx.token(s) ? `${s} (you)` : s)).join(' and ');
  const waiting = v.sides.filter((s) => !offers.includes(s));
  return h('p', {class: 'offers-end', id: 'end-offers', 'aria-live': 'polite'},
    `${words} ${offers.length > 1 ? 'have' : 'has'} offered to end the battle as it stands (${score(v)})`,
    waiting.length ? `; it ends if ${waiting.join(' and ')} ${waiting.length > 1 ? 'accept' : 'accepts'} before any other action.` : '.');
}

// verdict is who won, in words.
function verdict(v) {
  const r = v.result;
  if (!r || !r.over) return 'The battle has ended';
  return r.winner ? `${r.winner} ${/s$/i.test(r.winner) ? 'win' : 'wins'}` : 'A draw';
}

// endScreen draws the end of a battle into box: the verdict, the reason, the scores with
// each side's luck, the objectives held and the dice checked (at once). It is drawn again
// only when the log changes (it holds the dice check).
export function endScreen(box, v, lg, ctx) {
  const r = v.result;
  const luck = luckBySide(lg);
  const parts = [h('h2', {id: 'end-verdict'}, verdict(v))];
  if (r?.over && r.reason) parts.push(h('p', {id: 'end-reason'}, r.reason.charAt(0).toUpperCase() + r.reason.slice(1) + '.'));
  else if (!r?.over) parts.push(h('p', {id: 'end-reason', class: 'help'}, r ? 'A player ended it as it stood.' : 'A player ended it; its scenario gives no result.'));
  const rows = v.sides.map((s) => h('tr', {'data-side': s, class: r?.winner === s ? 'winner' : ''},
    h('th', {scope: 'row'}, swatch(sideColour(v.sides, s)), s),
    h('td', {class: 'num score'}, r?.scores && s in r.scores ? num(r.scores[s]) : '—'),
    h('td', {class: 'num luck', title: luck[s] ? `the mean of ${luck[s].n} rolls' percentiles` : 'no roll that could come out more than one way'},
      luck[s] ? `${Math.round(luck[s].mean * 100)}%` : '—')));
  parts.push(h('table', {class: 'scores', id: 'end-scores'},
    h('thead', {}, h('tr', {}, h('th', {}, 'side'), h('th', {class: 'num'}, 'score'),
      h('th', {class: 'num', title: 'where each roll fell in the exact odds worked out before it, averaged: 50% is an average battle'}, 'luck'))),
    h('tbody', {}, rows)));
  if (r?.objectives?.length) {
    parts.push(h('ul', {class: 'objectives', id: 'end-objectives'}, r.objectives.map((o) => h('li', {},
      `${o.name}: `, o.held ? h('strong', {}, `held by ${o.held}`) : 'held by nobody', ` (${num(o.points)} point${o.points === 1 ? '' : 's'})`))));
  }
  parts.push(h('p', {class: 'help'}, 'Luck is where each roll fell in the exact odds worked out before it was rolled: 50% is average, 90% means nine rolls in ten would have done less.'));
  parts.push(verifyPanel(v, lg, ctx.reader(), {auto: true}));
  box.replaceChildren(...parts);
  box.hidden = false;
}

// replayer steps through a battle's log with the board as it stood after each action:
// GET …/replay?at=N, drawn by show(view) (the board, read-only), and the words of the
// action that led there. Buttons and keys (← → Home End) step; leaving it shows the
// battle as it ended again. Its bar (shown once the battle has ended) stays at the top of
// the screen while it steps, above the board.
export function replayer(ctx, {show, leave}) {
  const st = {at: null, seq: 0, views: new Map(), lg: null};
  const err = errorBox('replay-error');
  const step = h('span', {id: 'replay-step', class: 'replay-step', 'aria-live': 'polite'});
  const words = h('div', {id: 'replay-words', class: 'replay-words', 'aria-live': 'polite'});
  const b = (id, text, title, to) => h('button', {type: 'button', id, title, 'aria-label': title, onclick: () => go(to())}, text);
  const first = b('replay-first', 'First', 'First: the battle as it began (Home)', () => 0);
  const prev = b('replay-prev', '◀ Back', 'Back one action (←)', () => (st.at ?? total()) - 1);
  const next = b('replay-next', 'Next ▶', 'Forward one action (→)', () => (st.at ?? total()) + 1);
  const last = b('replay-last', 'Last', 'Last: the battle as it ended (End)', () => total());
  const start = h('button', {type: 'button', id: 'replay-start', class: 'primary', onclick: () => go(0)}, 'Replay the battle');
  const stop = h('button', {type: 'button', id: 'replay-leave', onclick: () => quit()}, 'Leave the replay');
  const controls = h('span', {class: 'replay-controls', role: 'group', 'aria-label': 'replay'}, first, prev, step, next, last, stop);
  const bar = h('div', {class: 'replay', id: 'replay', hidden: true}, h('div', {class: 'row'}, start, controls), words, err);
  const total = () => st.lg?.actions.length ?? 0;

  function draw() {
    const on = st.at !== null;
    bar.classList.toggle('on', on);
    bar.hidden = !st.lg?.ended;
    start.hidden = on;
    controls.hidden = !on;
    words.hidden = !on;
    if (!on) return;
    first.disabled = prev.disabled = st.at <= 0;
    next.disabled = last.disabled = st.at >= total();
    step.textContent = `step ${st.at} of ${total()}`;
    const a = st.lg.actions[st.at - 1];
    words.replaceChildren(st.at === 0 ? h('p', {}, 'As the battle began.')
      : h('div', {}, h('p', {class: 'replay-head'}, h('strong', {}, `#${a.seq} ${a.side}`), a.outcome?.luck ? ` · ${luckWords(a.outcome.luck.percentile)}` : ''),
        h('ul', {}, wordsOf(a).map((l) => h('li', {}, l)))));
  }

  async function go(n) {
    n = Math.max(0, Math.min(total(), n));
    st.at = n;
    draw();
    const my = ++st.seq;
    showError(err, null);
    try {
      let v = st.views.get(n);
      if (!v) {
        v = await call('GET', `/api/battles/${ctx.id}/replay?at=${n}`, {token: ctx.reader()});
        st.views.set(n, v);
      }
      if (my !== st.seq || st.at === null) return;
      // Read-only: a past board offers nothing to do.
      show({...v, ended: true, replay: n}, st.lg.actions.slice(0, n));
    } catch (e) {
      if (my === st.seq) showError(err, e);
    }
  }

  function quit() {
    st.at = null;
    st.seq++;
    draw();
    leave();
  }

  document.addEventListener('keydown', (ev) => {
    if (st.at === null || !bar.isConnected || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.target.closest?.('input, select, textarea, svg')) return;
    const to = {ArrowLeft: st.at - 1, ArrowRight: st.at + 1, Home: 0, End: total()}[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    go(to);
  });

  draw();
  return {
    bar,
    active: () => st.at !== null,
    at: () => st.at,
    // log gives the replay the battle's log: its actions are the steps.
    log(lg) {
      st.lg = lg;
      draw();
    },
    go,
  };
}
