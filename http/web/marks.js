// What the board says of each unit, and of the last shot, read off the view and the log
// alone: the page knows no rule system.
//
// A unit's marks are the values of its state that the view's columns name (the table of
// units' columns: docs/json.md), kept to what a player needs to see on the table:
//   - a value out of another below it ("2/3 damage points", "3/4 models");
//   - a level past the first, best one ("shaken", "ammunition low", "Open Fire");
//   - each flag that is set ("limbered", "stunned for 2");
//   - a plain value where it differs from the battle's start ("suppression 2").
// A column of what a unit moved is left out: the turn's paths show it.
//
// The last shot is the last action of the log that did something to a target: who acted
// (the units or squads of its side its body names), what it hit, and what it did to each.

import {cell} from './units.js';
import {num, tidy} from './dom.js';

// columns are the view's columns of the table of units.
const columns = (v) => (v.table || v.board)?.columns || [];

// marksOf are the marks of a unit of the state (su), against its values at the start of
// the battle (start: values by unit id; null when not known yet).
export function marksOf(v, su, start) {
  const out = [];
  const vals = su.values || {};
  for (const c of columns(v)) {
    if (c.key === 'moved') continue;
    if (c.flags?.length) {
      const t = cell(c, vals).text;
      if (t) out.push(t);
    } else if (c.of) {
      const x = vals[c.key], of = vals[c.of];
      if (typeof x === 'number' && typeof of === 'number' && x < of) out.push(`${num(x)}/${num(of)} ${c.label}`);
    } else if (c.levels?.length) {
      const x = vals[c.key];
      if (typeof x === 'number' && x > 0 && c.levels[x] !== undefined) out.push(c.label === c.levels[x] ? c.label : `${c.levels[x]}`);
    } else {
      const x = vals[c.key];
      const was = start?.[su.id]?.[c.key];
      if (x !== undefined && start && x !== was) out.push(`${c.label} ${typeof x === 'number' ? num(x) : x}`);
    }
  }
  return out;
}

// startValues are the values of each unit at the start of a battle view (by unit id).
export function startValues(v) {
  return Object.fromEntries(v.state.units.map((u) => [u.id, u.values || {}]));
}

// lastShot is the last action of entries that did something to a target, or landed: {seq,
// side, actors (ids its body names of its side's units or squads), pairs ([actor,
// target] where the body pairs them), targets [{id, text, destroyed}], landed}. sideOf(id)
// says which side an id (a unit, a model, a squad) is of. null when there is none.
export function lastShot(entries, sideOf) {
  for (let i = entries.length - 1; i >= 0; i--) {
    const a = entries[i];
    const out = a.outcome || {};
    if (!out.targets?.length && !out.landed?.length) continue;
    let body = {};
    try { body = JSON.parse(a.action); } catch { /* YAML, as sent: no actors drawn */ }
    // Who acted at what: an object of the body that names both an actor and a target
    // (a declaration: {unit, weapon, target}) pairs them; else every actor named fires at
    // every target. A squad named beside units of it stands for those units.
    const targetIDs = new Set((out.targets || []).map((t) => t.target));
    const actors = new Set(), pairs = [];
    const direct = (o) => Object.values(o).flatMap((x) => (typeof x === 'string' ? [x] : Array.isArray(x) ? x.filter((y) => typeof y === 'string') : []));
    const walk = (x) => {
      if (Array.isArray(x)) { x.forEach(walk); return; }
      if (!x || typeof x !== 'object') return;
      const ids = direct(x);
      const mine = ids.filter((id) => sideOf(id) === a.side);
      const at = ids.filter((id) => targetIDs.has(id));
      for (const id of mine) actors.add(id);
      for (const f of mine) for (const t of at) pairs.push([f, t]);
      Object.values(x).forEach(walk);
    };
    walk(body);
    const words = (a.words || []).map(tidy);
    const targets = (out.targets || []).map((t) => ({id: t.target, destroyed: !!t.destroyed, text: targetText(t, words)}));
    return {seq: a.seq, side: a.side, actors: [...actors], pairs, targets, landed: out.landed || []};
  }
  return null;
}

// targetText is what a shot did to a target, short: the log's words for it where they
// name it first, else its measures; "destroyed" where it was.
function targetText(t, words) {
  const line = words.find((w) => w.startsWith(t.target + ':') || w.startsWith(t.target + ' '));
  let text = line ? line.slice(t.target.length).replace(/^[:\s]+/, '') : Object.entries(t)
    .filter(([k, x]) => !['target', 'destroyed'].includes(k) && typeof x === 'number' && x > 0)
    .map(([k, x]) => `${num(x)} ${k.replaceAll('_', ' ')}`).join(', ');
  if (!text) text = 'no effect';
  if (text.length > 32) text = text.slice(0, 30) + '…';
  return t.destroyed && !/destroyed/.test(text) ? `${text} — destroyed` : text;
}
