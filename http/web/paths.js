// The turn's paths: every move made since the action that last ended a turn or a phase
// (the view's state.turn.end names it), read off the log, so that a player sees where each
// unit came from this turn, as at a table. A move taken back is left out.
//
// A move's path is where its trace says it began (the step's inputs.from, which every
// system's move step gives), then the points of the action's path (or, for a move of
// several models, the model's), else where the step says it ended (inputs.to). It knows
// no rule system: only the log's shapes (docs/api.md).

// point reads a point of a trace: [x, y], or a square written "x,y".
function point(p) {
  if (Array.isArray(p) && p.length >= 2) return [Number(p[0]), Number(p[1])];
  if (typeof p === 'string') {
    const m = /^(-?\d+(?:\.\d+)?),\s*(-?\d+(?:\.\d+)?)$/.exec(p);
    if (m) return [Number(m[1]), Number(m[2])];
  }
  return null;
}

// turnPaths are the paths of this turn's moves in entries: [{unit, side, seq, points}].
export function turnPaths(entries, turn) {
  const ends = turn?.end?.type;
  const out = [];
  let undone = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const a = entries[i];
    let body = {};
    try { body = JSON.parse(a.action); } catch { continue; }
    if (ends && body.type === ends) break;
    if (body.type === 'take_back') {
      undone++;
      continue;
    }
    if (body.type !== 'move') continue;
    if (undone > 0) {
      undone--;
      continue;
    }
    for (const step of a.outcome?.trace || []) {
      const inp = step.inputs || {};
      const from = point(inp.from), to = point(inp.to);
      const unit = inp.model || inp.unit;
      if (!from || !unit) continue;
      const model = (body.models || []).find((x) => x.id === unit);
      const legs = ((model ? model.path : body.unit === unit || !body.models ? body.path : null) || []).map(point).filter(Boolean);
      const points = [from, ...(legs.length ? legs : to ? [to] : [])];
      if (points.length < 2) continue;
      out.push({unit, side: a.side, seq: a.seq, points});
    }
  }
  return out.reverse();
}

// split cuts a path (points) at a length: what lies within it, and what lies beyond (each
// a list of points, the cut point shared). dist(p, q) measures a leg.
export function split(points, within, dist) {
  let left = within;
  const inside = [points[0]];
  for (let i = 1; i < points.length; i++) {
    const p = points[i - 1], q = points[i];
    const d = dist(p, q);
    if (d <= left + 1e-9) {
      inside.push(q);
      left -= d;
      continue;
    }
    const k = d > 0 ? Math.max(0, left) / d : 0;
    const cut = [p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k];
    inside.push(cut);
    return [inside, [cut, ...points.slice(i)]];
  }
  return [inside, []];
}
