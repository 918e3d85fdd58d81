package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// ClientFaults is one application's fault injection rules as stored: a JSON array.
type ClientFaults struct {
	ClientID uuid.UUID
	Rules    []byte
}

// AllSandboxFaults reads every application's fault injection rules: each replica keeps them
// all in memory for a few seconds, so a request asks the store nothing, and one statement
// refreshes them whatever the number of applications (few have rules, and briefly).
func (c *conn) AllSandboxFaults(ctx context.Context) ([]ClientFaults, error) {
	rows, err := c.pg.Query(ctx, `SELECT client_id, rules::text FROM sandbox_faults`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (ClientFaults, error) {
		var f ClientFaults
		err := row.Scan(&f.ClientID, &f.Rules)
		return f, err
	})
}

// SandboxFaults reads one application's rules; nil when it has none.
func (c *conn) SandboxFaults(ctx context.Context, clientID uuid.UUID) ([]byte, error) {
	var rules []byte
	err := c.pg.QueryRow(ctx, `SELECT rules::text FROM sandbox_faults WHERE client_id = $1`, clientID).Scan(&rules)
	if isNoRows(err) {
		return nil, nil
	}
	return rules, err
}

// SetSandboxFaults replaces an application's rules with a JSON array; nil removes them.
func (c *conn) SetSandboxFaults(ctx context.Context, clientID uuid.UUID, rules []byte, now time.Time) error {
	if rules == nil {
		_, err := c.pg.Exec(ctx, `DELETE FROM sandbox_faults WHERE client_id = $1`, clientID)
		return err
	}
	_, err := c.pg.Exec(ctx, `INSERT INTO sandbox_faults (client_id, rules, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (client_id) DO UPDATE SET rules = EXCLUDED.rules, updated_at = EXCLUDED.updated_at`,
		clientID, string(rules), now)
	return err
}
