// The log panel: every action with its side, every die (what it was for, its sides, what
// it showed), every step of the trace, and what happened to each target; the commitment
// to the seed, and once the battle has ended the seed itself and a check of the dice. The
// head of the battle's chain the page was last given is kept in this browser, so that the
// check can hold the log to the history the page was shown (docs/api.md, "What a log
// proves").

import {call, errorBox, showError} from './api.js';
import {h} from './dom.js';

export function renderLog(box, view, lg, token) {
  const parts = [h('h2', {id: 'log-h'}, 'Log')];
  parts.push(h('p', {class: 'help'}, 'Commitment (SHA-256 binding the secret seed to this battle, published before the first action): ',
    h('code', {class: 'hash', id: 'commitment'}, lg.commitment)));
  const changed = keepHead(view.id, lg.head);
  const kept = keptHead(view.id);
  if (changed) {
    parts.push(h('p', {class: 'error', id: 'head-changed', role: 'alert'}, `The server now gives another history of the first ${changed.actions} actions than it showed this page `
      + `(head ${changed.hash.slice(0, 16)}…, kept in this browser): the log was rewritten.`));
  } else if (kept) {
    parts.push(h('p', {class: 'help'}, `History after ${kept.actions} actions (kept in this browser, signed by the server): `,
      h('code', {class: 'hash', id: 'head'}, kept.hash)));
  }
  if (lg.dice === 'players') {
    parts.push(h('p', {class: 'help', id: 'log-hand'}, 'The players roll this battle\'s dice by hand: each die below is the face its player gave, and the seed decides none.'));
  }
  if (lg.ended) parts.push(verifyPanel(view, lg, token));
  else parts.push(h('p', {class: 'help'}, 'The seed is revealed when the battle ends; the dice can then be checked against this commitment.'));
  if (lg.actions.length === 0) parts.push(h('p', {}, 'No action yet.'));
  const list = h('ol', {class: 'entries', reversed: true});
  for (const a of [...lg.actions].reverse()) list.append(entry(a));
  parts.push(list);
  box.replaceChildren(...parts);
}

function entry(a) {
  const out = a.outcome || {};
  let action = a.action;
  try { action = JSON.stringify(JSON.parse(a.action)); } catch { /* YAML, as sent */ }
  const rolls = out.rolls || [];
  const li = h('li', {class: 'entry', id: 'action-' + a.seq, value: a.seq + 1},
    h('div', {class: 'entry-head'}, h('strong', {}, '#' + a.seq), ' ', h('span', {class: 'side'}, a.side), ' ', h('code', {}, action)));
  if (rolls.length) {
    li.append(h('table', {class: 'dice'},
      h('thead', {}, h('tr', {}, h('th', {}, 'die for'), h('th', {class: 'num'}, 'sides'), h('th', {class: 'num'}, 'rolled'))),
      h('tbody', {}, rolls.map((r) => h('tr', {class: 'die'}, h('td', {}, r.purpose), h('td', {class: 'num'}, 'd' + r.sides), h('td', {class: 'num roll'}, r.value, r.by ? h('span', {class: 'by-hand'}, ` rolled by hand (${r.by})`) : null))))));
  } else {
    li.append(h('p', {class: 'help'}, 'No die rolled.'));
  }
  if (out.targets?.length) {
    li.append(h('ul', {class: 'results'}, out.targets.map((t) => h('li', {}, resultText(t)))));
  }
  if (out.trace?.length) {
    li.append(h('details', {}, h('summary', {}, `Trace: ${out.trace.length} steps, every modifier`),
      h('ol', {class: 'trace'}, out.trace.map((s) => h('li', {},
        h('span', {class: 'rule'}, s.rule), ': ', inputs(s.inputs), ' → ', h('strong', {}, String(s.result)))))));
  }
  return li;
}

function inputs(inp) {
  return Object.entries(inp || {}).map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`).join(', ');
}

// resultText says what an action did to one target: its measures and whether it is destroyed.
export function resultText(t) {
  const m = Object.entries(t).filter(([k]) => k !== 'target' && k !== 'destroyed').map(([k, v]) => `${k.replaceAll('_', ' ')} ${v}`);
  return `${t.target}: ${m.join(', ')}${t.destroyed ? ' — destroyed' : ''}`;
}

// verifyPanel shows the revealed seed, checks the commitment in this browser where it
// can (SHA-256 of the seed's 8 bytes, most significant first), and asks the server to
// replay the dice. Anyone who trusts neither runs `volley verify` on the downloaded log.
function verifyPanel(view, lg, token) {
  const result = h('div', {id: 'verify-result', 'aria-live': 'polite'});
  const box = errorBox('verify-error');
  const button = h('button', {id: 'verify', onclick: async () => {
    button.disabled = true;
    result.replaceChildren('Checking…');
    showError(box, null);
    try {
      const lines = [];
      const local = await localCommitment(lg);
      if (local !== null) {
        lines.push(h('li', {}, local === lg.commitment ? '✔ In this browser: the seed matches the commitment.' : '✘ In this browser: the seed does NOT match the commitment.'));
      }
      const kept = keptHead(view.id);
      const q = kept ? `?head=${kept.hash}&actions=${kept.actions}` : '';
      const v = await call('GET', `/api/battles/${view.id}/verify${q}`, {token});
      const from = v.rolled_by === 'players' ? `replay exactly from the ${v.dice} dice the players rolled by hand` : `and ${v.dice} dice replay exactly from the seed`;
      lines.push(h('li', {class: v.verified ? 'ok' : 'bad'}, v.verified
        ? `✔ Verified: ${v.actions} actions ${from}.`
        : '✘ Rejected: ' + v.problem.replace(/^REJECTED: /, '')));
      if (v.verified && v.kept !== undefined) {
        lines.push(h('li', {class: 'ok', id: 'verify-kept'}, `✔ The log is the history this browser was shown: its first ${v.kept} actions chain to the head kept here.`));
      } else if (v.verified) {
        lines.push(h('li', {}, 'This browser kept no head of this battle: the seed proves the dice, not which actions were taken. Check the log against a head you kept elsewhere.'));
      }
      const command = kept ? `volley verify volley-${view.id}.json --head '${JSON.stringify(kept)}'` : `volley verify volley-${view.id}.json`;
      result.replaceChildren(h('ul', {class: 'verify'}, lines),
        h('p', {class: 'help'}, 'To check without trusting this server, download ',
          h('a', {href: URL.createObjectURL(new Blob([JSON.stringify(lg, null, 2)], {type: 'application/json'})),
            download: `volley-${view.id}.json`, id: 'log-download'}, 'the log'),
          ' and run ', h('code', {id: 'verify-command'}, command), ' (or ', h('code', {}, '--key'), ' with the server\'s key, from ', h('code', {}, 'GET /api/key'), ').'));
    } catch (err) {
      result.replaceChildren();
      showError(box, err);
    } finally { button.disabled = false; }
  }}, 'Verify the dice');
  return h('div', {class: 'seed'}, h('p', {}, 'Revealed seed: ', h('code', {id: 'seed'}, lg.seed), ' ', button), result, box);
}

// keptHead is the head of battle id's chain this browser keeps, or null.
function keptHead(id) {
  try { return JSON.parse(localStorage.getItem('volley.head.' + id)); } catch { return null; }
}

// keepHead keeps the head the server gives now, unless the one kept covers more actions.
// A head for as many actions as the kept one but with another hash means the server now
// shows another history than it showed this page: the kept head stays, as the evidence,
// and is answered.
function keepHead(id, head) {
  if (!head?.hash) return null;
  const old = keptHead(id);
  if (old && old.actions === head.actions && old.hash !== head.hash) return old;
  if (!old || head.actions >= old.actions) localStorage.setItem('volley.head.' + id, JSON.stringify(head));
  return null;
}

// localCommitment recomputes a log's commitment in the browser, as volley.Commitment
// does: from edition 2 the SHA-256 of a text binding the seed to the battle's id, rule
// system, edition, generator and scenario; in edition 1 the SHA-256 of the seed's eight
// bytes.
async function localCommitment(lg) {
  if (!globalThis.crypto?.subtle) return null; // only in a secure context (https, localhost)
  const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const sha = (bytes) => crypto.subtle.digest('SHA-256', bytes);
  if ((lg.edition || 1) === 1) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(lg.seed));
    return hex(await sha(bytes));
  }
  const enc = new TextEncoder();
  const text = `volley battle commitment\nedition: ${lg.edition}\nid: ${lg.id}\nruleset: ${lg.ruleset}\n`
    + `generator: ${lg.generator}\nscenario-sha256: ${hex(await sha(enc.encode(lg.scenario)))}\nseed: ${lg.seed}\n`;
  return hex(await sha(enc.encode(text)));
}
