package db

import (
	"context"
	"crypto/sha256"
	"time"

	"github.com/google/uuid"
)

// StatementUpload is the record of a statement file uploaded to an item.
type StatementUpload struct {
	ID        uuid.UUID
	ItemID    uuid.UUID
	Name      string
	Size      int64
	CreatedAt time.Time
}

// InsertStatementUpload keeps a file until the execution it starts has read it.
func (tx *Tx) InsertStatementUpload(ctx context.Context, u *StatementUpload, content []byte) error {
	sum := sha256.Sum256(content)
	_, err := tx.pg.Exec(ctx, `INSERT INTO statement_uploads (id, item_id, name, size, sha256, content, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, u.ID, u.ItemID, u.Name, len(content), sum[:], content, u.CreatedAt)
	return err
}

// StatementUpload reads an upload's file; nil once its execution has read it.
func (c *conn) StatementUpload(ctx context.Context, id uuid.UUID) ([]byte, error) {
	var content []byte
	err := c.pg.QueryRow(ctx, `SELECT content FROM statement_uploads WHERE id = $1`, id).Scan(&content)
	if isNoRows(err) {
		return nil, nil
	}
	return content, err
}

// ForgetUploadContent drops a file its execution has read: what it held is stored as
// accounts and transactions now, and the file itself is the user's bank data.
func (tx *Tx) ForgetUploadContent(ctx context.Context, id uuid.UUID) error {
	_, err := tx.pg.Exec(ctx, `UPDATE statement_uploads SET content = NULL WHERE id = $1`, id)
	return err
}

// ConnectorSettings reads what an application configured for a connector; nil when
// nothing.
func (c *conn) ConnectorSettings(ctx context.Context, clientID uuid.UUID, connectorID int) ([]byte, error) {
	var settings []byte
	err := c.pg.QueryRow(ctx, `SELECT settings::text FROM connector_settings WHERE client_id = $1 AND connector_id = $2`, clientID, connectorID).Scan(&settings)
	if isNoRows(err) {
		return nil, nil
	}
	return settings, err
}

// SetConnectorSettings stores an application's settings for a connector; nil removes them.
func (c *conn) SetConnectorSettings(ctx context.Context, clientID uuid.UUID, connectorID int, settings []byte, now time.Time) error {
	if settings == nil {
		_, err := c.pg.Exec(ctx, `DELETE FROM connector_settings WHERE client_id = $1 AND connector_id = $2`, clientID, connectorID)
		return err
	}
	_, err := c.pg.Exec(ctx, `INSERT INTO connector_settings (client_id, connector_id, settings, updated_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (client_id, connector_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at`,
		clientID, connectorID, string(settings), now)
	return err
}

// WaitingUploads counts an item's files no execution has taken yet.
func (tx *Tx) WaitingUploads(ctx context.Context, itemID uuid.UUID) (int, error) {
	var n int
	err := tx.pg.QueryRow(ctx, `SELECT count(*) FROM statement_uploads u WHERE u.item_id = $1
		AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.upload_id = u.id)`, itemID).Scan(&n)
	return n, err
}

// NextStatementUpload is the item's file that has waited longest for an execution, or nil.
func (tx *Tx) NextStatementUpload(ctx context.Context, itemID uuid.UUID) (*uuid.UUID, error) {
	var id uuid.UUID
	err := tx.pg.QueryRow(ctx, `SELECT u.id FROM statement_uploads u WHERE u.item_id = $1
		AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.upload_id = u.id)
		ORDER BY u.created_at, u.id LIMIT 1`, itemID).Scan(&id)
	if isNoRows(err) {
		return nil, nil
	}
	return &id, err
}
