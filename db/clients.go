package db

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// CreateClient stores a new client application.
func (d *DB) CreateClient(ctx context.Context, c *model.ClientApplication) error {
	now := model.NewTime(time.Now())
	c.CreatedAt, c.UpdatedAt = now, now
	_, err := d.bun.NewInsert().Model(c).Exec(ctx)
	return err
}

// Client reads one client application; found is false when there is none.
func (d *DB) Client(ctx context.Context, id uuid.UUID) (*model.ClientApplication, bool, error) {
	// pgx, not bun: a POST /auth reads this row whenever auth's client cache cannot answer
	// (no listener, a client not seen since its last change), and bun's way through
	// database/sql took database/sql's one pool-wide lock twice a statement. Under load its
	// waits were the longest a call spent off the CPU (an execution trace at 5,600 calls a
	// second).
	c := new(model.ClientApplication)
	err := d.pg.QueryRow(ctx, `SELECT id, name, enabled, secret_hash, credential_generation, created_at, updated_at FROM client_applications WHERE id = $1`, id).
		Scan(&c.ID, &c.Name, &c.Enabled, &c.SecretHash, &c.CredentialGeneration, &c.CreatedAt, &c.UpdatedAt)
	if isNoRows(err) {
		return nil, false, nil
	}
	return c, err == nil, err
}

// ClientEnabled reports whether the client exists and is enabled, and the generation of its
// credentials (migration 0025): the check every authenticated request makes, so it reads
// two columns of one row by its key.
func (d *DB) ClientEnabled(ctx context.Context, id uuid.UUID) (enabled, found bool, generation int64, err error) {
	err = d.pg.QueryRow(ctx, `SELECT enabled, credential_generation FROM client_applications WHERE id = $1`, id).Scan(&enabled, &generation)
	if isNoRows(err) {
		return false, false, 0, nil
	}
	return enabled, err == nil, generation, err
}

// UpsertClient makes the client with c.ID exist with c's name and secret hash, leaving its
// enabled flag as an operator set it. created reports a new row. A replaced hash is a new
// secret: it revokes the client's API keys (migration 0025), so a stronger hash of the same
// secret goes through ReplaceClientSecretHash instead.
func (d *DB) UpsertClient(ctx context.Context, c *model.ClientApplication) (created bool, err error) {
	now := model.NewTime(time.Now())
	c.CreatedAt, c.UpdatedAt = now, now
	var inserted bool
	err = d.bun.NewInsert().Model(c).
		On("CONFLICT (id) DO UPDATE").
		Set("secret_hash = EXCLUDED.secret_hash, updated_at = EXCLUDED.updated_at").
		Returning("(xmax = 0) AS inserted").
		Scan(ctx, &inserted)
	return inserted, err
}

// ReplaceClientSecretHash stores a rehash of the client's secret, unless the stored hash
// changed since it was read (an operator set a new secret meanwhile). It is the same
// secret, so it tells migration 0025's trigger not to revoke the client's API keys.
func (d *DB) ReplaceClientSecretHash(ctx context.Context, id uuid.UUID, old, hash string) error {
	return pgx.BeginFunc(ctx, d.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT set_config('ponte.same_secret', 'on', true)`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE client_applications SET secret_hash = $3 WHERE id = $1 AND secret_hash = $2`, id, old, hash)
		return err
	})
}

// The channels of migrations 0013 and 0024: a change of a client's enabled flag or secret
// hash, and each listening process's acknowledgement that it dropped what it cached.
const (
	clientChangedChannel = "ponte_client_changed"
	clientAckChannel     = "ponte_client_changed_ack"
	// clientListenerName marks listening sessions in pg_stat_activity, so a writer knows
	// how many acknowledgements to wait for.
	clientListenerName = "ponte-client-listener"
	// OriginIssuedChannel carries the targetOrigin of each Connect Token issued, so every
	// listening process drops what it remembered of that origin.
	OriginIssuedChannel = "ponte_origin_issued"
)

// SetClientEnabled enables or disables a client; found is false when there is none. A
// disable moves the client's credential generation in the same statement (migration 0025),
// so the keys issued before it stay refused after a later enable. The
// change reaches every process listening with ListenClients in the same transaction, and
// SetClientEnabled returns once each of them acknowledged it or wait passed; unacked counts
// those that did not answer in time.
func (d *DB) SetClientEnabled(ctx context.Context, id uuid.UUID, enabled bool, wait time.Duration) (found bool, unacked int, err error) {
	conn, err := d.Pool.Acquire(ctx)
	if err != nil {
		return false, 0, err
	}
	// The session listens for the acknowledgements: it must not go back to the pool
	// still listening.
	defer func() {
		if _, err := conn.Exec(context.WithoutCancel(ctx), `UNLISTEN *`); err != nil {
			_ = conn.Hijack().Close(context.WithoutCancel(ctx))
			return
		}
		conn.Release()
	}()
	if _, err := conn.Exec(ctx, `LISTEN `+clientAckChannel); err != nil {
		return false, 0, err
	}
	var xid string
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE client_applications SET enabled = $2, updated_at = now() WHERE id = $1`, id, enabled)
		if err != nil {
			return err
		}
		found = tag.RowsAffected() == 1
		return tx.QueryRow(ctx, `SELECT txid_current()::text`).Scan(&xid)
	})
	if err != nil || !found {
		return found, 0, err
	}
	var listeners int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
		clientListenerName).Scan(&listeners); err != nil {
		return true, 0, err
	}
	payload := id.String() + ":" + xid
	waitCtx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for listeners > 0 {
		n, err := conn.Conn().WaitForNotification(waitCtx)
		if err != nil {
			break
		}
		if n.Payload == payload {
			listeners--
		}
	}
	return true, listeners, nil
}

// ClientListener is a dedicated session listening for changes of clients' enabled flags and
// secret hashes.
type ClientListener struct{ conn *pgx.Conn }

// ListenClients opens a session outside the pool (a listening session stays busy) and
// listens on the clients' channel and on OriginIssuedChannel. Only then does it take the name writers count, in the
// same statement, so every counted session hears every later change.
func (d *DB) ListenClients(ctx context.Context) (*ClientListener, error) {
	conn, err := pgx.ConnectConfig(ctx, d.Pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, `LISTEN `+clientChangedChannel+`; LISTEN `+OriginIssuedChannel+`; SET application_name = '`+clientListenerName+`'`); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return &ClientListener{conn: conn}, nil
}

// Next waits for the next notification and returns its channel and payload: on the
// clients' channel the client id, a colon, and the id of the transaction that made the
// change; on OriginIssuedChannel an origin.
func (l *ClientListener) Next(ctx context.Context) (channel, payload string, err error) {
	n, err := l.conn.WaitForNotification(ctx)
	if err != nil {
		return "", "", err
	}
	return n.Channel, n.Payload, nil
}

// Ack tells the writer of a change that this process no longer trusts what it knew.
func (l *ClientListener) Ack(ctx context.Context, payload string) error {
	_, err := l.conn.Exec(ctx, `SELECT pg_notify($1, $2)`, clientAckChannel, payload)
	return err
}

// Close ends the session.
func (l *ClientListener) Close() { _ = l.conn.Close(context.Background()) }

// ListClients lists every client application, oldest first.
func (d *DB) ListClients(ctx context.Context) ([]*model.ClientApplication, error) {
	var list []*model.ClientApplication
	err := d.bun.NewSelect().Model(&list).Order("created_at", "id").Scan(ctx)
	return list, err
}

// ConnectTokenRow is the stored half of a connect token.
type ConnectTokenRow struct {
	ID        uuid.UUID                 `bun:"id,pk,type:uuid"`
	ClientID  uuid.UUID                 `bun:"client_id,type:uuid"`
	ItemID    *uuid.UUID                `bun:"item_id,type:uuid"`
	Options   model.ConnectTokenOptions `bun:"options,type:jsonb"`
	CreatedAt time.Time                 `bun:"created_at"`
	ExpiresAt time.Time                 `bun:"expires_at"`
}

// CreateConnectToken stores a connect token's row and, when it names a targetOrigin, that
// the origin is allowed until originUntil (real time: the token's own expiry may be in an
// item clock's time), both or neither.
func (d *DB) CreateConnectToken(ctx context.Context, t *ConnectTokenRow, originUntil time.Time) error {
	return d.InTx(ctx, func(ctx context.Context, tx *Tx) error {
		if _, err := tx.bun.NewInsert().Model(t).ModelTableExpr("connect_tokens").Exec(ctx); err != nil {
			return err
		}
		if t.Options.TargetOrigin == nil {
			return nil
		}
		if err := tx.allowBrowserOrigin(ctx, *t.Options.TargetOrigin, originUntil); err != nil {
			return err
		}
		// Delivered at commit, so no process hears of an origin the store does not hold yet.
		_, err := tx.pg.Exec(ctx, `SELECT pg_notify($1, $2)`, OriginIssuedChannel, *t.Options.TargetOrigin)
		return err
	})
}

// ConnectToken reads a connect token's row; found is false when there is none.
func (d *DB) ConnectToken(ctx context.Context, id uuid.UUID) (*ConnectTokenRow, bool, error) {
	t := new(ConnectTokenRow)
	err := d.bun.NewSelect().Model(t).ModelTableExpr("connect_tokens AS connect_token_row").Where("id = ?", id).Scan(ctx)
	if isNoRows(err) {
		return nil, false, nil
	}
	return t, err == nil, err
}

// ClientCount counts client applications.
func (c *conn) ClientCount(ctx context.Context) (int, error) {
	var n int
	err := c.pg.QueryRow(ctx, `SELECT count(*) FROM client_applications`).Scan(&n)
	return n, err
}

// ClientRSAKey reads the client's sealed RSA key; nil when none was made yet.
func (c *conn) ClientRSAKey(ctx context.Context, id uuid.UUID) ([]byte, error) {
	var k []byte
	err := c.pg.QueryRow(ctx, `SELECT rsa_key FROM client_applications WHERE id = $1`, id).Scan(&k)
	return k, err
}

// SetClientRSAKey stores a sealed key unless one exists.
func (c *conn) SetClientRSAKey(ctx context.Context, id uuid.UUID, sealed []byte) error {
	_, err := c.pg.Exec(ctx, `UPDATE client_applications SET rsa_key = $2 WHERE id = $1 AND rsa_key IS NULL`, id, sealed)
	return err
}

// PaymentPrice is the fee of one payment method: a fixed part plus a percentage.
type PaymentPrice struct {
	Fixed   float64 `json:"fixed"`
	Percent float64 `json:"percent"`
}

// ClientPaymentPricing reads an application's fees by payment method.
func (c *conn) ClientPaymentPricing(ctx context.Context, clientID uuid.UUID) (map[string]PaymentPrice, error) {
	var out map[string]PaymentPrice
	err := c.pg.QueryRow(ctx, `SELECT payment_pricing FROM client_applications WHERE id = $1`, clientID).Scan(&out)
	return out, err
}

// SetClientPaymentPricing replaces an application's fees by payment method.
func (c *conn) SetClientPaymentPricing(ctx context.Context, clientID uuid.UUID, p map[string]PaymentPrice) error {
	tag, err := c.pg.Exec(ctx, `UPDATE client_applications SET payment_pricing = $2 WHERE id = $1`, clientID, p)
	if err == nil && tag.RowsAffected() == 0 {
		return errors.New("no such client application")
	}
	return err
}
