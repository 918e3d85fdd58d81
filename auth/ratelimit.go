package auth

import (
	"context"
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
}

// Counter adds one request to the shared count of group and ip in the window starting at
// window, and returns the count so far.
type Counter func(ctx context.Context, group, ip string, window time.Time) (int, error)

type limiterKey struct{ group, ip string }

// NewLimiter uses the given per-group limits (RateLimits when nil), counted in memory.
func NewLimiter(limits map[string]int) *Limiter {
	if limits == nil {
		limits = RateLimits
	}
	return &Limiter{now: time.Now, limits: limits, counts: map[limiterKey]int{}}
}

// NewSharedLimiter counts with c, which replicas share (the database).
func NewSharedLimiter(limits map[string]int, c Counter) *Limiter {
	l := NewLimiter(limits)
	l.counter = c
	return l
}

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
	now := l.now()
	window := now.Truncate(time.Minute)
	reset := int(window.Add(time.Minute).Sub(now).Seconds() + 0.999)
	if reset < 1 {
		reset = 1
	}
	var n int
	if l.counter != nil {
		var err error
		if n, err = l.counter(ctx, group, ip, window); err != nil {
			return Decision{Allowed: true, Limit: limit, Reset: reset}
		}
	} else {
		l.mu.Lock()
		if !window.Equal(l.window) {
			// A new minute: every counter starts again, and the map does not grow forever.
			l.window = window
			l.counts = map[limiterKey]int{}
		}
		k := limiterKey{group, ip}
		l.counts[k]++
		n = l.counts[k]
		l.mu.Unlock()
	}
	return Decision{Allowed: n <= limit, Limit: limit, Reset: reset}
}
