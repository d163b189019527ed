// The table editor's forms, built from a rule system's JSON Schema (editor-schema.js
// says what each field takes). A field of a plain value is an input; a field that is a
// record of named fields is a fieldset of its own fields, folded away until opened; a
// list of records is a list of such fieldsets, each with "Take it off", and "Add one"
// (a copy of the last, or a new one built from the schema's required fields). What a
// form cannot express (a map of names to values, a record deeper than DEPTH) is written
// as JSON text in a box, so nothing in the file is out of the player's reach.
//
// Every input, fieldset and box carries data-path, the field's place in the scenario
// (types.1.weapons.0.name): the editor finds there the field a check's error is at.

import {h} from './dom.js';
import {blank, kindOf, resolve} from './editor-schema.js';

// DEPTH is how deep fieldsets nest before a record is written as text: deep enough for
// a unit type's weapons' special rules, shallow enough to read on a phone.
const DEPTH = 4;

// opened remembers which folded fieldsets the player opened, by id, as the forms are
// built anew after every change.
const opened = new Set();

// fold is a fieldset that opens and closes (a <details>), remembered open across
// redraws.
function fold(id, path, title, help, ...body) {
  // A press on the summary is noted at once: the toggle event comes later, and a form
  // built anew before it would come folded.
  const summary = h('summary', {onclick: () => { if (d.open) opened.delete(id); else opened.add(id); }}, title);
  const d = h('details', {id, class: 'ed-fold', 'data-path': path, open: opened.has(id)},
    summary, help ? h('p', {class: 'help'}, help) : null, ...body);
  d.addEventListener('toggle', () => { if (d.open) opened.add(id); else opened.delete(id); });
  return d;
}

// fieldsForm builds a form for obj's fields as item (its schema) names them, leaving
// out the keys in skip; each change is written into obj and reported by onChange (with
// the top field's key). prefix makes the inputs' ids (`${prefix}-${key}`, a list's
// items `${prefix}-${key}-${i}-…`); path is obj's place in the scenario.
export function fieldsForm(schema, item, obj, {skip = [], prefix, onChange, choices = {}, path = [], depth = 0}) {
  const rows = [];
  const folds = [];
  const required = new Set(item.required || []);
  for (const [k, v] of Object.entries(item.properties || {})) {
    if (skip.includes(k)) continue;
    const r = resolve(schema, v);
    const f = kindOf(schema, r);
    // A name from a map may hold what an id may not (a space, a quote).
    const id = `${prefix}-${k}`.replace(/[^\w-]/g, '_');
    const at = [...path, k].join('.');
    const title = k + (required.has(k) ? ' *' : '');
    const set = (val) => {
      if (val === undefined || val === '' || (typeof val === 'number' && Number.isNaN(val))) delete obj[k];
      else obj[k] = val;
      onChange(k);
    };
    if (f.kind === 'object' && depth < DEPTH) {
      // The record is written into obj once it holds a field, and left out again when
      // its last field is.
      const child = obj[k] && typeof obj[k] === 'object' ? obj[k] : {};
      folds.push(fold(id, at, title, r.description,
        fieldsForm(schema, f.item, child, {prefix: id, path: [...path, k], depth: depth + 1,
          onChange: () => set(Object.keys(child).length ? child : undefined)})));
      continue;
    }
    if (f.kind === 'objects' && depth < DEPTH) {
      folds.push(fold(id, at, `${title} (${(obj[k] || []).length})`, r.description, listForm(schema, f.item, obj, k, {id, path: [...path, k], depth, set})));
      continue;
    }
    if (f.kind === 'map' && depth < DEPTH) {
      folds.push(fold(id, at, `${title} (${Object.keys(obj[k] || {}).length})`, r.description, mapForm(schema, f.each, obj, k, {id, path: [...path, k], depth, set})));
      continue;
    }
    if (f.kind === 'object' || f.kind === 'objects' || f.kind === 'map' || !f.kind) {
      // Text for what a form does not express; a fixed value (the file's rule system)
      // and a field left out are not shown.
      if (f.fixed || !(k in obj)) continue;
      folds.push(fold(id, at, title, r.description, jsonBox(id, at, obj[k], set)));
      continue;
    }
    rows.push(h('div', {class: 'ed-field'},
      h('label', {for: id}, title), input(f, id, k, at, obj[k], choices[k], required.has(k), set),
      r.description ? h('span', {class: 'help'}, r.description) : null));
  }
  return h('div', {class: 'ed-fields'}, rows, folds);
}

// listForm is a list of records, each a fieldset of its fields with "Take it off",
// and "Add one".
function listForm(schema, item, obj, k, {id, path, depth, set}) {
  const list = Array.isArray(obj[k]) ? obj[k] : [];
  const items = list.map((x, i) => {
    const name = x && (x.name ?? x.id ?? x.weapon);
    return h('fieldset', {class: 'ed-item', id: `${id}-${i}`, 'data-path': [...path, i].join('.')},
      h('legend', {}, `${k} ${i + 1}` + (typeof name === 'string' ? `: ${name}` : '')),
      fieldsForm(schema, item, x, {prefix: `${id}-${i}`, path: [...path, i], depth: depth + 1, onChange: () => set(list)}),
      h('button', {id: `${id}-${i}-off`, class: 'quiet', type: 'button', onclick: () => {
        list.splice(i, 1);
        set(list.length ? list : undefined);
      }}, 'Take it off'));
  });
  const add = h('button', {id: `${id}-add`, type: 'button', onclick: () => {
    const last = list[list.length - 1];
    const next = last && typeof last === 'object' ? structuredClone(last) : blank(schema, item);
    // A copy under the same name or id would be two of one: it is told apart.
    for (const key of ['name', 'id']) if (typeof next[key] === 'string') next[key] = fresh(list.map((x) => x?.[key]), next[key] || k, key === 'id' ? '-' : ' ');
    set([...list, next]);
    opened.add(`${id}-${list.length}`);
  }}, `Add one to ${k}`);
  return [items, add];
}

// mapForm is a map of names to values: each name with its value's form (a fieldset for
// a record, an input for a plain value) and "Take it off", and a name to add one by.
function mapForm(schema, each, obj, k, {id, path, depth, set}) {
  const m = obj[k] && typeof obj[k] === 'object' && !Array.isArray(obj[k]) ? obj[k] : {};
  const f = kindOf(schema, each);
  const put = () => set(Object.keys(m).length ? m : undefined);
  const rows = Object.entries(m).map(([name, val], i) => {
    const off = h('button', {id: `${id}-${i}-off`, class: 'quiet', type: 'button', onclick: () => { delete m[name]; put(); }}, 'Take it off');
    const at = [...path, name];
    if (f.kind === 'object') {
      const rec = val && typeof val === 'object' && !Array.isArray(val) ? val : {};
      return h('fieldset', {class: 'ed-item', id: `${id}-${i}`, 'data-path': at.join('.')}, h('legend', {}, name),
        fieldsForm(schema, f.item, rec, {prefix: `${id}-${i}`, path: at, depth: depth + 1, onChange: () => { m[name] = rec; put(); }}), off);
    }
    if (f.kind === 'objects' || f.kind === 'map') {
      const holder = {[name]: val};
      return h('fieldset', {class: 'ed-item', id: `${id}-${i}`, 'data-path': at.join('.')}, h('legend', {}, name),
        fieldsForm(schema, {properties: {[name]: each}}, holder, {prefix: `${id}-${i}`, path, depth: depth + 1, onChange: () => {
          if (name in holder) m[name] = holder[name]; else delete m[name];
          put();
        }}), off);
    }
    return h('div', {class: 'ed-field'}, h('label', {for: `${id}-${i}`}, name),
      input(f, `${id}-${i}`, name, at.join('.'), val, null, true, (v) => {
        if (v === undefined || v === '' || (typeof v === 'number' && Number.isNaN(v))) delete m[name];
        else m[name] = v;
        put();
      }), off);
  });
  const name = h('input', {id: `${id}-new`, type: 'text', placeholder: 'a name', 'aria-label': `a new name in ${k}`});
  const add = h('button', {id: `${id}-add`, type: 'button', onclick: () => {
    const n = name.value.trim();
    if (!n || n in m) { name.setAttribute('aria-invalid', 'true'); return; }
    m[n] = blank(schema, each);
    opened.add(`${id}-${Object.keys(m).length - 1}-${n}`);
    put();
  }}, `Add one to ${k}`);
  return [rows, h('div', {class: 'row'}, name, add)];
}

// fresh is stem, or stem with the least number after it that no item takes.
function fresh(taken, stem, sep) {
  const base = stem.replace(/[ -]\d+$/, '');
  for (let n = 2; ; n++) if (!taken.includes(`${base}${sep}${n}`)) return `${base}${sep}${n}`;
}

// jsonBox edits a value as JSON text; text that is not JSON is shown as such and not
// written.
function jsonBox(id, at, value, set) {
  const box = h('textarea', {id, class: 'ed-json', 'data-path': at, rows: 3, spellcheck: 'false'}, JSON.stringify(value));
  box.addEventListener('change', () => {
    try {
      set(box.value.trim() === '' ? undefined : JSON.parse(box.value));
    } catch (err) {
      box.setAttribute('aria-invalid', 'true');
      box.after(h('span', {class: 'ed-fault-msg'}, `not JSON: ${err.message}`));
    }
  });
  return box;
}

// input is the input of a field of a plain value.
function input(f, id, k, at, value, choices, required, set) {
  let el;
  const values = choices || (f.kind === 'enum' ? f.values : null);
  if (values && values.length) {
    el = h('select', {id},
      required ? null : h('option', {value: ''}, '—'),
      values.map((x) => h('option', {value: String(x), selected: String(value) === String(x)}, String(x))));
    if (value !== undefined && !values.map(String).includes(String(value))) el.append(h('option', {value: String(value), selected: true}, String(value)));
    el.addEventListener('change', () => {
      const raw = el.value;
      const n = values.find((x) => String(x) === raw);
      set(raw === '' ? undefined : (n !== undefined ? n : raw));
    });
  } else if (f.kind === 'boolean') {
    // Three ways, not a box: left out (the rule system's default, which may be either),
    // yes or no.
    el = h('select', {id},
      h('option', {value: ''}, '— (default)'),
      h('option', {value: 'true', selected: value === true}, 'yes'),
      h('option', {value: 'false', selected: value === false}, 'no'));
    el.addEventListener('change', () => set(el.value === '' ? undefined : el.value === 'true'));
  } else if (f.kind === 'strings') {
    el = h('input', {id, type: 'text', value: (value || []).join(', ')});
    el.addEventListener('change', () => {
      const words = el.value.split(',').map((x) => x.trim()).filter(Boolean);
      set(words.length ? words : undefined);
    });
  } else if (f.kind === 'numbers') {
    el = h('input', {id, type: 'text', value: Array.isArray(value) ? value.join(', ') : '', inputmode: 'decimal'});
    el.addEventListener('change', () => {
      const parts = el.value.split(',').map((x) => x.trim()).filter(Boolean);
      // A word that is not a number is kept as written, for the check to name.
      set(parts.length ? parts.map((x) => Number.isNaN(Number(x)) ? x : Number(x)) : undefined);
    });
  } else if (f.kind === 'point') {
    // A place as "x, y": each a number, or a length with its unit.
    const shown = Array.isArray(value) ? value.join(', ') : value && typeof value === 'object' ? `${value.x}, ${value.y}` : '';
    el = h('input', {id, type: 'text', value: shown, placeholder: 'x, y'});
    el.addEventListener('change', () => {
      const parts = el.value.split(',').map((x) => x.trim());
      if (el.value.trim() === '') { set(undefined); return; }
      set(parts.map((x) => /^[-+]?(\d+\.?\d*|\.\d+)$/.test(x) ? Number(x) : x));
    });
  } else {
    const numeric = f.kind === 'integer' || (f.kind === 'number' && !f.text);
    el = h('input', {id, type: numeric ? 'number' : 'text', step: f.kind === 'integer' ? 1 : 'any',
      value: value === undefined || typeof value === 'object' ? '' : String(value), inputmode: f.kind === 'string' ? null : 'decimal'});
    el.addEventListener('change', () => {
      const raw = el.value.trim();
      if (raw === '') { set(undefined); return; }
      if (f.kind === 'integer') { set(Math.round(Number(raw))); return; }
      // A length written as a bare number is a number; with its unit, text.
      if (f.kind === 'number' && /^[-+]?(\d+\.?\d*|\.\d+)$/.test(raw)) { set(Number(raw)); return; }
      set(raw);
    });
  }
  el.dataset.field = k;
  el.dataset.path = at;
  return el;
}

// markFaults shows each error beside the field at fault in box: the field whose path
// the error names, or else the nearest record or list holding it, opened to show it.
export function markFaults(box, faults) {
  for (const e of box.querySelectorAll('.ed-fault-msg')) e.remove();
  for (const e of box.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
  for (const [path, msg] of faults) {
    let el = null;
    for (let p = path.split('.'); p.length && !el; p.pop()) el = box.querySelector(`[data-path="${CSS.escape(p.join('.'))}"]`);
    if (!el) continue;
    el.setAttribute('aria-invalid', 'true');
    const note = h('span', {class: 'ed-fault-msg', role: 'note'}, msg);
    if (el.tagName === 'DETAILS' || el.tagName === 'FIELDSET') el.firstElementChild.after(note);
    else el.after(note);
    for (let d = el.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
  }
}
