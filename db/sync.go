package db

import (
	"context"
	"hash/fnv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// The sync engine's coordination: who works an execution, which executions stalled, which
// items are due for an automatic sync, and one client's item creations in turn.

// executionLockKey is the advisory-lock key of an execution.
func executionLockKey(id uuid.UUID) int64 {
	h := fnv.New64a()
	_, _ = h.Write(id[:])
	return int64(h.Sum64())
}

// ClaimExecution takes execution id's session-level advisory lock on a connection of its
// own, held until release is called, and released by PostgreSQL if the process dies: a
// rescued copy of a job therefore never runs beside the original. ok is false when
// another process works the execution. (Tx.LockExecution is the row lock of one step.)
func (d *DB) ClaimExecution(ctx context.Context, id uuid.UUID) (release func(), ok bool, err error) {
	c, err := d.Pool.Acquire(ctx)
	if err != nil {
		return nil, false, err
	}
	key := executionLockKey(id)
	if err := c.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&ok); err != nil || !ok {
		c.Release()
		return nil, false, err
	}
	return func() {
		// The unlock must run even when the work's context ended, or the pooled connection
		// would keep the lock.
		_, _ = c.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, key)
		c.Release()
	}, true, nil
}

// ExecutionClaimed reports whether a process works execution id (see ClaimExecution),
// taking and dropping the claim in one statement when none does.
func (c *conn) ExecutionClaimed(ctx context.Context, id uuid.UUID) (bool, error) {
	var free bool
	err := c.pg.QueryRow(ctx, `SELECT pg_try_advisory_lock($1) AND pg_advisory_unlock($1)`, executionLockKey(id)).Scan(&free)
	return !free, err
}

// StalledExecutions lists up to limit unfinished executions, not waiting for the user,
// whose item has not moved since before. An item on a test clock is dated in clock time,
// which says nothing of a stall: River's own rescue resumes its executions.
func (c *conn) StalledExecutions(ctx context.Context, before time.Time, limit int) ([]uuid.UUID, error) {
	rows, err := c.pg.Query(ctx, `SELECT e.id FROM executions e JOIN items i ON i.execution_id = e.id
		WHERE e.finished_at IS NULL AND e.status NOT IN ('WAITING_USER_INPUT', 'WAITING_USER_ACTION')
		AND i.updated_at < $1 AND i.test_clock_id IS NULL LIMIT $2`, before, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
}

// LockDueAutoSyncs takes, for the rest of tx, up to limit items whose automatic sync is
// due at now, earliest first; items another transaction holds are skipped, so concurrent
// workers share the batch. Items on a test clock are left to the clock's advance
// (LockClockAutoSyncs).
func (tx *Tx) LockDueAutoSyncs(ctx context.Context, now time.Time, limit int) ([]*ItemRow, error) {
	var due []*ItemRow
	err := tx.bun.NewSelect().Model(&due).
		Where("i.next_auto_sync_at <= ?", now).
		Where("i.status IN (?, ?)", model.ItemUpdated, model.ItemOutdated).
		Where("i.test_clock_id IS NULL").
		OrderExpr("i.next_auto_sync_at").Limit(int64(limit)).For("UPDATE SKIP LOCKED").Scan(ctx)
	return due, err
}

// SetNextAutoSync sets when an item's automatic sync is next due.
func (c *conn) SetNextAutoSync(ctx context.Context, itemID uuid.UUID, at time.Time) error {
	_, err := c.pg.Exec(ctx, `UPDATE items SET next_auto_sync_at = $2 WHERE id = $1`, itemID, at)
	return err
}

// LockClientItems makes tx the only one creating clientID's items until it ends, so the
// per-client cap and the duplicate check hold.
func (tx *Tx) LockClientItems(ctx context.Context, clientID uuid.UUID) error {
	_, err := tx.pg.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1::text))`, clientID.String())
	return err
}
