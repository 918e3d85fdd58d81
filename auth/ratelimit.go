package auth

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Limits of section 8, requests per minute per IP for each limited endpoint group. Groups
// are counted independently; endpoints sharing a group share its counter.
var RateLimits = map[string]int{
	"auth":                    360,
	"transactions":            360,
	"investments":             360,
	"investment-transactions": 360,
	"item-update":             20,
}

// Limiter counts requests in fixed one-minute windows, per group and client IP: in memory
// (one process), or, with a Counter, in a store every replica shares, so a client gets the
// limit across all of them.
type Limiter struct {
	mu      sync.Mutex
	now     func() time.Time
	limits  map[string]int
	window  time.Time
	counts  map[limiterKey]int
	counter Counter
	claims  map[limiterKey]*claim
}

// Counter adds n requests to the shared count of group and ip in the window starting at
// window, and returns the count so far.
type Counter func(ctx context.Context, group, ip string, window time.Time, n int) (int, error)

type limiterKey struct{ group, ip string }

// A claim is a run of numbers in a shared count that one replica added and hands out to
// its own requests: the request given number k is allowed when k is within the limit.
// Claiming one number per request cost a statement per request, about half of what
// PostgreSQL did for a POST /auth answered from memory. A replica claims an eighth of
// what was left at its last claim (at most maxClaim), so far from the limit one
// statement serves many requests, and near it claims shrink to one: no number is handed
// out twice, so across all replicas no more than the limit are ever allowed. What a claim
// costs is fairness near the limit: numbers another replica holds unused make this one
// refuse a little early, and the count can run ahead of the requests by what replicas
// hold when the window ends. Past the limit nothing more is counted.
type claim struct {
	cur     span    // the numbers being handed out
	ahead   span    // the next run, claimed before cur ran out (see claimAheadAt)
	seen    int     // the shared count after this replica's last claim
	pending *flight // the claim in flight, if any
}

// A span is the numbers of one claim not yet handed out: next up to, not including, end.
type span struct{ next, end int }

func (s span) empty() bool { return s.next >= s.end }

// A flight is one claim's round trip, which the requests that found the run empty wait for.
type flight struct {
	done    chan struct{} // closed when it returns
	err     error         // its failure: the waiters pass too, without a claim each
	waiting int           // requests waiting on it (tests see them arrive)
}

// maxClaim bounds a claim far from the limit, where it costs no fairness: nobody is
// refused there, and nearer the limit claims are an eighth of what is left. At 64, a
// client calling 7,200 times a second (the capacity benchmark's POST /auth) made a claim
// every 9 ms and had requests waiting on each; at 1,024 it claims seven times a second.
const maxClaim = 1024

// claimAheadAt is how few numbers a full run may have left before the next is claimed in
// the background. Requests that found the run empty waited for the claim's round trip, and
// under load that round trip queued for a pooled connection behind the requests themselves:
// measured at 6,400 POST /auth a second, 2-3% of requests waited (the p99), a claim took 2
// ms and, in a bad second, 95 ms. Half a run is 70 ms of requests at 7,200 a second. Only
// full runs are claimed ahead: they are far from the limit, where numbers held unused at
// the end of the window refuse nobody.
const claimAheadAt = maxClaim / 2

// claimAheadTimeout bounds a claim made in the background, which no request waits for
// unless its run ran out first.
const claimAheadTimeout = 5 * time.Second

// claimSize is how many numbers to claim when the last claim saw the count at seen.
func claimSize(limit, seen int) int {
	return max(1, min(maxClaim, (limit-seen)/8))
}

// NewLimiter uses the given per-group limits (RateLimits when nil), counted in memory.
func NewLimiter(limits map[string]int) *Limiter {
	if limits == nil {
		limits = RateLimits
	}
	return &Limiter{now: time.Now, limits: limits, counts: map[limiterKey]int{}, claims: map[limiterKey]*claim{}}
}

// NewSharedLimiter counts with c, which replicas share (the database).
func NewSharedLimiter(limits map[string]int, c Counter) *Limiter {
	l := NewLimiter(limits)
	l.counter = c
	return l
}

// Limit is group's limit per minute, 0 for a group without one.
func (l *Limiter) Limit(group string) int { return l.limits[group] }

// Decision is the outcome of one request against a group's limit.
type Decision struct {
	Allowed bool
	Limit   int
	// Reset is the number of seconds until the window's counters reset (at least 1).
	Reset int
}

// Allow counts one request of ip against group. Groups without a limit always pass. A
// shared count that cannot be read lets the request through: the limit protects the
// service, which a failing counter must not take down with it (and a database that does not
// answer has the request refused by the database gate anyway).
func (l *Limiter) Allow(ctx context.Context, group, ip string) Decision {
	limit, ok := l.limits[group]
	if !ok {
		return Decision{Allowed: true}
	}
	k := limiterKey{group, ip}
	for {
		now := l.now()
		window := now.Truncate(time.Minute)
		reset := max(1, int(window.Add(time.Minute).Sub(now).Seconds()+0.999))
		l.mu.Lock()
		if window.After(l.window) {
			// A new minute: every counter starts again, and the maps do not grow forever.
			l.window = window
			l.counts = map[limiterKey]int{}
			l.claims = map[limiterKey]*claim{}
		}
		var n int
		if l.counter == nil {
			l.counts[k]++
			n = l.counts[k]
		} else {
			c := l.claims[k]
			if c == nil {
				c = &claim{}
				l.claims[k] = c
			}
			if c.cur.empty() && !c.ahead.empty() {
				c.cur, c.ahead = c.ahead, span{}
			}
			switch {
			case !c.cur.empty():
				n = c.cur.next
				c.cur.next++
				if c.cur.end-c.cur.next <= claimAheadAt && c.ahead.empty() && c.pending == nil && claimSize(limit, c.seen) == maxClaim {
					l.claimAhead(ctx, k, c, window)
				}
			case c.seen >= limit:
				// The count only grows within a window: every later number is past the limit,
				// so a flood of refused requests costs the store nothing.
				n = c.seen + 1
			case c.pending != nil:
				// Another request of this client is claiming: wait for its numbers rather
				// than claim beside it. Under load every request that found the run empty
				// claimed at once, a statement each, and only the last claim's numbers were
				// kept (measured: POST /auth at 6,400/s spent 4 µs of Go and 5 µs of
				// PostgreSQL a request on claims).
				f := c.pending
				f.waiting++
				l.mu.Unlock()
				select {
				case <-f.done:
					// A claim given up with its own request (a client that hung up) says
					// nothing about the store: the waiters claim again rather than pass
					// uncounted, or hanging up would open the limit to the others.
					if f.err != nil && ctx.Err() == nil && !errors.Is(f.err, context.Canceled) && !errors.Is(f.err, context.DeadlineExceeded) {
						return Decision{Allowed: true, Limit: limit, Reset: reset}
					}
				case <-ctx.Done():
					return Decision{Allowed: true, Limit: limit, Reset: reset}
				}
				continue
			default:
				size := claimSize(limit, c.seen)
				f := &flight{done: make(chan struct{})}
				c.pending = f
				l.mu.Unlock()
				total, err := l.counter(ctx, group, ip, window, size)
				l.mu.Lock()
				c.pending, f.err = nil, err
				close(f.done)
				if err != nil {
					l.mu.Unlock()
					return Decision{Allowed: true, Limit: limit, Reset: reset}
				}
				n = total - size + 1
				// A claim that outlived its minute belongs to a window already forgotten:
				// only its first number is used.
				if l.claims[k] == c && total > c.seen {
					c.cur, c.seen = span{n + 1, total + 1}, total
				}
			}
		}
		l.mu.Unlock()
		return Decision{Allowed: n <= limit, Limit: limit, Reset: reset}
	}
}

// claimAhead claims c's next full run in the background, with l.mu held: requests go on
// taking numbers from the current run meanwhile, and one that finds it empty before the
// claim returns waits for it as for any claim. The claim is the replica's, not the request's
// that started it: it goes on if that request ends. If it fails, the requests waiting on it
// pass as on any failed claim, and the next request that finds the run empty claims again.
func (l *Limiter) claimAhead(ctx context.Context, k limiterKey, c *claim, window time.Time) {
	f := &flight{done: make(chan struct{})}
	c.pending = f
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimAheadTimeout)
	go func() {
		defer cancel()
		total, err := l.counter(ctx, k.group, k.ip, window, maxClaim)
		l.mu.Lock()
		defer l.mu.Unlock()
		c.pending, f.err = nil, err
		close(f.done)
		if err == nil && l.claims[k] == c && total > c.seen {
			c.ahead, c.seen = span{total - maxClaim + 1, total + 1}, total
		}
	}()
}
