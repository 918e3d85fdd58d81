package db

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// TestClockQueue is the River queue no worker serves: the due work of objects on a test
// clock waits there, scheduled in clock time, until an advance of the clock runs it.
const TestClockQueue = "test_clock"

// ClockJobToRealTime is the metadata key of a clock's job that returns to real time when its
// clock is deleted (DeleteTestClock) rather than being dropped.
const ClockJobToRealTime = "toRealTime"

// TestClockRow is a stored test clock.
type TestClockRow struct {
	ID         uuid.UUID
	ClientID   uuid.UUID
	Name       string
	FrozenTime time.Time
	TargetTime *time.Time
	Status     string
	CreatedAt  time.Time
}

const clockColumns = `id, client_id, name, frozen_time, target_time, status, created_at`

func scanClock(r pgx.Row, extra ...any) (*TestClockRow, error) {
	var c TestClockRow
	err := r.Scan(append([]any{&c.ID, &c.ClientID, &c.Name, &c.FrozenTime, &c.TargetTime, &c.Status, &c.CreatedAt}, extra...)...)
	return &c, err
}

// InsertTestClock stores a new clock.
func (tx *Tx) InsertTestClock(ctx context.Context, c *TestClockRow) error {
	_, err := tx.pg.Exec(ctx, `INSERT INTO test_clocks (`+clockColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		c.ID, c.ClientID, c.Name, c.FrozenTime, c.TargetTime, c.Status, c.CreatedAt)
	return err
}

// LockClientClocks serializes the creation of an application's clocks (the count limit).
func (tx *Tx) LockClientClocks(ctx context.Context, clientID uuid.UUID) error {
	_, err := tx.pg.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('test_clocks:' || $1::text, 0))`, clientID)
	return err
}

// CountTestClocks is how many clocks an application has.
func (c *conn) CountTestClocks(ctx context.Context, clientID uuid.UUID) (int, error) {
	var n int
	err := c.pg.QueryRow(ctx, `SELECT count(*) FROM test_clocks WHERE client_id = $1`, clientID).Scan(&n)
	return n, err
}

// TestClock reads a clock of a client (any client when clientID is Nil); lock takes the
// row for the rest of the transaction.
func (c *conn) TestClock(ctx context.Context, clientID, id uuid.UUID, lock bool) (*TestClockRow, bool, error) {
	sql := `SELECT ` + clockColumns + ` FROM test_clocks WHERE id = $1 AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR client_id = $2)`
	if lock {
		sql += ` FOR UPDATE`
	}
	k, err := scanClock(c.pg.QueryRow(ctx, sql, id, clientID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return k, err == nil, err
}

// TestClocks lists a page of a client's clocks, newest first.
func (d *DB) TestClocks(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*TestClockRow, int, error) {
	return pageWithTotal(ctx, d.pg, `SELECT `+clockColumns+`, count(*) OVER () FROM test_clocks WHERE client_id = $1
		ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, `SELECT count(*) FROM test_clocks WHERE client_id = $1`, 1,
		[]any{clientID, limit, offset}, offset, func(r pgx.CollectableRow, total *int) (*TestClockRow, error) { return scanClock(r, total) })
}

// SaveTestClock writes a clock's time and status back.
func (tx *Tx) SaveTestClock(ctx context.Context, c *TestClockRow) error {
	_, err := tx.pg.Exec(ctx, `UPDATE test_clocks SET frozen_time = $2, target_time = $3, status = $4 WHERE id = $1`,
		c.ID, c.FrozenTime, c.TargetTime, c.Status)
	return err
}

// DeleteTestClock removes a clock and the work still waiting on it: its objects keep the
// state they reached and nothing moves them again. A job marked ClockJobToRealTime in its
// metadata (the end of an item's wait for the user: dropping it would leave the item waiting
// for good) goes back to real time instead, due after the clock time it still had to wait.
func (tx *Tx) DeleteTestClock(ctx context.Context, id uuid.UUID) error {
	if _, err := tx.pg.Exec(ctx, `UPDATE river_job j SET queue = 'default', metadata = j.metadata - 'testClockId',
		scheduled_at = now() + greatest(j.scheduled_at - k.frozen_time, interval '0')
		FROM test_clocks k WHERE k.id = $2 AND j.queue = $1 AND j.metadata->>'testClockId' = $2::text
		AND j.metadata->>$3 = 'true' AND j.state IN ('available', 'scheduled', 'retryable')`, TestClockQueue, id, ClockJobToRealTime); err != nil {
		return err
	}
	if _, err := tx.pg.Exec(ctx, `DELETE FROM river_job WHERE queue = $1 AND metadata->>'testClockId' = $2::text
		AND state IN ('available', 'scheduled', 'retryable')`, TestClockQueue, id); err != nil {
		return err
	}
	_, err := tx.pg.Exec(ctx, `DELETE FROM test_clocks WHERE id = $1`, id)
	return err
}

// ClockJob is a piece of due work waiting on a test clock.
type ClockJob struct {
	ID          int64
	Kind        string
	Args        []byte
	Attempt     int
	ScheduledAt time.Time
}

// NextClockJob is the clock's earliest waiting job due at or before until (ties in
// insertion order), if any.
func (tx *Tx) NextClockJob(ctx context.Context, clockID uuid.UUID, until time.Time) (*ClockJob, bool, error) {
	var j ClockJob
	err := tx.pg.QueryRow(ctx, `SELECT id, kind, args, attempt, scheduled_at FROM river_job
		WHERE queue = $1 AND metadata->>'testClockId' = $2::text AND state IN ('available', 'scheduled', 'retryable') AND scheduled_at <= $3
		ORDER BY scheduled_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`, TestClockQueue, clockID, until).
		Scan(&j.ID, &j.Kind, &j.Args, &j.Attempt, &j.ScheduledAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return &j, err == nil, err
}

// FinishClockJob records the outcome of a clock's job run by an advance: completed, or,
// when failed is set, tried again a minute of clock time later until maxAttempts, then
// discarded, as River would.
func (tx *Tx) FinishClockJob(ctx context.Context, j *ClockJob, failed string, maxAttempts int) error {
	if failed == "" {
		_, err := tx.pg.Exec(ctx, `UPDATE river_job SET state = 'completed', attempt = attempt + 1, attempted_at = now(), finalized_at = now() WHERE id = $1`, j.ID)
		return err
	}
	errs := map[string]any{"at": time.Now().UTC(), "attempt": j.Attempt + 1, "error": failed}
	if j.Attempt+1 >= maxAttempts {
		_, err := tx.pg.Exec(ctx, `UPDATE river_job SET state = 'discarded', attempt = attempt + 1, attempted_at = now(), finalized_at = now(),
			errors = array_append(errors, $2::jsonb) WHERE id = $1`, j.ID, errs)
		return err
	}
	_, err := tx.pg.Exec(ctx, `UPDATE river_job SET state = 'scheduled', attempt = attempt + 1, attempted_at = now(), scheduled_at = $3,
		errors = array_append(errors, $2::jsonb) WHERE id = $1`, j.ID, errs, j.ScheduledAt.Add(time.Duration(j.Attempt+1)*time.Minute))
	return err
}
