package db

import (
	"context"
	"database/sql/driver"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Limits bound how long database work may wait, so that a database that is frozen or gone
// costs a request seconds, not minutes. The zero value keeps pgx's own behaviour (tools and
// tests); the service sets every field.
type Limits struct {
	// ConnectTimeout bounds opening one connection, start-up handshake included: a frozen
	// server accepts the socket and never answers.
	ConnectTimeout time.Duration
	// AcquireTimeout bounds a request's wait for a pooled connection on bun's path; the
	// pgx pool's direct users and LongRunning work wait on their own deadlines.
	AcquireTimeout time.Duration
	// StatementTimeout is PostgreSQL's statement_timeout for requests: the server cancels a
	// statement running longer (a lock held by a stuck session, a runaway query). It is set
	// at connection start-up; work under LongRunning contexts runs without it.
	StatementTimeout time.Duration
	// Monitor probes the database in the background (see Available); when it stops
	// answering, every open connection is broken so that waiting work fails at once.
	Monitor bool
	// Log receives the monitor's reports; nil discards them.
	Log *slog.Logger
}

// applyTo sets the connection-level limits on a pool's configuration. A statement_timeout
// already in the URL is the operator's and wins.
func (l Limits) applyTo(cfg *pgx.ConnConfig) {
	if l.ConnectTimeout > 0 {
		cfg.ConnectTimeout = l.ConnectTimeout
	}
	if l.StatementTimeout > 0 {
		if _, set := cfg.RuntimeParams["statement_timeout"]; !set {
			cfg.RuntimeParams["statement_timeout"] = strconv.FormatInt(max(1, l.StatementTimeout.Milliseconds()), 10)
		}
	}
}

type longRunningKey struct{}

// LongRunning marks ctx as background work (the job queue's own queries and its jobs,
// sweeps, migrations) that runs without the statement time-out and the acquire time-out: a
// sync's bulk ingest of millions of rows, or the queue's maintenance of a large job table,
// takes longer than any request should, and is bounded by its job's time-out instead.
func LongRunning(ctx context.Context) context.Context {
	return context.WithValue(ctx, longRunningKey{}, true)
}

func isLongRunning(ctx context.Context) bool { return ctx.Value(longRunningKey{}) != nil }

// statementLimit keeps each pooled connection's statement_timeout matched to the work that
// acquires it (pgxpool's PrepareConn): requests get the limit set at connection start-up,
// LongRunning work gets none. A connection pays one round trip when it changes sides.
type statementLimit struct {
	mu     sync.Mutex
	lifted map[*pgx.Conn]bool
}

func newStatementLimit() *statementLimit { return &statementLimit{lifted: map[*pgx.Conn]bool{}} }

func (s *statementLimit) prepare(ctx context.Context, c *pgx.Conn) (bool, error) {
	want := isLongRunning(ctx)
	s.mu.Lock()
	lifted := s.lifted[c]
	s.mu.Unlock()
	if lifted == want {
		return true, nil
	}
	// RESET returns to the value the connection started with.
	stmt := "RESET statement_timeout"
	if want {
		stmt = "SET statement_timeout = 0"
	}
	if _, err := c.Exec(ctx, stmt); err != nil {
		return false, err
	}
	s.mu.Lock()
	s.lifted[c] = want
	s.mu.Unlock()
	return true, nil
}

func (s *statementLimit) forget(c *pgx.Conn) {
	s.mu.Lock()
	delete(s.lifted, c)
	s.mu.Unlock()
}

// acquireLimit bounds database/sql's wait for a connection, except for LongRunning work.
// With no idle connections kept by database/sql (see OpenWith), every bun statement outside
// a transaction, and every transaction, acquires from the pgx pool through Connect.
type acquireLimit struct {
	driver.Connector
	timeout time.Duration
}

func (c acquireLimit) Connect(ctx context.Context) (driver.Conn, error) {
	if isLongRunning(ctx) {
		return c.Connector.Connect(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return c.Connector.Connect(ctx)
}

// connSet tracks the pool's open connections so that an outage can break them all: pgx
// waits on a frozen server's socket until its context ends, and work of the job queue has
// long contexts. Closing the socket is the one thing safe to do to a connection another
// goroutine is using; pgx then fails the statement and the pool discards the connection.
type connSet struct {
	mu sync.Mutex
	m  map[*pgx.Conn]struct{}
}

func newConnSet() *connSet { return &connSet{m: map[*pgx.Conn]struct{}{}} }

func (s *connSet) add(_ context.Context, c *pgx.Conn) error {
	s.mu.Lock()
	s.m[c] = struct{}{}
	s.mu.Unlock()
	return nil
}

func (s *connSet) remove(c *pgx.Conn) {
	s.mu.Lock()
	delete(s.m, c)
	s.mu.Unlock()
}

func (s *connSet) breakAll() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.m {
		_ = c.PgConn().Conn().Close()
	}
	return len(s.m)
}
