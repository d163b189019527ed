// Shortest ways for a round base among obstacles on an open table, for the position map's
// "move there" (position.js): the map gives how far each point is along its shortest
// way, but not the way. Shortest ways among polygons bend only at their corners, so the
// way is found on the visibility graph of the start, the end and the corners of every
// obstacle grown by the base's radius, as the server finds the map's. A grown corner is
// the convex hull of the obstacle's corners each ringed by a 16-sided polygon drawn round
// a circle a little wider than the base: every way found keeps clear of the true grown
// obstacle, by more than the rounding of the points sent. The rules check the move anyway
// (the preview): this only proposes it.

// CLEAR is how much further than the base's radius a way keeps from an obstacle, in the
// table's unit: more than the 0.005 by which a point sent is rounded.
const CLEAR = 0.02;
const SIDES = 16;
const EPS = 1e-9;

// grown is the convex hull of the points pts each ringed at radius r: a convex obstacle
// (a polygon's footprint, or a base) grown by a base of radius r.
export function grown(pts, r) {
  const R = (r + CLEAR) / Math.cos(Math.PI / SIDES);
  const ring = [];
  for (const [x, y] of pts) {
    for (let k = 0; k < SIDES; k++) {
      const a = (2 * Math.PI * (k + 0.5)) / SIDES;
      ring.push([x + R * Math.cos(a), y + R * Math.sin(a)]);
    }
  }
  return hull(ring);
}

// hull is the convex hull of points, counter-clockwise (Andrew's monotone chain).
function hull(pts) {
  const p = [...pts].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [], upper = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower.at(-2), lower.at(-1), q) <= 0) lower.pop();
    lower.push(q);
  }
  for (const q of p.reverse()) {
    while (upper.length >= 2 && cross(upper.at(-2), upper.at(-1), q) <= 0) upper.pop();
    upper.push(q);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

// crosses says whether the segment a–b passes through the inside of the convex polygon
// poly (counter-clockwise): running along its edge or touching a corner does not count.
function crosses(a, b, poly) {
  let t0 = 0, t1 = 1;
  const d = [b[0] - a[0], b[1] - a[1]];
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i], q = poly[(i + 1) % poly.length];
    // Inside is to the left of each edge: n·(x − p) > 0 with n the edge's left normal.
    const n = [p[1] - q[1], q[0] - p[0]];
    const len = Math.hypot(n[0], n[1]);
    const num = (n[0] * (a[0] - p[0]) + n[1] * (a[1] - p[1])) / len;
    const den = (n[0] * d[0] + n[1] * d[1]) / len;
    if (Math.abs(den) < EPS) {
      if (num <= 1e-7) return false; // parallel, outside or on the edge
      continue;
    }
    const t = -num / den;
    if (den > 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 >= t1) return false;
  }
  // Inside for a stretch, not merely grazing a corner.
  return (t1 - t0) * Math.hypot(d[0], d[1]) > 1e-6;
}

// inside says whether point p lies strictly inside the convex polygon poly.
function inside(p, poly) {
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i], b = poly[(i + 1) % poly.length];
    if ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) <= 1e-9) return false;
  }
  return true;
}

// shortestWay is the shortest way from one point to another round the obstacles (convex
// polygons, already grown), as the points after the start; null when there is none.
export function shortestWay(from, to, all) {
  // An obstacle the start or the end lies in is one the rules let the unit stand by: the
  // margin of CLEAR, or a piece it may cross.
  const obstacles = all.filter((o) => !inside(from, o) && !inside(to, o));
  const nodes = [from, to];
  for (const o of obstacles) for (const v of o) if (!obstacles.some((x) => x !== o && inside(v, x))) nodes.push(v);
  const seen = (a, b) => !obstacles.some((o) => crosses(a, b, o));
  // Dijkstra over the nodes, each edge's sight checked when it is first needed.
  const dist = new Array(nodes.length).fill(Infinity), prev = new Array(nodes.length).fill(-1), done = new Array(nodes.length).fill(false);
  dist[0] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < nodes.length; i++) if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) return null;
    if (u === 1) break;
    done[u] = true;
    for (let v = 0; v < nodes.length; v++) {
      if (done[v]) continue;
      const d = dist[u] + Math.hypot(nodes[v][0] - nodes[u][0], nodes[v][1] - nodes[u][1]);
      if (d < dist[v] && seen(nodes[u], nodes[v])) {
        dist[v] = d;
        prev[v] = u;
      }
    }
  }
  const way = [];
  for (let v = 1; v !== 0; v = prev[v]) way.unshift(nodes[v]);
  return way;
}
