// Moving a unit: drag it (a mouse, a pen or a finger), or pick it up from the keyboard,
// and a ghost shows where it would go: its path of legs, the path's length against what
// the unit may still move, and whether the rules would take the move (and if not, why),
// with the facing it would end at. While the ghost moves the page asks the API's preview
// (docs/api.md, POST …/preview) what the move means: the line of sight and the chance
// against the enemy aimed at from there, and the danger there. Enter (or Commit) sends
// the move; Escape (or Cancel) drops it. Before the battle's first action a side's units
// are deployed the same way, anywhere in its zone.
//
// It knows no rule system and no board: how a move is written comes from the view
// (table.moves or board.moves: volley.MoveForm, and each unit's move: volley.MoveView),
// and the board that mounts it (tablemove.js, gridmove.js) gives an adapter `a` for its
// geometry and its drawing:
//   form(), deploying(), zoned(): the view's move form, whether units may be deployed
//     and whether the scenario gives zones;
//   units(), unit(id), at(u) [x, y], facingOf(u): the drawn units, where one stands, its
//     facing (all but unit(id) the same on either board: boardReads);
//   pointer(ev) [x, y], bearing(from, to), arrow(key) [dx, dy], step(), snap(p): points;
//   legs(from, to), length(from, path), fmt(length): how a leg is written and measured;
//   enemies(u), then(u, target), pointed(): what the ghost may aim at, and how;
//   draw(ghost), after(), focus(): the drawing, and the board's keyboard focus.

import {call, errorBox, showError} from './api.js';
import {h, pct, num, tidy, touch} from './dom.js';
import {aimWords, exporter, fieldInputs} from './movepanel.js';

// A preview is asked at most once in this many milliseconds, and one at a time: a drag
// asking once a frame would pass the server's rate of reads for one client (50 a second).
const PREVIEW_GAP = 40;

// LIFT is how far above a finger, in CSS pixels, the ghost of a unit it drags is drawn
// once the drag is under way: clear of the fingertip (about 45 px across), so that the
// player sees where it goes.
export const LIFT = 64;

// boardReads is the part of an adapter that reads the view's board (a grid's board or
// the table, whichever board() answers) the same on either: its move form, whether units
// deploy and in zones, its units, where one stands and how it faces.
export function boardReads(board) {
  return {
    form: () => board().moves || null,
    deploying: () => !!board().deploying,
    zoned: () => Object.keys(board().zones || {}).length > 0,
    units: () => board().units,
    at: (u) => [u.x, u.y],
    facingOf: (u) => u.facing ?? null,
  };
}

export function mover(a) {
  const {ctx} = a;
  // fields are the values of the form's fields chosen for the unit selected for moving
  // (fieldsOf), before or while a ghost is out: a unit's action may be chosen before its
  // first model is dragged.
  // probe is what the rules say of the unit selected for moving before it is dragged
  // (a preview of a move that goes nowhere, with the fields chosen): what it may move
  // with them, or why it may not (a field its first move must choose), and what each
  // option of a select would allow (the bands drawn round it). noThen are the enemies a
  // preview may not aim the unit's shot at, by unit and target, with the rules' reason.
  const st = {mover: null, deploy: null, ghost: null, asking: false, last: 0, timer: 0, dragging: false, fields: {}, fieldsOf: null,
    probe: null, probing: '', noThen: new Map(), commitWhenAnswered: false};
  const form = () => a.form();
  const played = (u) => !!u && !!ctx.token(u.side);
  // Units are deployed by dragging while the battle allows it, if the player wants to: by
  // default where the scenario gives deployment zones, and moved where it gives none.
  const deploying = () => a.deploying() && (st.deploy ?? a.zoned());

  // ---- the panel ----
  const err = errorBox('move-error');
  const help = h('p', {class: 'help', id: 'move-help'});
  const deployBox = h('input', {type: 'checkbox', id: 'move-deploy', checked: true});
  deployBox.addEventListener('change', () => {
    st.deploy = deployBox.checked;
    cancel();
  });
  const deployRow = h('label', {class: 'check', id: 'move-deploy-row'}, deployBox,
    ' Drag to deploy (units are placed in their zone, a side at a time, until the battle begins)');
  const lengthP = h('p', {id: 'move-length', class: 'move-length'});
  const status = h('p', {id: 'move-status', class: 'status'});
  const trace = h('ul', {id: 'move-trace', class: 'help'});
  const aimP = h('p', {id: 'move-aim'});
  const dangerP = h('p', {id: 'move-danger'});
  const target = h('select', {id: 'move-target', 'aria-label': 'Aim at, from the ghost'});
  target.addEventListener('change', () => {
    if (!st.ghost) return;
    st.ghost.target = target.value || null;
    changed();
  });
  const targetRow = h('label', {class: 'block', for: 'move-target'}, 'Aim at ', target);
  const fieldsBox = h('div', {id: 'move-fields'});
  const button = (id, text, title, act, cls = '') => h('button', {type: 'button', id, class: cls, title, 'aria-label': title, onclick: act}, text);
  const startB = button('move-start', 'Move', 'Pick the unit up to move it from the keyboard (M)', () => pickUp(st.mover, true));
  const commitB = button('move-commit', 'Commit', 'Send the move (Enter)', () => commit(), 'primary');
  const cancelB = button('move-cancel', 'Cancel', 'Drop the ghost (Escape)', () => cancel(true));
  const legB = button('move-leg', '+ Leg', 'Keep the end as a waypoint and start a new leg from it (W)', () => addLeg());
  const undoB = button('move-undo', 'Undo leg', 'Take back the last leg (Backspace)', () => undoLeg());
  const leftB = button('move-left', '⟲', 'Turn left ([)', () => turn(-1));
  const rightB = button('move-right', '⟳', 'Turn right (])', () => turn(1));
  const facingS = h('span', {id: 'move-facing', class: 'help'});
  const turnRow = h('div', {class: 'row move-turn'}, leftB, rightB, ' ', facingS);
  const buttons = h('div', {class: 'row move-buttons'}, startB, commitB, legB, undoB, cancelB);
  const extra = h('div', {id: 'move-extra'}); // the position map's controls (position.js)
  const panel = h('section', {class: 'panel move', id: 'move', 'aria-labelledby': 'move-h', hidden: true},
    h('h2', {id: 'move-h'}, 'Move'), help, deployRow, lengthP, status, trace, turnRow, fieldsBox, targetRow, aimP, dangerP, buttons, err, extra);
  const live = h('p', {class: 'sr-only', 'aria-live': 'polite', id: 'move-live'});
  // On a phone the panel lies below the board: while a ghost is out, a dock at the foot
  // of the screen keeps the rules' verdict, Commit and Cancel within the thumb's reach.
  const dockStatus = h('span', {class: 'dock-status', id: 'dock-status'});
  const dockCommit = h('button', {type: 'button', id: 'dock-commit', class: 'primary', onclick: () => commit()}, 'Commit');
  const dockCancel = h('button', {type: 'button', id: 'dock-cancel', onclick: () => cancel()}, 'Cancel');
  const dock = h('div', {class: 'move-dock', id: 'move-dock', hidden: true, role: 'group', 'aria-label': 'the move'}, dockStatus, dockCommit, dockCancel);
  panel.append(live, dock);

  const exportButton = exporter(ctx);

  // offered says whether this page offers moves at all: the battle moves, this page plays
  // a side, and one of its units may move now (or be deployed in a zone the scenario
  // gives). A battle whose units have no move shows no panel, and its drags pan.
  function offered() {
    const v = ctx.view;
    if (!form() || v.ended || !v.sides.some((s) => ctx.token(s))) return false;
    if (deploying() || (a.deploying() && a.zoned())) return true;
    return a.units().some((u) => played(u) && !u.destroyed && u.move?.allowance > 0);
  }

  // ---- what a ghost is and sends ----

  // whyNot says why unit u may not be moved now by this page, or '' when it may.
  function whyNot(u) {
    if (!u) return 'no unit';
    if (ctx.view.ended) return 'the battle has ended';
    if (!played(u)) return `this page does not play ${u.side}`;
    if (u.destroyed) return `${u.id} is destroyed`;
    if (deploying()) return '';
    if (!u.move) return `${u.id} does not move`;
    if (!(u.move.left > 0)) return u.move.why || `${u.id} has no move left`;
    return '';
  }

  const endOf = (g) => g.anchors.at(-1) || g.start;
  // path is every point the move passes after its start: each leg as the board writes it
  // (one point on a tabletop, every square crossed on a grid map).
  function path(g) {
    const out = [];
    let from = g.start;
    for (const p of g.anchors) {
      out.push(...a.legs(from, p));
      from = p;
    }
    return out;
  }
  const lengthOf = (g) => (g.kind === 'deploy' ? 0 : a.length(g.start, path(g)));

  // chosen are the form's fields the player set on the ghost, as the API takes them.
  function chosen(g) {
    const out = {};
    for (const f of form()?.fields || []) {
      const x = g.fields[f.key];
      if (f.kind === 'flag' && x) out[f.key] = true;
      else if (f.kind === 'number' && x !== undefined && x !== '') out[f.key] = Number(x);
      else if (f.kind !== 'flag' && f.kind !== 'number' && x) out[f.key] = x;
    }
    return out;
  }

  // has says whether the ghost says anything to send: a path, a facing the player turned
  // it to, or a field chosen. A move need not go anywhere: a unit may turn where it
  // stands, or choose its action standing still.
  const has = (g) => (g.kind === 'deploy' ? g.anchors.length > 0 : path(g).length > 0) || (g.facing !== null && !!form()?.facing)
    || (g.kind === 'move' && Object.keys(chosen(g)).length > 0);

  // leftOf is what the ghost's unit may still move, before this move: as the view has it,
  // or, once the rules took the move, no more than the allowance the preview's battle
  // gives it, since a field chosen with the move (an action) may change its allowance.
  function leftOf(g) {
    const m = a.unit(g.unit)?.move;
    if (!m) return undefined;
    const ans = g.answer;
    const after = ans?.legal && (ans.table || ans.board)?.units?.find((x) => x.id === g.unit)?.move;
    if (after) return Math.max(0, Math.min(m.left, after.allowance - m.moved));
    const pr = probed(g.unit);
    return pr && pr.left !== undefined ? pr.left : m.left;
  }

  // ---- what the unit selected may do, before it is dragged: the probe ----

  // probed is the probe of unit id with the fields chosen now, or null.
  function probed(id) {
    const pr = st.probe;
    return pr && pr.unit === id && pr.fields === JSON.stringify(chosenOf(st.fieldsOf === id ? st.fields : {})) ? pr : null;
  }

  // chosenOf are field values as the API takes them.
  function chosenOf(values) {
    return chosen({fields: values || {}});
  }

  // needs says why unit u may not be dragged yet although it may move: its move must
  // choose a field first (WarStrike's action), as the probe found; '' when nothing is
  // missing.
  function needs(u) {
    const pr = probed(u.id);
    return pr && pr.why && form()?.fields?.length && !Object.keys(chosenOf(st.fieldsOf === u.id ? st.fields : {})).length ? pr.why : '';
  }

  // mustChoose says whether unit u's move needs a choice made first, as the view's offers
  // say (a field of its move offer that is not optional: WarStrike's action); without
  // offers the page cannot tell, and probes. A move whose choices are all optional moves
  // by the view's allowance, and is not probed: its empty preview would name nothing.
  function mustChoose(u) {
    const offers = ctx.view.offers;
    if (!offers) return true;
    for (const o of offers) {
      if (o.type !== 'move' || !o.key) continue;
      const a = (o.actors || []).find((x) => x.action?.[o.key] === u.id || (x.units || []).includes(u.id));
      if (!a) continue;
      return [...(o.fields || []), ...(a.fields || [])].some((f) => !f.optional && f.kind === 'select');
    }
    return false;
  }

  // probe asks the rules what unit u may move with the fields chosen (a preview of a
  // move that goes nowhere): its allowance, or why not. Where none may be chosen yet and
  // a choice is missing, each option of the form's selects is asked too, so that the
  // board draws what each allows. Only a form with fields is probed: without them the
  // view's allowance is the move's.
  async function probe(u) {
    if (!u || !form()?.fields?.length || whyNot(u) || deploying() || !mustChoose(u)) return;
    const values = st.fieldsOf === u.id ? st.fields : {};
    const fields = JSON.stringify(chosenOf(values));
    const key = `${u.id} ${fields} ${ctx.view.actions}`;
    if (st.probing === key || (st.probe?.key === key)) return;
    st.probing = key;
    const ask1 = async (extra) => {
      const ans = await call('POST', `/api/battles/${ctx.id}/preview`, {body: {move: {type: 'move', unit: u.id, ...chosenOf(values), ...extra}}, token: ctx.reader()});
      const mv = ans.legal && (ans.table || ans.board)?.units?.find((x) => x.id === u.id)?.move;
      return mv ? {left: Math.max(0, Math.min(u.move.left, mv.allowance - u.move.moved)), allowance: mv.allowance} : {why: ans.reason || 'the rules refuse it'};
    };
    try {
      const pr = {unit: u.id, fields, key, ...(await ask1({})), bands: []};
      if (pr.why && fields === '{}') {
        for (const f of (form().fields || []).filter((x) => x.kind === 'select')) {
          for (const o of f.options || []) {
            const b = await ask1({[f.key]: o});
            if (st.probing !== key) return;
            pr.bands.push({field: f.key, option: o, label: o.replaceAll('_', ' '), ...b});
          }
        }
      }
      if (st.probing !== key) return;
      st.probe = pr;
    } catch {
      // A probe is a hint: without it the view's allowance stands. It is not asked again
      // of the same battle.
      if (st.probing === key) st.probe = {unit: u.id, fields, key, bands: []};
    } finally {
      if (st.probing === key) st.probing = '';
    }
    render();
  }

  // action is the move (or deployment) as the API takes it. The facing is sent only if the
  // player turned the ghost: some rules count a change of facing as a move.
  function action(g) {
    const facing = g.facing !== null && form()?.facing ? {facing: g.facing} : {};
    if (g.kind === 'deploy') return {type: 'deploy', unit: g.unit, at: endOf(g), ...facing};
    // A path that goes nowhere (a drag still on the unit's own square) is not sent.
    const p = path(g);
    const way = p.length ? {path: p} : {};
    return {type: 'move', unit: g.unit, ...way, ...facing, ...chosen(g)};
  }

  // dangerAs is the danger map's `as` for a unit like u, among what the view's advisor
  // says a map may place: the unit itself first (on a grid a copy of its type cannot
  // stand on its squares), else its squad, else its type, of its side.
  function dangerAs(u) {
    const places = ctx.view.advisor?.danger ? ctx.view.advisor.places || [] : [];
    const stateName = ctx.view.state.units.find((x) => x.id === u.id)?.name;
    for (const want of [u.id, u.squad, u.name, stateName]) {
      const p = want && places.find((x) => x.side === u.side && x.as === want);
      if (p) return p.as;
    }
    return null;
  }

  function request(g) {
    const u = a.unit(g.unit);
    const body = {move: action(g)};
    const then = g.target && !st.noThen.has(`${u.id} ${g.target}`) && a.then(u, g.target);
    if (then) body.then = then;
    const as = g.kind === 'move' && dangerAs(u);
    if (as) body.danger = {side: u.side, as};
    return body;
  }

  // ---- asking the preview: one request at a time, stale answers dropped ----

  function changed() {
    const g = st.ghost;
    if (!g) return;
    g.answer = null;
    g.key = JSON.stringify(request(g));
    render();
    ask();
  }

  function ask() {
    const g = st.ghost;
    if (!g || !has(g)) return;
    if (st.asking) return; // asked again when the answer comes
    const wait = st.last + PREVIEW_GAP - performance.now();
    if (wait > 0) {
      clearTimeout(st.timer);
      st.timer = setTimeout(ask, wait);
      return;
    }
    const key = g.key;
    st.asking = true;
    st.last = performance.now();
    const body = JSON.parse(key);
    call('POST', `/api/battles/${ctx.id}/preview`, {body, token: ctx.reader()})
      .then((ans) => { if (st.ghost && st.ghost.key === key) st.ghost.answer = ans; })
      .catch((e) => {
        // A shot the rules refuse this unit at that enemy (a battery at a skirmish
        // marker): the ghost no longer aims it there, and the move is asked alone.
        if (body.then && e.status === 400 && st.ghost) {
          st.noThen.set(`${body.move.unit} ${st.ghost.target}`, e.message.replace(/^[a-z]+: /, ''));
          if (st.ghost.key === key) {
            st.ghost.key = JSON.stringify(request(st.ghost));
            fillTargets(a.unit(st.ghost.unit));
          }
          return;
        }
        if (st.ghost && st.ghost.key === key) st.ghost.answer = {failed: e};
      })
      .finally(() => {
        st.asking = false;
        if (st.ghost && st.ghost.key !== key) ask(); // the ghost moved on meanwhile
        else render();
        const g = st.ghost;
        if (g && st.commitWhenAnswered && g.answer && g.key === key) {
          st.commitWhenAnswered = false;
          if (g.answer.legal) commit();
        }
      });
  }

  // ---- starting, changing, sending and dropping a ghost ----

  // start puts a ghost on unit u with the given points (none: where it stands).
  function start(u, anchors = []) {
    st.mover = u.id;
    const facing = a.facingOf(u);
    st.ghost = {unit: u.id, side: u.side, kind: deploying() ? 'deploy' : 'move', start: a.at(u), anchors, facing: null, base: facing,
      fields: fieldsFor(u.id), target: pickTarget(u), answer: null, key: ''};
    showError(err, null);
    fillTargets(u);
    changed();
  }

  // fieldsFor are the field values chosen for unit id: those chosen while it was
  // selected, else none.
  function fieldsFor(id) {
    if (st.fieldsOf !== id) {
      st.fieldsOf = id;
      st.fields = {};
    }
    return st.fields;
  }

  // pickTarget is the enemy the ghost aims at first: the one the player points at, else
  // the nearest.
  function pickTarget(u) {
    const es = a.enemies(u);
    if (!es.length) return null;
    const ok = es.filter((e) => !st.noThen.has(`${u.id} ${e.id}`));
    const pointed = a.pointed?.();
    if (pointed && ok.some((e) => e.id === pointed)) return pointed;
    return ok[0]?.id || null;
  }

  function pickUp(id, focus) {
    const u = a.unit(id);
    if (!u) return;
    const why = whyNot(u) || needs(u);
    st.mover = u.id;
    if (why) {
      st.ghost = null;
      render();
      showError(err, new Error(needs(u) && !whyNot(u) ? `Choose how ${u.id} moves first (below): ${tidy(why)}.` : `${u.id} may not move now: ${tidy(why)}.`));
      return;
    }
    start(u);
    if (focus) a.focus();
  }

  // setEnd moves the ghost's end (its last leg follows).
  function setEnd(p) {
    const g = st.ghost;
    if (!g) return;
    p = a.snap(p);
    const e = endOf(g);
    if (e[0] === p[0] && e[1] === p[1] && g.anchors.length) return;
    if (g.kind === 'deploy' || !g.anchors.length) g.anchors = [p];
    else g.anchors[g.anchors.length - 1] = p;
    changed();
  }

  function addLeg(p) {
    const g = st.ghost;
    if (!g || g.kind === 'deploy') return;
    if (!g.anchors.length) return;
    g.anchors.push(a.snap(p || endOf(g)));
    changed();
  }

  function undoLeg() {
    const g = st.ghost;
    if (!g || g.anchors.length < 2) return;
    g.anchors.pop();
    changed();
  }

  // turn turns the ghost by steps of the form's facing step (15° where any facing goes).
  function turn(dir, fine = false) {
    const g = st.ghost;
    if (!g || !form()?.facing) return;
    const step = form().facing_step || (fine ? 1 : 15);
    setFacing((g.facing ?? g.base ?? 0) + dir * step);
  }

  function setFacing(deg) {
    const g = st.ghost;
    if (!g) return;
    const step = form()?.facing_step;
    if (step) deg = Math.round(deg / step) * step;
    deg = ((Math.round(deg) % 360) + 360) % 360;
    if (deg === g.facing) return;
    g.facing = deg;
    changed();
  }

  async function commit() {
    const g = st.ghost;
    if (!g) return;
    if (!has(g)) {
      showError(err, new Error(touch() ? 'Move the ghost first: drag it, or turn it.' : 'Move the ghost first: drag it, use the arrow keys, or turn it.'));
      return;
    }
    // Only a move the rules took is sent. One being asked about is sent once they take
    // it; one they refused (or could not be asked about) is not: the reason is shown, and
    // nothing changes.
    if (!g.answer) {
      st.commitWhenAnswered = true;
      status.textContent = 'Asking the rules; the move is sent once they take it…';
      return;
    }
    if (g.answer.failed) {
      showError(err, new Error(`Not sent: the rules could not be asked (${g.answer.failed.message}).`));
      return;
    }
    if (g.answer.legal === false) {
      showError(err, new Error(`Not sent: ${tidy(g.answer.reason)}`));
      return;
    }
    showError(err, null);
    commitB.disabled = true;
    // Sent: the battle the page reads while the move is acted on has it already, and the
    // ghost is not asked about again (update).
    g.sent = true;
    try {
      await ctx.act(action(g), g.side);
      if (st.ghost === g) st.ghost = null;
      // The fields went with the move (an action chosen is the unit's now).
      if (st.fields === g.fields) st.fieldsOf = null;
      live.textContent = `${g.unit} ${g.kind === 'deploy' ? 'deployed' : 'moved'}.`;
    } catch (e) {
      g.sent = false;
      showError(err, e);
    } finally {
      commitB.disabled = false;
      render();
    }
  }

  function cancel(focus = false) {
    if (!st.ghost) return;
    st.ghost = null;
    st.commitWhenAnswered = false;
    showError(err, null);
    render();
    if (focus) a.focus();
  }

  // ---- the pointer: drags that start on a unit of this page's sides, or on the ghost ----

  // claim answers viewport.js's question for a pointer going down: a handler when the
  // drag is the mover's (a unit, the ghost's end, its facing handle), else null (a pan).
  function claim(ev) {
    if (!offered()) return null;
    const el = ev.target.closest?.('[data-ghost], [data-unit]');
    if (!el || !a.svg.contains(el)) return null;
    const g = st.ghost;
    if (g && el.dataset.ghost === 'facing') {
      return {move: (e) => { st.dragging = true; setFacing(a.bearing(endOf(g), a.pointer(e))); }, end: () => { st.dragging = false; a.focus(); }};
    }
    if (g && el.dataset.ghost === 'end') return dragFrom(a.unit(g.unit), endOf(g), ev, false);
    const u = a.unit(el.dataset.unit);
    if (!played(u) || u.destroyed) return null;
    return dragFrom(u, a.at(u), ev, true);
  }

  // dragFrom follows a drag that took hold of a point (the unit, or the ghost's end): the
  // ghost's end keeps the same offset from the pointer.
  function dragFrom(u, from, ev, fresh) {
    const p0 = a.pointer(ev);
    const off = [p0[0] - from[0], p0[1] - from[1]];
    // A finger would hide the ghost it drags: a unit picked up by a finger rises above
    // it as it is dragged, by as far as the finger has gone up to LIFT pixels, so that a
    // small move stays small and a longer one is seen clear of the fingertip.
    const finger = fresh && ev.pointerType === 'touch' ? [ev.clientX, ev.clientY] : null;
    const lift = (e) => (finger ? a.lift(Math.min(LIFT, Math.hypot(e.clientX - finger[0], e.clientY - finger[1]))) : [0, 0]);
    let begun = false;
    return {
      move(e) {
        const p = a.pointer(e);
        st.dragging = true;
        if (!begun) {
          begun = true;
          const why = whyNot(u) || needs(u);
          if (why) {
            st.mover = u.id;
            st.ghost = null;
            render();
            showError(err, new Error(needs(u) && !whyNot(u) ? `Choose how ${u.id} moves first (below): ${tidy(why)}.` : `${u.id} may not move now: ${tidy(why)}.`));
          } else if (fresh || !st.ghost) {
            start(u);
          }
        }
        const up = lift(e);
        if (st.ghost?.unit === u.id) setEnd([p[0] - off[0] + up[0], p[1] - off[1] + up[1]]);
      },
      end(e, moved) {
        st.dragging = false;
        if (moved && st.ghost) a.focus();
      },
    };
  }

  // A click on the table while a ghost is out (not on a unit) adds a leg to that point.
  function clickAt(p) {
    const g = st.ghost;
    if (!g) return false;
    if (g.kind === 'deploy' || !g.anchors.length) setEnd(p);
    else addLeg(p);
    return true;
  }

  // ---- the keyboard: with a ghost out the board's keys are the mover's ----

  function keydown(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const g = st.ghost;
    const key = ev.key;
    if (!g) {
      if (key !== 'm' && key !== 'M') return;
      const id = document.activeElement?.closest?.('[data-unit]')?.dataset.unit || st.mover;
      if (!id || !offered()) return;
      pickUp(id, true);
    } else if (a.arrow(key)) {
      const [dx, dy] = a.arrow(key);
      const k = a.step() * (ev.shiftKey ? 4 : 1);
      const e = endOf(g);
      setEnd([e[0] + dx * k, e[1] + dy * k]);
    } else if (key === 'Enter') {
      commit();
    } else if (key === 'Escape') {
      cancel(true);
    } else if (key === '[' || key === '{') {
      turn(-1, ev.shiftKey);
    } else if (key === ']' || key === '}') {
      turn(1, ev.shiftKey);
    } else if (key === 'w' || key === 'W') {
      addLeg();
    } else if (key === 'Backspace') {
      undoLeg();
    } else if (key === 't' || key === 'T') {
      const es = a.enemies(a.unit(g.unit));
      if (!es.length) return;
      const i = es.findIndex((e) => e.id === g.target);
      g.target = es[(i + 1) % es.length].id;
      target.value = g.target;
      changed();
    } else {
      return;
    }
    // The mover's keys are not the board's (the arrows pan, Enter chooses a unit).
    ev.preventDefault();
    ev.stopImmediatePropagation();
  }
  a.svg.addEventListener('keydown', keydown, true);

  // ---- drawing what the ghost means ----

  // fillTargets lists the enemies the ghost may aim at, nearest first; one the rules
  // refuse the unit's shot at is shown, disabled, with why.
  let targetsKey = '';
  function fillTargets(u) {
    const es = a.enemies(u);
    const refused = (e) => st.noThen.get(`${u.id} ${e.id}`);
    const key = u.id + ' ' + es.map((e) => e.id + (refused(e) ? '!' : '')).join(',');
    if (key !== targetsKey) {
      targetsKey = key;
      target.replaceChildren(h('option', {value: ''}, '— nobody —'), ...es.map((e) => h('option', {value: e.id, disabled: !!refused(e),
        title: refused(e) || null}, e.name + (refused(e) ? ' (may not aim at it)' : ''))));
    }
    const g = st.ghost;
    if (g && g.target && refused({id: g.target})) {
      // Aim at the nearest enemy the rules allow, if any.
      g.target = es.find((e) => !refused(e))?.id || null;
    }
    target.value = g?.target || '';
  }

  let fieldsShown = null;
  let needShown = '';
  // fieldChanged follows a field chosen: the ghost's move is asked again, or, before a
  // drag, what the unit may move with it.
  function fieldChanged() {
    if (st.ghost) changed();
    else render();
  }
  function render() {
    const v = ctx.view;
    const mine = offered();
    panel.hidden = !mine;
    exportButton.hidden = !form();
    a.draw(st.ghost);
    if (!mine) return;
    const g = st.ghost;
    const u = a.unit(g?.unit || st.mover);
    deployRow.hidden = !a.deploying();
    deployBox.checked = deploying();
    // A finger has no keys: the help names none on a touch screen.
    const fingers = touch();
    help.textContent = g ? (g.kind === 'deploy'
      ? `Deploying ${g.unit}: drag it where it should stand in its zone, turn it, then Commit` + (fingers ? '.' : ' (Enter).')
      : fingers ? `Moving ${g.unit}: drag the ghost; a tap on the table adds a leg; ⟲ ⟳ turn it; then Commit.`
        : `Moving ${g.unit}: drag the ghost's end; a click on the table adds a leg, W makes the end a waypoint; the arrows move the end, [ and ] turn; Enter commits, Escape cancels.`)
      : u ? `${u.id}: ${moveWords(u)}` + (whyNot(u) || fingers ? '.' : '. Drag it, or press M (or Move) and use the arrow keys.')
        : deploying() ? 'Deployment: drag your units where they should stand in your zone (shaded).'
          : fingers ? 'Drag one of your units to move it.' : 'Drag one of your units to move it, or Tab to it and press M.';
    startB.hidden = !!g || !u || !!whyNot(u) || !!needs(u);
    startB.textContent = u ? `Move ${u.id}` : 'Move';
    for (const b of [commitB, cancelB]) b.hidden = !g;
    dock.hidden = !g;
    legB.hidden = undoB.hidden = !g || g.kind === 'deploy';
    undoB.disabled = !g || g.anchors.length < 2;
    turnRow.hidden = !g || !form()?.facing;
    targetRow.hidden = !g || !a.enemies(u).length || !a.then(u, a.enemies(u)[0].id);
    lengthP.hidden = status.hidden = trace.hidden = dangerP.hidden = !g;
    aimP.hidden = targetRow.hidden;
    // The form's fields: the ghost's, or those of the unit selected, which a ghost on it
    // then takes.
    const values = g ? (g.kind === 'move' ? g.fields : null) : u && !deploying() && !whyNot(u) ? fieldsFor(u.id) : null;
    // A field the unit's move must choose first is asked for, not offered "as chosen".
    const need = u && !g ? needs(u) : '';
    if (values !== fieldsShown || need !== needShown) {
      fieldsShown = values;
      needShown = need;
      fieldsBox.replaceChildren(...(values ? fieldInputs(form()?.fields || [], values, fieldChanged, need ? probed(u.id)?.bands : null, a.fmt) : []),
        ...(need ? [h('p', {class: 'help needs', id: 'move-needs'}, `Choose first: ${tidy(need)}.`)] : []));
    }
    if (!g) {
      a.after?.();
      if (u && !whyNot(u)) probe(u);
      return;
    }
    const len = lengthOf(g);
    const left = leftOf(g);
    lengthP.textContent = g.kind === 'deploy' ? `To ${endOf(g).join(', ')}` : `Path ${a.fmt(len)}` + (left !== undefined ? ` of ${a.fmt(left)} left` : '')
      + (g.anchors.length > 1 ? `, ${g.anchors.length} legs` : '');
    lengthP.classList.toggle('over', left !== undefined && len > left + 1e-9 && g.kind === 'move');
    facingS.textContent = `facing ${g.facing ?? g.base ?? '—'}°${g.facing === null ? ' (as it stands)' : ''}`;
    const ans = g.answer;
    status.className = 'status ' + (!ans || ans.failed ? '' : ans.legal ? 'ok' : 'bad');
    trace.replaceChildren();
    aimP.replaceChildren();
    dangerP.replaceChildren();
    if (!has(g)) status.textContent = touch() ? (form()?.facing ? 'Drag the unit, or turn it.' : 'Drag the unit.')
      : form()?.facing ? 'Drag the unit, move the ghost with the arrow keys, or turn it.' : 'Drag the unit, or move the ghost with the arrow keys.';
    else if (!ans) status.textContent = 'Asking the rules…';
    else if (ans.failed) status.textContent = 'The preview failed: ' + ans.failed.message;
    else if (!ans.legal) status.replaceChildren('Refused: ', h('span', {id: 'move-reason'}, tidy(ans.reason)));
    else {
      status.textContent = g.kind === 'deploy' ? 'It may stand there.' : 'The rules take this move.';
      trace.replaceChildren(...(ans.trace || []).map((s) => h('li', {}, tidy(s.result))));
      aimP.replaceChildren(...aimWords(ans, g));
      if (ans.danger) {
        dangerP.replaceChildren('Danger there: ', h('strong', {id: 'move-danger-value', 'data-value': ans.danger.value},
          ans.danger.scores.startsWith('P(') ? pct(ans.danger.value) : num(ans.danger.value)),
        ` (${ans.danger.scores}${ans.danger.firers.length ? ', from ' + ans.danger.firers.join(', ') : ', nothing can fire at it'})`);
      }
    }
    commitB.disabled = !has(g) || ans?.legal === false || !!ans?.failed;
    dockCommit.disabled = commitB.disabled;
    dockStatus.className = 'dock-status ' + (ans?.legal ? 'ok' : ans && !ans.failed ? 'bad' : '');
    dockStatus.textContent = (g.kind === 'deploy' ? '' : `${a.fmt(len)}${left !== undefined ? ' / ' + a.fmt(left) : ''} · `)
      + (!has(g) ? 'drag it' : !ans ? 'asking…' : ans.failed ? 'the rules could not be asked' : ans.legal ? 'the rules take it' : 'refused: ' + tidy(ans.reason));
    a.after?.();
  }

  function moveWords(u) {
    if (deploying()) return 'it may be deployed anywhere in its zone';
    const why = whyNot(u);
    if (why) return `may not move now (${why})`;
    if (needs(u)) return 'may move once its move says how (below)';
    const pr = probed(u.id);
    const left = pr?.left ?? u.move.left;
    return `may move ${a.fmt(left)} more` + (u.move.moved ? ` (moved ${a.fmt(u.move.moved)} of ${a.fmt(pr?.allowance ?? u.move.allowance)})` : '')
      + (pr && pr.fields !== '{}' ? ' with what is chosen' : '');
  }

  return {
    panel,
    extra,
    claim,
    clickAt,
    render,
    pickUp,
    // ghost is the ghost out, or null; mover the unit selected for moving.
    ghost: () => st.ghost,
    mover: () => st.mover,
    // left is what the ghost's unit may still move (as the preview's battle has it once
    // the rules took the move); leftFor what a unit selected for moving may, or undefined
    // where it may not move now.
    left: (g) => leftOf(g),
    leftFor: (u) => (!u || whyNot(u) || deploying() || needs(u) ? undefined : probed(u.id)?.left ?? u.move?.left),
    // why says why unit u may not move now ('' when it may).
    why: (u) => whyNot(u),
    // bands are what each option of the move's selects would let unit u move, where it
    // must choose one first: [{label, left} or {label, why}].
    bands: (u) => (u && needs(u) ? probed(u.id)?.bands || [] : []),
    endOf,
    path,
    lengthOf,
    has,
    // words is what the ghost's label says: the path's length against what is left.
    words(g) {
      if (g.kind === 'deploy') return `deploy ${g.unit}`;
      const left = leftOf(g);
      return a.fmt(lengthOf(g)) + (left !== undefined ? ` / ${a.fmt(left)}` : '');
    },
    exportButton,
    // select makes u the unit selected for moving (a click on it), if this page plays it.
    select(u) {
      if (!form() || !played(u) || st.ghost?.unit === u.id) return;
      if (st.ghost) cancel();
      st.mover = u.id;
      render();
    },
    // startAt puts a ghost on unit id along the points given (the position map's pick).
    startAt(id, anchors) {
      const u = a.unit(id);
      if (!u || whyNot(u)) return;
      start(u, anchors.map(a.snap));
      a.focus();
    },
    // aimAt makes the ghost aim at an enemy the player points at (not one the ghost passes
    // over while it is dragged).
    aimAt(id) {
      const g = st.ghost;
      if (!g || st.dragging || g.target === id || !a.enemies(a.unit(g.unit)).some((e) => e.id === id)) return;
      g.target = id;
      target.value = id;
      changed();
    },
    // update follows the battle: a ghost whose unit may no longer move is dropped, and
    // another's preview is asked again, since the battle it was asked of has changed.
    update() {
      if (st.mover && !a.unit(st.mover)) st.mover = null;
      const g = st.ghost;
      if (g && !g.sent) {
        const u = a.unit(g.unit);
        if (whyNot(u) || (g.kind === 'deploy') !== deploying()) st.ghost = null;
        else {
          g.start = a.at(u);
          g.base = a.facingOf(u);
          fillTargets(u);
          changed();
          return;
        }
      }
      render();
    },
  };
}
