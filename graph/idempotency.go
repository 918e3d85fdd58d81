package graph

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

const (
	// IdempotencyTTL is how long a first answer is kept for replay.
	IdempotencyTTL = 24 * time.Hour
	// IdempotencyStaleClaim is when a claim whose request never finished (its process died)
	// may be taken over. It matches the server's write time-out: past it, the first request
	// could no longer answer its client anyway.
	IdempotencyStaleClaim = 2 * time.Minute
	// idempotencyPurgeEvery paces the deletion of expired answers.
	idempotencyPurgeEvery = 10 * time.Minute
)

// IdempotencyClaim is the outcome of presenting an Idempotency-Key: either Replay is the
// first request's answer, or the request holds the key and must Keep its answer or Release
// the key.
type IdempotencyClaim struct {
	Replay *db.StoredResponse

	store  *db.DB
	sealer *auth.Sealer
	key    db.IdempotencyKey
	owner  uuid.UUID
}

// associatedData binds a kept answer to its application, caller and key, so an answer copied
// to another row does not open.
func (c *IdempotencyClaim) associatedData() []byte {
	return append(append(c.key.ClientID[:], c.key.Caller[:]...), c.key.Key...)
}

// ClaimIdempotencyKey claims the key sent in the Idempotency-Key header (its values) for the
// request with this fingerprint (a hash of method, path, query and body). A nil claim and
// nil error mean the request carries no valid credential: it is not covered, and its
// endpoint answers the credential error itself. A key sent twice, empty, longer than 255
// bytes or not printable ASCII is 400 INVALID_PARAMETER. The same key with another
// fingerprint is 422 IDEMPOTENCY_KEY_REUSED; with the same one, while the first request
// still runs, 409 IDEMPOTENCY_KEY_IN_USE.
func (r *Resolver) ClaimIdempotencyKey(ctx context.Context, header []string, fingerprint []byte) (*IdempotencyClaim, error) {
	// Every valid credential may read connectors, so this yields the caller of any valid
	// credential, API key or Connect Token, without granting anything.
	p, err := auth.Require(ctx, auth.ReadConnectors)
	if err != nil {
		return nil, nil
	}
	if len(header) != 1 || !validIdempotencyKey(header[0]) {
		return nil, model.Fail(model.CodeInvalidParameter, "The Idempotency-Key header must be sent once, with 1 to 255 printable ASCII characters.")
	}
	key := header[0]
	c := &IdempotencyClaim{store: r.DB, sealer: r.Auth.AnswerSealer(), key: db.IdempotencyKey{ClientID: p.ClientID, Key: key}, owner: uuid.New()}
	if p.IsConnectToken() {
		c.key.Caller = p.TokenID
	}
	// A holder that releases between the claim and the read leaves nothing to read; the
	// key is then free, so claiming again succeeds unless a third request got it first.
	for range 3 {
		claimed, rec, err := r.DB.ClaimIdempotencyKey(ctx, c.key, fingerprint, c.owner, IdempotencyTTL, IdempotencyStaleClaim)
		if err != nil {
			return nil, err
		}
		if claimed {
			return c, nil
		}
		if rec == nil {
			continue
		}
		if !bytes.Equal(rec.Fingerprint, fingerprint) {
			return nil, model.Fail(model.CodeIdempotencyKeyReused,
				"This Idempotency-Key was already used with another request (method, path, query or body differ); use a new key for a new request.")
		}
		if rec.Response == nil {
			break
		}
		body, err := c.sealer.Open(rec.Response.Body, c.associatedData())
		if err != nil {
			// Only a changed master key does this; the answer cannot be replayed, and
			// running the request again could repeat what it did.
			return nil, fmt.Errorf("open the answer kept for an idempotency key: %w", err)
		}
		c.Replay = &db.StoredResponse{Status: rec.Response.Status, ContentType: rec.Response.ContentType, Body: body}
		return c, nil
	}
	return nil, model.Fail(model.CodeIdempotencyKeyInUse,
		"A request with this Idempotency-Key is still being processed; retry once it has finished to receive its answer.")
}

// Keep stores the first answer, sealed, for IdempotencyTTL.
func (c *IdempotencyClaim) Keep(ctx context.Context, status int, contentType string, body []byte) error {
	sealed := c.sealer.Seal(body, c.associatedData())
	_, err := c.store.CompleteIdempotencyKey(ctx, c.key, c.owner, db.StoredResponse{Status: status, ContentType: contentType, Body: sealed}, IdempotencyTTL)
	return err
}

// Release frees the key after a failure the client should be able to retry.
func (c *IdempotencyClaim) Release(ctx context.Context) error {
	return c.store.ReleaseIdempotencyKey(ctx, c.key, c.owner)
}

// RunIdempotencyPurge deletes expired Idempotency-Key answers at start and then
// periodically until ctx ends. Claims also take over expired keys as they meet them; this
// bounds the table for keys never sent again.
func (r *Resolver) RunIdempotencyPurge(ctx context.Context) {
	t := time.NewTicker(idempotencyPurgeEvery)
	defer t.Stop()
	for {
		if n, err := r.DB.PurgeIdempotencyKeys(ctx); err != nil && ctx.Err() == nil {
			r.Log.Warn("idempotency key purge failed", "err", err)
		} else if n > 0 {
			r.Log.Debug("purged expired idempotency keys", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// validIdempotencyKey accepts 1 to 255 printable ASCII characters.
func validIdempotencyKey(k string) bool {
	if k == "" || len(k) > 255 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}
