// Following a battle live: its event stream (docs/api.md, events). When the other side
// acts, on this server or another sharing the database, the page hears it at once and
// refreshes the board, the log with its dice, whose turn it is and the odds. A small
// badge says whether the page is live; a dropped stream comes back by itself, from the
// last action the page has, so nothing is missed or shown twice.

import {call} from './api.js';
import {h} from './dom.js';

// retryMillis is how long the page waits before opening a new stream after one closed
// for good (an expired ticket, a restarted server); the browser retries a dropped one
// by itself sooner.
const retryMillis = 1500;

// follow opens the battle's stream and calls onAction(seq) for every action after last
// (the last seq the page has shown), and onEnd() when the battle ends. It returns the
// badge to show and a stop function.
export function follow(id, last, reader, {onAction, onEnd}) {
  const badge = h('span', {id: 'live', class: 'live off', role: 'status', title: 'the battle as it happens'}, 'connecting…');
  let es = null;
  let stopped = false;
  let timer = 0;
  const set = (state, text) => {
    badge.className = 'live ' + state;
    badge.textContent = text;
  };
  async function open() {
    if (stopped) return;
    set('off', 'connecting…');
    let t;
    try {
      // The token stays in the page: the stream's URL carries a short-lived ticket.
      t = await call('POST', `/api/battles/${id}/tickets`, {token: reader()});
    } catch {
      set('off', 'offline');
      timer = setTimeout(open, retryMillis);
      return;
    }
    if (stopped) return;
    es = new EventSource(`/api/battles/${id}/events?ticket=${encodeURIComponent(t.ticket)}&last_event_id=${last}`);
    es.addEventListener('hello', () => set('on', '● live'));
    es.addEventListener('action', (ev) => {
      const seq = Number(ev.lastEventId);
      if (seq <= last) return; // shown already
      last = seq;
      onAction(seq, JSON.parse(ev.data));
    });
    es.addEventListener('end', () => {
      set('off', 'ended');
      stop();
      onEnd();
    });
    es.onerror = () => {
      if (stopped) return;
      if (es.readyState === EventSource.CONNECTING) {
        set('off', 'reconnecting…'); // the browser retries, with Last-Event-ID
        return;
      }
      // Closed for good (an expired ticket, say): a new ticket, from the last action seen.
      es.close();
      set('off', 'reconnecting…');
      timer = setTimeout(open, retryMillis);
    };
  }
  function stop() {
    stopped = true;
    clearTimeout(timer);
    if (es) es.close();
  }
  open();
  return {badge, stop, seen: (seq) => { last = Math.max(last, seq); }};
}
