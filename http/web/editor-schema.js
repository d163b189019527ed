// What the table editor reads from a rule system's JSON Schema (GET /api/schema/{system}):
// the shape of a terrain piece (which of its keys are lists of points, a closed polygon
// or an open line), the fields of a piece, a unit and a unit type with their types,
// enums and descriptions, whether units stand on points or squares, and where a grid
// map keeps its rows and its legend. Nothing here names a game: every answer comes from
// the schema a system serves, so a new system gets an editor for free.

import {h} from './dom.js';

// is says whether a schema takes JSON values of a type (array, object, string…).
function is(v, t) {
  return v?.type === t || (Array.isArray(v?.type) && v.type.includes(t));
}

// resolve follows a schema's $refs (within the document) to the schema they name.
export function resolve(schema, v) {
  for (let i = 0; i < 8 && v?.$ref; i++) {
    const desc = v.description;
    v = v.$ref.replace(/^#\//, '').split('/').reduce((o, k) => o?.[decodeURIComponent(k)], schema);
    if (desc && v && !v.description) v = {...v, description: desc};
  }
  return v || {};
}

// fileSchema is the schema of the scenario file as a whole.
export function fileSchema(schema) {
  return resolve(schema, schema);
}

// itemsOf is the schema of one item of the file's list key (terrain, units, types), or
// null when the file has no such list.
export function itemsOf(schema, key) {
  const list = resolve(schema, fileSchema(schema).properties?.[key]);
  if (!list.items) return null;
  return resolve(schema, list.items);
}

// isPoint says whether a schema is a point of the table: a pair of coordinates.
export function isPoint(schema, v) {
  const p = resolve(schema, v);
  if (is(p, 'array') && p.minItems === 2 && p.maxItems === 2) return true;
  return (p.anyOf || []).some((a) => {
    const r = resolve(schema, a);
    return is(r, 'array') && r.minItems === 2 && r.maxItems === 2;
  });
}

// shapesOf lists the keys of an item schema that hold a list of points: a piece's
// outline. A key named polygon closes its outline; any other (a line, a wall) is open.
export function shapesOf(schema, item) {
  const out = [];
  for (const [k, v] of Object.entries(item?.properties || {})) {
    const r = resolve(schema, v);
    if (is(r, 'array') && r.items && isPoint(schema, r.items)) out.push({key: k, closed: k === 'polygon', description: r.description || ''});
  }
  // The closed outline first: it is what a piece of terrain is drawn as by default.
  return out.sort((a, b) => Number(b.closed) - Number(a.closed));
}

// pointKey is the key of an item schema that places it: a point (an open table's
// unit) or a pair of whole numbers (a square of a grid); with its kind.
export function pointKey(schema, item) {
  for (const [k, v] of Object.entries(item?.properties || {})) {
    const r = resolve(schema, v);
    if (is(r, 'array') && r.minItems === 2 && r.maxItems === 2 && is(resolve(schema, r.items), 'integer')) return {key: k, squares: true};
    if (isPoint(schema, r)) return {key: k, squares: false};
  }
  return null;
}

// nestedPlaced finds, in a unit's schema with no place of its own, the list whose items
// are placed (a unit's models): its key and the item's schema.
export function nestedPlaced(schema, item) {
  for (const [k, v] of Object.entries(item?.properties || {})) {
    const r = resolve(schema, v);
    if (!is(r, 'array') || !r.items) continue;
    const it = resolve(schema, r.items);
    const at = pointKey(schema, it);
    if (is(it, 'object') && at) return {key: k, item: it, at};
  }
  return null;
}

// gridOf finds the file's grid map: a key whose object holds a text of rows and a
// legend of symbols (each an object with a name). Null on an open table.
export function gridOf(schema) {
  for (const [k, v] of Object.entries(fileSchema(schema).properties || {})) {
    const r = resolve(schema, v);
    if (!is(r, 'object') || !r.properties) continue;
    let rows = null, legend = null;
    for (const [pk, pv] of Object.entries(r.properties)) {
      const p = resolve(schema, pv);
      if (is(p, 'string')) rows = pk;
      const sym = is(p, 'object') && resolve(schema, p.additionalProperties);
      if (sym && sym.properties?.name) legend = pk;
    }
    if (rows && legend) return {key: k, rows, legend};
  }
  return null;
}

// zonesKey finds the file's deployment zones: an object of polygons by side.
export function zonesKey(schema) {
  for (const [k, v] of Object.entries(fileSchema(schema).properties || {})) {
    const r = resolve(schema, v);
    const each = is(r, 'object') && resolve(schema, r.additionalProperties);
    if (each && is(each, 'array') && each.items && isPoint(schema, each.items)) return k;
  }
  return null;
}

// kindOf says what a field's schema takes: 'enum' (with its values), 'boolean',
// 'integer', 'number' (a number, or a length that may carry its unit), 'string',
// 'strings' (a list of words) or '' for what a form does not edit (objects, lists of
// objects).
export function kindOf(schema, v) {
  const r = resolve(schema, v);
  if (r.enum) return {kind: 'enum', values: r.enum};
  if (r.const !== undefined) return {kind: ''};
  if (is(r, 'boolean')) return {kind: 'boolean'};
  if (is(r, 'integer')) return {kind: 'integer'};
  if (is(r, 'number')) return {kind: 'number'};
  if (is(r, 'string') && !r.anyOf) return {kind: 'string'};
  if (is(r, 'array')) {
    const it = resolve(schema, r.items);
    if (is(it, 'string') && !it.enum) return {kind: 'strings'};
    return {kind: ''};
  }
  if (r.anyOf) {
    // A length or a roll: a number, or text with a unit or a sign.
    const kinds = r.anyOf.map((a) => resolve(schema, a));
    const enums = kinds.flatMap((a) => a.enum || []);
    if (kinds.some((a) => is(a, 'number') || is(a, 'integer'))) return {kind: 'number', text: true, values: enums};
    if (kinds.every((a) => is(a, 'string') || a.enum)) return {kind: 'string', values: enums};
  }
  return {kind: ''};
}

// fieldsForm builds a form for obj's fields as item (its schema) names them, leaving
// out the keys in skip; each change is written into obj and reported by onChange. A
// field whose value the form cannot edit (an object, a list of objects) is listed as
// kept. prefix makes the inputs' ids: `${prefix}-${key}`.
export function fieldsForm(schema, item, obj, {skip = [], prefix, onChange, choices = {}}) {
  const rows = [];
  const kept = [];
  const required = new Set(item.required || []);
  for (const [k, v] of Object.entries(item.properties || {})) {
    if (skip.includes(k)) continue;
    const r = resolve(schema, v);
    const f = kindOf(schema, r);
    if (!f.kind) {
      if (k in obj) kept.push(k);
      continue;
    }
    const id = `${prefix}-${k}`;
    const set = (val) => {
      if (val === undefined || val === '' || (typeof val === 'number' && Number.isNaN(val))) delete obj[k];
      else obj[k] = val;
      onChange(k);
    };
    let input;
    const values = choices[k] || (f.kind === 'enum' ? f.values : null);
    if (values && values.length) {
      input = h('select', {id, 'data-field': k},
        required.has(k) ? null : h('option', {value: ''}, '—'),
        values.map((x) => h('option', {value: String(x), selected: String(obj[k]) === String(x)}, String(x))));
      if (obj[k] !== undefined && !values.map(String).includes(String(obj[k]))) input.append(h('option', {value: String(obj[k]), selected: true}, String(obj[k])));
      input.addEventListener('change', () => {
        const raw = input.value;
        const n = values.find((x) => String(x) === raw);
        set(raw === '' ? undefined : (n !== undefined ? n : raw));
      });
    } else if (f.kind === 'boolean') {
      // Three ways, not a box: left out (the rule system's default, which may be either),
      // yes or no.
      input = h('select', {id, 'data-field': k},
        h('option', {value: ''}, '— (default)'),
        h('option', {value: 'true', selected: obj[k] === true}, 'yes'),
        h('option', {value: 'false', selected: obj[k] === false}, 'no'));
      input.addEventListener('change', () => set(input.value === '' ? undefined : input.value === 'true'));
    } else if (f.kind === 'strings') {
      input = h('input', {id, type: 'text', 'data-field': k, value: (obj[k] || []).join(', ')});
      input.addEventListener('change', () => {
        const words = input.value.split(',').map((x) => x.trim()).filter(Boolean);
        set(words.length ? words : undefined);
      });
    } else {
      const numeric = f.kind === 'integer' || (f.kind === 'number' && !f.text);
      input = h('input', {id, 'data-field': k, type: numeric ? 'number' : 'text', step: f.kind === 'integer' ? 1 : 'any',
        value: obj[k] === undefined ? '' : String(obj[k]), inputmode: f.kind === 'string' ? null : 'decimal'});
      input.addEventListener('change', () => {
        const raw = input.value.trim();
        if (raw === '') { set(undefined); return; }
        if (f.kind === 'integer') { set(Math.round(Number(raw))); return; }
        // A length written as a bare number is a number; with its unit, text.
        if (f.kind === 'number' && /^[-+]?(\d+\.?\d*|\.\d+)$/.test(raw)) { set(Number(raw)); return; }
        set(raw);
      });
    }
    rows.push(h('div', {class: 'ed-field'},
      h('label', {for: id}, k + (required.has(k) ? ' *' : '')), input,
      r.description ? h('span', {class: 'help'}, r.description) : null));
  }
  if (kept.length) rows.push(h('p', {class: 'help'}, `Kept as they are (edit them in the file): ${kept.join(', ')}.`));
  return h('div', {class: 'ed-fields'}, rows);
}
