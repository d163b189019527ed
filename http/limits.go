package http

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/volley-wargames/volley"
)

// Limits are what the server gives one request, one client and all of them together.
// Each keeps a client, honest or not, from taking more than its share; docs/api.md lists
// them under "Limits and abuse", and `volley serve` sets them with flags. A zero field
// takes its default (DefaultLimits).
type Limits struct {
	// OpponentPace is the pause before each action of a side volley plays, so that its
	// moves reach the page one by one (negative: none); OpponentThink bounds one of its
	// decisions (past it, it ends its phase or turn); Opponents is how many battles'
	// opponents think at once.
	OpponentPace  time.Duration
	OpponentThink time.Duration
	Opponents     int
	// RequestTimeout is the deadline of every request: its work, its waits for a lock
	// or a turn, and its reads of the store. Work still running then stops, and the
	// answer is 503 with a Retry-After.
	RequestTimeout time.Duration
	// MaxBodyBytes bounds a request body: a scenario.
	MaxBodyBytes int64
	// MaxActionBytes bounds an action: the body of an action, aim or odds request, or
	// the aim or odds request's action query parameter.
	MaxActionBytes int
	// InFlight is how many API requests are worked on at once; more wait for a place
	// until their deadline. A request holds its place while it works, not while its body
	// arrives, nor while it waits for heavy work, nor while its answer is written.
	InFlight int
	// ClientInFlight is how many API requests one client address may have in flight at
	// once, from the moment it is read to the moment its answer is written; more are
	// answered 429 at once. Event streams are counted by their own bounds.
	ClientInFlight int
	// Heavy is how many requests at once may do heavy work: computing an action that
	// costs more than LightWork, reading a body larger than LightBytes, writing a view or
	// an export that costs more (price.go), replaying a log to verify it, advice, danger
	// and position maps. (Rebuilding a battle has places of its own: Rebuilds.) Light requests never wait for it, so a client that asks
	// for the most expensive odds cannot slow down one that plays.
	Heavy int
	// HeavyQueue bounds the heavy requests waiting for a place, HeavyPerClient those of
	// one client address, waiting or working. Waiting holds no request slot (InFlight).
	HeavyQueue, HeavyPerClient int
	// MinUploadRate is the slowest a body may arrive, in bytes a second, once
	// UploadGrace has passed; a slower upload is answered 408 and its connection closed.
	MinUploadRate int
	UploadGrace   time.Duration
	// Rebuilds is how many battles may be rebuilt at once (their logs folded again after
	// a restart or after the cache dropped them): places of their own, apart from the
	// heavy requests', so that no amount of heavy work queued (a flood of maps) keeps a
	// battle from being read again. RebuildSlice is how long a rebuild works at a time
	// before it gives its place to the next battle waiting; it then takes its turn again
	// until it is done. A rebuild runs once per battle, in the background, and keeps its
	// progress whether or not the request that began it waits for it.
	Rebuilds     int
	RebuildSlice time.Duration
	// LightWork is the most work (in volley.MaxWork's steps) an action may cost and
	// still be light; LightBytes the largest light document.
	LightWork  int64
	LightBytes int
	// CacheBytes bounds the memory of the battles kept folded, by an estimate of each
	// one's size (see footprint). The least recently used are dropped first; a dropped
	// battle is folded again from the store when next asked for.
	CacheBytes int64
	// MaxLogBytes bounds the bodies and outcomes of one battle's actions together: a
	// battle whose log is full takes no more actions (409) and should be ended.
	MaxLogBytes int64
	// Creates and Reads are each client's rates: of new battles, and of every other
	// request about a battle (state, aim, odds, actions, log, verify). A client over its
	// rate is answered 429 with a Retry-After.
	Creates, Reads Rate
	// ReadBytes is each client's rate of the bytes of logs it is sent (GET /log, and an
	// event stream catching up from the store): a client past it is sent the rest more
	// slowly, so that reading a long log again and again costs the server no more than
	// this rate an address. PerSecond and Burst are in bytes.
	ReadBytes Rate
	// Clients is how many clients' rates are remembered; the longest idle is forgotten
	// first.
	Clients int
	// Streams bounds the spectators' event streams open on the whole server, and
	// PlayerStreams the players' (opened with a side's ticket): two pools, so that
	// spectators, however many addresses they come from, never take the players'
	// places. StreamsPerBattle bounds the spectators' streams of one battle, and
	// StreamsPerSide each side's, beside them. StreamsPerClient bounds those of one
	// client address, and StreamsPerTicket those one ticket opens. A stream over a bound
	// is refused with 429 (503 when the server's pool is full). Streams hold no request
	// slot (InFlight) and no deadline: they have their own bounds.
	Streams, PlayerStreams, StreamsPerBattle, StreamsPerSide, StreamsPerClient, StreamsPerTicket int
	// StreamWriteTimeout is how long a stream may take to write out what it sends; a
	// client that reads no faster is closed (it comes back with Last-Event-ID).
	StreamWriteTimeout time.Duration
	// PageBytes bounds what one read of a battle's log holds at once: a stream catching
	// up, GET /log, a fold. Longer logs are read a page at a time.
	PageBytes int
	// FeedBytes bounds the events one battle's feed keeps for its streams, and
	// FeedMemory those of every feed together (each feed keeps at most its share); a
	// stream further behind reads the store a page at a time.
	FeedBytes, FeedMemory int
	// StreamIdle closes a stream that has sent no event for that long; the client comes
	// back with Last-Event-ID. StreamHeartbeat is how often a quiet stream sends a
	// comment, so that proxies keep it open and a dead client is noticed.
	StreamIdle, StreamHeartbeat time.Duration
	// TicketTTL is how long a stream ticket may open streams after it is issued.
	TicketTTL time.Duration
}

// Rate is a token bucket: Burst requests at once, then one every 1/PerSecond seconds.
type Rate struct {
	PerSecond float64
	Burst     int
}

// String writes a rate as ParseRate reads it: "20/s" or "30/min", then the burst.
func (r Rate) String() string {
	if r.PerSecond < 1 {
		return strconv.FormatFloat(r.PerSecond*60, 'g', -1, 64) + "/min,burst=" + strconv.Itoa(r.Burst)
	}
	return strconv.FormatFloat(r.PerSecond, 'g', -1, 64) + "/s,burst=" + strconv.Itoa(r.Burst)
}

// ParseRate reads "N/s" or "N/min", optionally followed by ",burst=B" (default: N, and
// at least 1).
func ParseRate(s string) (Rate, error) {
	num, rest, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Rate{}, fmt.Errorf("rate %q: want N/s or N/min, optionally with ,burst=B", s)
	}
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || n <= 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		return Rate{}, fmt.Errorf("rate %q: %q is not a positive number", s, num)
	}
	unit, burstText, hasBurst := strings.Cut(rest, ",")
	var r Rate
	switch unit {
	case "s":
		r.PerSecond = n
	case "min":
		r.PerSecond = n / 60
	default:
		return Rate{}, fmt.Errorf("rate %q: the unit is s or min, not %q", s, unit)
	}
	r.Burst = max(1, int(n))
	if hasBurst {
		b, ok := strings.CutPrefix(burstText, "burst=")
		v, err := strconv.Atoi(b)
		if !ok || err != nil || v < 1 {
			return Rate{}, fmt.Errorf("rate %q: want burst=B with B at least 1", s)
		}
		r.Burst = v
	}
	return r, nil
}

// DefaultLimits are the limits of `volley serve` unless its flags say otherwise. They
// are sized for a small machine (two cores): heavy work on one core, so that light
// requests always have the other; a few hundred megabytes in all.
func DefaultLimits() Limits {
	return Limits{
		OpponentPace:   600 * time.Millisecond,
		OpponentThink:  10 * time.Second,
		Opponents:      1,
		RequestTimeout: 15 * time.Second,
		MaxBodyBytes:   1 << 20,
		MaxActionBytes: 64 << 10,
		InFlight:       64,
		ClientInFlight: 16,
		Heavy:          max(1, runtime.GOMAXPROCS(0)-1),
		HeavyQueue:     64,
		HeavyPerClient: 2,
		MinUploadRate:  4 << 10,
		UploadGrace:    2 * time.Second,
		Rebuilds:       1,
		RebuildSlice:   time.Second,
		LightWork:      volley.MaxWork / 100,
		LightBytes:     16 << 10,
		CacheBytes:     256 << 20,
		MaxLogBytes:    16 << 20,
		Creates:        Rate{PerSecond: 30.0 / 60, Burst: 10},
		Reads:          Rate{PerSecond: 50, Burst: 100},
		ReadBytes:      Rate{PerSecond: 4 << 20, Burst: 16 << 20},
		Clients:        100_000,
		// A battle's two players and their spectators: a thousand watching a final is
		// the benchmark; a browser holds one stream a page.
		Streams:            10_000,
		PlayerStreams:      5_000,
		StreamsPerBattle:   2_000,
		StreamsPerSide:     8,
		StreamsPerClient:   32,
		StreamsPerTicket:   4,
		StreamIdle:         10 * time.Minute,
		StreamHeartbeat:    15 * time.Second,
		StreamWriteTimeout: 10 * time.Second,
		TicketTTL:          time.Minute,
		PageBytes:          1 << 20,
		FeedBytes:          4 << 20,
		FeedMemory:         64 << 20,
	}
}

// withDefaults gives every limit left unset its default. A limit at zero or below is
// unset (there is no "no limit"), as is a rate with either part so; OpponentPace alone is
// unset only at zero, since a negative pace is no pause at all.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.OpponentPace == 0 {
		l.OpponentPace = d.OpponentPace
	}
	orDefault(&l.Streams, d.Streams)
	orDefault(&l.PlayerStreams, d.PlayerStreams)
	orDefault(&l.StreamsPerBattle, d.StreamsPerBattle)
	orDefault(&l.StreamsPerSide, d.StreamsPerSide)
	orDefault(&l.StreamsPerClient, d.StreamsPerClient)
	orDefault(&l.StreamsPerTicket, d.StreamsPerTicket)
	orDefault(&l.ClientInFlight, d.ClientInFlight)
	orDefault(&l.HeavyQueue, d.HeavyQueue)
	orDefault(&l.HeavyPerClient, d.HeavyPerClient)
	orDefault(&l.Rebuilds, d.Rebuilds)
	orDefault(&l.MinUploadRate, d.MinUploadRate)
	orDefault(&l.Opponents, d.Opponents)
	orDefault(&l.PageBytes, d.PageBytes)
	orDefault(&l.FeedBytes, d.FeedBytes)
	orDefault(&l.FeedMemory, d.FeedMemory)
	orDefault(&l.StreamIdle, d.StreamIdle)
	orDefault(&l.StreamHeartbeat, d.StreamHeartbeat)
	orDefault(&l.TicketTTL, d.TicketTTL)
	orDefault(&l.StreamWriteTimeout, d.StreamWriteTimeout)
	orDefault(&l.UploadGrace, d.UploadGrace)
	orDefault(&l.RebuildSlice, d.RebuildSlice)
	orDefault(&l.OpponentThink, d.OpponentThink)
	orDefault(&l.RequestTimeout, d.RequestTimeout)
	orDefault(&l.MaxBodyBytes, d.MaxBodyBytes)
	orDefault(&l.MaxActionBytes, d.MaxActionBytes)
	orDefault(&l.InFlight, d.InFlight)
	orDefault(&l.Heavy, d.Heavy)
	orDefault(&l.LightWork, d.LightWork)
	orDefault(&l.LightBytes, d.LightBytes)
	orDefault(&l.CacheBytes, d.CacheBytes)
	orDefault(&l.MaxLogBytes, d.MaxLogBytes)
	rateOrDefault(&l.Creates, d.Creates)
	rateOrDefault(&l.Reads, d.Reads)
	rateOrDefault(&l.ReadBytes, d.ReadBytes)
	orDefault(&l.Clients, d.Clients)
	return l
}

// orDefault sets the limit *v to def when it is unset: zero or below.
func orDefault[T int | int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// rateOrDefault sets the rate *r to def when either of its parts is unset.
func rateOrDefault(r *Rate, def Rate) {
	if r.PerSecond <= 0 || r.Burst <= 0 {
		*r = def
	}
}

// clientKey names the client a request comes from, for its rates: its IP address, or
// for IPv6 the /64 network it is in, since one machine commonly holds a whole /64. The
// server trusts no header for this (X-Forwarded-For is the client's to write); behind a
// proxy, every client shares the proxy's rate.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr = addr.Unmap()
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}
