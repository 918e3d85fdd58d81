package db

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
)

// Tx is one database transaction: its statements are Tx's methods (and conn's), seen by
// bun and by pgx on the same connection, so that data, events and jobs commit or roll back
// together.
type Tx struct {
	conn
	// PGX is the transaction as pgx sees it, for the job queue's inserts (River's
	// InsertTx): a job commits with the change that causes it. No statement is written on
	// it outside this package.
	PGX pgx.Tx
	// onEvent fans a recorded event out to its deliveries, in this transaction.
	onEvent EventHook
	// committed runs once the transaction has committed (see AfterCommit).
	committed []func()
	// store is the DB that opened the transaction, for pinning the reads of the clients
	// whose events it records (replica.go).
	store  *DB
	pinned map[uuid.UUID]bool
	// accountItems are the items whose accounts this transaction changes (accountlists.go).
	accountItems []uuid.UUID
}

// AfterCommit runs fn once the transaction has committed, and never if it rolls back: for
// what must only follow a change that happened, such as the log line that reports it.
func (t *Tx) AfterCommit(fn func()) { t.committed = append(t.committed, fn) }

// conn is where a statement runs, seen by pgx (pg) and by bun (bun): the pool for *DB, one
// transaction for *Tx. Both embed it, so a read that callers need on either side is
// declared once, on *conn, and called as store.X or tx.X.
type conn struct {
	pg  querier
	bun bun.IDB
}

// querier is what pgxpool.Pool and pgx.Tx share and statements use.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// EventHook runs for every event recorded, inside the transaction that records it.
type EventHook func(ctx context.Context, tx *Tx, e *Event) error

// InTx runs fn in a transaction and commits when it returns nil.
func (d *DB) InTx(ctx context.Context, fn func(ctx context.Context, tx *Tx) error) error {
	bc, err := d.bdb.Conn(ctx)
	if err != nil {
		return err
	}
	defer bc.Close()
	var native *pgx.Conn
	if err := bc.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("database driver is %T, not pgx", dc)
		}
		native = c.Conn()
		return nil
	}); err != nil {
		return err
	}
	btx, err := bc.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	// The pgx view uses the same connection, held by bc until it is closed, and so runs
	// inside the transaction bun began. Statements never overlap: one goroutine drives both.
	ptx := &connTx{conn: native}
	tx := &Tx{conn: conn{pg: ptx, bun: btx}, PGX: ptx, onEvent: d.OnEvent, store: d}
	// After the commit or rollback: the items changed stay out of the cache until then.
	defer func() {
		if len(tx.accountItems) > 0 {
			d.lists.end(tx.accountItems)
		}
	}()
	// A panic must roll back before the connection is closed: closing waits for the open
	// transaction, which would never end.
	defer func() {
		if p := recover(); p != nil {
			_ = btx.Rollback()
			panic(p)
		}
	}()
	if err := fn(ctx, tx); err != nil {
		_ = btx.Rollback()
		return err
	}
	if err := btx.Commit(); err != nil {
		return err
	}
	for _, f := range tx.committed {
		f()
	}
	return nil
}

// connTx presents a connection already inside a transaction as a pgx.Tx. Commit and
// Rollback of the outer transaction belong to InTx; nested ones are savepoints.
type connTx struct {
	conn  *pgx.Conn
	depth int
	name  string
}

var savepoints atomic.Int64

func (t *connTx) Begin(ctx context.Context) (pgx.Tx, error) {
	name := fmt.Sprintf("sp_%d", savepoints.Add(1))
	if _, err := t.conn.Exec(ctx, "SAVEPOINT "+name); err != nil {
		return nil, err
	}
	return &connTx{conn: t.conn, depth: t.depth + 1, name: name}, nil
}

func (t *connTx) Commit(ctx context.Context) error {
	if t.depth == 0 {
		return nil
	}
	_, err := t.conn.Exec(ctx, "RELEASE SAVEPOINT "+t.name)
	return err
}

func (t *connTx) Rollback(ctx context.Context) error {
	if t.depth == 0 {
		return errors.New("the outer transaction is rolled back by its owner")
	}
	_, err := t.conn.Exec(ctx, "ROLLBACK TO SAVEPOINT "+t.name)
	return err
}

func (t *connTx) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	return t.conn.CopyFrom(ctx, table, cols, src)
}

func (t *connTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return t.conn.SendBatch(ctx, b)
}

func (t *connTx) LargeObjects() pgx.LargeObjects { return pgx.LargeObjects{} }

func (t *connTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	return t.conn.Prepare(ctx, name, sql)
}

func (t *connTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return t.conn.Exec(ctx, sql, args...)
}

func (t *connTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return t.conn.Query(ctx, sql, args...)
}

func (t *connTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return t.conn.QueryRow(ctx, sql, args...)
}

func (t *connTx) Conn() *pgx.Conn { return t.conn }
