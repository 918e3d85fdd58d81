package auth

import (
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

// Limiter counts requests in fixed one-minute windows, per group and client IP. It is kept
// in memory: each replica counts on its own, which bounds a client at most N times the
// limit across N replicas; a shared counter would cost a database write per request.
type Limiter struct {
	mu     sync.Mutex
	now    func() time.Time
	limits map[string]int
	window time.Time
	counts map[limiterKey]int
}

type limiterKey struct{ group, ip string }

// NewLimiter uses the given per-group limits (RateLimits when nil).
func NewLimiter(limits map[string]int) *Limiter {
	if limits == nil {
		limits = RateLimits
	}
	return &Limiter{now: time.Now, limits: limits, counts: map[limiterKey]int{}}
}

// Decision is the outcome of one request against a group's limit.
type Decision struct {
	Allowed bool
	Limit   int
	// Reset is the number of seconds until the window's counters reset (at least 1).
	Reset int
}

// Allow counts one request of ip against group. Groups without a limit always pass.
func (l *Limiter) Allow(group, ip string) Decision {
	limit, ok := l.limits[group]
	if !ok {
		return Decision{Allowed: true}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	window := now.Truncate(time.Minute)
	if !window.Equal(l.window) {
		// A new minute: every counter starts again, and the map does not grow forever.
		l.window = window
		l.counts = map[limiterKey]int{}
	}
	k := limiterKey{group, ip}
	l.counts[k]++
	reset := int(window.Add(time.Minute).Sub(now).Seconds() + 0.999)
	if reset < 1 {
		reset = 1
	}
	return Decision{Allowed: l.counts[k] <= limit, Limit: limit, Reset: reset}
}
