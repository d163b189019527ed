// What the table editor reads from a rule system's JSON Schema (GET /api/schema/{system}):
// the shape of a terrain piece (which of its keys are lists of points, a closed polygon
// or an open line), the fields of a piece, a unit and a unit type with their types,
// enums and descriptions, whether units stand on points or squares, and where a grid
// map keeps its rows and its legend. Nothing here names a game: every answer comes from
// the schema a system serves, so a new system gets an editor for free.

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
// 'strings' (a list of words), 'numbers' (a list of numbers), 'point' (a place: two coordinates), 'object' (a record
// of named fields: a fieldset), 'objects' (a list of such records), 'map' (names the
// player chooses, each with a value of one schema) or '' for what a form does not
// express (a record whose form its type decides), which the editor keeps as text.
export function kindOf(schema, v) {
  const r = resolve(schema, v);
  if (r.enum) return {kind: 'enum', values: r.enum};
  if (r.const !== undefined) return {kind: '', fixed: true};
  if (isPoint(schema, r)) return {kind: 'point'};
  if (is(r, 'object') && r.properties && !r.allOf && !r.oneOf) return {kind: 'object', item: r};
  if (is(r, 'object') && !r.properties && r.additionalProperties && typeof r.additionalProperties === 'object') {
    // A map of names to values (each a number, a record…) is a form when its values are.
    const each = resolve(schema, r.additionalProperties);
    return kindOf(schema, each).kind ? {kind: 'map', each} : {kind: ''};
  }
  if (is(r, 'object')) return {kind: ''};
  if (is(r, 'boolean')) return {kind: 'boolean'};
  if (is(r, 'integer')) return {kind: 'integer'};
  if (is(r, 'number')) return {kind: 'number'};
  if (is(r, 'string') && !r.anyOf) return {kind: 'string'};
  if (is(r, 'array')) {
    const it = resolve(schema, r.items);
    if (is(it, 'string') && !it.enum) return {kind: 'strings'};
    if (is(it, 'number') || is(it, 'integer')) return {kind: 'numbers'};
    if (is(it, 'object') && it.properties && !it.allOf && !it.oneOf) return {kind: 'objects', item: it};
    return {kind: ''};
  }
  if (r.anyOf) {
    // A length or a roll: a number, or text with a unit or a sign.
    const kinds = alternatives(schema, r);
    const enums = kinds.flatMap((a) => a.enum || (a.const !== undefined ? [a.const] : []));
    if (kinds.some((a) => is(a, 'number') || is(a, 'integer'))) return {kind: 'number', text: true, values: enums};
    if (kinds.every((a) => is(a, 'string') || a.enum || a.const !== undefined)) return {kind: 'string', values: enums};
  }
  return {kind: ''};
}

// alternatives lists the schemas an anyOf allows, an anyOf within one opened in place
// (a range: a length, itself a number or a text, or a word).
function alternatives(schema, r, depth = 0) {
  return (r.anyOf || []).flatMap((a) => {
    const x = resolve(schema, a);
    return x.anyOf && depth < 4 ? alternatives(schema, x, depth + 1) : [x];
  });
}

// blank is a new value of a schema: the first of an enum, the least number it allows, an
// empty text or list, a point at the origin, a record of its required fields. It is what
// "add one" gives a list that has no item to copy; the check then says what it lacks.
export function blank(schema, v, depth = 0) {
  const r = resolve(schema, v);
  const f = kindOf(schema, r);
  switch (f.kind) {
    case 'enum': return f.values[0];
    case 'boolean': return false;
    case 'integer': case 'number': return Math.max(0, r.minimum ?? 0);
    case 'point': return [0, 0];
    case 'strings': case 'numbers': case 'objects': return [];
    case 'map': return {};
    case 'object': {
      const o = {};
      if (depth < 4) for (const k of r.required || []) o[k] = blank(schema, r.properties[k], depth + 1);
      return o;
    }
    default: return is(r, 'array') ? [] : is(r, 'object') ? {} : '';
  }
}
