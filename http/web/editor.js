// The table editor (#/new): a new battle built on the page rather than written by hand.
// It starts from a rule system's starter (GET /api/new/{system}), read as JSON through
// POST /api/check, and edits that document: the table's size, terrain drawn as polygons
// of the system's kinds (from its schema), units placed by clicking (and taken off by
// clicking them), each a copy of the starter's unit of its side. After every change the scenario is checked (POST
// /api/check) and each error is shown beside the piece or unit at fault. It is saved as
// a file or started as a battle at once. The page still knows no game: what a piece or a
// unit holds comes from the starter and the schema.
//
// Partial: open tables only (a grid system's map is edited as text), polygons only, and
// a unit's fields are its template's; see docs/page.md, "The table editor".

import {call, errorBox, showError} from './api.js';
import {h, s, svgPoint} from './dom.js';

// text writes the document as JSON with each terrain piece and unit on a line of its
// own, and answers where each is: an error's line then names the piece at fault. JSON is
// YAML, so the text is a scenario file as it stands.
export function text(doc) {
  const lines = ['{'];
  const at = new Map(); // line (from 1) → 'terrain:i' or 'units:i'
  const keys = Object.keys(doc);
  keys.forEach((k, ki) => {
    const comma = ki < keys.length - 1 ? ',' : '';
    const v = doc[k];
    if ((k === 'terrain' || k === 'units') && Array.isArray(v)) {
      if (v.length === 0) { lines.push(`  ${JSON.stringify(k)}: []${comma}`); return; }
      lines.push(`  ${JSON.stringify(k)}: [`);
      v.forEach((piece, i) => {
        at.set(lines.length + 1, `${k}:${i}`);
        lines.push(`    ${JSON.stringify(piece)}${i < v.length - 1 ? ',' : ''}`);
      });
      lines.push(`  ]${comma}`);
      return;
    }
    lines.push(`  ${JSON.stringify(k)}: ${JSON.stringify(v)}${comma}`);
  });
  lines.push('}');
  return {text: lines.join('\n') + '\n', at};
}

// kindsOf reads the terrain kinds a system's schema names: the enum of a terrain piece's
// `kind`, wherever the schema defines it; none when it has no such key.
function kindsOf(schema) {
  const seen = new Set();
  const walk = (v, depth) => {
    if (!v || typeof v !== 'object' || depth > 12) return null;
    if (v.properties?.terrain) {
      const items = resolve(schema, v.properties.terrain).items;
      const kind = items && resolve(schema, items).properties?.kind;
      if (kind) return resolve(schema, kind).enum || null;
    }
    for (const x of Object.values(v)) {
      if (seen.has(x)) continue;
      seen.add(x);
      const r = walk(x, depth + 1);
      if (r) return r;
    }
    return null;
  };
  return walk(schema, 0) || [];
}

function resolve(schema, v) {
  for (let i = 0; i < 8 && v?.$ref; i++) {
    v = v.$ref.replace(/^#\//, '').split('/').reduce((o, k) => o?.[decodeURIComponent(k)], schema);
  }
  return v || {};
}

export async function showEditor(main, {onCreated}) {
  document.title = 'volley — new battle';
  const box = errorBox('ed-error');
  const system = h('select', {id: 'ed-system', 'aria-label': 'rule system'}, h('option', {value: ''}, '— a rule system —'));
  const body = h('div', {id: 'ed-body'});
  main.replaceChildren(h('section', {class: 'panel editor', 'aria-labelledby': 'ed-h'},
    h('h1', {id: 'ed-h'}, 'New battle'),
    h('p', {class: 'help'}, 'Choose a rule system: its starter scenario is the table to begin from. Clear it, draw terrain, place units; the scenario is checked as you go.'),
    h('div', {class: 'row'}, h('label', {for: 'ed-system'}, 'Rule system '), system), box, body));
  try {
    const {rulesets} = await call('GET', '/api/rulesets');
    for (const r of rulesets) system.append(h('option', {value: r}, r));
  } catch (err) { showError(box, err); }
  system.addEventListener('change', async () => {
    showError(box, null);
    body.replaceChildren();
    if (!system.value) return;
    try {
      const starter = await call('GET', '/api/new/' + system.value, {text: true});
      const checked = await call('POST', '/api/check', {body: starter});
      let kinds = [];
      try { kinds = kindsOf(await call('GET', '/api/schema/' + system.value)); } catch { /* no schema: no kinds */ }
      edit(body, checked.document, kinds, onCreated);
    } catch (err) { showError(box, err); }
  });
}

// edit draws the editor of doc in box.
function edit(box, doc, kinds, onCreated) {
  const units = doc.units || [];
  // Each side's template is the starter's first unit of that side; a terrain piece's,
  // the starter's first piece.
  const templates = new Map();
  for (const u of units) if (u.side && !templates.has(u.side)) templates.set(u.side, u);
  const pieceTemplate = (doc.terrain || [])[0] || {};
  const st = {mode: '', draft: [], faults: new Map(), seq: 0};
  const open = doc.table && typeof doc.table.width === 'number';
  const errors = h('div', {id: 'ed-errors', 'aria-live': 'polite'});
  const svg = s('svg', {id: 'ed-table', class: 'ed-table'});
  const side = h('select', {id: 'ed-side', 'aria-label': 'side'}, [...templates.keys()].map((x) => h('option', {value: x}, x)));
  const kind = h('select', {id: 'ed-kind', 'aria-label': 'terrain kind', hidden: !kinds.length || !('kind' in pieceTemplate)},
    kinds.map((k) => h('option', {value: k, selected: k === pieceTemplate.kind}, k)));
  const num = (id, label, get, set) => {
    const input = h('input', {id, type: 'number', min: 1, step: 'any', value: get(), 'aria-label': label});
    input.addEventListener('change', () => { set(Number(input.value)); changed(); });
    return h('label', {}, label + ' ', input);
  };
  const mode = (m) => {
    st.mode = st.mode === m ? '' : m;
    st.draft = [];
    draw();
  };
  const unitBtn = h('button', {id: 'ed-unit', onclick: () => mode('unit')}, 'Place units');
  const terrainBtn = h('button', {id: 'ed-terrain', onclick: () => mode('terrain')}, 'Draw terrain');
  const finish = h('button', {id: 'ed-finish', onclick: () => {
    if (st.draft.length < 3) return;
    const piece = {...pieceTemplate, id: freshId(doc.terrain || [], 'piece'), polygon: st.draft};
    delete piece.line;
    if (!kind.hidden) piece.kind = kind.value;
    if ('name' in pieceTemplate) piece.name = piece.kind || piece.id;
    doc.terrain = [...(doc.terrain || []), piece];
    st.draft = [];
    changed();
  }}, 'Finish the piece');
  const clear = h('button', {id: 'ed-clear', class: 'quiet', onclick: () => {
    doc.terrain = [];
    doc.units = [];
    changed();
  }}, 'Clear the table');
  const download = h('a', {id: 'ed-download', download: 'battle.yaml', href: '#'}, 'Download the scenario');
  const start = h('button', {id: 'ed-start', onclick: async () => {
    start.disabled = true;
    try {
      const c = await call('POST', '/api/battles', {body: text(doc).text});
      onCreated(c);
    } catch (err) { showFaults(err); } finally { start.disabled = false; }
  }}, 'Start the battle');
  box.replaceChildren(
    open ? h('div', {class: 'row'},
      num('ed-width', 'Width', () => doc.table.width, (v) => { doc.table.width = v; }),
      num('ed-height', 'Height', () => doc.table.height, (v) => { doc.table.height = v; }),
      h('span', {class: 'help'}, doc.distances || 'in'), clear)
      : h('p', {class: 'help', id: 'ed-grid'}, 'This system\'s map is a grid: edit it as text for now (download the scenario). Units and terrain are placed on open tables only.'),
    open ? h('div', {class: 'row'}, terrainBtn, kind, finish, unitBtn, side) : null,
    open ? svg : null,
    errors,
    h('div', {class: 'row'}, start, ' ', download));

  function draw() {
    unitBtn.setAttribute('aria-pressed', String(st.mode === 'unit'));
    terrainBtn.setAttribute('aria-pressed', String(st.mode === 'terrain'));
    finish.disabled = st.draft.length < 3;
    const t = text(doc);
    download.href = URL.createObjectURL(new Blob([t.text], {type: 'text/yaml'}));
    if (!open) return;
    const {width: w, height: hh} = doc.table;
    const pad = Math.max(w, hh) * 0.02;
    svg.setAttribute('viewBox', `${-pad} ${-pad} ${w + 2 * pad} ${hh + 2 * pad}`);
    const Y = (y) => hh - y; // the scenario's y grows north
    const pts = (poly) => poly.map(([x, y]) => `${x},${Y(y)}`).join(' ');
    const parts = [s('rect', {x: 0, y: 0, width: w, height: hh, class: 'ed-cloth'})];
    for (const [name, poly] of Object.entries(doc.deployment || {})) {
      if (Array.isArray(poly)) parts.push(s('polygon', {points: pts(poly), class: 'ed-zone', 'data-zone': name}));
    }
    (doc.terrain || []).forEach((p, i) => {
      const poly = p.polygon || p.line;
      if (!Array.isArray(poly)) return;
      parts.push(s(p.polygon ? 'polygon' : 'polyline', {points: pts(poly), class: 'ed-piece' + (st.faults.has('terrain:' + i) ? ' fault' : ''), 'data-piece': p.id}));
    });
    if (st.draft.length) parts.push(s('polyline', {points: pts(st.draft), class: 'ed-draft'}));
    const r = Math.max(w, hh) / 60;
    (doc.units || []).forEach((u, i) => {
      if (!Array.isArray(u.at)) return;
      const n = [...templates.keys()].indexOf(u.side);
      parts.push(s('circle', {cx: u.at[0], cy: Y(u.at[1]), r, class: `ed-unit side-${n}` + (st.faults.has('units:' + i) ? ' fault' : ''), 'data-unit': u.id, 'data-side': u.side}));
    });
    svg.replaceChildren(...parts);
  }

  svg.addEventListener('click', (ev) => {
    if (!st.mode) return;
    // A click on a unit while placing units takes it off the table again.
    const hit = ev.target.closest?.('[data-unit]');
    if (st.mode === 'unit' && hit) {
      doc.units = doc.units.filter((u) => u.id !== hit.dataset.unit);
      changed();
      return;
    }
    const q = svgPoint(svg, ev);
    const at = [round(q.x), round(doc.table.height - q.y)];
    if (st.mode === 'terrain') {
      st.draft.push(at);
      draw();
      return;
    }
    const tpl = templates.get(side.value);
    if (!tpl) return;
    const u = {...tpl, id: freshId(doc.units || [], side.value.toLowerCase().replace(/[^a-z0-9]+/g, '-')), at};
    doc.units = [...(doc.units || []), u];
    changed();
  });

  // changed draws the table and checks the scenario; a check answered after a newer
  // change is dropped.
  async function changed() {
    draw();
    const seq = ++st.seq;
    try {
      const c = await call('POST', '/api/check', {body: text(doc).text});
      if (seq !== st.seq) return;
      st.faults = new Map();
      errors.dataset.ok = 'true';
      errors.replaceChildren(h('p', {class: 'ok', id: 'ed-ok'}, `✔ The scenario checks: ${c.units} units, sides ${c.sides.join(' and ')}.`));
    } catch (err) {
      if (seq !== st.seq) return;
      showFaults(err);
    }
    draw();
  }

  // showFaults lists a check's errors, naming the piece or unit at the line each gives.
  function showFaults(err) {
    const {at} = text(doc);
    st.faults = new Map();
    errors.dataset.ok = 'false';
    const box = errorBox('ed-check-error');
    const lines = (err.errors?.length ? err.errors : [err.field ? `${err.field}: ${err.message}` : err.message]).map((e) => {
      const m = /^body:(\d+):\d+: ?(.*)$/s.exec(e);
      const where = m && at.get(Number(m[1]));
      if (where) st.faults.set(where, m[2]);
      const [list, i] = where ? where.split(':') : [];
      const name = where ? `${list === 'units' ? 'unit' : 'terrain'} ${doc[list][Number(i)].id}` : '';
      return h('li', {'data-at': where || ''}, name ? h('strong', {}, name + ': ') : null, m ? m[2] : e);
    });
    box.hidden = false;
    box.replaceChildren('The scenario does not check yet:', h('ul', {}, lines));
    errors.replaceChildren(box);
    draw();
  }

  draw();
  changed();
}

function freshId(list, stem) {
  const taken = new Set(list.map((x) => x.id));
  for (let n = 1; ; n++) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`;
}

// round keeps a point to a tenth of the table's unit, as a player measures.
function round(v) { return Math.round(v * 10) / 10; }
