package db

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// ErrDuplicateWebhook is returned when an application already has a webhook for the same
// URL and event.
var ErrDuplicateWebhook = errors.New("duplicate webhook")

// ErrWebhookLimit is returned when an application already has as many webhooks as it may.
var ErrWebhookLimit = errors.New("webhook limit reached")

const webhookColumns = `id, url, event, headers_sealed, headers_plaintext, created_at, updated_at, disabled_at`

// StoredWebhook is a webhook row. Its custom headers stay sealed here: the webhooks engine
// opens them. LegacyHeaders are plaintext headers written before migration 0011, until the
// engine seals them at start.
type StoredWebhook struct {
	*model.Webhook
	SealedHeaders []byte
	LegacyHeaders map[string]string
}

func scanWebhook(r pgx.Row) (*StoredWebhook, error) {
	w := &StoredWebhook{Webhook: &model.Webhook{}}
	var created, updated time.Time
	var disabled *time.Time
	if err := r.Scan(&w.ID, &w.URL, &w.Event, &w.SealedHeaders, &w.LegacyHeaders, &created, &updated, &disabled); err != nil {
		return nil, err
	}
	w.CreatedAt, w.UpdatedAt = model.NewTime(created), model.NewTime(updated)
	if disabled != nil {
		t := model.NewTime(*disabled)
		w.DisabledAt = &t
	}
	return w, nil
}

// InsertWebhook stores a new webhook of clientID with its sealed headers (nil: none),
// unless the application already has limit webhooks. The application's row is locked first,
// so concurrent creates count one after the other and never pass the limit together.
func (d *DB) InsertWebhook(ctx context.Context, clientID uuid.UUID, w *model.Webhook, sealedHeaders []byte, limit int) error {
	err := d.InTx(ctx, func(ctx context.Context, tx *Tx) error {
		if _, err := tx.pg.Exec(ctx, `SELECT 1 FROM client_applications WHERE id = $1 FOR NO KEY UPDATE`, clientID); err != nil {
			return err
		}
		var n int
		if err := tx.pg.QueryRow(ctx, `SELECT count(*) FROM webhooks WHERE client_id = $1`, clientID).Scan(&n); err != nil {
			return err
		}
		if n >= limit {
			return ErrWebhookLimit
		}
		_, err := tx.pg.Exec(ctx, `INSERT INTO webhooks (id, client_id, url, event, headers_sealed, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6)`, w.ID, clientID, w.URL, w.Event, sealedHeaders, w.CreatedAt.Time)
		return err
	})
	if pgCode(err) == sqlstateUniqueViolation {
		return ErrDuplicateWebhook
	}
	return err
}

// UpdateWebhook writes a webhook back with its sealed headers; found is false for unknown
// or foreign ids.
func (c *conn) UpdateWebhook(ctx context.Context, clientID uuid.UUID, w *model.Webhook, sealedHeaders []byte) (bool, error) {
	var disabled *time.Time
	if w.DisabledAt != nil {
		disabled = &w.DisabledAt.Time
	}
	// Disabling cancels the deliveries still waiting.
	tag, err := c.pg.Exec(ctx, `WITH canceled AS (UPDATE webhook_deliveries SET status = 'CANCELED', updated_at = now()
			WHERE webhook_id = $1 AND client_id = $2 AND status = 'PENDING' AND $6::timestamptz IS NOT NULL)
		UPDATE webhooks SET url = $3, event = $4, headers_sealed = $5, headers_plaintext = NULL, disabled_at = $6, updated_at = $7
		WHERE id = $1 AND client_id = $2`, w.ID, clientID, w.URL, w.Event, sealedHeaders, disabled, w.UpdatedAt.Time)
	if pgCode(err) == sqlstateUniqueViolation {
		return false, ErrDuplicateWebhook
	}
	return err == nil && tag.RowsAffected() == 1, err
}

// Webhook reads one of clientID's webhooks.
func (c *conn) Webhook(ctx context.Context, clientID, id uuid.UUID) (*StoredWebhook, bool, error) {
	w, err := scanWebhook(c.pg.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE id = $1 AND client_id = $2`, id, clientID))
	if isNoRows(err) {
		return nil, false, nil
	}
	return w, err == nil, err
}

// DeleteWebhook removes one of clientID's webhooks and returns it; its waiting deliveries
// are canceled.
func (c *conn) DeleteWebhook(ctx context.Context, clientID, id uuid.UUID) (*StoredWebhook, bool, error) {
	w, err := scanWebhook(c.pg.QueryRow(ctx, `WITH canceled AS (UPDATE webhook_deliveries SET status = 'CANCELED', updated_at = now()
			WHERE webhook_id = $1 AND client_id = $2 AND status = 'PENDING')
		DELETE FROM webhooks WHERE id = $1 AND client_id = $2 RETURNING `+webhookColumns, id, clientID))
	if isNoRows(err) {
		return nil, false, nil
	}
	return w, err == nil, err
}

// Webhooks lists clientID's webhooks, oldest first.
func (c *conn) Webhooks(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*StoredWebhook, int, error) {
	var total int
	if err := c.pg.QueryRow(ctx, `SELECT count(*) FROM webhooks WHERE client_id = $1`, clientID).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := c.pg.Query(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE client_id = $1
		ORDER BY created_at, id LIMIT $2 OFFSET $3`, clientID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*StoredWebhook, error) { return scanWebhook(r) })
	return list, total, err
}

// SealLegacyWebhookHeaders replaces every plaintext header set left by migration 0011 with
// what seal makes of it, one webhook at a time, and returns how many it sealed. SQL cannot
// seal (the key is the service's), so the service does it at start.
func (c *conn) SealLegacyWebhookHeaders(ctx context.Context, seal func(id uuid.UUID, headers map[string]string) ([]byte, error)) (int, error) {
	rows, err := c.pg.Query(ctx, `SELECT id, headers_plaintext FROM webhooks WHERE headers_plaintext IS NOT NULL`)
	if err != nil {
		return 0, err
	}
	type legacy struct {
		id      uuid.UUID
		headers map[string]string
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (legacy, error) {
		var l legacy
		return l, r.Scan(&l.id, &l.headers)
	})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, l := range list {
		sealed, err := seal(l.id, l.headers)
		if err != nil {
			return n, err
		}
		// A row changed since it was read was written sealed by then: left alone.
		tag, err := c.pg.Exec(ctx, `UPDATE webhooks SET headers_sealed = $2, headers_plaintext = NULL
			WHERE id = $1 AND headers_plaintext IS NOT NULL`, l.id, sealed)
		if err != nil {
			return n, err
		}
		n += int(tag.RowsAffected())
	}
	return n, nil
}

// WebhookTarget is an enabled webhook an event goes to.
type WebhookTarget struct {
	ID  uuid.UUID
	URL string
}

// MatchingWebhooks lists clientID's enabled webhooks for an event name (or all), inside the
// transaction that records the event.
func (tx *Tx) MatchingWebhooks(ctx context.Context, clientID uuid.UUID, event string) ([]WebhookTarget, error) {
	rows, err := tx.pg.Query(ctx, `SELECT id, url FROM webhooks
		WHERE client_id = $1 AND event IN ($2, 'all') AND disabled_at IS NULL ORDER BY created_at, id`, clientID, event)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[WebhookTarget])
}

// DeliveryRow is a delivery to write.
type DeliveryRow struct {
	ID        uuid.UUID
	EventID   uuid.UUID
	ClientID  uuid.UUID
	WebhookID *uuid.UUID
	URL       string
}

// InsertDeliveries writes an event's deliveries in its transaction.
func (tx *Tx) InsertDeliveries(ctx context.Context, list []DeliveryRow) error {
	for _, r := range list {
		if _, err := tx.pg.Exec(ctx, `INSERT INTO webhook_deliveries (id, event_id, client_id, webhook_id, url)
			VALUES ($1, $2, $3, $4, $5)`, r.ID, r.EventID, r.ClientID, r.WebhookID, r.URL); err != nil {
			return err
		}
	}
	return nil
}

// PendingDelivery is what sending a delivery needs. The headers are its webhook's, read
// when it is sent (none for a resource's own webhookUrl).
type PendingDelivery struct {
	ID            uuid.UUID
	ClientID      uuid.UUID
	URL           string
	WebhookID     *uuid.UUID
	SealedHeaders []byte
	LegacyHeaders map[string]string
	Status        string
	Attempts      int
	EventID       uuid.UUID
	Event         string
	Payload       json.RawMessage
	CreatedAt     time.Time
}

const pendingDeliveryQuery = `SELECT w.id, w.client_id, w.url, h.id, h.headers_sealed, h.headers_plaintext, w.status, w.attempts,
		e.id, e.event, e.payload, w.created_at
	FROM webhook_deliveries w JOIN events e ON e.id = w.event_id LEFT JOIN webhooks h ON h.id = w.webhook_id `

func scanPendingDelivery(r pgx.Row) (*PendingDelivery, error) {
	p := &PendingDelivery{}
	err := r.Scan(&p.ID, &p.ClientID, &p.URL, &p.WebhookID, &p.SealedHeaders, &p.LegacyHeaders, &p.Status, &p.Attempts, &p.EventID, &p.Event, &p.Payload, &p.CreatedAt)
	return p, err
}

// Delivery reads a delivery with its event; found is false once it is gone (its event or
// client deleted).
func (c *conn) Delivery(ctx context.Context, id uuid.UUID) (*PendingDelivery, bool, error) {
	p, err := scanPendingDelivery(c.pg.QueryRow(ctx, pendingDeliveryQuery+`WHERE w.id = $1`, id))
	if isNoRows(err) {
		return nil, false, nil
	}
	return p, err == nil, err
}

// Deliveries is Delivery for several deliveries in one statement; those gone are absent.
func (c *conn) Deliveries(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]*PendingDelivery, error) {
	rows, err := c.pg.Query(ctx, pendingDeliveryQuery+`WHERE w.id = ANY($1)`, ids)
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*PendingDelivery, error) { return scanPendingDelivery(r) })
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*PendingDelivery, len(list))
	for _, p := range list {
		out[p.ID] = p
	}
	return out, nil
}

// RecordAttempt logs an attempt and moves the delivery to status, in one statement (so
// both or neither are written, in one round trip).
func (c *conn) RecordAttempt(ctx context.Context, deliveryID uuid.UUID, a *model.WebhookAttempt, status string) error {
	_, err := c.pg.Exec(ctx, `WITH logged AS (
			INSERT INTO webhook_attempts (id, delivery_id, attempt, attempted_at, url, status_code, latency_ms, error, response)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9))
		UPDATE webhook_deliveries SET attempts = $3, status = $10, updated_at = now(),
			delivered_at = CASE WHEN $10 = 'DELIVERED' THEN now() ELSE delivered_at END WHERE id = $2`,
		uuid.New(), deliveryID, a.Attempt, a.AttemptedAt.Time, a.URL, a.StatusCode, a.LatencyMs, a.Error, a.Response, status)
	return err
}

// AttemptRecord is an attempt to log and the status it moves its delivery to.
type AttemptRecord struct {
	DeliveryID uuid.UUID
	Attempt    *model.WebhookAttempt
	Status     string
}

// RecordAttempts is RecordAttempt for several deliveries in one statement: all are
// written or none.
func (c *conn) RecordAttempts(ctx context.Context, list []AttemptRecord) error {
	n := len(list)
	ids, deliveries := make([]uuid.UUID, n), make([]uuid.UUID, n)
	attempts, latencies := make([]int, n), make([]int, n)
	at := make([]time.Time, n)
	urls, statuses := make([]string, n), make([]string, n)
	codes := make([]*int, n)
	errs, responses := make([]*string, n), make([]*string, n)
	for i, r := range list {
		ids[i], deliveries[i] = uuid.New(), r.DeliveryID
		attempts[i], latencies[i], at[i] = r.Attempt.Attempt, r.Attempt.LatencyMs, r.Attempt.AttemptedAt.Time
		urls[i], statuses[i], codes[i] = r.Attempt.URL, r.Status, r.Attempt.StatusCode
		errs[i], responses[i] = r.Attempt.Error, r.Attempt.Response
	}
	_, err := c.pg.Exec(ctx, `WITH a AS (
			SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::timestamptz[], $5::text[], $6::int[], $7::int[], $8::text[], $9::text[], $10::text[])
				AS t(id, delivery_id, attempt, attempted_at, url, status_code, latency_ms, error, response, status)),
		logged AS (
			INSERT INTO webhook_attempts (id, delivery_id, attempt, attempted_at, url, status_code, latency_ms, error, response)
			SELECT id, delivery_id, attempt, attempted_at, url, status_code, latency_ms, error, response FROM a)
		UPDATE webhook_deliveries w SET attempts = a.attempt, status = a.status, updated_at = now(),
			delivered_at = CASE WHEN a.status = 'DELIVERED' THEN now() ELSE w.delivered_at END
		FROM a WHERE w.id = a.delivery_id`, ids, deliveries, attempts, at, urls, codes, latencies, errs, responses, statuses)
	return err
}

// SetDeliveryStatus ends a delivery without an attempt (its webhook was disabled meanwhile).
func (c *conn) SetDeliveryStatus(ctx context.Context, id uuid.UUID, status string) error {
	_, err := c.pg.Exec(ctx, `UPDATE webhook_deliveries SET status = $2, updated_at = now() WHERE id = $1`, id, status)
	return err
}

const deliveryColumns = `w.id, w.event_id, e.event, w.webhook_id, w.url, w.status, w.attempts, w.created_at, w.updated_at, w.delivered_at`

func (c *conn) deliveries(ctx context.Context, where string, args ...any) ([]*model.WebhookDelivery, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries w JOIN events e ON e.id = w.event_id `+where, args...)
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*model.WebhookDelivery, error) {
		v := &model.WebhookDelivery{AttemptLog: []*model.WebhookAttempt{}}
		var created, updated time.Time
		var delivered *time.Time
		if err := r.Scan(&v.ID, &v.EventID, &v.Event, &v.WebhookID, &v.URL, &v.Status, &v.Attempts, &created, &updated, &delivered); err != nil {
			return nil, err
		}
		v.CreatedAt, v.UpdatedAt = model.NewTime(created), model.NewTime(updated)
		if delivered != nil {
			t := model.NewTime(*delivered)
			v.DeliveredAt = &t
		}
		return v, nil
	})
	if err != nil || len(out) == 0 {
		return out, err
	}
	ids := make([]uuid.UUID, len(out))
	byID := make(map[uuid.UUID]*model.WebhookDelivery, len(out))
	for i, v := range out {
		ids[i] = v.ID
		byID[v.ID] = v
	}
	rows, err = c.pg.Query(ctx, `SELECT delivery_id, attempt, attempted_at, url, status_code, latency_ms, error, response
		FROM webhook_attempts WHERE delivery_id = ANY($1) ORDER BY attempted_at, attempt`, ids)
	if err != nil {
		return nil, err
	}
	type attempt struct {
		delivery uuid.UUID
		attempt  *model.WebhookAttempt
	}
	attempts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (attempt, error) {
		a := attempt{attempt: &model.WebhookAttempt{}}
		var at time.Time
		err := r.Scan(&a.delivery, &a.attempt.Attempt, &at, &a.attempt.URL, &a.attempt.StatusCode, &a.attempt.LatencyMs, &a.attempt.Error, &a.attempt.Response)
		a.attempt.AttemptedAt = model.NewTime(at)
		return a, err
	})
	if err != nil {
		return nil, err
	}
	for _, a := range attempts {
		byID[a.delivery].AttemptLog = append(byID[a.delivery].AttemptLog, a.attempt)
	}
	return out, nil
}

// WebhookDeliveries lists a webhook's deliveries, newest first, with their attempts.
func (d *DB) WebhookDeliveries(ctx context.Context, clientID, webhookID uuid.UUID, limit, offset int) ([]*model.WebhookDelivery, int, error) {
	var total int
	if err := d.pg.QueryRow(ctx, `SELECT count(*) FROM webhook_deliveries WHERE webhook_id = $1 AND client_id = $2`, webhookID, clientID).Scan(&total); err != nil {
		return nil, 0, err
	}
	list, err := d.deliveries(ctx, `WHERE w.webhook_id = $1 AND w.client_id = $2 ORDER BY w.created_at DESC, w.id DESC LIMIT $3 OFFSET $4`,
		webhookID, clientID, limit, offset)
	return list, total, err
}

// EventDeliveries lists the deliveries of some events, with their attempts.
func (d *DB) EventDeliveries(ctx context.Context, clientID uuid.UUID, eventIDs []uuid.UUID) (map[uuid.UUID][]*model.WebhookDelivery, error) {
	list, err := d.deliveries(ctx, `WHERE w.event_id = ANY($1) AND w.client_id = $2 ORDER BY w.created_at, w.id`, eventIDs, clientID)
	if err != nil {
		return nil, err
	}
	out := map[uuid.UUID][]*model.WebhookDelivery{}
	for _, v := range list {
		out[v.EventID] = append(out[v.EventID], v)
	}
	return out, nil
}

// Event reads one of clientID's events.
func (d *DB) Event(ctx context.Context, clientID, id uuid.UUID) (*Event, bool, error) {
	e := new(Event)
	err := d.bun.NewSelect().Model(e).Where("ev.id = ? AND ev.client_id = ?", id, clientID).Scan(ctx)
	if isNoRows(err) {
		return nil, false, nil
	}
	return e, err == nil, err
}

// RestartDeliveries sets an event's deliveries pending again, inside tx, and returns them.
func (tx *Tx) RestartDeliveries(ctx context.Context, clientID, eventID uuid.UUID) ([]uuid.UUID, error) {
	rows, err := tx.pg.Query(ctx, `UPDATE webhook_deliveries SET status = 'PENDING', attempts = 0, updated_at = now()
		WHERE event_id = $1 AND client_id = $2 RETURNING id`, eventID, clientID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
}

// WebhookSecrets are an application's sealed signing secrets.
type WebhookSecrets struct {
	Current, Previous []byte
	RotatedAt         *time.Time
}

// ClientWebhookSecrets reads an application's signing secrets; make seals a new one when
// it has none yet (concurrent callers agree on the first one written).
func (c *conn) ClientWebhookSecrets(ctx context.Context, clientID uuid.UUID, newSecret func() []byte) (*WebhookSecrets, error) {
	s := &WebhookSecrets{}
	err := c.pg.QueryRow(ctx, `SELECT webhook_secret, webhook_secret_previous, webhook_secret_rotated_at FROM client_applications WHERE id = $1`,
		clientID).Scan(&s.Current, &s.Previous, &s.RotatedAt)
	if err != nil || s.Current != nil {
		return s, err
	}
	err = c.pg.QueryRow(ctx, `UPDATE client_applications SET webhook_secret = coalesce(webhook_secret, $2) WHERE id = $1
		RETURNING webhook_secret`, clientID, newSecret()).Scan(&s.Current)
	return s, err
}

// RotateClientWebhookSecret makes sealed the current secret and keeps the old one as the
// previous.
func (c *conn) RotateClientWebhookSecret(ctx context.Context, clientID uuid.UUID, sealed []byte, now time.Time) error {
	_, err := c.pg.Exec(ctx, `UPDATE client_applications SET webhook_secret_previous = webhook_secret, webhook_secret = $2,
		webhook_secret_rotated_at = $3 WHERE id = $1`, clientID, sealed, now)
	return err
}
