package db

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Who is alive among the processes working the job queue, and what becomes of the jobs of
// one that died.
//
// River hands a job to a process and marks it running; if that process is killed, nothing
// in the row says so, and River's own rescuer can only guess by time: it retries a job once
// it has been running longer than RescueStuckJobsAfter (and its kind's time-out), looking
// every 30 s, on the leader only. A time short enough to resume a payment in seconds would
// retry item executions and deliveries of live processes that are merely slow.
//
// So each process says it is alive instead: it holds a session-level advisory lock, keyed
// on its queue client's id, on a connection of its own for as long as it runs. PostgreSQL
// drops the lock the moment that connection closes, which a killed process's kernel does
// at once. Every process looks every couple of seconds for running jobs whose last taker
// is a client of this service whose lock is free, and makes them available again: the
// same row, so a job still finishes once. River's rescuer stays as the fallback for a
// machine that vanished without closing its sockets (TCP keep-alive ends those).
//
// When the database restarts every live process loses its lock and takes it again within
// seconds; a process rescues others' jobs only once it has held its own for a while
// (HeldFor), so the first one back leaves the others' jobs alone. Should a live process's
// lock still be free when another looks, a job it runs may be made available beside its
// own run: each job must tolerate that as it tolerates River's rescue; payment steps and
// executions re-check their row under a lock and do nothing twice, a delivery may be sent
// twice (receivers de-duplicate on webhook-id).

// The lock's key is in the two-int key space, apart from the one-bigint keys of
// executions: hashtext('ponte.liveness'), then the hash of the client id.

// Liveness holds this process's lock until Close.
type Liveness struct {
	id     string
	pool   *pgxpool.Pool
	log    *slog.Logger
	stop   context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	conn   *pgx.Conn
	holder bool
	since  time.Time // when the lock was last taken
}

// HoldLiveness takes id's liveness lock on a connection of its own, and keeps it:
// the connection is checked every second and, if it broke, replaced and the lock taken
// again. It fails if the lock cannot be taken now (another process runs with this id).
func (d *DB) HoldLiveness(ctx context.Context, id string, log *slog.Logger) (*Liveness, error) {
	l := &Liveness{id: id, pool: d.Pool, log: log, done: make(chan struct{})}
	if err := l.take(ctx); err != nil {
		return nil, err
	}
	ctx, l.stop = context.WithCancel(context.WithoutCancel(ctx))
	go l.keep(ctx)
	return l, nil
}

func (l *Liveness) take(ctx context.Context) error {
	// A connection of its own, not the pool's: the pool may close and replace its
	// connections at will, and the database monitor breaks them when the database is away.
	conn, err := pgx.ConnectConfig(ctx, l.pool.Config().ConnConfig)
	if err != nil {
		return err
	}
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtext('ponte.liveness'), hashtext($1))`, l.id).Scan(&ok); err != nil || !ok {
		_ = conn.Close(context.WithoutCancel(ctx))
		if err == nil {
			err = errLivenessTaken
		}
		return err
	}
	l.mu.Lock()
	l.conn, l.holder, l.since = conn, true, time.Now()
	l.mu.Unlock()
	return nil
}

// HeldFor reports whether the lock has been held without a break for at least d. A
// process rescues others' jobs only then: when the database restarts every live process
// loses its lock at once and takes it again within seconds, and the first one back must
// not take the others' jobs meanwhile (nor its own, which its lock no longer covers).
func (l *Liveness) HeldFor(d time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.holder && time.Since(l.since) >= d
}

type livenessError string

func (e livenessError) Error() string { return string(e) }

const errLivenessTaken = livenessError("another process holds this job-queue client id")

func (l *Liveness) keep(ctx context.Context) {
	defer close(l.done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		l.mu.Lock()
		conn, holder := l.conn, l.holder
		l.mu.Unlock()
		if holder {
			pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			err := conn.Ping(pctx)
			cancel()
			if err == nil || ctx.Err() != nil {
				continue
			}
			_ = conn.Close(context.Background())
			l.mu.Lock()
			l.holder = false
			l.mu.Unlock()
			if l.log != nil {
				l.log.Warn("lost the job queue's liveness lock; taking it again", "err", err)
			}
		}
		tctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := l.take(tctx)
		cancel()
		if err == nil && l.log != nil {
			l.log.Info("job queue's liveness lock taken again")
		}
	}
}

// Close releases the lock: the process's running jobs, if any are left, become other
// processes' at their next look. Call it after the queue has stopped.
func (l *Liveness) Close() {
	l.stop()
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holder {
		// Unlocked before the connection closes: the server ends a closed session a moment
		// later, and until then the other replicas would still see this process alive.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, _ = l.conn.Exec(ctx, `SELECT pg_advisory_unlock(hashtext('ponte.liveness'), hashtext($1))`, l.id)
		cancel()
		_ = l.conn.Close(context.Background())
		l.holder = false
	}
}

// RescuedJob is a job made available again because its process died.
type RescuedJob struct {
	ID    int64
	Queue string
	Kind  string
}

// RescueJobsOfDeadProcesses makes available again every running job whose last taker is a
// client named with prefix whose liveness lock nobody holds, and lists them. Jobs out of
// attempts or being cancelled are left to River's rescuer, which discards or cancels them.
// The lock test takes and drops the lock in one CASE, so its order is fixed.
func (c *conn) RescueJobsOfDeadProcesses(ctx context.Context, prefix string) ([]RescuedJob, error) {
	rows, err := c.pg.Query(ctx, `WITH owners AS MATERIALIZED (
			SELECT DISTINCT attempted_by[cardinality(attempted_by)] AS owner FROM river_job WHERE state = 'running'),
		dead AS MATERIALIZED (
			SELECT owner FROM owners WHERE starts_with(owner, $1)
			AND CASE WHEN pg_try_advisory_lock(hashtext('ponte.liveness'), hashtext(owner))
				THEN pg_advisory_unlock(hashtext('ponte.liveness'), hashtext(owner)) ELSE false END)
		UPDATE river_job j SET state = 'available', scheduled_at = now(),
			errors = array_append(j.errors, jsonb_build_object('at', now(), 'attempt', j.attempt,
				'error', 'Rescued: the process working it died', 'trace', '')),
			metadata = j.metadata || jsonb_build_object('river:rescue_count',
				coalesce(CASE WHEN jsonb_typeof(j.metadata -> 'river:rescue_count') = 'number'
					THEN (j.metadata ->> 'river:rescue_count')::int END, 0) + 1)
		FROM dead WHERE j.state = 'running' AND j.attempted_by[cardinality(j.attempted_by)] = dead.owner
			AND j.attempt < j.max_attempts AND NOT j.metadata ? 'cancel_attempted_at'
		RETURNING j.id, j.queue, j.kind`, prefix)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[RescuedJob])
}
