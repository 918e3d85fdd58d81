package db

import (
	"context"
	"time"
)

// allowBrowserOrigin records that a Connect Token naming origin as its targetOrigin lives
// until until (real time), keeping the latest expiry of all the tokens naming it.
func (c *conn) allowBrowserOrigin(ctx context.Context, origin string, until time.Time) error {
	_, err := c.pg.Exec(ctx, `INSERT INTO browser_origins (origin, expires_at) VALUES ($1, $2)
		ON CONFLICT (origin) DO UPDATE SET expires_at = GREATEST(browser_origins.expires_at, EXCLUDED.expires_at)`, origin, until)
	return err
}

// BrowserOriginLive reports whether a Connect Token that names origin as its targetOrigin
// has not expired yet: a CORS preflight from origin is then answered.
func (c *conn) BrowserOriginLive(ctx context.Context, origin string) (bool, error) {
	var live bool
	err := c.pg.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM browser_origins WHERE origin = $1 AND expires_at > now())`, origin).Scan(&live)
	return live, err
}
