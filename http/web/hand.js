// Dice rolled by hand. A battle whose scenario says `dice: players` takes each die from
// the player who acts: an action sent without a die it needs is answered needs_roll,
// naming the next die (its sides and what it decides). The page then asks for that die
// in a small panel, a button a face for a die of up to 20 sides and a number otherwise,
// and sends the action again with the faces given so far (docs/api.md, "Dice rolled by
// hand"). Nothing is taken until the action has every die.

import {h} from './dom.js';

// MAX_BUTTONS is the most faces offered as buttons; a d100 is typed.
const MAX_BUTTONS = 20;

// askDie shows the panel in box asking side's player to roll need ({index, sides,
// purpose}), the faces given already being given. It answers the face, or rejects when
// the player cancels: the action is then not taken.
export function askDie(box, side, need, given) {
  return new Promise((resolve, reject) => {
    const done = (face) => {
      box.replaceChildren();
      box.hidden = true;
      if (face === null) reject(new Error('The roll was cancelled: the action was not taken.'));
      else resolve(face);
    };
    const problem = h('p', {class: 'error', id: 'die-error', role: 'alert', hidden: true});
    let faces;
    if (need.sides <= MAX_BUTTONS) {
      faces = h('div', {class: 'faces'}, Array.from({length: need.sides}, (_, i) =>
        h('button', {id: 'die-face-' + (i + 1), 'data-face': i + 1, onclick: () => done(i + 1)}, String(i + 1))));
    } else {
      const input = h('input', {id: 'die-face', type: 'number', min: 1, max: need.sides, step: 1, inputmode: 'numeric',
        'aria-label': `the d${need.sides}'s face`});
      const send = () => {
        const v = Number(input.value);
        if (!Number.isInteger(v) || v < 1 || v > need.sides) {
          problem.hidden = false;
          problem.textContent = `A d${need.sides} shows 1 to ${need.sides}.`;
          return;
        }
        done(v);
      };
      input.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') send(); });
      faces = h('div', {class: 'faces'}, input, h('button', {id: 'die-send', onclick: send}, 'Send'));
    }
    box.hidden = false;
    box.replaceChildren(...[
      h('h2', {id: 'die-h'}, `${side}: roll a d${need.sides}`),
      h('p', {id: 'die-purpose'}, need.purpose ? 'For ' + need.purpose + '.' : `Die ${need.index + 1} of this action.`),
      given.length ? h('p', {class: 'help', id: 'die-given'}, `Die ${need.index + 1} of this action; rolled so far: ${given.join(', ')}.`) : null,
      faces, problem,
      h('button', {id: 'die-cancel', class: 'quiet', onclick: () => done(null)}, 'Cancel'),
    ].filter(Boolean));
    box.querySelector('button, input')?.focus();
  });
}

// awaitingText says, for a battle's view, who is rolling which die: for the pages of the
// other sides and of spectators, while the acting player rolls.
export function awaitingText(v) {
  const a = v.awaiting;
  if (!a) return '';
  return `${a.side} is rolling a d${a.die.sides}${a.die.purpose ? ' for ' + a.die.purpose : ''}`
    + (a.given.length ? ` (rolled so far: ${a.given.join(', ')})` : '') + '.';
}
