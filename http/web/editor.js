// The table editor (#/new): a new battle built on the page rather than written by hand.
// It starts from a rule system's starter (GET /api/new/{system}), read as JSON through
// POST /api/check, and edits that document as the system's schema (GET
// /api/schema/{system}) describes it:
//   - on an open table, terrain drawn as the outlines a piece may take (a closed polygon,
//     an open line such as a wall), moved, turned and reshaped with handles
//     (editor-shape.js, answering the pointer in editor-pointer.js), and each piece's
//     fields set in a form built from the schema;
//   - on a grid map, squares painted with the kinds its legend names (editor-grid.js);
//   - units placed by a click or a tap (and taken off by another), each a copy of the
//     starter's unit of its side, of a unit type chosen from the file's types; a placed
//     unit's fields, and new unit types, are edited in forms built from the schema;
//   - each side's deployment zone drawn as a polygon, and reshaped like a piece;
//   - sides added by name and renamed (their units and zones follow);
//   - every other section of the file (options, end, turn, rule tables…) in a form of
//     its own, records and lists of records nested (editor-form.js), and the whole file
//     edited as text for what no form says;
//   - a photo of the player's own table behind the board (backdrop.js).
// After every change the scenario is checked (POST /api/check) and each error is shown
// beside the piece or unit at fault, and beside the field its line and column name. It is saved as a file or started as a battle at
// once. The page still knows no game: every list, form and kind comes from the starter
// and the schema (editor-schema.js).

import {call, errorBox, showError} from './api.js';
import {h, s} from './dom.js';
import {fieldsForm, markFaults} from './editor-form.js';
import {fileSchema, gridOf, itemsOf, nestedPlaced, pointKey, resolve, shapesOf, zonesKey} from './editor-schema.js';
import {TAP, handles, round} from './editor-shape.js';
import {listen} from './editor-pointer.js';
import {cells, palette, resized, rowsText, squares} from './editor-grid.js';
import * as backdrop from './backdrop.js';

// BACKDROP is the key the editor keeps its table's photo under until a battle starts.
const BACKDROP = 'new';

// EDGE is how near, in CSS pixels, a point drawn must come to the table's edge to be
// put on it.
const EDGE = 6;

// LISTS are the file's lists written one item a line, so that an error's line names
// the item at fault.
const LISTS = ['terrain', 'units', 'types'];

// text writes the document as JSON with each terrain piece, unit and unit type on a
// line of its own, and each other section of the file on one, and answers what each
// line holds: where (the item, 'terrain:i', 'units:i', 'types:i', or the section,
// 'doc:key') and, for a column of the line, the path of the field that begins nearest
// before it (types.1.weapons.0.name): an error's line and column then name the field
// at fault. JSON is YAML, so the text is a scenario file as it stands.
export function text(doc) {
  const lines = ['{'];
  const at = new Map(); // line (from 1) → {where, field(column)}
  const line = (lead, v, path, where, tail) => {
    const out = {s: '', n: 0, marks: []};
    json(v, path, out);
    const from = [...lead].length;
    at.set(lines.length + 1, {where, field: (col) => {
      let best = path.join('.');
      for (const [n, p] of out.marks) if (from + n <= col - 1) best = p;
      return best;
    }});
    lines.push(lead + out.s + tail);
  };
  const keys = Object.keys(doc);
  keys.forEach((k, ki) => {
    const comma = ki < keys.length - 1 ? ',' : '';
    const v = doc[k];
    if (LISTS.includes(k) && Array.isArray(v)) {
      if (v.length === 0) { lines.push(`  ${JSON.stringify(k)}: []${comma}`); return; }
      lines.push(`  ${JSON.stringify(k)}: [`);
      v.forEach((piece, i) => line('    ', piece, [k, i], `${k}:${i}`, i < v.length - 1 ? ',' : ''));
      lines.push(`  ]${comma}`);
      return;
    }
    line(`  ${JSON.stringify(k)}: `, v, [k], `doc:${k}`, comma);
  });
  lines.push('}');
  return {text: lines.join('\n') + '\n', at};
}

// json writes v as JSON.stringify does, noting where each value begins (in characters,
// as a check's column counts them) with its path in the document.
function json(v, path, out) {
  out.marks.push([out.n, path.join('.')]);
  const put = (t) => { out.s += t; out.n += [...t].length; };
  if (Array.isArray(v)) {
    put('[');
    v.forEach((x, i) => { if (i) put(','); json(x === undefined ? null : x, [...path, i], out); });
    put(']');
  } else if (v && typeof v === 'object') {
    put('{');
    let first = true;
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue;
      if (!first) put(',');
      first = false;
      put(JSON.stringify(k) + ':');
      json(x, [...path, k], out);
    }
    put('}');
  } else put(JSON.stringify(v));
}

export async function showEditor(main, {onCreated}) {
  document.title = 'volley — new battle';
  const box = errorBox('ed-error');
  const system = h('select', {id: 'ed-system', 'aria-label': 'rule system'}, h('option', {value: ''}, '— a rule system —'));
  const body = h('div', {id: 'ed-body'});
  main.replaceChildren(h('section', {class: 'panel editor', 'aria-labelledby': 'ed-h'},
    h('h1', {id: 'ed-h'}, 'New battle'),
    h('p', {class: 'help'}, 'Choose a rule system: its starter scenario is the table to begin from. Clear it, draw terrain, place units and zones; the scenario is checked as you go.'),
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
      let schema = {};
      try { schema = await call('GET', '/api/schema/' + system.value); } catch { /* no schema: no forms */ }
      edit(body, checked.document, schema, (c) => { backdrop.copy(BACKDROP, c.id); onCreated(c); });
    } catch (err) { showError(box, err); }
  });
}

// edit draws the editor of doc in box.
function edit(box, doc, schema, onCreated) {
  const terrainItem = itemsOf(schema, 'terrain');
  const shapes = shapesOf(schema, terrainItem);
  const unitItem = itemsOf(schema, 'units') || {};
  const place = pointKey(schema, unitItem);
  const nested = place ? null : nestedPlaced(schema, unitItem);
  const typeItem = itemsOf(schema, 'types');
  const zoneKey = zonesKey(schema);
  const gridSpec = gridOf(schema);
  const grid = gridSpec && doc[gridSpec.key];
  const open = !grid && doc.table && typeof doc.table.width === 'number';
  const kindField = terrainItem?.properties?.kind ? resolve(schema, terrainItem.properties.kind) : null;
  const kinds = kindField?.enum || [];

  // Each side's template is the starter's first unit of that side; a piece's, the
  // starter's first piece of its outline's shape (or its first piece).
  const units = doc.units || [];
  const templates = new Map();
  for (const u of units) if (u.side && !templates.has(u.side)) templates.set(u.side, structuredClone(u));
  for (const side of Object.keys((zoneKey && doc[zoneKey]) || {})) if (!templates.has(side)) templates.set(side, null);
  const pieceTemplate = (key) => structuredClone((doc.terrain || []).find((p) => key in p) || (doc.terrain || [])[0] || {});
  const starterPieces = Object.fromEntries(shapes.map((sh) => [sh.key, pieceTemplate(sh.key)]));

  const st = {mode: '', shape: shapes[0] || null, draft: [], faults: new Map(), fields: new Map(), seq: 0, sel: null, drag: null, paint: null,
    lastCorner: {i: -1, t: 0}};
  const legend = grid ? grid[gridSpec.legend] || {} : {};
  const symbols = Object.keys(legend);
  if (grid) st.paint = symbols[0] || '.';

  const errors = h('div', {id: 'ed-errors', 'aria-live': 'polite'});
  const svg = s('svg', {id: 'ed-table', class: 'ed-table' + (grid ? ' ed-grid' : '')});
  const selected = h('div', {id: 'ed-selected', class: 'ed-selected'});
  const side = h('select', {id: 'ed-side', 'aria-label': 'side'}, [...templates.keys()].map((x) => h('option', {value: x}, x)));
  const typeNames = () => (doc.types || []).map((t) => t.name).filter(Boolean);
  const typePick = h('select', {id: 'ed-type-pick', 'aria-label': 'unit type', hidden: !(typeItem && unitItem.properties?.type)});
  const kind = h('select', {id: 'ed-kind', 'aria-label': 'terrain kind', hidden: !kinds.length},
    kinds.map((k) => h('option', {value: k}, k)));
  const num = (id, label, get, set) => {
    const input = h('input', {id, type: 'number', min: 1, step: 'any', value: get(), 'aria-label': label, inputmode: 'decimal'});
    input.addEventListener('change', () => { set(Number(input.value)); changed(); });
    return h('label', {}, label + ' ', input);
  };
  const mode = (m, shape) => {
    st.mode = st.mode === m && (!shape || st.shape === shape) ? '' : m;
    if (shape) st.shape = shape;
    if (m === 'terrain' && st.shape && kinds.length && 'kind' in starterPieces[st.shape.key]) kind.value = starterPieces[st.shape.key].kind;
    st.draft = [];
    st.sel = null;
    draw();
  };
  const shapeBtns = open ? shapes.map((sh) => h('button', {id: sh.closed ? 'ed-terrain' : 'ed-terrain-' + sh.key, 'data-shape': sh.key,
    onclick: () => mode('terrain', sh)}, sh.closed ? 'Draw terrain' : `Draw a ${sh.key}`)) : [];
  const unitBtn = h('button', {id: 'ed-unit', onclick: () => mode('unit')}, 'Place units');
  const zoneBtn = h('button', {id: 'ed-zone', hidden: !zoneKey, onclick: () => mode('zone')}, 'Draw a zone');
  const paintBtn = h('button', {id: 'ed-paint', onclick: () => mode('paint')}, 'Paint squares');
  const finish = h('button', {id: 'ed-finish', onclick: finishDraft}, 'Finish');
  const clear = h('button', {id: 'ed-clear', class: 'quiet', onclick: () => {
    if (doc.terrain) doc.terrain = [];
    doc.units = [];
    st.sel = null;
    changed();
  }}, 'Clear the table');
  const download = h('a', {id: 'ed-download', download: 'battle.yaml', href: '#'}, 'Download the scenario');
  const source = h('pre', {id: 'ed-text', class: 'ed-text'});
  const start = h('button', {id: 'ed-start', onclick: async () => {
    start.disabled = true;
    try {
      const c = await call('POST', '/api/battles', {body: text(doc).text});
      onCreated(c);
    } catch (err) { showFaults(err); } finally { start.disabled = false; }
  }}, 'Start the battle');
  // The photo's coordinates are the table's; on a grid, squares up from the map's bottom
  // left corner (y north, as on a table, so that a photo is never drawn mirrored).
  const bd = open || grid ? backdrop.panel(BACKDROP, () => open ? doc.table : {width: gridCells()[0]?.length || 0, height: gridCells().length}, () => draw()) : null;
  const palBox = h('div', {});
  const typesBox = h('div', {id: 'ed-types', class: 'ed-types'});
  const sidesBox = h('div', {id: 'ed-sides', class: 'row ed-sides'});
  const restBox = h('div', {id: 'ed-rest', class: 'ed-rest'});
  // The rest of the file: every section the schema lists that the table, the unit
  // types and the units do not already draw, each in a form of its own.
  const drawn = new Set(['terrain', 'units', typeItem ? 'types' : '', open ? 'table' : '', zoneKey, gridSpec?.key].filter(Boolean));
  const fileItem = fileSchema(schema);
  const restItem = {properties: Object.fromEntries(Object.entries(fileItem.properties || {}).filter(([k]) => !drawn.has(k))), required: fileItem.required};

  const sizeRow = open ? h('div', {class: 'row'},
    num('ed-width', 'Width', () => doc.table.width, (v) => { doc.table.width = v; }),
    num('ed-height', 'Height', () => doc.table.height, (v) => { doc.table.height = v; }),
    h('span', {class: 'help'}, doc.distances || 'in'), clear)
    : grid ? h('div', {class: 'row'},
      num('ed-cols', 'Columns', () => gridCells()[0]?.length || 0, (v) => setCells(resized(gridCells(), Math.round(v), gridCells().length, symbols[0]))),
      num('ed-rows', 'Rows', () => gridCells().length, (v) => setCells(resized(gridCells(), gridCells()[0]?.length || 0, Math.round(v), symbols[0]))),
      h('span', {class: 'help'}, 'squares'), clear)
      : h('p', {class: 'help'}, 'This system\'s scenario has neither a table nor a map the editor can draw: edit it as text (download the scenario).');
  box.replaceChildren(...[
    sizeRow,
    open || grid ? h('div', {class: 'row ed-tools'}, shapeBtns, kind, grid ? paintBtn : null, zoneBtn, unitBtn, side, typePick, finish) : null,
    sidesBox,
    grid ? palBox : null,
    open || grid ? svg : null,
    selected,
    typeItem ? typesBox : null,
    restBox,
    bd ? bd.el : null,
    errors,
    h('div', {class: 'row'}, start, ' ', download),
    h('details', {class: 'ed-source'}, h('summary', {}, 'The scenario as text'), source),
    textEditor()].filter(Boolean));

  // textEditor edits the whole file as text, for what no form expresses: the text is
  // checked, and the editor drawn anew from the document it reads as. A text that does
  // not check is kept, with its errors, and the table is as it was.
  function textEditor() {
    const area = h('textarea', {id: 'ed-text-edit', class: 'ed-json', rows: 16, spellcheck: 'false', 'aria-label': 'the scenario as text'});
    const faults = h('div', {id: 'ed-text-errors'});
    const use = h('button', {id: 'ed-text-use', onclick: async () => {
      use.disabled = true;
      try {
        const c = await call('POST', '/api/check', {body: area.value});
        edit(box, c.document, schema, onCreated);
      } catch (err) {
        const list = errorBox('ed-text-error');
        list.hidden = false;
        list.replaceChildren('The text does not check:', h('ul', {},
          (err.errors?.length ? err.errors : [err.message]).map((e) => h('li', {}, e.replace(/^body:(\d+):(\d+): ?/, 'line $1, column $2: ')))));
        faults.replaceChildren(list);
      } finally { use.disabled = false; }
    }}, 'Use this text');
    const d = h('details', {id: 'ed-text-box', class: 'ed-source'}, h('summary', {}, 'Edit the scenario as text'),
      h('p', {class: 'help'}, 'The whole file, in YAML or JSON, for what the forms do not say. Use this text checks it and draws the editor from it.'),
      area, faults, h('div', {class: 'row'}, use));
    d.addEventListener('toggle', () => { if (d.open) { area.value = text(doc).text; faults.replaceChildren(); } });
    return d;
  }

  function gridCells() { return cells(grid[gridSpec.rows], symbols[0]); }
  function setCells(c) { grid[gridSpec.rows] = rowsText(c); }

  // P maps a point of the scenario to the drawing's: an open table's y grows north, a
  // grid's row 0 is at the top. U is P undone, kept to what a scenario writes.
  const H = () => open ? doc.table.height : 0;
  const P = (p) => open ? [p[0], H() - p[1]] : [p[0], p[1]];
  // A point within EDGE pixels of the table's edge is put on it: a zone or a piece drawn
  // to the edge meets it, as a finger or a mouse seldom does exactly.
  const U = (q) => {
    if (!open) return [Math.round(q.x), Math.round(q.y)];
    const ctm = svg.getScreenCTM();
    const tol = EDGE / (ctm?.a || 1);
    const edge = (v, max) => Math.abs(v) <= tol ? 0 : Math.abs(v - max) <= tol ? max : round(v);
    return [edge(q.x, doc.table.width), edge(H() - q.y, H())];
  };
  const snap = (pts) => open ? pts : pts.map(([x, y]) => [Math.round(x), Math.round(y)]);
  // bdP maps a point of the photo's coordinates to the drawing's, bdU undoes it.
  const bdP = (p) => open ? P(p) : [p[0], gridCells().length - p[1]];
  const bdU = (q) => open ? U(q) : [round(q.x), round(gridCells().length - q.y)];
  // A unit's place in the drawing: on a grid, the middle of its square.
  const unitP = (at) => open ? P(at) : [at[0] + 0.5, at[1] + 0.5];

  // outline is the list of points the selection (or s) keeps its shape in, with
  // whether it closes; set replaces it.
  function outline(sel = st.sel) {
    if (!sel) return null;
    if (sel.what === 'terrain') {
      const p = doc.terrain[sel.i];
      const sh = shapes.find((x) => Array.isArray(p?.[x.key]));
      return sh ? {pts: p[sh.key], closed: sh.closed, set: (v) => { p[sh.key] = snap(v); }} : null;
    }
    if (sel.what === 'zone') {
      const z = doc[zoneKey];
      return z?.[sel.side] ? {pts: z[sel.side], closed: true, set: (v) => { z[sel.side] = snap(v); }} : null;
    }
    return null;
  }

  // placed lists the unit's points on the table: its own, or each of its models'.
  function placed(u) {
    if (place) return Array.isArray(u[place.key]) ? [{at: u[place.key], model: null}] : [];
    if (nested) return (u[nested.key] || []).filter((m) => Array.isArray(m[nested.at.key])).map((m) => ({at: m[nested.at.key], model: m}));
    return [];
  }

  function draw() {
    for (const [b, m] of [[unitBtn, 'unit'], [zoneBtn, 'zone'], [paintBtn, 'paint']]) b.setAttribute('aria-pressed', String(st.mode === m));
    for (const b of shapeBtns) b.setAttribute('aria-pressed', String(st.mode === 'terrain' && st.shape?.key === b.dataset.shape));
    const need = st.mode === 'terrain' && st.shape && !st.shape.closed ? 2 : 3;
    finish.hidden = !(st.mode === 'terrain' || st.mode === 'zone');
    finish.disabled = st.draft.length < need;
    side.hidden = !(st.mode === 'unit' || st.mode === 'zone');
    kind.hidden = !kinds.length || st.mode !== 'terrain';
    const names = typeNames();
    if (typePick.options.length !== names.length || [...typePick.options].some((o, i) => o.value !== names[i])) {
      const was = typePick.value;
      typePick.replaceChildren(...names.map((n) => h('option', {value: n, selected: n === was}, n)));
    }
    typePick.hidden = !(typeItem && unitItem.properties?.type) || st.mode !== 'unit';
    if (grid) palBox.replaceChildren(st.mode === 'paint' ? palette(legend, st.paint, (sym) => { st.paint = sym; draw(); }) : '');
    const t = text(doc).text;
    source.textContent = t;
    if (download.href.startsWith('blob:')) URL.revokeObjectURL(download.href);
    download.href = URL.createObjectURL(new Blob([t], {type: 'text/yaml'}));
    if (open || grid) drawTable();
    drawSelected();
    if (typeItem) drawTypes();
    markFaults(box, st.fields);
  }

  // drawRest builds the forms of the rest of the file, folded by section.
  function drawRest() {
    restBox.replaceChildren(h('h2', {}, 'The rest of the scenario'),
      h('p', {class: 'help'}, 'Each section of the file the schema lists, in a form built from it; open a section to edit it. A field a form cannot express is written as JSON text.'),
      fieldsForm(schema, restItem, doc, {prefix: 'ed-doc', onChange: () => changed()}));
  }

  // drawSides lists the sides, each renamed in its box (its units and zone follow), and
  // adds a side by its name: its units are then placed as any side's are.
  function drawSides(note = '') {
    const names = [...templates.keys()];
    if (side.options.length !== names.length || [...side.options].some((o, i) => o.value !== names[i])) {
      const was = side.value;
      side.replaceChildren(...names.map((n) => h('option', {value: n, selected: n === was}, n)));
    }
    const fresh = h('input', {id: 'ed-new-side', type: 'text', placeholder: 'a new side', 'aria-label': 'the new side\'s name'});
    sidesBox.replaceChildren(h('span', {}, 'Sides'),
      ...names.map((n, i) => {
        const el = h('input', {id: `ed-side-name-${i}`, type: 'text', value: n, class: `ed-side-name side-${i}`, 'aria-label': `side ${i + 1}'s name`});
        el.addEventListener('change', () => renameSide(n, el.value.trim()));
        return el;
      }),
      fresh, h('button', {id: 'ed-add-side', onclick: () => addSide(fresh.value.trim())}, 'Add a side'),
      ...(note ? [h('span', {class: 'ed-fault-msg', role: 'note'}, note)] : []));
  }

  function addSide(name) {
    if (!name || templates.has(name)) { drawSides(name ? `There is a side ${name} already.` : 'Name the new side first.'); return; }
    // The new side's units are copies of the chosen side's, their words that named that
    // side (a team's name, a squad's) naming the new one.
    const from = templates.get(side.value) ? side.value : [...templates.keys()].find((k) => templates.get(k));
    const tpl = from ? restem(structuredClone(templates.get(from)), from, name) : null;
    if (tpl) tpl.side = name;
    templates.set(name, tpl);
    drawSides();
    side.value = name;
    draw();
  }

  function renameSide(from, to) {
    if (!to || to === from) { drawSides(); return; }
    if (templates.has(to)) { drawSides(`There is a side ${to} already.`); return; }
    const was = [...templates];
    templates.clear();
    for (const [k, v] of was) templates.set(k === from ? to : k, k === from && v ? {...v, side: to} : v);
    for (const u of doc.units || []) if (u.side === from) u.side = to;
    const z = zoneKey && doc[zoneKey];
    if (z && from in z) doc[zoneKey] = Object.fromEntries(Object.entries(z).map(([k, v]) => [k === from ? to : k, v]));
    // Elsewhere in the file (the side volley plays, the side whose turn it is) a value
    // that is the side's name is the side.
    for (const k of Object.keys(doc)) if (!LISTS.includes(k) && !drawn.has(k)) doc[k] = renamed(doc[k], from, to);
    if (side.value === from) side.value = to;
    changed();
  }

  function drawTable() {
    let w, hh;
    if (open) ({width: w, height: hh} = doc.table);
    else { const c = gridCells(); hh = c.length; w = c[0]?.length || 0; }
    const pad = open ? Math.max(w, hh) * 0.02 : 0.2;
    svg.setAttribute('viewBox', `${-pad} ${-pad} ${w + 2 * pad} ${hh + 2 * pad}`);
    // The drawing's units per CSS pixel, for handles a finger can take.
    const ctm = svg.getScreenCTM();
    const perPx = ctm && ctm.a ? 1 / ctm.a : Math.max(w, hh) / 600;
    const pts = (poly) => poly.map((p) => P(p).join(',')).join(' ');
    const parts = [s('rect', {x: 0, y: 0, width: w, height: hh, class: 'ed-cloth'})];
    // The photo lies under an open table's pieces; over a grid's squares, which are
    // opaque, and under its zones and units.
    const photo = bd ? backdrop.image(backdrop.load(BACKDROP), bdP) : null;
    if (photo && open) parts.push(photo);
    if (grid) parts.push(...squares(gridCells(), symbols));
    if (photo && grid) parts.push(photo);
    const sides = [...templates.keys()];
    for (const [name, poly] of Object.entries((zoneKey && doc[zoneKey]) || {})) {
      if (!Array.isArray(poly)) continue;
      const on = st.sel?.what === 'zone' && st.sel.side === name;
      parts.push(s('polygon', {points: pts(poly), class: `ed-zone side-${sides.indexOf(name)}` + (on ? ' on' : ''), 'data-zone': name},
        s('title', {}, `${name}'s deployment zone`)));
    }
    (doc.terrain || []).forEach((p, i) => {
      const sh = shapes.find((x) => Array.isArray(p[x.key]));
      if (!sh) return;
      const on = st.sel?.what === 'terrain' && st.sel.i === i;
      const fault = st.faults.has('terrain:' + i) ? ' fault' : '';
      parts.push(s('g', {'data-piece': p.id, 'data-index': i},
        s('title', {}, p.id),
        // A line is hard to hit: an invisible wide stroke takes the pointer.
        sh.closed ? null : s('polyline', {points: pts(p[sh.key]), class: 'ed-line-hit', 'stroke-width': TAP * perPx}),
        s(sh.closed ? 'polygon' : 'polyline', {points: pts(p[sh.key]), class: (sh.closed ? 'ed-piece' : 'ed-piece ed-line') + fault + (on ? ' on' : '')})));
    });
    if (st.draft.length) parts.push(s('polyline', {points: pts(st.draft), class: 'ed-draft'}));
    const r = open ? Math.max(w, hh) / 60 : 0.4;
    (doc.units || []).forEach((u, i) => {
      const n = sides.indexOf(u.side);
      const on = st.sel?.what === 'unit' && st.sel.i === i;
      for (const {at, model} of placed(u)) {
        const [x, y] = unitP(at);
        parts.push(s('circle', {cx: x, cy: y, r, class: `ed-unit side-${n}` + (st.faults.has('units:' + i) ? ' fault' : '') + (on ? ' on' : ''),
          'data-unit': u.id, 'data-side': u.side, 'data-model': model?.id ?? null, 'data-index': i}));
      }
    });
    const o = st.mode === '' ? outline() : null;
    if (o) parts.push(...handles(o.pts, o.closed, P, 5 * perPx, TAP * perPx, 30 * perPx));
    const marks = bd ? bd.marks() : [];
    const fitted = backdrop.load(BACKDROP);
    if (fitted) marks.forEach((px, i) => {
      const [x, y] = bdP(backdrop.toTable(fitted.m, px));
      parts.push(s('circle', {cx: x, cy: y, r: 4 * perPx, class: 'bd-mark', 'data-mark': i}));
    });
    svg.replaceChildren(...parts);
  }

  function drawSelected() {
    const sel = st.sel;
    if (!sel) { selected.replaceChildren(); return; }
    const del = h('button', {id: 'ed-delete', class: 'quiet', onclick: () => {
      if (sel.what === 'terrain') doc.terrain.splice(sel.i, 1);
      if (sel.what === 'unit') doc.units.splice(sel.i, 1);
      if (sel.what === 'zone') delete doc[zoneKey][sel.side];
      st.sel = null;
      changed();
    }}, 'Take it off');
    const refresh = () => { changed(); };
    if (sel.what === 'terrain' && terrainItem) {
      const p = doc.terrain[sel.i];
      selected.replaceChildren(h('h2', {}, `Terrain ${p.id}`),
        h('p', {class: 'help'}, 'Drag it to move it, drag a corner to reshape it, the dot on the stem to turn it; a dot between two corners adds one, a double click on a corner takes it off.'),
        fieldsForm(schema, terrainItem, p, {skip: shapes.map((x) => x.key), prefix: 'ed-piece', path: ['terrain', sel.i], onChange: refresh}), del);
    } else if (sel.what === 'unit') {
      const u = doc.units[sel.i];
      // A team's models are listed in its form too: one added there (a copy of the last)
      // is then set in its place by its form or a drag.
      const skip = [place?.key].filter(Boolean);
      selected.replaceChildren(h('h2', {}, `Unit ${u.id}`),
        h('p', {class: 'help'}, 'Drag it to move it.'),
        fieldsForm(schema, unitItem, u, {skip, prefix: 'ed-unitf', path: ['units', sel.i], onChange: refresh, choices: typeItem ? {type: typeNames()} : {}}), del);
    } else if (sel.what === 'zone') {
      selected.replaceChildren(h('h2', {}, `${sel.side}'s deployment zone`),
        h('p', {class: 'help'}, 'Drag it to move it, drag a corner to reshape it.'), del);
    }
  }

  // drawTypes lists the file's unit types; one chosen (or a new one) is edited in a
  // form built from the schema. A new type starts as a copy of the first.
  function drawTypes() {
    const list = doc.types || [];
    const chosen = st.type != null ? list[st.type] : null;
    const add = h('button', {id: 'ed-new-type', onclick: () => {
      const base = list[0] ? structuredClone(list[0]) : {};
      base.name = freshName(list);
      doc.types = [...list, base];
      st.type = doc.types.length - 1;
      changed();
    }}, 'New unit type');
    const form = chosen ? fieldsForm(schema, typeItem, chosen, {prefix: 'ed-type', path: ['types', st.type], onChange: (k) => {
      if (k === 'name') {
        // Units of the type follow its new name.
        for (const u of doc.units || []) if (u.type === st.typeName) u.type = chosen.name;
      }
      st.typeName = chosen.name;
      changed();
    }}) : null;
    if (chosen) st.typeName = chosen.name;
    typesBox.replaceChildren(h('h2', {}, 'Unit types'),
      h('div', {class: 'row'}, list.map((t, i) => h('button', {class: 'ed-type', 'data-type': t.name, 'aria-pressed': String(i === st.type),
        onclick: () => { st.type = st.type === i ? null : i; draw(); }}, t.name)), add),
      ...(form ? [h('div', {id: 'ed-type-form'}, form,
        // Taken off, a type its units still name is an error the check points at.
        h('button', {id: 'ed-type-delete', class: 'quiet', onclick: () => {
          doc.types = list.filter((t) => t !== chosen);
          st.type = null;
          changed();
        }}, 'Take this type off'))] : []));
  }

  function finishDraft() {
    if (st.mode === 'zone') {
      if (st.draft.length < 3 || !side.value) return;
      doc[zoneKey] = {...(doc[zoneKey] || {}), [side.value]: snap(st.draft)};
    } else if (st.mode === 'terrain' && st.shape) {
      if (st.draft.length < (st.shape.closed ? 3 : 2)) return;
      const piece = {...starterPieces[st.shape.key], id: freshId(doc.terrain || [], 'piece'), [st.shape.key]: st.draft};
      for (const sh of shapes) if (sh.key !== st.shape.key) delete piece[sh.key];
      if (kinds.length && 'kind' in piece) piece.kind = kind.value;
      if ('name' in piece) piece.name = piece.kind || piece.id;
      doc.terrain = [...(doc.terrain || []), piece];
    }
    st.draft = [];
    changed();
  }

  // placeUnit puts a new unit of the chosen side (and type) at the point.
  function placeUnit(at) {
    const tpl = templates.get(side.value) || [...templates.values()].find(Boolean);
    if (!tpl) return;
    const stem = side.value.toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'unit';
    const taken = allIds();
    const id = freshIdIn(taken, stem);
    const u = {...structuredClone(tpl), id, side: side.value};
    if (place) u[place.key] = at;
    if (nested) {
      const m0 = (tpl[nested.key] || [])[0] || {};
      taken.add(id);
      u[nested.key] = [{...m0, id: freshIdIn(taken, id + '-m'), [nested.at.key]: at}];
    }
    if (!typePick.hidden && typePick.value) u.type = typePick.value;
    doc.units = [...(doc.units || []), u];
    changed();
  }

  function allIds() {
    const ids = new Set();
    for (const u of doc.units || []) {
      ids.add(u.id);
      if (nested) for (const m of u[nested.key] || []) ids.add(m.id);
    }
    return ids;
  }

  listen(svg, {st, doc, bd, open, place, nested, U, bdU, H, outline, placed, placeUnit, changed, draw, gridCells, setCells, finishDraft});

  // changed draws the table and checks the scenario; a check answered after a newer
  // change is dropped.
  async function changed() {
    draw();
    drawSides();
    drawRest();
    const seq = ++st.seq;
    try {
      const c = await call('POST', '/api/check', {body: text(doc).text});
      if (seq !== st.seq) return;
      st.faults = new Map();
      st.fields = new Map();
      markFaults(box, st.fields);
      errors.dataset.ok = 'true';
      errors.replaceChildren(h('p', {class: 'ok', id: 'ed-ok'}, `✔ The scenario checks: ${c.units} units, sides ${c.sides.join(' and ')}.`));
    } catch (err) {
      if (seq !== st.seq) return;
      showFaults(err);
    }
    drawTable0();
  }
  function drawTable0() { if (open || grid) drawTable(); }

  // showFaults lists a check's errors, naming the piece or unit at the line each gives.
  function showFaults(err) {
    const {at} = text(doc);
    st.faults = new Map();
    st.fields = new Map();
    errors.dataset.ok = 'false';
    const list = errorBox('ed-check-error');
    const what = {units: 'unit', terrain: 'terrain', types: 'unit type'};
    const lines = (err.errors?.length ? err.errors : [err.field ? `${err.field}: ${err.message}` : err.message]).map((e) => {
      const m = /^body:(\d+):(\d+): ?(.*)$/s.exec(e);
      const hit = m && at.get(Number(m[1]));
      const where = hit?.where;
      if (hit) {
        st.faults.set(where, m[3]);
        const f = hit.field(Number(m[2]));
        st.fields.set(f, st.fields.has(f) ? `${st.fields.get(f)}; ${m[3]}` : m[3]);
      }
      const [key, i] = where ? where.split(':') : [];
      const item = where && key !== 'doc' ? doc[key][Number(i)] : null;
      const name = key === 'doc' ? i : item ? `${what[key]} ${item.id ?? item.name}` : '';
      return h('li', {'data-at': where || ''}, name ? h('strong', {}, name + ': ') : null, m ? m[3] : e);
    });
    list.hidden = false;
    list.replaceChildren('The scenario does not check yet:', h('ul', {}, lines));
    errors.replaceChildren(list);
    markFaults(box, st.fields);
    drawTable0();
  }

  draw();
  changed();
}

// restem writes, in every text of v, the side to's name where the side from's stood
// (in small letters where it was: a squad blue-tanks becomes green-tanks).
function restem(v, from, to) {
  const re = new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  const small = to.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  if (typeof v === 'string') return v.replace(re, (m) => m === m.toLowerCase() ? small : to);
  if (Array.isArray(v)) return v.map((x) => restem(x, from, to));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, restem(x, from, to)]));
  return v;
}

// renamed is v with every text that is exactly from written to.
function renamed(v, from, to) {
  if (v === from) return to;
  if (Array.isArray(v)) return v.map((x) => renamed(x, from, to));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renamed(x, from, to)]));
  return v;
}

function freshId(list, stem) {
  return freshIdIn(new Set(list.map((x) => x.id)), stem);
}

function freshIdIn(taken, stem) {
  for (let n = 1; ; n++) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`;
}

function freshName(types) {
  const taken = new Set(types.map((t) => t.name));
  for (let n = types.length + 1; ; n++) if (!taken.has(`Type ${n}`)) return `Type ${n}`;
}
