package auth

import (
	"sync"
	"time"

	"github.com/google/uuid"
)

// enabledTTL bounds how long a disabled client's existing keys keep working in a replica
// that did not make the change.
const enabledTTL = 5 * time.Second

type enabledEntry struct {
	enabled bool
	at      time.Time
}

type enabledCache struct {
	mu sync.Mutex
	m  map[uuid.UUID]enabledEntry
}

func newEnabledCache() *enabledCache { return &enabledCache{m: map[uuid.UUID]enabledEntry{}} }

func (c *enabledCache) get(id uuid.UUID, now time.Time) (bool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok || now.Sub(e.at) > enabledTTL {
		return false, false
	}
	return e.enabled, true
}

func (c *enabledCache) put(id uuid.UUID, enabled bool, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) > 10_000 {
		clear(c.m)
	}
	c.m[id] = enabledEntry{enabled, now}
}

func (c *enabledCache) forget(id uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}
