// Package faults is the sandbox's fault injection, for a client application's own
// resilience tests: per application and route, a probability of a 5xx, of a 429 with the
// rate limit's headers, or of added latency, applied to that application's requests made
// with its API key and to no one else's. Rules are stored in PostgreSQL, so every replica
// applies the same ones, and each replica keeps all of them in memory for a few seconds:
// they change rarely, and a request must not cost a statement to learn it has none.
package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/metrics"
	"ponte/model"
)

// Config tunes the engine.
type Config struct {
	// CacheFor is how long a replica applies the rules it read before reading them again:
	// how long another replica's change may take to reach it. A change is applied at once
	// by the replica that made it.
	CacheFor time.Duration
}

// DefaultConfig caches for five seconds.
func DefaultConfig() Config { return Config{CacheFor: 5 * time.Second} }

// Engine keeps the rules and draws each request's faults.
type Engine struct {
	db   *db.DB
	log  *slog.Logger
	cfg  Config
	now  func() time.Time
	roll func() float64 // uniform in [0, 1)

	routes atomic.Pointer[map[string]bool]
	snap   atomic.Pointer[snapshot]
	// reading serializes refreshes and the writes of this replica, so a refresh that read
	// the store before a write committed cannot store its older view over the write's.
	reading sync.Mutex
}

// snapshot is every application's rules as read at one time.
type snapshot struct {
	at   time.Time
	sets map[uuid.UUID]*set
}

// New builds an engine over the store.
func New(store *db.DB, cfg Config, log *slog.Logger) *Engine {
	if cfg.CacheFor <= 0 {
		cfg.CacheFor = DefaultConfig().CacheFor
	}
	return &Engine{db: store, log: log, cfg: cfg, now: time.Now, roll: rand.Float64}
}

// KnowRoutes gives the route table ("METHOD pattern"; "*" as the method of a route served
// for every method) against which rules' routes are checked.
func (e *Engine) KnowRoutes(routes []string) {
	m := make(map[string]bool, len(routes))
	for _, r := range routes {
		m[r] = true
	}
	e.routes.Store(&m)
}

// Faults is the calling application's rule list, as stored.
func (e *Engine) Faults(ctx context.Context) ([]model.SandboxFault, error) {
	p, err := auth.Require(ctx, auth.ControlSandbox)
	if err != nil {
		return nil, err
	}
	raw, err := e.db.SandboxFaults(ctx, p.ClientID)
	if err != nil {
		return nil, err
	}
	return decode(raw)
}

// SetFaults replaces the calling application's rules with faults (none: no faults), and
// applies them on this replica at once; the others apply them within Config.CacheFor.
func (e *Engine) SetFaults(ctx context.Context, faults []*model.SandboxFault) ([]model.SandboxFault, error) {
	p, err := auth.Require(ctx, auth.ControlSandbox)
	if err != nil {
		return nil, err
	}
	var known map[string]bool
	if m := e.routes.Load(); m != nil {
		known = *m
	}
	rules, err := check(faults, known)
	if err != nil {
		return nil, err
	}
	var raw []byte
	if len(rules) > 0 {
		if raw, err = json.Marshal(rules); err != nil {
			return nil, fmt.Errorf("encode fault rules: %w", err)
		}
	}
	if err := e.db.SetSandboxFaults(ctx, p.ClientID, raw, e.now()); err != nil {
		return nil, err
	}
	e.reading.Lock()
	if s := e.snap.Load(); s != nil {
		next := &snapshot{at: s.at, sets: make(map[uuid.UUID]*set, len(s.sets)+1)}
		for id, v := range s.sets {
			next.sets[id] = v
		}
		if c := compile(rules); c != nil {
			next.sets[p.ClientID] = c
		} else {
			delete(next.sets, p.ClientID)
		}
		e.snap.Store(next)
	}
	e.reading.Unlock()
	e.log.InfoContext(ctx, "sandbox fault rules set", "client", p.ClientID, "rules", len(rules))
	return rules, nil
}

// Forget drops client's rules from this replica's memory at once, after something other
// than SetFaults removed them from the store (the clean slate, DELETE /sandbox/client);
// the other replicas drop them within Config.CacheFor, as after any change.
func (e *Engine) Forget(client uuid.UUID) {
	e.reading.Lock()
	defer e.reading.Unlock()
	s := e.snap.Load()
	if s == nil || s.sets[client] == nil {
		return
	}
	next := &snapshot{at: s.at, sets: make(map[uuid.UUID]*set, len(s.sets))}
	for id, v := range s.sets {
		if id != client {
			next.sets[id] = v
		}
	}
	e.snap.Store(next)
}

// Active reports whether client has rules: the one question every request with an API key
// asks, answered from memory. The request that finds the memory older than
// Config.CacheFor reads the store for everyone; requests meanwhile use what was read before.
func (e *Engine) Active(client uuid.UUID) bool {
	return e.current().sets[client] != nil
}

// Draw is what client's rules do to one request on route ("GET /accounts/{id}"): each of
// the route's rules (its own, else "*"'s) is drawn on its own, latency first; a request
// the 429 falls on is not drawn for a 5xx. Every fault drawn is counted in
// ponte_injected_faults_total.
func (e *Engine) Draw(client uuid.UUID, route string) model.InjectedFault {
	var out model.InjectedFault
	s := e.current().sets[client]
	if s == nil {
		return out
	}
	k := s.rules(route)
	if r := k.latency; r != nil && e.hit(r.Probability) {
		out.Delay = time.Duration(*r.LatencyMs) * time.Millisecond
		metrics.InjectedFaults.WithLabelValues(string(r.Kind), route).Inc()
	}
	if r := k.rateLimit; r != nil && e.hit(r.Probability) {
		out.Status = 429
		metrics.InjectedFaults.WithLabelValues(string(r.Kind), route).Inc()
	} else if r := k.serverError; r != nil && e.hit(r.Probability) {
		out.Status = *r.Status
		metrics.InjectedFaults.WithLabelValues(string(r.Kind), route).Inc()
	}
	return out
}

func (e *Engine) hit(p float64) bool {
	switch {
	case p >= 1:
		return true
	case p <= 0:
		return false
	}
	return e.roll() < p
}

// refreshTimeout bounds the read of every application's rules. It runs apart from the
// request that found the memory stale: its answer serves every request after it, and a
// GraphQL operation's statement count is not its to bear.
const refreshTimeout = 2 * time.Second

// current is the rules in memory, read again first when they are older than CacheFor. A
// read that fails keeps the rules read before (none, at first) until the next try, one
// CacheFor later: fault injection never fails a request of its own.
func (e *Engine) current() *snapshot {
	s := e.snap.Load()
	if s != nil && e.now().Sub(s.at) < e.cfg.CacheFor {
		return s
	}
	if s != nil {
		if !e.reading.TryLock() {
			return s // another request is reading
		}
	} else {
		e.reading.Lock()
	}
	defer e.reading.Unlock()
	if s2 := e.snap.Load(); s2 != s && s2 != nil && e.now().Sub(s2.at) < e.cfg.CacheFor {
		return s2 // read while this one waited
	}
	ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
	defer cancel()
	next := &snapshot{at: e.now(), sets: map[uuid.UUID]*set{}}
	list, err := e.db.AllSandboxFaults(ctx)
	if err != nil {
		e.log.Warn("read sandbox fault rules", "err", err)
		if s != nil {
			next.sets = s.sets
		}
	}
	for _, c := range list {
		rules, err := decode(c.Rules)
		if err != nil {
			e.log.Error("stored sandbox fault rules", "client", c.ClientID, "err", err)
			continue
		}
		if compiled := compile(rules); compiled != nil {
			next.sets[c.ClientID] = compiled
		}
	}
	e.snap.Store(next)
	return next
}

func decode(raw []byte) ([]model.SandboxFault, error) {
	rules := []model.SandboxFault{}
	if raw == nil {
		return rules, nil
	}
	if err := json.Unmarshal(raw, &rules); err != nil {
		return nil, fmt.Errorf("decode stored fault rules: %w", err)
	}
	return rules, nil
}
