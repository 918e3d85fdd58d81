package db

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// CollectDocs is collectDocs, for the external tests.
var CollectDocs = collectDocs

// TransactionPageQuery is the statement of TransactionPage and its arguments.
var TransactionPageQuery = transactionPageQuery

// WithUnreachableReplica is d as Reader returns it with a replica attached whose every
// read fails as a stopped standby's does (its pool is closed), and that replica's down.
func WithUnreachableReplica(ctx context.Context, d *DB) (reader *DB, down func() bool, err error) {
	pool, err := pgxpool.NewWithConfig(ctx, d.Pool.Config())
	if err != nil {
		return nil, nil, err
	}
	pool.Close()
	r := &replica{store: &DB{Pool: pool}, opts: ReplicaOptions{Retry: time.Minute}}
	return &DB{conn: conn{pg: fallback{replica: r, primary: d.pg}, bun: d.bun}, Pool: d.Pool, bdb: d.bdb}, r.down, nil
}
