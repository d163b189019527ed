// Reading the battle's offers (view.offers, docs/json.md "Offers"): which offers name an
// actor, the fields its action fills, and the body sent. A control built on these knows
// no rule system: it matches what a player points at (a unit, one of its named choices,
// a square) against the kinds of the offers' fields, and sends what the offer says.

// actorOf is offer o's actor whose id is id, or undefined.
export const actorOf = (o, id) => (o.key ? (o.actors || []).find((a) => a.id === id) : undefined);

// fieldsOf are the fields actor a of offer o fills: the offer's, each in place of which the
// actor has its own of the same key, and the actor's.
export function fieldsOf(o, a) {
  const own = a?.fields || [];
  return [...(o.fields || []).filter((f) => !own.some((g) => g.key === f.key)), ...own];
}

// body is the action offer o's actor a sends with values (a field's key → its value;
// undefined values are left out): the offer's fixed part, the actor's, then the values.
export function body(o, a, values) {
  const out = {...(o.action || {}), ...(a?.action || {})};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = v;
  return out;
}

// takes says whether select field f offers value v.
export const takes = (f, v) => f.kind === 'select' && (f.options || []).some((o) => o.value === v);

// squareField is the field among fields that takes a square of a grid map, or undefined.
export const squareField = (fields) => fields.find((f) => (f.kind === 'unit' && f.squares) || (f.kind === 'point' && f.grid));

// flagField is the first flag among fields, or undefined.
export const flagField = (fields) => fields.find((f) => f.kind === 'flag');

// needsMore says whether fields hold one that must be filled other than those given.
export const needsMore = (fields, ...given) => fields.some((f) => !f.optional && !given.includes(f));

// optionWords is how a page names an option: its label, else its value.
export const optionWords = (opt) => String(opt.label ?? opt.value).replaceAll('_', ' ');
