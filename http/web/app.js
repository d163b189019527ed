// The battlefield page: a list of battles, a form to start one from a scenario file, and
// a battle with its board, its controls and its log. Everything it shows comes from the
// JSON API (docs/api.md); the page keeps nothing but the side tokens it was given, in
// this browser's localStorage, so a reload shows the battle as the server has it.

import {call, errorBox, showError} from './api.js';
import {h, possessive} from './dom.js';
import {renderLog} from './log.js';
import * as grid from './grid.js';
import * as table from './table.js';
import * as advisor from './advisor.js';
import {follow} from './live.js';
import {offers, same} from './turn.js';
import {endControls, endScreen, offersLine, replayer, roundWords, score} from './end.js';
import {startValues} from './marks.js';
import {askDie, awaitingText} from './hand.js';
import {showEditor} from './editor.js';

const main = document.getElementById('main');

// Tokens are kept per battle, so that a reload can still act. They are the player's own
// secrets: the server shows them once, at creation. A side's token acts and reads; the
// spectator's only reads. Every read of a battle needs one of them.
const tokens = {
  get(id) {
    try { return JSON.parse(localStorage.getItem('volley.tokens.' + id)) || {}; } catch { return {}; }
  },
  set(id, all) { localStorage.setItem('volley.tokens.' + id, JSON.stringify(all)); },
  spectator(id) { return localStorage.getItem('volley.spectator.' + id) || ''; },
  setSpectator(id, t) { localStorage.setItem('volley.spectator.' + id, t); },
  // reader is a token that reads the battle: a side's, else the spectator's.
  reader(id) {
    return Object.values(this.get(id)).find((t) => /^[0-9a-f]{32}$/.test(t)) || this.spectator(id);
  },
  // every is each token this browser holds, of any battle: what the battle list shows.
  every() {
    const all = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k.startsWith('volley.tokens.')) all.push(...Object.values(this.get(k.slice('volley.tokens.'.length))));
      if (k.startsWith('volley.spectator.')) all.push(localStorage.getItem(k));
    }
    return [...new Set(all)].filter((t) => /^[0-9a-f]{32}$/.test(t)).slice(0, 100);
  },
};

// stream follows the battle shown, live; it is stopped when the page moves on.
let stream = null;

// nav counts the page's navigations: a request answered after the player has moved on
// to another page or battle must not draw over it.
let nav = 0;

window.addEventListener('hashchange', route);
route();

// route shows the battle the address names, or the list. An address may carry side
// tokens after the battle's id (#/battles/ID?side=token&…): a link a player is sent to
// act for a side. The fragment never reaches the server; the page keeps the tokens and
// takes them out of the address bar.
function route() {
  const my = ++nav;
  if (stream) { stream.stop(); stream = null; }
  if (location.hash === '#/new') {
    showEditor(main, {onCreated: (c) => {
      if (my !== nav) return;
      tokens.set(c.id, c.tokens);
      tokens.setSpectator(c.id, c.spectator);
      location.hash = '#/battles/' + c.id;
    }});
    return;
  }
  const m = location.hash.match(/^#\/battles\/([0-9a-f]{16})(?:\?(.*))?$/);
  if (!m) { showList(my); return; }
  if (m[2]) {
    const q = new URLSearchParams(m[2]);
    // A lobby's "play as" link keeps only its side's token (and the spectator's): the
    // page then plays that side alone, whatever it held of the battle before.
    const all = q.has('only') ? {} : tokens.get(m[1]);
    for (const [side, t] of q) {
      if (!/^[0-9a-f]{32}$/.test(t)) continue;
      if (side === 'spectator') tokens.setSpectator(m[1], t); else all[side] = t;
    }
    tokens.set(m[1], all);
    history.replaceState(null, '', '#/battles/' + m[1]);
  }
  showBattle(m[1], my);
}

// ---- the battle list and the new-battle form ----

async function showList(my) {
  document.title = 'volley — battles';
  const demos = h('section', {class: 'panel demos', id: 'demos', 'aria-labelledby': 'demos-h'},
    h('h1', {id: 'demos-h'}, 'Play a demo battle'), h('p', {}, 'Loading…'));
  const against = h('section', {class: 'panel against', id: 'against', 'aria-labelledby': 'against-h', hidden: true});
  const list = h('section', {class: 'panel', id: 'battles', 'aria-labelledby': 'battles-h'},
    h('h2', {id: 'battles-h'}, 'Your battles'), h('p', {}, 'Loading…'));
  const form = newBattleForm();
  main.replaceChildren(h('div', {class: 'home'}, h('div', {class: 'home-main'}, demos, against, list), form));
  showDemos(demos, my);
  showAgainst(against, my);
  try {
    const mine = tokens.every();
    const {battles} = mine.length ? await call('GET', '/api/battles', {token: mine.join(',')}) : {battles: []};
    if (my !== nav) return;
    const rows = battles.map((b) => h('tr', {},
      h('td', {}, h('a', {href: '#/battles/' + b.id}, b.title || localStorage.getItem('volley.title.' + b.id) || b.id)),
      h('td', {}, b.ruleset), h('td', {class: 'num'}, b.actions), h('td', {}, b.ended ? 'ended' : 'in play'),
      h('td', {}, playsAs(b.id))));
    list.replaceChildren(h('h2', {id: 'battles-h'}, 'Your battles'),
      battles.length === 0 ? h('p', {class: 'help'}, 'None in this browser yet: play a demo, start a battle below, or open a link you were sent.')
        : h('div', {class: 'scroll-x'}, h('table', {class: 'battles'},
          h('thead', {}, h('tr', {}, h('th', {}, 'battle'), h('th', {}, 'rules'), h('th', {class: 'num'}, 'actions'), h('th', {}, 'state'), h('th', {}, 'you play'))),
          h('tbody', {}, rows))));
  } catch (err) {
    const box = errorBox('list-error');
    list.replaceChildren(h('h2', {id: 'battles-h'}, 'Your battles'), box);
    showError(box, err);
  }
}

// playsAs says which sides of battle id this browser holds the tokens of.
function playsAs(id) {
  const sides = Object.keys(tokens.get(id));
  return sides.length ? sides.join(', ') : 'watching';
}

// showDemos lists the server's demo battles (GET /api/demos), each with a link to play
// each side and one to watch. A demo is public: its tokens are in the list.
async function showDemos(box, my) {
  let demos = [];
  try {
    ({demos} = await call('GET', '/api/demos'));
  } catch (err) {
    if (my !== nav) return;
    const e = errorBox('demos-error');
    box.replaceChildren(h('h1', {id: 'demos-h'}, 'Play a demo battle'), e);
    showError(e, err);
    return;
  }
  if (my !== nav) return;
  if (!demos.length) {
    box.hidden = true;
    return;
  }
  const link = (d, query) => `#/battles/${d.id}?${query}`;
  const cards = demos.map((d) => h('li', {class: 'demo', 'data-demo': d.ruleset, 'data-battle': d.id},
    h('div', {class: 'demo-title'}, h('strong', {}, d.title || d.id), ' ', h('span', {class: 'badge'}, d.ruleset),
      ' ', h('span', {class: 'help'}, d.ended ? 'ended' : d.actions ? `${d.actions} action${d.actions === 1 ? '' : 's'} played` : 'not begun')),
    h('div', {class: 'demo-links'},
      Object.entries(d.sides).sort(([a], [b]) => a.localeCompare(b)).map(([side, t]) => h('a', {class: 'button primary', 'data-side': side,
        href: link(d, `${encodeURIComponent(side)}=${t}&spectator=${d.spectator}&only=1`)}, `Play as ${side}`)),
      h('a', {class: 'button', 'data-side': 'spectator', href: link(d, `spectator=${d.spectator}`)}, 'Watch'))));
  box.replaceChildren(h('h1', {id: 'demos-h'}, 'Play a demo battle'),
    h('p', {class: 'help'}, 'Public battles anyone who opens this page may play: choose a side; another player opens this page and plays the other, live.'),
    h('ul', {class: 'demo-list'}, cards));
}

// showAgainst offers a battle against volley: one of the server's whole battles (the
// examples with an end), the side the player takes, and how volley plays the other (a
// level and a style, as the server lists them). The battle is the example with an
// opponent: section added; its one token is the player's.
async function showAgainst(box, my) {
  let list;
  try {
    list = await call('GET', '/api/examples');
  } catch { return; }
  if (my !== nav || !list.battles?.length) return;
  const err = errorBox('against-error');
  const battle = h('select', {id: 'against-battle'}, list.battles.map((b, i) => h('option', {value: i}, `${b.title || b.name} (${b.ruleset})`)));
  const side = h('select', {id: 'against-side'});
  const sides = () => {
    const b = list.battles[battle.value];
    side.replaceChildren(...b.sides.map((s) => h('option', {value: s}, s)));
  };
  battle.addEventListener('change', sides);
  sides();
  const level = h('select', {id: 'against-level'}, list.opponent.levels.map((l) => h('option', {value: l, selected: l === list.opponent.level}, l)));
  const style = h('select', {id: 'against-style'}, list.opponent.styles.map((s) => h('option', {value: s, selected: s === 'balanced'}, s)));
  const start = h('button', {type: 'submit', id: 'against-start', class: 'primary'}, 'Play against volley');
  const form = h('form', {},
    h('div', {class: 'row'}, h('label', {for: 'against-battle'}, 'Battle '), battle),
    h('div', {class: 'row'}, h('label', {for: 'against-side'}, 'You play '), side),
    h('div', {class: 'row'}, h('label', {for: 'against-level'}, 'volley plays '), level, ' ', h('label', {for: 'against-style', class: 'help'}, 'style '), style),
    err, h('div', {class: 'row'}, start));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    showError(err, null);
    start.disabled = true;
    try {
      const b = list.battles[battle.value];
      const bot = b.sides.find((s) => s !== side.value);
      const text = await call('GET', '/api/examples/' + b.name, {text: true});
      const body = text.replace(/\s*$/, '\n') + `opponent: {side: ${JSON.stringify(bot)}, level: ${level.value}, style: ${style.value}}\n`;
      const c = await call('POST', '/api/battles', {body});
      tokens.set(c.id, c.tokens);
      tokens.setSpectator(c.id, c.spectator);
      location.hash = '#/battles/' + c.id;
    } catch (e) {
      showError(err, e);
    } finally { start.disabled = false; }
  });
  box.replaceChildren(h('h2', {id: 'against-h'}, 'Play against volley'),
    h('p', {class: 'help'}, 'volley plays the other side, saying why in the log: teaching plays like a reasonable person and can be beaten; strong plans each turn with every exact measure it has.'),
    form);
  box.hidden = false;
}

function newBattleForm() {
  const text = h('textarea', {id: 'scenario', rows: 12, spellcheck: 'false', 'aria-describedby': 'scenario-help',
    placeholder: 'ruleset: …\ntitle: …'});
  const file = h('input', {type: 'file', id: 'scenario-file', accept: '.yaml,.yml,.json,text/yaml,application/json'});
  const pick = h('select', {id: 'example'}, h('option', {value: ''}, '— an example —'));
  const box = errorBox('create-error');
  const done = h('div', {id: 'created', 'aria-live': 'polite'});
  const create = h('button', {type: 'submit', id: 'create', class: 'primary'}, 'Start the battle');
  // The scenario's text is folded away until there is one to read or write.
  const paste = h('details', {id: 'scenario-box'}, h('summary', {}, 'Paste or edit the scenario'),
    h('p', {id: 'scenario-help', class: 'help'}, 'YAML or JSON, as for ', h('code', {}, 'volley check'),
      '. A scenario sent here must carry its tables in place.'), text);
  const loaded = () => {
    const n = text.value.split('\n').length;
    paste.querySelector('summary').textContent = text.value.trim() ? `The scenario (${n} lines): read or edit it` : 'Paste or edit the scenario';
  };
  text.addEventListener('input', loaded);
  file.addEventListener('change', async () => {
    const f = file.files[0];
    if (f) text.value = await f.text();
    loaded();
  });
  pick.addEventListener('change', async () => {
    if (!pick.value) return;
    try {
      text.value = await call('GET', '/api/examples/' + pick.value, {text: true});
      loaded();
      showError(box, null);
    } catch (err) { showError(box, err); }
  });
  call('GET', '/api/examples').then(({examples}) => {
    for (const e of examples) pick.append(h('option', {value: e}, e));
  }).catch(() => { pick.disabled = true; });
  const form = h('form', {class: 'panel', id: 'new-battle', 'aria-labelledby': 'new-h'},
    h('h2', {id: 'new-h'}, 'New battle'),
    h('p', {class: 'help'}, 'From a scenario file below, or ', h('a', {href: '#/new', id: 'open-editor'}, 'build a table in the editor'), '.'),
    h('div', {class: 'row'}, h('label', {for: 'example'}, 'From an example '), pick),
    h('div', {class: 'row'}, h('label', {for: 'scenario-file'}, 'or a file '), file),
    paste, box, h('div', {class: 'row'}, create), done);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    showError(box, null);
    done.replaceChildren();
    if (!text.value.trim()) { showError(box, new Error('Choose, pick or paste a scenario first.')); return; }
    create.disabled = true;
    try {
      const c = await call('POST', '/api/battles', {body: text.value});
      tokens.set(c.id, c.tokens);
      tokens.setSpectator(c.id, c.spectator);
      done.replaceChildren(
        h('p', {}, 'Battle ', h('a', {href: '#/battles/' + c.id, id: 'open-battle'}, c.id), ' started. Each side\'s token lets its player act; it is shown only now (this browser keeps a copy):'),
        tokenTable(c.id, {...c.tokens, spectator: c.spectator}),
        h('p', {class: 'help'}, 'Commitment to the secret seed: ', h('code', {class: 'hash'}, c.commitment)));
    } catch (err) {
      showError(box, err);
      if (/^body:/.test(err.field || '')) paste.open = true;
      markLine(text, err);
    } finally { create.disabled = false; }
  });
  return form;
}

// tokenTable shows each side's token and a link that hands it to that side's player.
function tokenTable(id, all) {
  return h('table', {class: 'tokens'}, h('tbody', {}, Object.entries(all).map(([side, t]) => {
    const link = `${location.origin}/#/battles/${id}?${encodeURIComponent(side)}=${t}`;
    const label = side === 'spectator' ? 'link to watch (reads, cannot act)' : 'link for ' + side;
    return h('tr', {}, h('th', {}, side), h('td', {}, h('code', {}, t), ' ', h('a', {href: link, class: 'help'}, label)));
  })));
}

// markLine puts the textarea's cursor on the first line an error names.
function markLine(text, err) {
  const m = /^body:(\d+):(\d+)/.exec(err.field || '');
  if (!m) return;
  const lines = text.value.split('\n');
  let at = 0;
  for (let i = 0; i < Number(m[1]) - 1 && i < lines.length; i++) at += lines[i].length + 1;
  text.focus();
  text.setSelectionRange(at + Number(m[2]) - 1, at + (lines[Number(m[1]) - 1] || '').length);
}

// ---- one battle ----

// pending holds the idempotency key of each action sent and not yet answered, by side
// and body, so that sending it again after a lost answer cannot act twice: the server
// answers a repeated key with the first answer.
const pending = new Map();

function newKey() {
  return globalThis.crypto?.randomUUID?.() || Date.now().toString(36) + '-' + Math.random().toString(36).slice(2);
}

async function showBattle(id, my) {
  const box = errorBox('battle-error');
  main.replaceChildren(h('p', {}, 'Loading battle ' + id + '…'), box);
  let view;
  try {
    view = await call('GET', '/api/battles/' + id, {token: tokens.reader(id)});
  } catch (err) {
    if (my !== nav) return;
    main.replaceChildren(h('p', {}, h('a', {href: '#/'}, '← Battles')), box);
    showError(box, err);
    return;
  }
  if (my !== nav) return;
  document.title = 'volley — ' + (view.title || id);
  // The list of battles names each by its title, which it learns here.
  if (view.title) localStorage.setItem('volley.title.' + id, view.title);
  const kind = view.board ? grid : table;
  const field = h('div', {class: 'field', id: 'field'});
  const unitsBox = h('section', {class: 'panel units-panel', id: 'units', 'aria-labelledby': 'units-h'});
  const controls = h('div', {class: 'controls', id: 'controls'});
  const logBox = h('section', {class: 'panel log', id: 'log', 'aria-labelledby': 'log-h'});
  const head = h('div', {class: 'bhead'});
  const sidesBox = h('section', {class: 'panel', id: 'sides', 'aria-labelledby': 'sides-h'});
  const adviceBox = h('section', {class: 'panel advisor', id: 'advisor', 'aria-labelledby': 'advisor-h'});
  const crumbs = h('p', {class: 'crumbs'}, h('a', {href: '#/'}, '← Battles'));
  const endBox = h('section', {class: 'panel end', id: 'end', 'aria-labelledby': 'end-verdict', hidden: true});
  const replayBox = h('div', {class: 'replay-box'});
  const diceBox = h('section', {class: 'panel dice-ask', id: 'dice-ask', role: 'dialog', 'aria-labelledby': 'die-h', hidden: true});
  main.replaceChildren(
    crumbs,
    head, box, diceBox, endBox, replayBox,
    h('div', {class: 'play'}, field, controls, unitsBox),
    adviceBox, sidesBox, logBox);
  const ctx = {
    id,
    view,
    unitsBox,
    // log is the battle's log as last read; entries() the actions the board shows the
    // effects of (in a replay, those up to its step).
    log: null,
    shown: null,
    entries: () => ctx.shown || ctx.log?.actions || [],
    token: (side) => tokens.get(id)[side] || '',
    reader: () => tokens.reader(id),
    // act sends an action for a side and refreshes the battle. It answers the outcome,
    // or throws the API's error for the caller to put beside its control. An action
    // that was stored is never reported as failed: if only the refresh fails, that is
    // said at the top of the battle.
    async act(action, side) {
      const token = tokens.get(id)[side];
      if (!token) throw new Error(`You need ${possessive(side)} token to act for ${side}: paste it under "Sides and tokens".`);
      // In a battle rolled by hand the answer may ask for a die: the player rolls it, and
      // the action is sent again with every face given so far.
      let faces = [];
      let res;
      for (;;) {
        const sent = faces.length ? {...action, dice: faces} : action;
        const slot = side + '\n' + JSON.stringify(sent);
        if (!pending.has(slot)) pending.set(slot, newKey());
        try {
          res = await call('POST', `/api/battles/${id}/actions`, {body: sent, token, key: pending.get(slot)});
        } catch (err) {
          if (err.code !== 'needs_roll' || !err.need) throw err;
          pending.delete(slot);
          faces = [...faces, await askDie(diceBox, side, err.need, faces)];
          continue;
        }
        pending.delete(slot);
        break;
      }
      stream?.seen(res.seq); // the stream need not fetch what this page just did
      try {
        await refresh();
        showError(box, null);
      } catch (err) {
        showError(box, new Error(`Action #${res.seq} was recorded, but the page could not show the battle since (${err.message}). Reload the page.`));
      }
      return res;
    },
    refresh,
  };
  const board = kind.mount(field, controls, ctx);
  const advice = advisor.mount(adviceBox, board, ctx);
  // The replay draws past boards with the same board code, read-only; leaving it shows
  // the battle as it is.
  let current = view;
  const replay = replayer(ctx, {
    show(v, entries) {
      ctx.view = v;
      ctx.shown = entries;
      board.update(v);
      field.classList.add('replaying');
    },
    leave() {
      ctx.view = current;
      ctx.shown = null;
      board.update(current);
      field.classList.remove('replaying');
    },
  });
  replayBox.replaceWith(replay.bar); // a child of main, so that it sticks to the top while stepping
  // The units' values as the battle began, which the board's marks compare with: the
  // view itself before the first action, else the replay of none (read once).
  const plain = ((view.table || view.board)?.columns || []).some((c) => c.key && !c.of && !c.levels?.length && !c.flags?.length && c.key !== 'moved');
  if (view.actions === 0 || !plain) ctx.start = startValues(view); // no plain value to compare: the start is not read
  else {
    call('GET', `/api/battles/${id}/replay?at=0`, {token: tokens.reader(id)}).then((v0) => {
      if (my !== nav) return;
      ctx.start = startValues(v0);
      if (!replay.active()) board.update(ctx.view);
    }).catch(() => { /* the marks then leave out plain values */ });
  }

  // refresh reads the battle and its log again. Calls that come while one runs (the
  // stream's events, this page's own actions) are folded into one more read after it.
  let running = null;
  let again = false;
  async function refresh() {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await refreshOnce();
        } while (again);
      } finally { running = null; }
    })();
    return running;
  }

  async function refreshOnce() {
    const token = tokens.reader(id);
    const [v, lg] = await Promise.all([call('GET', '/api/battles/' + id, {token}), call('GET', `/api/battles/${id}/log`, {token})]);
    if (my !== nav) return;
    current = v;
    ctx.log = lg;
    // A page holding no side's token watches: the same live page, without action controls.
    document.body.classList.toggle('spectating', !v.sides.some((side) => ctx.token(side)));
    drawHead(head, v, ctx);
    drawSides(sidesBox, v);
    // The log only grows: the same actions and end are the same log, and drawing it again
    // would drop a dice check the player is reading.
    const shown = `${lg.actions.length} ${lg.ended}`;
    if (logBox.dataset.shown !== shown) {
      logBox.dataset.shown = shown;
      renderLog(logBox, v, lg);
      replay.log(lg);
      if (v.ended) endScreen(endBox, v, lg, ctx);
    }
    if (replay.active()) return; // the replay's board stays until the player leaves it
    ctx.view = v;
    board.update(v);
    advice.update(v);
  }
  try { await refresh(); } catch (err) { showError(box, err); }
  if (my !== nav || ctx.view.ended) return;
  stream = follow(id, ctx.view.actions - 1, () => tokens.reader(id), {
    onAction: () => refresh().catch((err) => showError(box, err)),
    onEnd: () => refresh().catch((err) => showError(box, err)),
  });
  crumbs.append(' ', stream.badge);
}

function drawHead(head, v, ctx) {
  // The same header is not drawn again: a button being pressed would be replaced.
  const key = JSON.stringify([v.title, v.ended, v.state.turn, v.result, v.take_back, v.sides.map((s) => !!ctx.token(s))]);
  if (head.dataset.key === key) return;
  head.dataset.key = key;
  const box = errorBox('head-error');
  const parts = [h('h1', {}, v.title || v.id), h('span', {class: 'badge'}, v.ruleset)];
  const turn = v.state.turn;
  if (turn && !v.ended) {
    parts.push(h('span', {class: 'turn', id: 'turn'}, turn.phase === 'turn'
      ? `${possessive(turn.side)} turn` : `${possessive(turn.side)} turn, ${turn.phase} phase`));
  }
  if (turn && !v.ended && v.opponent && turn.side === v.opponent.side) {
    parts.push(h('span', {class: 'thinking', id: 'opponent-thinking', 'aria-live': 'polite'}, 'volley is playing…'));
  }
  const round = roundWords(v);
  if (round) parts.push(h('span', {class: 'round', id: 'round'}, round));
  if (v.result?.scores) parts.push(h('span', {class: 'score-now', id: 'score', title: 'the score as it stands: enemies destroyed and objectives held'}, score(v)));
  if (v.ended) parts.push(h('span', {class: 'badge ended'}, 'ended'));
  if (v.dice === 'players') parts.push(h('span', {class: 'badge hand', id: 'hand-badge', title: 'The players roll this battle\'s dice and give each face; the server rolls none.'}, 'dice rolled by hand'));
  if (v.awaiting) parts.push(h('span', {class: 'awaiting', id: 'awaiting'}, awaitingText(v)));
  const buttons = h('span', {class: 'actions'});
  buttons.append(...endControls(v, ctx, box));
  // The battle says which action ends its phase or turn; the page only sends it. Where
  // the battle offers that action among others (turn.actions), it is one of those.
  const offered = offers(v, ctx, box);
  if (!v.ended && turn?.end && ctx.token(turn.side) && !(turn.actions || []).some((a) => same(a, turn.end))) {
    buttons.append(h('button', {id: 'end-phase', class: 'primary', onclick: async (ev) => {
      ev.target.disabled = true;
      try { await ctx.act(turn.end, turn.side); showError(box, null); } catch (err) { showError(box, err); } finally { ev.target.disabled = false; }
    }}, turn.phase === 'turn' ? 'End turn' : `End ${turn.phase} phase`));
  }
  // A battle whose scenario has an end ends when the sides agree (Offer to end); one
  // without may only be ended as it stands.
  if (!v.ended && !v.result && v.sides.some((s) => ctx.token(s))) {
    buttons.append(h('button', {id: 'end-battle', class: 'quiet', onclick: async () => {
      const side = v.sides.find((s) => ctx.token(s));
      if (!side) { showError(box, new Error('Ending the battle needs any side\'s token.')); return; }
      if (!confirm('End the battle? It takes no more actions, and its seed is revealed so that anyone can check the dice.')) return;
      try {
        await call('POST', `/api/battles/${ctx.id}/end`, {token: ctx.token(side)});
        await ctx.refresh();
      } catch (err) { showError(box, err); }
    }}, 'End the battle'));
  }
  head.replaceChildren(h('div', {class: 'titles'}, parts), buttons, ...(offered ? [offered] : []), offersLine(v, ctx) || '', box);
}

function drawSides(box, v) {
  const have = tokens.get(v.id);
  const rows = v.sides.map((side) => {
    const input = h('input', {id: 'token-' + side, value: have[side] || '', autocomplete: 'off', spellcheck: 'false',
      placeholder: 'paste ' + side + '\'s token', 'aria-label': side + ' token'});
    input.addEventListener('change', () => {
      const all = tokens.get(v.id);
      if (input.value.trim()) all[side] = input.value.trim(); else delete all[side];
      tokens.set(v.id, all);
    });
    return h('tr', {}, h('th', {}, side), h('td', {}, input));
  });
  box.replaceChildren(h('h2', {id: 'sides-h'}, 'Sides and tokens'),
    h('p', {class: 'help'}, 'A side acts with its token. This browser keeps the tokens of the battles it started or was sent a link to.'
      + (Object.keys(have).length ? '' : ' You are watching: paste a side\'s token to play it.')),
    h('table', {class: 'tokens'}, h('tbody', {}, rows)));
}
