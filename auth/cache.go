package auth

import (
	"context"
	"log/slog"
	"strings"
	"sync"

	"github.com/google/uuid"

	"ponte/db"
)

// clientCache keeps what requests need of a client application, so a request need not
// read it: the enabled flag and credential generation every authenticated request checks,
// and the stored secret hash every POST /auth checks. It is trusted only while Listen holds a session listening for
// changes, which drops the entry of every changed client before acknowledging the change
// to its writer. Without a listener (an operator command, a lost connection) every check
// reads the database.
type clientCache struct {
	mu   sync.RWMutex // every request reads; writes come with Listen's notices
	m    map[uuid.UUID]clientEntry
	live bool
	// gen counts invalidations: a value read from the database before one must not be
	// stored after it, or a change could be lost between the read and the store.
	gen uint64
}

// clientEntry is one client's cached row. An entry read for the enabled flag alone has no
// hash; POST /auth then reads the row and stores it whole.
type clientEntry struct {
	enabled bool
	gone    bool // no such client: its credentials are not valid, rather than disabled
	// generation is the client's credential generation: credentials issued under an older
	// one are refused. It changes only with the flag or the hash, or with a notice of its own.
	generation int64
	hash       string // the stored secret hash, "" when not read
	// rehash is NeedsRehash(hash), worked out once: it parses the hash's parameters, which
	// was 2 µs of every POST /auth.
	rehash bool
}

func newClientCache() *clientCache { return &clientCache{m: map[uuid.UUID]clientEntry{}} }

// get returns the cached entry, and the generation to hand to put after a database read.
func (c *clientCache) get(id uuid.UUID) (e clientEntry, ok bool, gen uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if !c.live {
		return clientEntry{}, false, c.gen
	}
	e, ok = c.m[id]
	return e, ok, c.gen
}

func (c *clientCache) put(id uuid.UUID, e clientEntry, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || gen != c.gen {
		return
	}
	// Both were read since the last invalidation, so they agree: keep the one that has more.
	if old, ok := c.m[id]; ok && e.hash == "" && old.hash != "" {
		return
	}
	if len(c.m) > 10_000 {
		clear(c.m)
	}
	c.m[id] = e
}

func (c *clientCache) forget(id uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.m, id)
}

// setLive starts or stops trusting the cache; either way what it held may be stale.
func (c *clientCache) setLive(live bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.m)
	c.live = live
}

// Listen keeps the client cache honest until ctx ends: it listens for changes of clients'
// enabled flags and secret hashes (a trigger announces every change in its own
// transaction) and drops each changed client before acknowledging, so `ponte clients
// disable` returns only once every listening process refuses the client's keys. While
// the session is down it reconnects with back-off and the cache is not used. Run it once
// per process.
func (s *Service) Listen(ctx context.Context, log *slog.Logger) {
	db.KeepListening(ctx, log, "client change listener", "checking clients in the database on every request",
		s.db.ListenClients, s.takeChanges)
}

// takeChanges trusts the client cache while l's session takes its notices.
func (s *Service) takeChanges(ctx context.Context, l *db.ClientListener) error {
	s.clients.setLive(true)
	defer func() {
		s.clients.setLive(false)
		l.Close()
	}()
	for {
		channel, payload, err := l.Next(ctx)
		if err != nil {
			return err
		}
		if channel == db.OriginIssuedChannel {
			s.forgetOrigin(&payload) // no acknowledgement: nobody waits for one
			continue
		}
		head, _, _ := strings.Cut(payload, ":")
		if id, err := uuid.Parse(head); err == nil {
			s.clients.forget(id)
		} else {
			s.clients.setLive(true) // not ours to read: forget everything
		}
		if err := l.Ack(ctx, payload); err != nil {
			return err
		}
	}
}

// Listening reports whether Listen holds its session, so the client cache is in use.
func (s *Service) Listening() bool {
	s.clients.mu.Lock()
	defer s.clients.mu.Unlock()
	return s.clients.live
}
