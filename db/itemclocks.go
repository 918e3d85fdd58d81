package db

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// NextClockAutoSync is the clock time of the earliest automatic sync due at or before
// until among the items on a test clock, if any.
func (tx *Tx) NextClockAutoSync(ctx context.Context, clockID uuid.UUID, until time.Time) (time.Time, bool, error) {
	var at *time.Time
	err := tx.pg.QueryRow(ctx, `SELECT min(next_auto_sync_at) FROM items WHERE test_clock_id = $1
		AND status IN ($2, $3) AND next_auto_sync_at <= $4`, clockID, model.ItemUpdated, model.ItemOutdated, until).Scan(&at)
	if err != nil || at == nil {
		return time.Time{}, false, err
	}
	return *at, true, nil
}

// LockClockAutoSyncs takes, for the rest of tx, up to limit items on a test clock whose
// automatic sync is due at the clock time now, earliest first.
func (tx *Tx) LockClockAutoSyncs(ctx context.Context, clockID uuid.UUID, now time.Time, limit int) ([]*ItemRow, error) {
	var due []*ItemRow
	err := tx.bun.NewSelect().Model(&due).
		Where("i.test_clock_id = ?", clockID).
		Where("i.next_auto_sync_at <= ?", now).
		Where("i.status IN (?, ?)", model.ItemUpdated, model.ItemOutdated).
		OrderExpr("i.next_auto_sync_at, i.id").Limit(int64(limit)).For("UPDATE").Scan(ctx)
	return due, err
}

// ItemClockTime is the test clock an item of clientID's lives on and the clock's time now:
// found says the item exists, clock is nil for an item in real time.
func (c *conn) ItemClockTime(ctx context.Context, clientID, itemID uuid.UUID) (found bool, clock *model.Clock, err error) {
	var id *uuid.UUID
	var at *time.Time
	err = c.pg.QueryRow(ctx, `SELECT i.test_clock_id, k.frozen_time FROM items i LEFT JOIN test_clocks k ON k.id = i.test_clock_id
		WHERE i.id = $1 AND i.client_id = $2`, itemID, clientID).Scan(&id, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil, nil
	}
	if err != nil || id == nil || at == nil {
		return err == nil, nil, err
	}
	return true, &model.Clock{ID: *id, Now: *at}, nil
}
