package db

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// PreauthorizationRow is a smart transfer pre-authorization as stored.
type PreauthorizationRow struct {
	ID, ClientID uuid.UUID
	ConnectorID  int
	Status       string
	Payer        PaymentPayer
	RecipientIDs []uuid.UUID
	// Recipients are the recipients as the payer was asked to approve them; payments
	// under the pre-authorization go to these copies.
	Recipients               []*model.PaymentRecipient
	Limits                   model.SmartTransferLimits
	ClientPreauthorizationID *string
	CallbackSuccess          *string
	CallbackError            *string
	ErrorDetail              *model.PaymentErrorDetail
	CreatedAt, UpdatedAt     time.Time
	// TestClockID names the sandbox test clock the pre-authorization lives on.
	TestClockID *uuid.UUID
}

const preauthCols = `id, client_id, connector_id, status, payer_cpf, payer_cnpj, payer_name, recipient_ids,
	limit_transaction::float8, limit_daily::float8, limit_weekly::float8, limit_monthly::float8, limit_yearly::float8, limit_total::float8,
	client_preauthorization_id, callback_success, callback_error, error_detail, created_at, updated_at, recipients, test_clock_id`

func scanPreauth(r pgx.CollectableRow) (*PreauthorizationRow, error) {
	p := &PreauthorizationRow{}
	l := &p.Limits
	err := r.Scan(&p.ID, &p.ClientID, &p.ConnectorID, &p.Status, &p.Payer.Cpf, &p.Payer.Cnpj, &p.Payer.Name, &p.RecipientIDs,
		&l.Transaction, &l.Daily, &l.Weekly, &l.Monthly, &l.Yearly, &l.Total,
		&p.ClientPreauthorizationID, &p.CallbackSuccess, &p.CallbackError, &p.ErrorDetail, &p.CreatedAt, &p.UpdatedAt, &p.Recipients, &p.TestClockID)
	return p, err
}

// InsertPreauthorization records a new pre-authorization.
func (c *conn) InsertPreauthorization(ctx context.Context, p *PreauthorizationRow) error {
	l := p.Limits
	_, err := c.pg.Exec(ctx, `INSERT INTO smart_transfer_preauthorizations (id, client_id, connector_id, status, payer_cpf, payer_cnpj,
		payer_name, recipient_ids, limit_transaction, limit_daily, limit_weekly, limit_monthly, limit_yearly, limit_total,
		client_preauthorization_id, callback_success, callback_error, error_detail, created_at, updated_at, recipients, test_clock_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
		p.ID, p.ClientID, p.ConnectorID, p.Status, p.Payer.Cpf, p.Payer.Cnpj, p.Payer.Name, p.RecipientIDs,
		l.Transaction, l.Daily, l.Weekly, l.Monthly, l.Yearly, l.Total,
		p.ClientPreauthorizationID, p.CallbackSuccess, p.CallbackError, p.ErrorDetail, p.CreatedAt, p.UpdatedAt, p.Recipients, p.TestClockID)
	return err
}

// Preauthorization reads a pre-authorization of a client (of any client when clientID is
// Nil: the payer's consent page); lock takes the row for the transaction, which serialises
// its moves and the payments made under it.
func (c *conn) Preauthorization(ctx context.Context, clientID, id uuid.UUID, lock bool) (*PreauthorizationRow, bool, error) {
	sql := `SELECT ` + preauthCols + ` FROM smart_transfer_preauthorizations WHERE id = $1
		AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR client_id = $2)`
	if lock {
		sql += ` FOR UPDATE`
	}
	rows, err := c.pg.Query(ctx, sql, id, clientID)
	if err != nil {
		return nil, false, err
	}
	list, err := pgx.CollectRows(rows, scanPreauth)
	if err != nil || len(list) == 0 {
		return nil, false, err
	}
	return list[0], true, nil
}

// Preauthorizations lists a page of a client's pre-authorizations, oldest first.
func (d *DB) Preauthorizations(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*PreauthorizationRow, int, error) {
	return pageWithTotal(ctx, d.pg, `SELECT `+preauthCols+`, count(*) OVER () FROM smart_transfer_preauthorizations
		WHERE client_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
		`SELECT count(*) FROM smart_transfer_preauthorizations WHERE client_id = $1`, 1, []any{clientID, limit, offset}, offset,
		func(r pgx.CollectableRow, total *int) (*PreauthorizationRow, error) {
			p := &PreauthorizationRow{}
			l := &p.Limits
			err := r.Scan(&p.ID, &p.ClientID, &p.ConnectorID, &p.Status, &p.Payer.Cpf, &p.Payer.Cnpj, &p.Payer.Name, &p.RecipientIDs,
				&l.Transaction, &l.Daily, &l.Weekly, &l.Monthly, &l.Yearly, &l.Total,
				&p.ClientPreauthorizationID, &p.CallbackSuccess, &p.CallbackError, &p.ErrorDetail, &p.CreatedAt, &p.UpdatedAt, &p.Recipients, &p.TestClockID, total)
			return p, err
		})
}

// SavePreauthorization writes a pre-authorization's status and error.
func (tx *Tx) SavePreauthorization(ctx context.Context, p *PreauthorizationRow) error {
	_, err := tx.pg.Exec(ctx, `UPDATE smart_transfer_preauthorizations SET status = $2, error_detail = $3, updated_at = $4 WHERE id = $1`,
		p.ID, p.Status, p.ErrorDetail, p.UpdatedAt)
	return err
}

// SmartTransferSpent is what a pre-authorization's payments that have not failed add up
// to, in cents, since each of the given instants (the starts of the current day, week,
// month and year), and in all.
func (tx *Tx) SmartTransferSpent(ctx context.Context, preauth uuid.UUID, since [4]time.Time, failed []string) ([5]int64, error) {
	var s [5]int64
	err := tx.pg.QueryRow(ctx, `SELECT
		(COALESCE(sum(amount) FILTER (WHERE created_at >= $2), 0) * 100)::bigint,
		(COALESCE(sum(amount) FILTER (WHERE created_at >= $3), 0) * 100)::bigint,
		(COALESCE(sum(amount) FILTER (WHERE created_at >= $4), 0) * 100)::bigint,
		(COALESCE(sum(amount) FILTER (WHERE created_at >= $5), 0) * 100)::bigint,
		(COALESCE(sum(amount), 0) * 100)::bigint
		FROM smart_transfer_payments WHERE preauthorization_id = $1 AND status <> ALL($6)`,
		preauth, since[0], since[1], since[2], since[3], failed).Scan(&s[0], &s[1], &s[2], &s[3], &s[4])
	return s, err
}

// SmartTransferPaymentRow is a smart transfer payment as stored.
type SmartTransferPaymentRow struct {
	ID, ClientID, PreauthorizationID, RecipientID uuid.UUID
	// Recipient is the pre-authorization's copy of the recipient: where the money goes.
	Recipient                    *model.PaymentRecipient
	Amount                       float64
	Description, ClientPaymentID *string
	Status                       string
	ErrorDetail                  *model.PaymentErrorDetail
	CreatedAt, UpdatedAt         time.Time
}

const stPaymentCols = `id, client_id, preauthorization_id, recipient_id, amount::float8, description, client_payment_id, status,
	error_detail, created_at, updated_at, recipient`

// InsertSmartTransferPayment records a payment in the transaction that checked its limits.
func (tx *Tx) InsertSmartTransferPayment(ctx context.Context, p *SmartTransferPaymentRow) error {
	_, err := tx.pg.Exec(ctx, `INSERT INTO smart_transfer_payments (`+`id, client_id, preauthorization_id, recipient_id, amount, description,
		client_payment_id, status, error_detail, created_at, updated_at, recipient) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		p.ID, p.ClientID, p.PreauthorizationID, p.RecipientID, p.Amount, p.Description, p.ClientPaymentID, p.Status, p.ErrorDetail,
		p.CreatedAt, p.UpdatedAt, p.Recipient)
	return err
}

// SmartTransferPayment reads a payment of a client (any client when clientID is Nil).
func (c *conn) SmartTransferPayment(ctx context.Context, clientID, id uuid.UUID, lock bool) (*SmartTransferPaymentRow, bool, error) {
	sql := `SELECT ` + stPaymentCols + ` FROM smart_transfer_payments WHERE id = $1
		AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR client_id = $2)`
	if lock {
		sql += ` FOR UPDATE`
	}
	p := &SmartTransferPaymentRow{}
	err := c.pg.QueryRow(ctx, sql, id, clientID).Scan(&p.ID, &p.ClientID, &p.PreauthorizationID, &p.RecipientID, &p.Amount,
		&p.Description, &p.ClientPaymentID, &p.Status, &p.ErrorDetail, &p.CreatedAt, &p.UpdatedAt, &p.Recipient)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return p, err == nil, err
}

// SaveSmartTransferPayment writes a payment's status and error.
func (tx *Tx) SaveSmartTransferPayment(ctx context.Context, p *SmartTransferPaymentRow) error {
	_, err := tx.pg.Exec(ctx, `UPDATE smart_transfer_payments SET status = $2, error_detail = $3, updated_at = $4 WHERE id = $1`,
		p.ID, p.Status, p.ErrorDetail, p.UpdatedAt)
	return err
}
