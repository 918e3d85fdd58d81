package db

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Some reads have one best plan whatever their arguments. An account's transaction page
// is the (account_id, date, id) index of its item's partition, read in order up to the
// limit (TestTransactionPagePlan). PostgreSQL still planned it afresh on every call: after
// its first five calls it keeps a generic plan only if that looks no dearer than the plans
// it made for the actual values, and for an account with more rows than its partition's
// average the custom plan's estimate is lower, for the same plan. Under load (the
// dashboard at 1,600 requests a second) that planning was about 40 µs of PostgreSQL's CPU
// per request, a sixth of it. The reads ask for a generic plan on an item's leaf only
// (leaves.go): on the parent, a generic plan locks every partition before pruning them.
//
// plan_cache_mode can only be set for a session or a transaction. queryGenericPlan sends
// set_config(..., is_local) and the statement in one pipeline closed by one Sync: both run
// in the implicit transaction that the Sync ends, so the setting holds for this statement
// alone and costs no round trip. Inside a Tx the statement runs as it is, since the
// setting would last until that transaction ends.
const genericPlanSQL = `SELECT set_config('plan_cache_mode', 'force_generic_plan', true)`

// queryGenericPlan runs a read of sql under a generic plan (see above). Its rows are read
// and closed as a Query's are.
func (c *conn) queryGenericPlan(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	switch q := c.pg.(type) {
	case *pgxpool.Pool:
		return genericPlanRows(ctx, q, sql, args)
	case fallback:
		rows, err := genericPlanRows(ctx, q.replica.store.Pool, sql, args)
		if replicaFault(ctx, err) {
			q.replica.failed(err)
			return q.primary.Query(ctx, sql, args...)
		}
		return rows, err
	default:
		return c.pg.Query(ctx, sql, args...)
	}
}

func genericPlanRows(ctx context.Context, pool *pgxpool.Pool, sql string, args []any) (pgx.Rows, error) {
	var b pgx.Batch
	b.Queue(genericPlanSQL)
	b.Queue(sql, args...)
	br := pool.SendBatch(ctx, &b)
	if _, err := br.Exec(); err != nil {
		_ = br.Close()
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		_ = br.Close()
		return nil, err
	}
	return batchRows{Rows: rows, batch: br}, nil
}

// batchRows are the rows of a batch's last statement: closing them closes the batch, which
// gives its connection back to the pool. An error the batch reports after rows read whole
// is the end of a read's implicit transaction, and the rows stand.
type batchRows struct {
	pgx.Rows
	batch pgx.BatchResults
}

func (r batchRows) Close() {
	r.Rows.Close()
	_ = r.batch.Close()
}
