// What the battle waits on: the actions a side is offered now (state.turn.actions), such
// as the answers to an enemy's move (fire at it, or let it pass). The side that holds the
// token sees each as a button that sends it; every other page says that play waits on
// that side. Each action is labelled from its own fields: the page knows no rule system.

import {showError} from './api.js';
import {h, possessive} from './dom.js';

// words are an offered action's label: its type, then each other field and its value
// ("Passing fire: batteries ab, target ligne"; "Decline").
export function words(a) {
  const type = String(a.type || 'act').replaceAll('_', ' ');
  const rest = Object.entries(a).filter(([k]) => k !== 'type').map(([k, v]) => `${k.replaceAll('_', ' ')} ${value(v)}`);
  return type[0].toUpperCase() + type.slice(1) + (rest.length ? ': ' + rest.join(', ') : '');
}

function value(v) {
  if (Array.isArray(v)) return v.map(value).join(' and ');
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k} ${value(x)}`).join(', ');
  return String(v).replaceAll('_', ' ');
}

// same says whether two actions are the same body.
export const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// offers is the part of the battle's header that shows the actions offered now, or null
// when the battle offers none. box is where a refused action's error goes.
export function offers(v, ctx, box) {
  const turn = v.state.turn;
  const list = turn?.actions || [];
  if (v.ended || !list.length) return null;
  const what = `${possessive(turn.side)} answer` + (turn.phase && turn.phase !== 'turn' ? ` (${turn.phase})` : '');
  if (!ctx.token(turn.side)) {
    return h('p', {class: 'offers waiting', id: 'turn-offers', 'aria-live': 'polite'},
      `Play waits on ${what}: `, list.map(words).join('; or ') + '.');
  }
  const buttons = list.map((a, i) => h('button', {type: 'button', class: i === 0 ? 'primary' : '', 'data-offer': i, 'data-type': a.type,
    title: JSON.stringify(a),
    onclick: async (ev) => {
      const all = ev.target.parentElement.querySelectorAll('button');
      for (const b of all) b.disabled = true;
      try {
        await ctx.act(a, turn.side);
        showError(box, null);
      } catch (err) {
        showError(box, err);
      } finally {
        for (const b of all) b.disabled = false;
      }
    }}, words(a)));
  return h('div', {class: 'offers', id: 'turn-offers', role: 'group', 'aria-label': what, 'aria-live': 'polite'},
    h('span', {}, `Play waits on ${what}:`), ...buttons);
}
