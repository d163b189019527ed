// The log panel: every action in words, a line for each thing that happened (the log's
// words), with its side, its dice and its luck (where the result fell in the exact odds
// worked out before rolling); what each die was for, the action as sent and every rule
// applied are folded away beneath it. Each side's luck so far; the commitment to the
// seed; and the check of the dice, which the end of a battle shows (end.js). The head of
// the battle's chain the page was last given is kept in this browser, so that the check
// can hold the log to the history the page was shown (docs/api.md, "What a log proves").

import {call, errorBox, showError} from './api.js';
import {h, num, sideColour, swatch, tidy} from './dom.js';

export function renderLog(box, view, lg) {
  const parts = [h('h2', {id: 'log-h'}, 'Log')];
  const luck = luckLine(view, lg);
  if (luck) parts.push(luck);
  if (lg.actions.length === 0) parts.push(h('p', {}, 'No action yet.'));
  const list = h('ol', {class: 'entries', reversed: true});
  for (const a of [...lg.actions].reverse()) list.append(entry(a, view));
  parts.push(list);
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
    parts.push(h('p', {class: 'help', id: 'log-hand'}, 'The players roll this battle\'s dice by hand: each die is the face its player gave, and the seed decides none.'));
  }
  parts.push(lg.ended ? h('p', {class: 'help'}, 'The battle has ended: its seed is revealed and the dice checked at the top of the page.')
    : h('p', {class: 'help'}, 'The seed is revealed when the battle ends; the dice can then be checked against this commitment.'));
  box.replaceChildren(...parts);
}

// wordsOf are an action's lines for people: the log's words where it has them, else what
// it did to each target; numbers to two decimals, inches as ″.
export function wordsOf(a) {
  const out = a.outcome || {};
  const lines = a.words?.length ? a.words : (out.targets || []).map(resultText);
  return (lines.length ? lines : [out.rolls?.length ? 'dice rolled' : 'done']).map(tidy);
}

// luckWords writes a percentile as a player reads luck: "luck 82%".
export function luckWords(p) {
  return `luck ${Math.round(p * 100)}%`;
}

// luckBySide is each side's luck over the log: the mean of its actions' percentiles, and
// how many there were.
export function luckBySide(lg) {
  const by = {};
  for (const a of lg.actions) {
    const p = a.outcome?.luck?.percentile;
    if (typeof p !== 'number') continue;
    (by[a.side] ||= []).push(p);
  }
  return Object.fromEntries(Object.entries(by).map(([s, ps]) => [s, {mean: ps.reduce((x, y) => x + y, 0) / ps.length, n: ps.length}]));
}

// luckLine is the log's line of each side's luck so far.
function luckLine(v, lg) {
  const luck = luckBySide(lg);
  const sides = v.sides.filter((s) => luck[s]);
  if (!sides.length) return null;
  return h('p', {class: 'help', id: 'log-luck', title: 'where each roll fell in the exact odds worked out before it: 50% is average'},
    'Luck so far: ', sides.map((s, i) => [i ? ' · ' : '', swatch(sideColour(v.sides, s)), `${s} ${Math.round(luck[s].mean * 100)}%`]));
}

function entry(a, v) {
  const out = a.outcome || {};
  let action = a.action;
  try { action = JSON.stringify(JSON.parse(a.action), null, 1); } catch { /* YAML, as sent */ }
  const rolls = out.rolls || [];
  const luck = out.luck;
  const head = h('div', {class: 'entry-head'}, h('strong', {}, '#' + a.seq), ' ',
    h('span', {class: 'side'}, v ? swatch(sideColour(v.sides, a.side)) : '', a.side));
  if (luck) {
    head.append(' ', h('span', {class: 'luck', 'data-luck': luck.percentile,
      title: (luck.measures || []).map((m) => `${m.target} ${m.measure.replaceAll('_', ' ')}: rolled ${num(m.rolled)}, ${num(m.mean)} on average (${Math.round(m.percentile * 100)}%)`).join('\n')},
    luckWords(luck.percentile)));
  }
  if (v?.opponent?.side === a.side) head.append(' ', h('span', {class: 'badge'}, 'volley'));
  const li = h('li', {class: 'entry', id: 'action-' + a.seq, value: a.seq + 1}, head,
    h('ul', {class: 'words'}, wordsOf(a).map((l) => h('li', {}, l))));
  if (a.why) li.append(h('p', {class: 'why help'}, 'Why: ' + a.why));
  if (rolls.length) {
    li.append(h('p', {class: 'dice-line'}, 'Dice: ', rolls.map((r, i) => [i ? ' ' : '', h('span', {class: 'die-face', title: r.purpose}, `${r.value}`)]),
      ` (d${[...new Set(rolls.map((r) => r.sides))].join('/d')})`, rolls.some((r) => r.by) ? ` — rolled by hand (${rolls.find((r) => r.by).by})` : ''));
  }
  const details = h('details', {class: 'entry-details'}, h('summary', {}, rolls.length ? 'What each die was for, the action sent, every rule applied' : 'The action sent, every rule applied'));
  if (rolls.length) {
    details.append(h('table', {class: 'dice'},
      h('thead', {}, h('tr', {}, h('th', {}, 'die for'), h('th', {class: 'num'}, 'sides'), h('th', {class: 'num'}, 'rolled'))),
      h('tbody', {}, rolls.map((r) => h('tr', {class: 'die'}, h('td', {}, r.purpose), h('td', {class: 'num'}, 'd' + r.sides), h('td', {class: 'num roll'}, r.value, r.by ? h('span', {class: 'by-hand'}, ` rolled by hand (${r.by})`) : null))))));
  }
  details.append(h('pre', {class: 'action-body'}, h('code', {}, action)));
  if (out.trace?.length) {
    details.append(h('ol', {class: 'trace'}, out.trace.map((s) => h('li', {},
      h('span', {class: 'rule'}, s.rule), ': ', inputs(s.inputs), ' → ', h('strong', {}, tidy(typeof s.result === 'object' ? JSON.stringify(s.result) : String(s.result)))))));
  }
  li.append(details);
  return li;
}

function inputs(inp) {
  return Object.entries(inp || {}).map(([k, v]) => `${k.replaceAll('_', ' ')} ${typeof v === 'number' ? num(v) : typeof v === 'object' ? JSON.stringify(v) : v}`).join(', ');
}

// resultText says what an action did to one target: its measures and whether it is destroyed.
export function resultText(t) {
  const m = Object.entries(t).filter(([k]) => k !== 'target' && k !== 'destroyed').map(([k, v]) => `${k.replaceAll('_', ' ')} ${typeof v === 'number' ? num(v) : v}`);
  return `${t.target}: ${m.join(', ')}${t.destroyed ? ' — destroyed' : ''}`;
}

// fairLine says how one player's dice of one size fell against fair dice (the verify
// answer's fairness): the throws of each face and the chance that fair dice would spread
// as unevenly.
function fairLine(f) {
  const p = f.p < 0.001 ? 'under 1 in 1,000' : f.p < 0.01 ? `1 in ${Math.round(1 / f.p)}` : `${Math.round(f.p * 100)}%`;
  const words = f.p < 0.01 ? 'unusual for fair dice' : f.p < 0.05 ? 'a little uneven' : 'as fair dice fall';
  return h('li', {class: f.p < 0.01 ? 'fair bad' : 'fair', 'data-by': f.by || ''},
    `${f.by || 'volley'}'s d${f.sides}: ${f.rolls} throws (${f.faces.map((n, i) => `${i + 1}: ${n}`).join(', ')}); `,
    h('span', {title: `Pearson's chi-square ${f.chi_square.toFixed(2)}, p ${f.exact ? 'summed exactly' : 'from the chi-square distribution'}`},
      `fair dice spread this unevenly ${p} of the time: ${words}.`));
}

// verifyPanel shows the revealed seed, checks the commitment in this browser where it
// can (SHA-256 of the seed's 8 bytes, most significant first), and asks the server to
// replay the dice. Anyone who trusts neither runs `volley verify` on the downloaded log.
export function verifyPanel(view, lg, token, {auto = false} = {}) {
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
      const v = await call('GET', `/api/battles/${view.id}/verify${q}`, {token, patient: true});
      const from = v.rolled_by === 'players' ? `replay exactly from the ${v.dice} dice the players rolled by hand` : `and ${v.dice} dice replay exactly from the seed`;
      lines.push(h('li', {class: v.verified ? 'ok' : 'bad'}, v.verified
        ? `✔ Verified: ${v.actions} actions ${from}.`
        : '✘ Rejected: ' + v.problem.replace(/^REJECTED: /, '')));
      if (v.verified && v.kept !== undefined) {
        lines.push(h('li', {class: 'ok', id: 'verify-kept'}, `✔ The log is the history this browser was shown: its first ${v.kept} actions chain to the head kept here.`));
      } else if (v.verified) {
        lines.push(h('li', {}, 'This browser kept no head of this battle: the seed proves the dice, not which actions were taken. Check the log against a head you kept elsewhere.'));
      }
      // Dice rolled by hand: how each player's fell against fair dice, die size by size.
      if (v.verified && v.rolled_by === 'players') {
        for (const f of v.fairness || []) lines.push(fairLine(f));
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
  }}, auto ? 'Check again' : 'Verify the dice');
  // At the end of a battle the dice are checked at once: the check is the end's proof.
  if (auto) setTimeout(() => { if (button.isConnected && !button.disabled) button.click(); }, 0);
  return h('div', {class: 'seed', id: 'dice-check'}, h('p', {}, 'Revealed seed: ', h('code', {id: 'seed'}, lg.seed), ' ', button), result, box);
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

// keptHead is the head of a battle's chain this browser was last given, or null.
function keptHead(id) {
  try { return JSON.parse(localStorage.getItem('volley.head.' + id)); } catch { return null; }
}

// keepHead keeps a head the server gave, when it covers at least as many actions as the
// one kept; it returns the kept head when the server now gives another for as many
// actions (the history changed), and keeps the old one as the evidence.
function keepHead(id, head) {
  if (!head?.hash) return null;
  const old = keptHead(id);
  if (old && old.actions === head.actions && old.hash !== head.hash) return old;
  if (!old || head.actions >= old.actions) localStorage.setItem('volley.head.' + id, JSON.stringify(head));
  return null;
}
