package db

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// The data changes of sandbox control (transactions, bills, investments) share one store
// shape: a table holding the latest change of each resource of an item as the client sees
// it (change, JSON), a revision naming the stored version, and the execution that collected
// it (applied_execution_id, applied_at). Each kind is a ChangeQueue, its statements the
// queue's methods.

// ChangeQueue is where one kind of change is stored and how its row is keyed.
type ChangeQueue[C any] struct {
	table string
	// key is the column naming the changed resource: unique with item_id, and the order
	// of changes asked for at the same instant.
	key string
	// cols are the columns an insert fills before change and revision; values gives
	// them, in that order, for a change.
	cols   []string
	values func(*C) []any
	// stamps are the fields the store sets and reads apart from the JSON.
	stamps func(*C) (requestedAt *model.Time, appliedAt **model.Time, revision *uuid.UUID)
}

// requestedAt and appliedAt come from the row's columns, not the JSON.
const changeCols = `change || jsonb_build_object('requestedAt', to_jsonb(created_at), 'appliedAt', to_jsonb(applied_at))`

// Reader is where a read runs: the store (*DB) or a transaction (*Tx).
type Reader interface{ querier() querier }

func (c *conn) querier() querier { return c.pg }

// List reads an item's changes, oldest first.
func (k *ChangeQueue[C]) List(ctx context.Context, r Reader, itemID uuid.UUID) ([]C, error) {
	rows, err := r.querier().Query(ctx, `SELECT `+changeCols+`, revision FROM `+k.table+` WHERE item_id = $1 ORDER BY created_at, `+k.key, itemID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (C, error) {
		var ch C
		_, _, rev := k.stamps(&ch)
		err := row.Scan(&ch, rev)
		return ch, err
	})
}

// Locked reads the change of one resource (key), locked; nil when none.
func (k *ChangeQueue[C]) Locked(ctx context.Context, tx *Tx, itemID, key uuid.UUID) (*C, error) {
	var ch C
	err := tx.pg.QueryRow(ctx, `SELECT `+changeCols+` FROM `+k.table+` WHERE item_id = $1 AND `+k.key+` = $2 FOR UPDATE`, itemID, key).Scan(&ch)
	if err == pgx.ErrNoRows {
		return nil, nil
	}
	return &ch, err
}

// Save writes a change, replacing an earlier one of the same resource: a new control
// action, pending again (a new revision) until an execution collects it.
func (k *ChangeQueue[C]) Save(ctx context.Context, tx *Tx, ch *C) error {
	requested, applied, _ := k.stamps(ch)
	*applied = nil
	marks := make([]string, len(k.cols))
	for i := range marks {
		marks[i] = fmt.Sprintf("$%d", i+1)
	}
	n := len(k.cols)
	sql := fmt.Sprintf(`INSERT INTO %s (%s, change, revision)
		VALUES (%s, $%d::jsonb - 'requestedAt' - 'appliedAt', $%d)
		ON CONFLICT (item_id, %s) DO UPDATE SET operation = EXCLUDED.operation, change = EXCLUDED.change,
			created_at = now(), applied_execution_id = NULL, applied_at = NULL, revision = EXCLUDED.revision
		RETURNING created_at`, k.table, strings.Join(k.cols, ", "), strings.Join(marks, ", "), n+1, n+2, k.key)
	args := append(k.values(ch), ch, model.NewID())
	return tx.pg.QueryRow(ctx, sql, args...).Scan(requested)
}

// MarkApplied records execID as the execution that collected the pending ones of the
// changes it read. Only a row still as it was read: one saved again meanwhile waits for
// the next execution.
func (k *ChangeQueue[C]) MarkApplied(ctx context.Context, tx *Tx, itemID, execID uuid.UUID, read []C, now time.Time) error {
	var revs []uuid.UUID
	for i := range read {
		if _, applied, rev := k.stamps(&read[i]); *applied == nil {
			revs = append(revs, *rev)
		}
	}
	if len(revs) == 0 {
		return nil
	}
	_, err := tx.pg.Exec(ctx, `UPDATE `+k.table+` SET applied_execution_id = $2, applied_at = $4
		WHERE item_id = $1 AND revision = ANY($3) AND applied_at IS NULL`, itemID, execID, revs, now)
	return err
}
