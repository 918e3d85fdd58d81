package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"ponte/metrics"
)

// JobDepths counts the job queue's unfinished jobs by queue and state, for the metrics
// scrape. The states are those of River's fetch index, so the count reads the index.
func (c *conn) JobDepths(ctx context.Context) ([]metrics.QueueDepth, error) {
	rows, err := c.pg.Query(ctx, `SELECT queue, state::text, count(*) FROM river_job
		WHERE state IN ('available', 'scheduled', 'retryable', 'running') GROUP BY queue, state ORDER BY queue, state`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (metrics.QueueDepth, error) {
		var q metrics.QueueDepth
		err := r.Scan(&q.Queue, &q.State, &q.Jobs)
		return q, err
	})
}

// PoolStats reads the connection pool's counters.
func (d *DB) PoolStats() metrics.PoolStats {
	s := d.Pool.Stat()
	return metrics.PoolStats{Acquired: s.AcquiredConns(), Idle: s.IdleConns(), Total: s.TotalConns(), Max: s.MaxConns(),
		Acquires: s.AcquireCount(), EmptyAcquires: s.EmptyAcquireCount(), AcquireWait: s.AcquireDuration()}
}
