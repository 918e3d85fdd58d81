// Package idempotency keeps the first answer to a request sent with an Idempotency-Key and
// replays it to the request's retries. It is HTTP infrastructure below rest: it knows keys,
// fingerprints and sealed answers, not what a request does. Its store (db) is reached
// through the small Store interface declared here.
package idempotency

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
)

const (
	// TTL is how long a first answer is kept for replay.
	TTL = 24 * time.Hour
	// StaleClaim is when a claim whose request never finished (its process died) may be
	// taken over. It matches the server's write time-out: past it, the first request could
	// no longer answer its client anyway.
	StaleClaim = 2 * time.Minute
	// purgeEvery paces the deletion of expired answers.
	purgeEvery = 10 * time.Minute
)

// Store keeps the keys and their answers (db.DB implements it).
type Store interface {
	// ClaimIdempotencyKey claims k for owner: claimed, or the key's state (nil when its
	// holder released it in the meantime).
	ClaimIdempotencyKey(ctx context.Context, k model.IdempotencyKey, fingerprint []byte, owner uuid.UUID,
		ttl, stale time.Duration) (claimed bool, rec *model.IdempotencyRecord, err error)
	// CompleteIdempotencyKey keeps owner's answer for ttl.
	CompleteIdempotencyKey(ctx context.Context, k model.IdempotencyKey, owner uuid.UUID, resp model.StoredResponse, ttl time.Duration) (bool, error)
	// ReleaseIdempotencyKey frees owner's unfinished claim.
	ReleaseIdempotencyKey(ctx context.Context, k model.IdempotencyKey, owner uuid.UUID) error
	// PurgeIdempotencyKeys deletes expired keys and says how many.
	PurgeIdempotencyKeys(ctx context.Context) (int64, error)
}

// Keys claims Idempotency-Keys and keeps their answers, sealed: an answer can carry
// credentials (a Connect Token, a rotated signing secret), which must not sit in the
// database in clear.
type Keys struct {
	store  Store
	sealer *auth.Sealer
	log    *slog.Logger
}

// New returns the keys kept in store, their answers sealed with sealer
// (auth.Service.AnswerSealer).
func New(store Store, sealer *auth.Sealer, log *slog.Logger) *Keys {
	return &Keys{store: store, sealer: sealer, log: log}
}

// Claim is the outcome of presenting an Idempotency-Key: either Replay is the first
// request's answer, or the request holds the key and must Keep its answer or Release the
// key.
type Claim struct {
	Replay *model.StoredResponse

	keys  *Keys
	key   model.IdempotencyKey
	owner uuid.UUID
}

// associatedData binds a kept answer to its application, caller and key, so an answer copied
// to another row does not open.
func (c *Claim) associatedData() []byte {
	return append(append(c.key.ClientID[:], c.key.Caller[:]...), c.key.Key...)
}

// Claim claims the key sent in the Idempotency-Key header (its values) for the request with
// this fingerprint (a hash of method, path, query and body). A nil claim and nil error mean
// the request carries no valid credential: it is not covered, and its endpoint answers the
// credential error itself. A key sent twice, empty, longer than 255 bytes or not printable
// ASCII is 400 INVALID_PARAMETER. The same key with another fingerprint is 422
// IDEMPOTENCY_KEY_REUSED; with the same one, while the first request still runs, 409
// IDEMPOTENCY_KEY_IN_USE.
func (k *Keys) Claim(ctx context.Context, header []string, fingerprint []byte) (*Claim, error) {
	// Every valid credential may read connectors, so this yields the caller of any valid
	// credential, API key or Connect Token, without granting anything.
	p, err := auth.Require(ctx, auth.ReadConnectors)
	if err != nil {
		return nil, nil
	}
	if len(header) != 1 || !validKey(header[0]) {
		return nil, model.Fail(model.CodeInvalidParameter, "The Idempotency-Key header must be sent once, with 1 to 255 printable ASCII characters.")
	}
	c := &Claim{keys: k, key: model.IdempotencyKey{ClientID: p.ClientID, Key: header[0]}, owner: uuid.New()}
	if p.IsConnectToken() {
		c.key.Caller = p.TokenID
	}
	// A holder that releases between the claim and the read leaves nothing to read; the
	// key is then free, so claiming again succeeds unless a third request got it first.
	for range 3 {
		claimed, rec, err := k.store.ClaimIdempotencyKey(ctx, c.key, fingerprint, c.owner, TTL, StaleClaim)
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
		body, err := k.sealer.Open(rec.Response.Body, c.associatedData())
		if err != nil {
			// Only a changed master key does this; the answer cannot be replayed, and
			// running the request again could repeat what it did.
			return nil, fmt.Errorf("open the answer kept for an idempotency key: %w", err)
		}
		c.Replay = &model.StoredResponse{Status: rec.Response.Status, ContentType: rec.Response.ContentType, Body: body}
		return c, nil
	}
	return nil, model.Fail(model.CodeIdempotencyKeyInUse,
		"A request with this Idempotency-Key is still being processed; retry once it has finished to receive its answer.")
}

// Keep stores the first answer, sealed, for TTL.
func (c *Claim) Keep(ctx context.Context, status int, contentType string, body []byte) error {
	sealed := c.keys.sealer.Seal(body, c.associatedData())
	_, err := c.keys.store.CompleteIdempotencyKey(ctx, c.key, c.owner, model.StoredResponse{Status: status, ContentType: contentType, Body: sealed}, TTL)
	return err
}

// Release frees the key after a failure the client should be able to retry.
func (c *Claim) Release(ctx context.Context) error {
	return c.keys.store.ReleaseIdempotencyKey(ctx, c.key, c.owner)
}

// RunPurge deletes expired answers at start and then periodically until ctx ends. Claims
// also take over expired keys as they meet them; this bounds the table for keys never sent
// again.
func (k *Keys) RunPurge(ctx context.Context) {
	t := time.NewTicker(purgeEvery)
	defer t.Stop()
	for {
		if n, err := k.store.PurgeIdempotencyKeys(ctx); err != nil && ctx.Err() == nil {
			k.log.Warn("idempotency key purge failed", "err", err)
		} else if n > 0 {
			k.log.Debug("purged expired idempotency keys", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// validKey accepts 1 to 255 printable ASCII characters.
func validKey(k string) bool {
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
