package db

import (
	"context"
	"time"
)

// CountRequest adds one request of ip to group's counter for the window and returns the
// count so far, in one statement, so concurrent replicas never lose an increment.
func (d *DB) CountRequest(ctx context.Context, group, ip string, window time.Time) (int, error) {
	var n int
	err := d.Pool.QueryRow(ctx, `INSERT INTO rate_limit_counts (grp, ip, window_start, count) VALUES ($1, $2, $3, 1)
		ON CONFLICT (grp, ip, window_start) DO UPDATE SET count = rate_limit_counts.count + 1 RETURNING count`,
		group, ip, window).Scan(&n)
	return n, err
}

// PurgeRateLimits removes the counters of windows that ended before the given time.
func (d *DB) PurgeRateLimits(ctx context.Context, before time.Time) (int64, error) {
	tag, err := d.Pool.Exec(ctx, `DELETE FROM rate_limit_counts WHERE window_start < $1`, before)
	return tag.RowsAffected(), err
}
