package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"ponte/model"
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

// ReadAccountDocs reads an item's account list from the database, past the cache.
func (d *DB) ReadAccountDocs(ctx context.Context, item uuid.UUID, typ *string) ([]model.JSONDocument, error) {
	return d.readAccountDocs(ctx, item, typ)
}

// AccountListsLive reports whether the account list cache is in use.
func (d *DB) AccountListsLive() bool {
	d.lists.mu.RLock()
	defer d.lists.mu.RUnlock()
	return d.lists.live
}

// TrustAccountLists puts the account list cache in use with no listener, so that only
// this process's own transactions invalidate it.
func (d *DB) TrustAccountLists() { d.lists.setLive(true) }

// AccountListenerName is the application_name of ListenAccounts' sessions.
const AccountListenerName = accountListenerName

// AwaitAccountNotices returns once the listener has taken every notice of a change
// committed before the call: it sends a notice of its own after them, for an item it
// planted in the cache, and waits for that item to be dropped. Notices of one channel
// arrive in commit order.
func (d *DB) AwaitAccountNotices(ctx context.Context) error {
	marker := uuid.New()
	d.lists.mu.Lock()
	d.lists.m[marker] = map[string][]model.JSONDocument{"": nil}
	d.lists.mu.Unlock()
	if _, err := d.Pool.Exec(ctx, `SELECT pg_notify($1, $2)`, accountListsChannel, marker.String()); err != nil {
		return err
	}
	for {
		d.lists.mu.RLock()
		_, kept := d.lists.m[marker]
		d.lists.mu.RUnlock()
		if !kept {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}
