// Package db is the PostgreSQL layer: the private cluster, migrations, and every query the
// resolvers need. Nothing outside it writes SQL.
package db

import (
	"context"
	"database/sql"
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
	Pool *pgxpool.Pool
	Bun  *bun.DB
	// OnEvent, when set, turns each recorded event into its webhook deliveries in the
	// same transaction (the outbox's fan-out).
	OnEvent EventHook
}

// Open connects to url. The pool is sized for a 2-core machine serving many short queries.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	// Job workers (up to 10, two connections each) and requests share the pool.
	if cfg.MaxConns < 40 {
		cfg.MaxConns = 40
	}
	cfg.ConnConfig.Tracer = statementTracer{}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	sqldb := stdlib.OpenDBFromPool(pool)
	return &DB{Pool: pool, Bun: bun.NewDB(sqldb, pgdialect.New())}, nil
}

// Close releases every connection.
func (d *DB) Close() {
	_ = d.Bun.Close()
	d.Pool.Close()
}

// Tx runs fn in a transaction, committing when it returns nil.
func (d *DB) Tx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	return d.Bun.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return fn(ctx, tx) })
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
