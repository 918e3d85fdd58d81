package db

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"ponte/model"
)

// ReplicaOptions tune the read replica.
type ReplicaOptions struct {
	// MaxLag is how far (bytes of WAL) the replica may trail the primary and still serve
	// reads; past it every read goes to the primary until the replica catches up. 0: 16 MB.
	MaxLag int64
	// Retry is how long reads stay on the primary after the replica failed to answer.
	// 0: five seconds.
	Retry time.Duration
	Log   *slog.Logger
}

// replica is a streaming standby of the primary that takes pure reads (Reader).
type replica struct {
	store *DB // the standby's own pool, opened as the primary's is
	opts  ReplicaOptions

	mu        sync.Mutex
	replayed  int64     // the standby's last reported replay position; it only grows
	asked     time.Time // when replayed was last asked for
	downUntil time.Time
}

// AttachReplica opens url, a hot standby streaming from the primary d is connected to, for
// the pure reads of read-only requests (Reader). It refuses a server that is not in
// recovery: writes must never be sent to a second primary by a wrong URL.
func (d *DB) AttachReplica(ctx context.Context, url string, l Limits, opts ReplicaOptions) error {
	if opts.MaxLag == 0 {
		opts.MaxLag = 16 << 20
	}
	if opts.Retry <= 0 {
		opts.Retry = 5 * time.Second
	}
	l.Monitor = false
	store, err := OpenWith(ctx, url, l)
	if err != nil {
		return fmt.Errorf("read replica: %w", err)
	}
	var standby bool
	if err := store.Pool.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&standby); err != nil {
		store.Close()
		return fmt.Errorf("read replica: %w", err)
	}
	if !standby {
		store.Close()
		return errors.New("read replica: the server at DATABASE_READ_URL is not a standby (pg_is_in_recovery() is false)")
	}
	d.replica = &replica{store: store, opts: opts}
	return nil
}

// Reader is the handle for a pure read: the read replica when the request is read-only
// (model.ReadRoute), a replica is attached and answering, it trails the primary by no more
// than MaxLag, and it has replayed the caller's last write (PinReads); the primary, d,
// otherwise. Only statements that write nothing may run on it.
func (d *DB) Reader(ctx context.Context) *DB {
	r := d.replica
	if r == nil {
		return d
	}
	route := model.ReadRouteOf(ctx)
	if route == nil || !route.ReadOnly || r.down() {
		return d
	}
	// One indexed read of the primary: its position now and the client's pin. The pin is
	// in the primary's table, not this process's memory, so a write taken by another
	// instance of the service counts too.
	var now int64
	var pin *int64
	if err := d.pg.QueryRow(ctx, `SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint,
			(SELECT (lsn - '0/0')::bigint FROM read_pins WHERE client_id = $1)`, route.Client).Scan(&now, &pin); err != nil {
		return d
	}
	need := now - r.opts.MaxLag
	if pin != nil && *pin > need {
		need = *pin
	}
	if !r.caughtUp(ctx, need) {
		return d
	}
	return &DB{conn: conn{pg: fallback{replica: r, primary: d.pg}, bun: d.bun}, Pool: d.Pool, bdb: d.bdb, OnEvent: d.OnEvent}
}

// PinReads sends clientID's reads to the primary until the replica has replayed what the
// client has written so far. The position is taken after the write committed; the insert
// position covers a commit not yet flushed (synchronous_commit off) too.
func (d *DB) PinReads(ctx context.Context, clientID uuid.UUID) error {
	if d.replica == nil || clientID == uuid.Nil {
		return nil
	}
	_, err := d.pg.Exec(ctx, `INSERT INTO read_pins (client_id, lsn) VALUES ($1, pg_current_wal_insert_lsn())
		ON CONFLICT (client_id) DO UPDATE SET lsn = greatest(read_pins.lsn, EXCLUDED.lsn)`, clientID)
	return err
}

// pinReads pins clientID's reads for an event this transaction records: an event tells the
// client something changed (an item update finished, a payment moved), and the reads that
// follow must see the change. The position is only known after the commit, so the pin is
// first written here, with the transaction, as "unknown" (the highest position, which no
// replica reaches), and set to the position once the transaction has committed. A pin
// that could not be set leaves the client's reads on the primary until its next write.
func (tx *Tx) pinReads(ctx context.Context, clientID uuid.UUID) error {
	d := tx.store
	if d == nil || d.replica == nil || clientID == uuid.Nil || tx.pinned[clientID] {
		return nil
	}
	if _, err := tx.pg.Exec(ctx, `INSERT INTO read_pins (client_id, lsn) VALUES ($1, 'FFFFFFFF/FFFFFFFF')
		ON CONFLICT (client_id) DO UPDATE SET lsn = EXCLUDED.lsn`, clientID); err != nil {
		return err
	}
	if tx.pinned == nil {
		tx.pinned = map[uuid.UUID]bool{}
	}
	tx.pinned[clientID] = true
	tx.AfterCommit(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// Unconditionally: the position now is past every commit before it, this one's and
		// those of the pins the row lock made wait.
		if _, err := d.pg.Exec(ctx, `UPDATE read_pins SET lsn = pg_current_wal_insert_lsn() WHERE client_id = $1`, clientID); err != nil &&
			d.replica.opts.Log != nil {
			d.replica.opts.Log.Warn("could not record an event's position for the read replica", "client", clientID, "error", err)
		}
	})
	return nil
}

// HasReplica reports a read replica attached.
func (d *DB) HasReplica() bool { return d.replica != nil }

// caughtUp reports the replica's replay at or past need, asking it again (at most every
// 20 ms) when the last answer was short of it.
func (r *replica) caughtUp(ctx context.Context, need int64) bool {
	r.mu.Lock()
	if r.replayed >= need {
		r.mu.Unlock()
		return true
	}
	if time.Since(r.asked) < 20*time.Millisecond {
		r.mu.Unlock()
		return false
	}
	r.asked = time.Now()
	r.mu.Unlock()
	var replayed *int64
	if err := r.store.Pool.QueryRow(ctx, `SELECT (pg_last_wal_replay_lsn() - '0/0')::bigint`).Scan(&replayed); err != nil {
		r.failed(err)
		return false
	}
	if replayed == nil { // promoted: no longer a standby of anything
		r.failed(errors.New("the read replica is no longer in recovery"))
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.replayed = max(r.replayed, *replayed)
	return r.replayed >= need
}

func (r *replica) down() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return time.Now().Before(r.downUntil)
}

// failed sends reads to the primary for a while.
func (r *replica) failed(err error) {
	r.mu.Lock()
	already := time.Now().Before(r.downUntil)
	r.downUntil = time.Now().Add(r.opts.Retry)
	r.mu.Unlock()
	if !already && r.opts.Log != nil {
		r.opts.Log.Warn("the read replica failed; reads go to the primary", "retry", r.opts.Retry, "error", err)
	}
}

func (r *replica) close() { r.store.Close() }

// replicaFault reports an error of the replica rather than of the statement: it could not be
// reached or is shutting down, or it cancelled the read for a conflict with replay. The same
// read on the primary then answers instead; a statement's own error (bad input) would fail
// there alike and is returned as it is.
func replicaFault(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil || errors.Is(err, pgx.ErrNoRows) {
		return false
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return true
	}
	switch pgErr.Code {
	case "40001", "57P01", "57P02", "57P03", "53300":
		return true
	}
	return false
}

// fallback runs reads on the replica and, when it fails, on the primary. Anything that is
// not a plain read goes to the primary.
type fallback struct {
	replica *replica
	primary querier
}

func (f fallback) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := f.replica.store.Pool.Query(ctx, sql, args...)
	if replicaFault(ctx, err) {
		f.replica.failed(err)
		return f.primary.Query(ctx, sql, args...)
	}
	return rows, err
}

func (f fallback) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return fallbackRow{f: f, ctx: ctx, sql: sql, args: args}
}

func (f fallback) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return f.primary.Exec(ctx, sql, args...)
}

func (f fallback) CopyFrom(ctx context.Context, t pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	return f.primary.CopyFrom(ctx, t, cols, src)
}

func (f fallback) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return f.primary.SendBatch(ctx, b)
}

// fallbackRow is a row read on the replica, read again on the primary if the replica fails.
type fallbackRow struct {
	f    fallback
	ctx  context.Context
	sql  string
	args []any
}

func (r fallbackRow) Scan(dest ...any) error {
	err := r.f.replica.store.Pool.QueryRow(r.ctx, r.sql, r.args...).Scan(dest...)
	if replicaFault(r.ctx, err) {
		r.f.replica.failed(err)
		return r.f.primary.QueryRow(r.ctx, r.sql, r.args...).Scan(dest...)
	}
	return err
}
