import {h, status} from './dom.js';

// The JSON API, and its errors in words a player understands.

// ApiError is an error answer: the API's code, message and the field at fault.
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `the server answered ${status}`);
    this.status = status;
    this.code = body?.code || 'internal';
    this.field = body?.field || '';
    this.errors = body?.errors || [];
    // need is, for an action of a battle rolled by hand short of a die (needs_roll), the
    // next die: {index, sides, purpose}.
    this.need = body?.need || null;
    // retryAfter is how many seconds the server asks a busy client to wait (429, 503).
    this.retryAfter = body?.retry_after || 0;
  }
}

// pending counts the requests under way, on the page's <html> element (data-pending):
// the browser tests wait for it to reach 0 before they read what the page shows.
let pending = 0;
function busy(d) {
  pending += d;
  document.documentElement.dataset.pending = String(pending);
}

// refused counts a request the server refused on the page's <html> element
// (data-failed), as data-pending counts those under way, and keeps the last fifty
// (data-refused): a test that plays a battle through holds the page to sending nothing
// the server refuses.
function refused(what) {
  const el = document.documentElement;
  el.dataset.failed = String(Number(el.dataset.failed || 0) + 1);
  el.dataset.refused = [...(el.dataset.refused ? el.dataset.refused.split('\n') : []), what.replaceAll('\n', ' ')].slice(-50).join('\n');
}

// call sends a request and answers the decoded JSON, or throws an ApiError. signal
// aborts it (a danger map the player cancelled): the server stops its work when the
// client goes away.
//
// patient, for a read the page makes on its own (the dice check at the end of a battle),
// waits and asks again, a few times, when the server says it is busy (429, 503 with a
// Retry-After): several pages of one address may be asking for heavy work at once.
export async function call(method, path, {body, token, key, text = false, signal, patient = false} = {}) {
  busy(1);
  try {
    for (let tries = 0; ; tries++) {
      try {
        return await send(method, path, {body, token, key, text, signal});
      } catch (err) {
        if (!patient || tries >= 5 || !(err.status === 429 || err.status === 503)) throw err;
        await new Promise((r) => setTimeout(r, 1000 * Math.min(err.retryAfter || 1, 5)));
      }
    }
  } finally { busy(-1); }
}

async function send(method, path, {body, token, key, text, signal}) {
  const headers = {};
  if (token) headers.Authorization = 'Bearer ' + token;
  if (key) headers['Idempotency-Key'] = key;
  if (body !== undefined) headers['Content-Type'] = typeof body === 'string' ? 'application/yaml' : 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method, headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw new ApiError(0, {code: 'cancelled', message: 'cancelled'});
    throw new ApiError(0, {code: 'network', message: 'cannot reach the volley server'});
  }
  if (text && res.ok) return res.text();
  let data = null;
  try { data = await res.json(); } catch { /* a body that is not JSON: reported below */ }
  if (!res.ok) {
    // Counted on the page's <html> element (data-failed), as data-pending is: a test that
    // plays a battle through holds the page to sending nothing the server refuses.
    refused(`${method} ${path.split('?')[0]} ${typeof body === 'object' ? JSON.stringify(body).slice(0, 200) : ''} ${res.status} ${data?.code || ''}: ${data?.message || ''}`);
    throw new ApiError(res.status, data);
  }
  return data;
}

// lines sends a GET whose answer is lines of JSON (a danger map's progress, then the
// map): onProgress gets each {"progress": …} line's value, and the other line is the
// answer; an {"error": …} line, or an error answer, is thrown as an ApiError. signal
// aborts it.
export async function lines(path, {token, signal, onProgress}) {
  busy(1);
  try {
    const headers = token ? {Authorization: 'Bearer ' + token} : {};
    let res;
    try {
      res = await fetch(path, {headers, signal});
    } catch {
      throw aborted(signal);
    }
    if (!res.ok) {
      let data = null;
      try { data = await res.json(); } catch { /* reported below */ }
      refused(`GET ${path.split('?')[0]} ${res.status} ${data?.code || ''}: ${data?.message || ''}`);
      throw new ApiError(res.status, data);
    }
    const reader = res.body.getReader();
    const text = new TextDecoder();
    let buf = '', last = null;
    const take = (line) => {
      if (!line.trim()) return;
      const v = JSON.parse(line);
      if (v.error) throw new ApiError(v.error.code === 'unavailable' ? 503 : 400, v.error);
      if (v.progress) onProgress(v.progress);
      else last = v;
    };
    for (;;) {
      let r;
      try { r = await reader.read(); } catch { throw aborted(signal); }
      if (r.done) break;
      buf += text.decode(r.value, {stream: true});
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        take(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    }
    take(buf);
    return last;
  } finally { busy(-1); }
}

function aborted(signal) {
  return signal?.aborted ? new ApiError(0, {code: 'cancelled', message: 'cancelled'})
    : new ApiError(0, {code: 'network', message: 'cannot reach the volley server'});
}

// GET with the action in the query, for aim and odds, with a token that reads the battle.
export function ask(battle, what, action, token) {
  return call('GET', `/api/battles/${battle}/${what}?action=${encodeURIComponent(JSON.stringify(action))}`, {token});
}

// explain turns an error into a sentence for a player. The rule system's own message
// already says which rule refused; the prefix naming the package is dropped.
export function explain(err) {
  if (!(err instanceof ApiError)) return String(err?.message || err);
  // The Go package's prefix goes, and an aim's status codes read as words ("is out of
  // range", not "is out_of_range").
  const msg = err.message.replace(/^[a-z]+: /, '').replace(/\b(out_of_range|out_of_arc|not_eligible|no_target)\b/g, (c) => status(c));
  switch (err.code) {
    case 'cancelled': return 'Cancelled.';
    case 'network': return 'Cannot reach the volley server. Is `volley serve` still running?';
    case 'unauthorized': return 'This needs a token of the battle: paste a side\'s token (or open the spectator\'s link) you were given when it was created.';
    case 'too_many': return 'Too many requests from this address: ' + msg + '.';
    case 'unavailable': return 'The server is busy or the work ran out of time: ' + msg + '.';
    case 'forbidden': return 'That token cannot do this: ' + msg + '.';
    case 'not_found': return 'Not found: ' + msg + '.';
    case 'conflict': return msg.charAt(0).toUpperCase() + msg.slice(1) + '.';
    case 'too_large': return 'Too large: ' + msg + '.';
    case 'internal': return 'The server failed on its side; nothing was changed. Try again, and report it if it persists.';
  }
  return msg.charAt(0).toUpperCase() + msg.slice(1) + (/[.!?]$/.test(msg) ? '' : '.');
}

// errorBox is where an error about one part of the page appears, next to that part.
export function errorBox(id) {
  return h('p', {class: 'error', id, role: 'alert', hidden: true});
}

// showError puts err in box in a player's words, with every line of a scenario's errors;
// a null err empties and hides the box.
export function showError(box, err) {
  box.replaceChildren();
  if (!err) { box.hidden = true; return; }
  box.hidden = false;
  box.append(explain(err));
  if (err.errors?.length) {
    box.append(h('ul', {}, err.errors.map((e) => h('li', {}, e.replace(/^body:/, 'line ')))));
  }
}
