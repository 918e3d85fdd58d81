package db

import (
	"context"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// ClaimIdempotencyKey claims k for the request owner with this fingerprint. claimed is true
// when the caller now holds the key: it was free, its answer had expired, or its claim was
// older than stale (the process that held it died). Otherwise rec is the key's state; rec is
// nil when the holder released it in the meantime, and the caller may try again.
func (c *conn) ClaimIdempotencyKey(ctx context.Context, k model.IdempotencyKey, fingerprint []byte, owner uuid.UUID,
	ttl, stale time.Duration) (claimed bool, rec *model.IdempotencyRecord, err error) {
	tag, err := c.pg.Exec(ctx, `INSERT INTO idempotency_keys AS k (client_id, caller, key, fingerprint, owner, claimed_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, now(), now() + $6::interval)
		ON CONFLICT (client_id, caller, key) DO UPDATE
			SET fingerprint = EXCLUDED.fingerprint, owner = EXCLUDED.owner, claimed_at = EXCLUDED.claimed_at,
				expires_at = EXCLUDED.expires_at, status = NULL, content_type = NULL, body = NULL
			WHERE k.expires_at <= now() OR (k.status IS NULL AND k.claimed_at <= now() - $7::interval)`,
		k.ClientID, k.Caller, k.Key, fingerprint, owner, ttl, stale)
	if err != nil || tag.RowsAffected() == 1 {
		return err == nil, nil, err
	}
	// A statement of its own: the claim above may have waited for a holder that committed
	// after its snapshot, which a SELECT in the same statement would not see.
	var status *int
	var contentType *string
	rec = &model.IdempotencyRecord{}
	var body []byte
	err = c.pg.QueryRow(ctx, `SELECT fingerprint, status, content_type, body FROM idempotency_keys
		WHERE client_id = $1 AND caller = $2 AND key = $3`, k.ClientID, k.Caller, k.Key).Scan(&rec.Fingerprint, &status, &contentType, &body)
	if isNoRows(err) {
		return false, nil, nil
	}
	if err != nil {
		return false, nil, err
	}
	if status != nil {
		rec.Response = &model.StoredResponse{Status: *status, Body: body}
		if contentType != nil {
			rec.Response.ContentType = *contentType
		}
	}
	return false, rec, nil
}

// CompleteIdempotencyKey keeps the first answer for ttl. It reports false when owner no
// longer holds the claim (another request took it over as stale).
func (c *conn) CompleteIdempotencyKey(ctx context.Context, k model.IdempotencyKey, owner uuid.UUID, resp model.StoredResponse, ttl time.Duration) (bool, error) {
	tag, err := c.pg.Exec(ctx, `UPDATE idempotency_keys SET status = $5, content_type = $6, body = $7, expires_at = now() + $8::interval
		WHERE client_id = $1 AND caller = $2 AND key = $3 AND owner = $4 AND status IS NULL`,
		k.ClientID, k.Caller, k.Key, owner, resp.Status, resp.ContentType, resp.Body, ttl)
	return err == nil && tag.RowsAffected() == 1, err
}

// ReleaseIdempotencyKey frees a claim whose request failed, so the client can retry.
func (c *conn) ReleaseIdempotencyKey(ctx context.Context, k model.IdempotencyKey, owner uuid.UUID) error {
	_, err := c.pg.Exec(ctx, `DELETE FROM idempotency_keys
		WHERE client_id = $1 AND caller = $2 AND key = $3 AND owner = $4 AND status IS NULL`, k.ClientID, k.Caller, k.Key, owner)
	return err
}

// PurgeIdempotencyKeys deletes expired keys in batches, so one purge never holds many row
// locks or one long transaction, and returns how many went.
func (c *conn) PurgeIdempotencyKeys(ctx context.Context) (int64, error) {
	const batch = 5000
	var total int64
	for {
		tag, err := c.pg.Exec(ctx, `DELETE FROM idempotency_keys WHERE (client_id, caller, key) IN (
			SELECT client_id, caller, key FROM idempotency_keys WHERE expires_at <= now() LIMIT $1)`, batch)
		if err != nil {
			return total, err
		}
		total += tag.RowsAffected()
		if tag.RowsAffected() < batch {
			return total, nil
		}
	}
}
