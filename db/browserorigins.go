package db

import (
	"context"
	"time"
)

// allowBrowserOrigin records that a Connect Token naming origin as its targetOrigin lives
// until until (real time), keeping the latest expiry of all the tokens naming it. The same
// statement deletes up to expiredPerIssue origins whose tokens all expired, so the table
// holds the live origins and at most that many more for each one issued; rows another
// transaction holds are left to the next issue (SKIP LOCKED: no wait, no deadlock), and
// origin's own row is raised, not deleted.
func (c *conn) allowBrowserOrigin(ctx context.Context, origin string, until time.Time) error {
	_, err := c.pg.Exec(ctx, `WITH expired AS (
			DELETE FROM browser_origins WHERE origin IN (
				SELECT origin FROM browser_origins WHERE expires_at <= now() AND origin <> $1
				ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED))
		INSERT INTO browser_origins (origin, expires_at) VALUES ($1, $2)
		ON CONFLICT (origin) DO UPDATE SET expires_at = GREATEST(browser_origins.expires_at, EXCLUDED.expires_at)`, origin, until, expiredPerIssue)
	return err
}

// expiredPerIssue bounds the expired origins one issue deletes: more than one, so a
// backlog shrinks while tokens are issued, few enough to keep the issue short.
const expiredPerIssue = 100

// BrowserOriginLive reports whether a Connect Token that names origin as its targetOrigin
// has not expired yet: a CORS preflight from origin is then answered.
func (c *conn) BrowserOriginLive(ctx context.Context, origin string) (bool, error) {
	var live bool
	err := c.pg.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM browser_origins WHERE origin = $1 AND expires_at > now())`, origin).Scan(&live)
	return live, err
}
