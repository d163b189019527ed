// Parts of the move panel (move.js): the fields a move's form asks for, what the shot
// from the ghost would be, and the Export scenario button.

import {call, errorBox, showError} from './api.js';
import {h, pct, length, status, tidy} from './dom.js';

// fieldInputs are the inputs of the form's fields (a select, a flag, a number) for the
// values of a ghost; changed() is called when one changes. bands, where the unit must
// choose first, say what each option of a select allows: a select's empty choice then
// asks to choose, and an option the rules refuse is disabled.
export function fieldInputs(fields, values, changed, bands = null, fmt = String) {
  return fields.map((f) => {
    if (f.kind === 'flag') {
      const c = h('input', {type: 'checkbox', checked: !!values[f.key], 'data-field': f.key});
      c.addEventListener('change', () => { values[f.key] = c.checked; changed(); });
      return h('label', {class: 'check'}, c, ' ', f.label);
    }
    if (f.kind === 'number') {
      const n = h('input', {type: 'number', value: values[f.key] ?? '', 'data-field': f.key, 'aria-label': f.label, class: 'short'});
      n.addEventListener('change', () => { values[f.key] = n.value; changed(); });
      return h('label', {class: 'block'}, f.label + ' ', n);
    }
    const band = (o) => bands?.find((b) => b.field === f.key && b.option === o);
    const sel = h('select', {'aria-label': f.label, 'data-field': f.key}, h('option', {value: ''}, bands ? `— choose the ${f.label} —` : f.empty || '—'),
      (f.options || []).map((o) => h('option', {value: o, selected: values[f.key] === o, disabled: !!band(o)?.why, title: band(o)?.why || null},
        o.replaceAll('_', ' ') + (band(o)?.left !== undefined ? ` (${fmt(band(o).left)})` : ''))));
    sel.addEventListener('change', () => { values[f.key] = sel.value; changed(); });
    return h('label', {class: 'block'}, f.label + ' ', sel);
  });
}

// aimWords says what the shot from the ghost would be (the preview's aims and odds): each
// weapon's chance or why it may not fire, and what the whole shot does to the target.
export function aimWords(ans, g) {
  if (!ans.aims?.length) return g.target ? [] : [h('span', {class: 'help'}, 'Aim at an enemy to see the chance from there.')];
  const at = g.target === '*' ? `${ans.aims[0].target} (whom the rules choose)` : g.target;
  const out = [h('span', {class: 'help'}, `From there, at ${at}: `)];
  out.push(h('ul', {class: 'move-aims'}, ans.aims.map((x) => h('li', {class: x.status === 'ok' ? 'ok' : 'bad', 'data-status': x.status},
    `${x.shooter} ${x.weapon}: `, x.status === 'ok' ? h('strong', {class: 'move-chance', 'data-p': x.p_hit}, pct(x.p_hit)) : status(x.status),
    x.status === 'ok' ? ` (range ${length(x.range, x.range_unit)})` : ` — ${tidy(x.reason)}`))));
  const t = ans.odds?.targets?.[0];
  if (t) out.push(h('span', {class: 'help', id: 'move-odds'}, `P(${t.target} destroyed) ${pct(t.p_destroyed)}`));
  return out;
}

// exporter is the Export scenario button: it downloads the battle as it stands as a
// scenario (GET …/scenario), deployed and moved, a file that starts a new battle from
// the same table. Any token of the battle reads it.
export function exporter(ctx) {
  const err = errorBox('export-error');
  const button = h('button', {type: 'button', class: 'tool', id: 'export-scenario', title: 'Download the battle as it stands as a scenario file'}, 'Export scenario');
  button.addEventListener('click', async () => {
    showError(err, null);
    try {
      const text = await call('GET', `/api/battles/${ctx.id}/scenario`, {token: ctx.reader(), text: true});
      const url = URL.createObjectURL(new Blob([text], {type: 'application/yaml'}));
      const link = h('a', {href: url, download: `battle-${ctx.id}.yaml`, hidden: true});
      document.body.append(link);
      link.click();
      link.remove();
      // The browser has the file once the click is handled; the URL may go a little later.
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) {
      showError(err, e);
    }
  });
  return h('span', {class: 'export'}, button, err);
}
