package auth

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// enabledCache keeps clients' enabled flags so a request need not read one: it is trusted
// only while Listen holds a session listening for changes, which drops the entry of every
// changed client before acknowledging the change to its writer. Without a listener (an
// operator command, a lost connection) every check reads the database.
type enabledCache struct {
	mu   sync.RWMutex // every request reads; writes come with Listen's notices
	m    map[uuid.UUID]bool
	live bool
	// gen counts invalidations: a value read from the database before one must not be
	// stored after it, or a change could be lost between the read and the store.
	gen uint64
}

func newEnabledCache() *enabledCache { return &enabledCache{m: map[uuid.UUID]bool{}} }

// get returns the cached flag, and the generation to hand to put after a database read.
func (c *enabledCache) get(id uuid.UUID) (enabled, ok bool, gen uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if !c.live {
		return false, false, c.gen
	}
	enabled, ok = c.m[id]
	return enabled, ok, c.gen
}

func (c *enabledCache) put(id uuid.UUID, enabled bool, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || gen != c.gen {
		return
	}
	if len(c.m) > 10_000 {
		clear(c.m)
	}
	c.m[id] = enabled
}

func (c *enabledCache) forget(id uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.m, id)
}

// setLive starts or stops trusting the cache; either way what it held may be stale.
func (c *enabledCache) setLive(live bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.m)
	c.live = live
}

// Listen keeps the enabled cache honest until ctx ends: it listens for changes of clients'
// enabled flags (a trigger announces every change in its own transaction) and drops each
// changed client before acknowledging, so `ponte clients disable` returns only once every
// listening process refuses the client's keys. While the session is down it reconnects
// with back-off and the cache is not used. Run it once per process.
func (s *Service) Listen(ctx context.Context, log *slog.Logger) {
	const minWait, maxWait = 100 * time.Millisecond, 5 * time.Second
	wait := minWait
	for ctx.Err() == nil {
		l, err := s.db.ListenClients(ctx)
		if err != nil {
			if ctx.Err() == nil {
				log.Warn("client change listener cannot connect; checking clients in the database on every request", "retryIn", wait, "err", err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
			wait = min(2*wait, maxWait)
			continue
		}
		wait = minWait
		s.enabled.setLive(true)
		for {
			payload, err := l.Next(ctx)
			if err != nil {
				if ctx.Err() == nil {
					log.Warn("client change listener lost its connection", "err", err)
				}
				break
			}
			head, _, _ := strings.Cut(payload, ":")
			if id, err := uuid.Parse(head); err == nil {
				s.enabled.forget(id)
			} else {
				s.enabled.setLive(true) // not ours to read: forget everything
			}
			if err := l.Ack(ctx, payload); err != nil {
				break
			}
		}
		s.enabled.setLive(false)
		l.Close()
	}
}

// Listening reports whether Listen holds its session, so the enabled cache is in use.
func (s *Service) Listening() bool {
	s.enabled.mu.Lock()
	defer s.enabled.mu.Unlock()
	return s.enabled.live
}
