package db

import (
	"context"
	"time"
)

// CountRequests adds n requests of ip to group's counter for the window and returns the
// count so far, in one statement, so concurrent replicas never lose an increment. It has
// the shape of auth.Counter.
func (c *conn) CountRequests(ctx context.Context, group, ip string, window time.Time, n int) (int, error) {
	var total int
	err := c.pg.QueryRow(ctx, `INSERT INTO rate_limit_counts (grp, ip, window_start, count) VALUES ($1, $2, $3, $4)
		ON CONFLICT (grp, ip, window_start) DO UPDATE SET count = rate_limit_counts.count + $4 RETURNING count`,
		group, ip, window, n).Scan(&total)
	return total, err
}

// PurgeRateLimits removes the counters of windows that ended before the given time.
func (c *conn) PurgeRateLimits(ctx context.Context, before time.Time) (int64, error) {
	tag, err := c.pg.Exec(ctx, `DELETE FROM rate_limit_counts WHERE window_start < $1`, before)
	return tag.RowsAffected(), err
}
