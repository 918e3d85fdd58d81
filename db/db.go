// Package db is the PostgreSQL layer: the private cluster, migrations, and every statement
// the service runs. Nothing outside it writes SQL except the test harness (testsupport),
// which clones each test's database and lets tests arrange states; TestStatementsLiveInDB
// keeps that true.
//
// A statement is a method of the connection it runs on, so no caller passes a connection:
// *DB's methods run on the pool (one that needs several statements to commit together
// opens its own transaction); *Tx's run inside the transaction DB.InTx opened, and commit
// or roll back with everything else done there (events, deliveries, and jobs, which River
// inserts through Tx.PGX). A read needed on
// both sides is declared once on conn, which both embed: store.PaymentIntent and
// tx.PaymentIntent are one function. This rather than a connection argument because the
// type then says which statements need a transaction (row locks, writes that must commit
// with their events), which an argument taking either cannot, and because most statements
// already were methods.
//
// Rows are read with pgx.CollectRows (bun's Scan for bun's models), never a hand-written
// rows.Next loop: the helper closes the rows and reports their error on every path
// (TestRowsCollected).
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// DB is the store: one pgx pool, with bun on top of it through pgx's database/sql adapter, so
// job queues on the pool and bun queries share connections and transactions.
type DB struct {
	conn
	// Pool is for the job queue (River) and tests; statements are DB's methods.
	Pool *pgxpool.Pool
	// bdb is bun's handle, for what only it does: connections for InTx, and closing.
	bdb *bun.DB
	// OnEvent, when set, turns each recorded event into its webhook deliveries in the
	// same transaction (the outbox's fan-out).
	OnEvent EventHook

	mon *monitor
	// replica takes pure reads of read-only requests (replica.go); nil: all on the pool.
	replica *replica
	// lists caches account lists read from the primary (accountlists.go); nil on a
	// replica's Reader.
	lists *accountLists
}

// Open connects to url with no limits beyond pgx's own: for tools and tests.
func Open(ctx context.Context, url string) (*DB, error) { return OpenWith(ctx, url, Limits{}) }

// OpenWith connects to url under l. The pool is sized for a 2-core machine serving many
// short queries.
func OpenWith(ctx context.Context, url string, l Limits) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	// Job workers (up to 10, two connections each) and requests share the pool.
	if cfg.MaxConns < 40 {
		cfg.MaxConns = 40
	}
	cfg.ConnConfig.Tracer = statementTracer{}
	l.applyTo(cfg.ConnConfig)
	conns, limit := newConnSet(), newStatementLimit()
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		// Without this pgx passes a uuid.UUID through its driver.Valuer: the string form,
		// a failed binary encode (an error built and dropped), then a parse back, 19
		// allocations per parameter; scans parsed the string form too (TestUUIDParameters).
		registerUUID(c.TypeMap())
		if l.Monitor {
			return conns.add(ctx, c)
		}
		return nil
	}
	if l.StatementTimeout > 0 {
		cfg.PrepareConn = limit.prepare
	}
	cfg.BeforeClose = func(c *pgx.Conn) {
		conns.remove(c)
		limit.forget(c)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	var connector driver.Connector = stdlib.GetPoolConnector(pool)
	if l.AcquireTimeout > 0 {
		connector = acquireLimit{Connector: connector, timeout: l.AcquireTimeout}
	}
	// As stdlib.OpenDBFromPool: the pgx pool keeps the idle connections, not database/sql.
	sqldb := sql.OpenDB(connector)
	sqldb.SetMaxIdleConns(0)
	bdb := bun.NewDB(sqldb, pgdialect.New())
	d := &DB{conn: conn{pg: pool, bun: bdb}, Pool: pool, bdb: bdb, lists: newAccountLists()}
	if l.Monitor {
		d.mon = startMonitor(cfg.ConnConfig, l.Log, func() {
			n := conns.breakAll()
			pool.Reset()
			if l.Log != nil {
				l.Log.Warn("broke the open database connections", "count", n)
			}
		})
	}
	return d, nil
}

// Close releases every connection.
func (d *DB) Close() {
	if d.mon != nil {
		d.mon.close()
	}
	if d.replica != nil {
		d.replica.close()
	}
	_ = d.bdb.Close()
	d.Pool.Close()
}

// isNoRows reports a query that found nothing.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows) }

// pgCode returns the SQLSTATE of a PostgreSQL error, or "".
func pgCode(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

const sqlstateUniqueViolation = "23505"
