package db

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// RealResources counts what clientID owns outside the sandbox: items on connectors whose
// isSandbox is false (institutions, statement files), payment requests and smart accounts
// with isSandbox false. The clean slate refuses to run while any exists. What hangs on an
// item (a boleto connection) or on a request goes with it and is not counted apart.
func (tx *Tx) RealResources(ctx context.Context, clientID uuid.UUID) (int, error) {
	var n int
	err := tx.pg.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM items i JOIN connectors c ON c.id = i.connector_id WHERE i.client_id = $1 AND NOT c.is_sandbox)
		+ (SELECT count(*) FROM payment_requests WHERE client_id = $1 AND NOT is_sandbox)
		+ (SELECT count(*) FROM smart_accounts WHERE client_id = $1 AND NOT is_sandbox)`, clientID).Scan(&n)
	return n, err
}

// DeleteClientData removes everything clientID owns but the application itself (its
// secret, keys, RSA key and settings): items and all collected for them, payments of every
// kind, customers, recipients, smart accounts, boletos, webhooks, events and deliveries,
// connect tokens, category corrections, connector settings, fault injection rules, test clocks
// and custom sandbox users. Ledger entries stay: the
// ledger is append-only (migration 0027), and its entries name accounts by id only.
// The order follows the foreign keys, children first.
func (tx *Tx) DeleteClientData(ctx context.Context, clientID uuid.UUID) (*model.SandboxCleanSlate, error) {
	out := &model.SandboxCleanSlate{ClientID: clientID}
	tx.changingAccounts(uuid.Nil) // the client's items, whichever they are
	steps := []struct {
		sql   string
		count *int
	}{
		{`DELETE FROM bulk_payments WHERE client_id = $1`, &out.BulkPayments},
		{`DELETE FROM automatic_pix_payments WHERE client_id = $1`, nil},
		{`DELETE FROM scheduled_payments WHERE client_id = $1`, nil},
		{`DELETE FROM payment_intents WHERE client_id = $1`, &out.PaymentIntents},
		{`DELETE FROM payment_requests WHERE client_id = $1`, &out.PaymentRequests},
		{`DELETE FROM smart_transfer_payments WHERE client_id = $1`, nil},
		{`DELETE FROM smart_transfer_preauthorizations WHERE client_id = $1`, &out.SmartTransferPreauthorizations},
		{`DELETE FROM boletos WHERE client_id = $1`, &out.Boletos},
		{`DELETE FROM boleto_connections WHERE client_id = $1`, &out.BoletoConnections},
		{`DELETE FROM smart_accounts WHERE client_id = $1`, &out.SmartAccounts},
		{`DELETE FROM payment_recipients WHERE client_id = $1`, &out.PaymentRecipients},
		{`DELETE FROM payment_customers WHERE client_id = $1`, &out.PaymentCustomers},
		{`DELETE FROM webhook_deliveries WHERE client_id = $1`, &out.Deliveries},
		{`DELETE FROM events WHERE client_id = $1`, &out.Events},
		{`DELETE FROM webhooks WHERE client_id = $1`, &out.Webhooks},
		// Transactions carry no foreign key (migration 0003); the rest of an item goes with it.
		{`DELETE FROM transactions WHERE account_id IN (SELECT a.id FROM accounts a JOIN items i ON i.id = a.item_id WHERE i.client_id = $1)`, nil},
		{`DELETE FROM items WHERE client_id = $1`, &out.Items},
		{`DELETE FROM connect_tokens WHERE client_id = $1`, nil},
		{`DELETE FROM category_feedback WHERE client_id = $1`, nil},
		{`DELETE FROM connector_settings WHERE client_id = $1`, nil},
	}
	for _, s := range steps {
		tag, err := tx.pg.Exec(ctx, s.sql, clientID)
		if err != nil {
			return nil, err
		}
		if s.count != nil {
			*s.count = int(tag.RowsAffected())
		}
	}
	// Rules are one row holding a list: the client counts rules, not rows.
	err := tx.pg.QueryRow(ctx, `WITH d AS (DELETE FROM sandbox_faults WHERE client_id = $1 RETURNING rules)
		SELECT coalesce(sum(jsonb_array_length(rules)), 0)::int FROM d`, clientID).Scan(&out.FaultRules)
	if err != nil {
		return nil, err
	}
	// A clock's due work waits in its queue; it goes with the clock, as DeleteTestClock does.
	if _, err := tx.pg.Exec(ctx, `DELETE FROM river_job WHERE queue = $2 AND state IN ('available', 'scheduled', 'retryable')
		AND metadata->>'testClockId' IN (SELECT id::text FROM test_clocks WHERE client_id = $1)`, clientID, TestClockQueue); err != nil {
		return nil, err
	}
	for _, s := range []struct {
		sql   string
		count *int
	}{
		{`DELETE FROM test_clocks WHERE client_id = $1`, &out.TestClocks},
		{`DELETE FROM sandbox_users WHERE client_id = $1`, &out.SandboxUsers},
	} {
		tag, err := tx.pg.Exec(ctx, s.sql, clientID)
		if err != nil {
			return nil, err
		}
		*s.count = int(tag.RowsAffected())
	}
	return out, nil
}
