package db

import (
	"context"
	"crypto/sha256"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// ItemControl is what sandbox control actions asked of an item's later executions.
type ItemControl struct {
	// NextOutcome is the outcome the next execution ends in; nil: the scenario's own.
	NextOutcome *model.SandboxNextExecution
	// LoginReset is the hash of the sealed credentials the login was reset on; nil: none.
	LoginReset []byte
}

// CredentialsHash identifies one sealing of an item's credentials: an update that sends
// credentials seals them anew (with a fresh nonce), so the hash changes even when the
// values do not.
func CredentialsHash(sealed []byte) []byte {
	h := sha256.Sum256(sealed)
	return h[:]
}

// LockItemControl reads an item's control row for update; a zero ItemControl when none.
func (tx *Tx) LockItemControl(ctx context.Context, itemID uuid.UUID) (*ItemControl, error) {
	c := &ItemControl{}
	err := tx.pg.QueryRow(ctx, `SELECT next_outcome, login_reset_credentials FROM sandbox_item_controls WHERE item_id = $1 FOR UPDATE`, itemID).
		Scan(&c.NextOutcome, &c.LoginReset)
	if err == pgx.ErrNoRows {
		return &ItemControl{}, nil
	}
	return c, err
}

// SaveItemControl writes an item's control row; an empty one is removed.
func (tx *Tx) SaveItemControl(ctx context.Context, itemID uuid.UUID, c *ItemControl) error {
	if c.NextOutcome == nil && c.LoginReset == nil {
		_, err := tx.pg.Exec(ctx, `DELETE FROM sandbox_item_controls WHERE item_id = $1`, itemID)
		return err
	}
	_, err := tx.pg.Exec(ctx, `INSERT INTO sandbox_item_controls (item_id, next_outcome, login_reset_credentials, updated_at)
		VALUES ($1, $2, $3, now())
		ON CONFLICT (item_id) DO UPDATE SET next_outcome = EXCLUDED.next_outcome,
			login_reset_credentials = EXCLUDED.login_reset_credentials, updated_at = now()`, itemID, c.NextOutcome, c.LoginReset)
	return err
}

// SetExecutionControl names the control action that caused an execution.
func (tx *Tx) SetExecutionControl(ctx context.Context, executionID uuid.UUID, action string) error {
	_, err := tx.pg.Exec(ctx, `UPDATE executions SET control = $2 WHERE id = $1`, executionID, action)
	return err
}

// ExecutionRecord is one execution of an item's history, as the control tests read it.
type ExecutionRecord struct {
	Number      int
	TriggeredBy string
	Status      string
	Control     *string
	Forced      *model.SandboxNextExecution
}

// ItemExecutions reads an item's executions, oldest first.
func (c *conn) ItemExecutions(ctx context.Context, itemID uuid.UUID) ([]ExecutionRecord, error) {
	rows, err := c.pg.Query(ctx, `SELECT number, triggered_by, status, control, forced_outcome FROM executions
		WHERE item_id = $1 ORDER BY number`, itemID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[ExecutionRecord])
}
