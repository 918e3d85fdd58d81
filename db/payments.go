package db

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"ponte/model"
)

// The payment requests, and the intents that try to pay them.

// ErrActiveIntent is returned when a request already has an attempt under way.
var ErrActiveIntent = errors.New("the payment request already has an active intent")

// ---- requests

// PaymentRequestRow is a stored payment request; recipient and customer are ids.
type PaymentRequestRow struct {
	ID              uuid.UUID
	ClientID        uuid.UUID
	Status          string
	Amount          float64
	Fees            float64
	Description     *string
	ClientPaymentID *string
	CallbackURLs    *model.CallbackURLs
	RecipientID     *uuid.UUID
	CustomerID      *uuid.UUID
	PixQrCode       *model.PixQrCode
	Schedule        *model.PaymentSchedule
	ErrorDetail     *model.PaymentErrorDetail
	IsSandbox       bool
	WebhookURL      *string
	CreatedAt       time.Time
	UpdatedAt       time.Time
	AutomaticPix    *model.AutomaticPix
	Boleto          *model.BoletoPayment
	RefundedAmount  float64
	RefundPending   *float64
	SmartAccountID  *uuid.UUID
	// SourceSmartAccountID is the smart account a bulk payment paid the request from.
	SourceSmartAccountID *uuid.UUID
	// RefundPendingID names the refund under way (its ledger movements).
	RefundPendingID *uuid.UUID
	// ConsentedRecipient is the recipient as it was when the payer started paying (or the
	// request entered a bulk payment); nil while nobody has.
	ConsentedRecipient *model.PaymentRecipient
	// TestClockID is the sandbox test clock the request lives on; nil for real time.
	TestClockID *uuid.UUID
}

const requestColumns = `p.id, p.client_id, p.status, p.amount::float8, p.fees::float8, p.description, p.client_payment_id, p.callback_urls,
	p.recipient_id, p.customer_id, p.pix_qr_code, p.schedule, p.error_detail, p.is_sandbox, p.webhook_url, p.created_at, p.updated_at, p.automatic_pix, p.boleto,
	p.refunded_amount::float8, p.refund_pending::float8, p.smart_account_id, p.source_smart_account_id, p.refund_pending_id, p.consented_recipient, p.test_clock_id`

func scanRequest(r pgx.Row, extra ...any) (*PaymentRequestRow, error) {
	var p PaymentRequestRow
	err := r.Scan(append([]any{&p.ID, &p.ClientID, &p.Status, &p.Amount, &p.Fees, &p.Description, &p.ClientPaymentID, &p.CallbackURLs,
		&p.RecipientID, &p.CustomerID, &p.PixQrCode, &p.Schedule, &p.ErrorDetail, &p.IsSandbox, &p.WebhookURL, &p.CreatedAt, &p.UpdatedAt, &p.AutomaticPix, &p.Boleto,
		&p.RefundedAmount, &p.RefundPending, &p.SmartAccountID, &p.SourceSmartAccountID, &p.RefundPendingID, &p.ConsentedRecipient, &p.TestClockID}, extra...)...)
	return &p, err
}

// InsertPaymentRequest stores a new request.
func (tx *Tx) InsertPaymentRequest(ctx context.Context, p *PaymentRequestRow) error {
	_, err := tx.pg.Exec(ctx, `INSERT INTO payment_requests (id, client_id, status, amount, fees, description, client_payment_id, callback_urls,
		recipient_id, customer_id, pix_qr_code, schedule, error_detail, is_sandbox, webhook_url, created_at, updated_at, automatic_pix, boleto,
		smart_account_id, test_clock_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
		p.ID, p.ClientID, p.Status, p.Amount, p.Fees, p.Description, p.ClientPaymentID, p.CallbackURLs,
		p.RecipientID, p.CustomerID, p.PixQrCode, p.Schedule, p.ErrorDetail, p.IsSandbox, p.WebhookURL, p.CreatedAt, p.UpdatedAt, p.AutomaticPix, p.Boleto,
		p.SmartAccountID, p.TestClockID)
	return err
}

// SavePaymentRequest writes every field of a request back.
func (tx *Tx) SavePaymentRequest(ctx context.Context, p *PaymentRequestRow) error {
	_, err := tx.pg.Exec(ctx, `UPDATE payment_requests SET status = $2, amount = $3, fees = $4, description = $5, client_payment_id = $6,
		callback_urls = $7, recipient_id = $8, customer_id = $9, schedule = $10, error_detail = $11, webhook_url = $12, updated_at = $13,
		refunded_amount = $14, refund_pending = $15, source_smart_account_id = $16, refund_pending_id = $17, consented_recipient = $18
		WHERE id = $1`, p.ID, p.Status, p.Amount, p.Fees, p.Description, p.ClientPaymentID, p.CallbackURLs, p.RecipientID, p.CustomerID,
		p.Schedule, p.ErrorDetail, p.WebhookURL, p.UpdatedAt, p.RefundedAmount, p.RefundPending, p.SourceSmartAccountID, p.RefundPendingID,
		p.ConsentedRecipient)
	return err
}

// DeletePaymentRequest hides a request from the API.
func (tx *Tx) DeletePaymentRequest(ctx context.Context, id uuid.UUID, now time.Time) error {
	_, err := tx.pg.Exec(ctx, `UPDATE payment_requests SET deleted_at = $2 WHERE id = $1`, id, now)
	return err
}

// PaymentRequest reads a request of a client (any client when clientID is Nil); lock
// takes the row for the rest of the transaction, which serializes every move of it.
func (c *conn) PaymentRequest(ctx context.Context, clientID, id uuid.UUID, lock bool) (*PaymentRequestRow, bool, error) {
	sql := `SELECT ` + requestColumns + ` FROM payment_requests p WHERE p.id = $1 AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR p.client_id = $2) AND p.deleted_at IS NULL`
	if lock {
		sql += ` FOR UPDATE`
	}
	p, err := scanRequest(c.pg.QueryRow(ctx, sql, id, clientID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return p, err == nil, err
}

// PaymentRequestsByID reads several of a client's requests (deleted ones too: their
// intents still name them) in one statement.
func (c *conn) PaymentRequestsByID(ctx context.Context, clientID uuid.UUID, ids []uuid.UUID) ([]*PaymentRequestRow, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+requestColumns+` FROM payment_requests p WHERE p.client_id = $1 AND p.id = ANY($2)`, clientID, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*PaymentRequestRow, error) { return scanRequest(r) })
}

// PaymentRequests lists a page of a client's requests, newest first, created in [from, to).
func (d *DB) PaymentRequests(ctx context.Context, clientID uuid.UUID, from, to *time.Time, limit, offset int) ([]*PaymentRequestRow, int, error) {
	const where = `p.client_id = $1 AND p.deleted_at IS NULL AND ($2::timestamptz IS NULL OR p.created_at >= $2) AND ($3::timestamptz IS NULL OR p.created_at < $3)`
	return pageWithTotal(ctx, d.pg, `SELECT `+requestColumns+`, count(*) OVER () FROM payment_requests p WHERE `+where+`
		ORDER BY p.created_at DESC, p.id DESC LIMIT $4 OFFSET $5`, `SELECT count(*) FROM payment_requests p WHERE `+where, 3,
		[]any{clientID, from, to, limit, offset}, offset, func(r pgx.CollectableRow, total *int) (*PaymentRequestRow, error) { return scanRequest(r, total) })
}

// ---- intents

// PaymentIntentRow is a stored intent.
type PaymentIntentRow struct {
	ID            uuid.UUID
	ClientID      uuid.UUID
	RequestID     uuid.UUID
	ConnectorID   int
	Status        string
	PaymentMethod string
	IsDynamicPix  bool
	Payer         PaymentPayer
	ReferenceID   *string
	PixData       *model.PixData
	Debtor        *model.PaymentDebtor
	ErrorDetail   *model.PaymentErrorDetail
	Active        bool
	AuthorizeBy   time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
	// Terms is what the payer was asked to consent to, copied when the attempt started.
	Terms *ConsentedTerms
}

// ConsentedTerms is what a payer consents to: the amount, the recipient as it was, and the
// schedule. Written once, with the attempt.
type ConsentedTerms struct {
	Amount    float64                 `json:"amount"`
	Recipient *model.PaymentRecipient `json:"recipient,omitempty"`
	Schedule  *model.PaymentSchedule  `json:"schedule,omitempty"`
}

// PaymentPayer is who an intent's payer said they are.
type PaymentPayer struct {
	Cpf  string  `json:"cpf"`
	Cnpj *string `json:"cnpj,omitempty"`
	Name *string `json:"name,omitempty"`
	// Signatures counts the authorizations given (multi-signature accounts need two).
	Signatures int `json:"signatures,omitempty"`
}

const intentColumns = `n.id, n.client_id, n.request_id, n.connector_id, n.status, n.payment_method, n.is_dynamic_pix, n.payer, n.reference_id,
	n.pix_data, n.debtor, n.error_detail, n.active, n.authorize_by, n.created_at, n.updated_at, n.terms`

func scanIntent(r pgx.Row, extra ...any) (*PaymentIntentRow, error) {
	var n PaymentIntentRow
	err := r.Scan(append([]any{&n.ID, &n.ClientID, &n.RequestID, &n.ConnectorID, &n.Status, &n.PaymentMethod, &n.IsDynamicPix, &n.Payer,
		&n.ReferenceID, &n.PixData, &n.Debtor, &n.ErrorDetail, &n.Active, &n.AuthorizeBy, &n.CreatedAt, &n.UpdatedAt, &n.Terms}, extra...)...)
	return &n, err
}

// InsertPaymentIntent stores a new intent; ErrActiveIntent when its request has another
// one under way.
func (tx *Tx) InsertPaymentIntent(ctx context.Context, n *PaymentIntentRow) error {
	_, err := tx.pg.Exec(ctx, `INSERT INTO payment_intents (id, client_id, request_id, connector_id, status, payment_method, is_dynamic_pix, payer,
		reference_id, pix_data, debtor, error_detail, active, authorize_by, created_at, updated_at, terms)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
		n.ID, n.ClientID, n.RequestID, n.ConnectorID, n.Status, n.PaymentMethod, n.IsDynamicPix, n.Payer,
		n.ReferenceID, n.PixData, n.Debtor, n.ErrorDetail, n.Active, n.AuthorizeBy, n.CreatedAt, n.UpdatedAt, n.Terms)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.ConstraintName == "payment_intents_one_active" {
		return ErrActiveIntent
	}
	return err
}

// SavePaymentIntent writes an intent's changing fields back.
func (tx *Tx) SavePaymentIntent(ctx context.Context, n *PaymentIntentRow) error {
	_, err := tx.pg.Exec(ctx, `UPDATE payment_intents SET status = $2, payer = $3, reference_id = $4, pix_data = $5, debtor = $6,
		error_detail = $7, active = $8, updated_at = $9, authorize_by = $10 WHERE id = $1`,
		n.ID, n.Status, n.Payer, n.ReferenceID, n.PixData, n.Debtor, n.ErrorDetail, n.Active, n.UpdatedAt, n.AuthorizeBy)
	return err
}

// AddPaymentIntentStep records a status the intent reached, and its cause when one is
// recorded ("" stores none).
func (tx *Tx) AddPaymentIntentStep(ctx context.Context, id uuid.UUID, status string, at time.Time, cause string) error {
	_, err := tx.pg.Exec(ctx, `INSERT INTO payment_intent_steps (intent_id, seq, status, at, cause)
		SELECT $1, coalesce(max(seq), 0) + 1, $2, $3, nullif($4, '') FROM payment_intent_steps WHERE intent_id = $1`, id, status, at, cause)
	return err
}

// PaymentIntent reads an intent (of any client when clientID is Nil), optionally locked.
func (c *conn) PaymentIntent(ctx context.Context, clientID, id uuid.UUID, lock bool) (*PaymentIntentRow, bool, error) {
	sql := `SELECT ` + intentColumns + ` FROM payment_intents n WHERE n.id = $1 AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR n.client_id = $2)`
	if lock {
		sql += ` FOR UPDATE`
	}
	n, err := scanIntent(c.pg.QueryRow(ctx, sql, id, clientID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return n, err == nil, err
}

// ActivePaymentIntent is the attempt under way on a request, if any.
func (tx *Tx) ActivePaymentIntent(ctx context.Context, requestID uuid.UUID) (*PaymentIntentRow, bool, error) {
	n, err := scanIntent(tx.pg.QueryRow(ctx, `SELECT `+intentColumns+` FROM payment_intents n WHERE n.request_id = $1 AND n.active FOR UPDATE`, requestID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return n, err == nil, err
}

// PaymentIntents lists a page of a client's intents, newest first, optionally of one request.
func (d *DB) PaymentIntents(ctx context.Context, clientID uuid.UUID, requestID *uuid.UUID, from, to *time.Time, limit, offset int) ([]*PaymentIntentRow, int, error) {
	const where = `n.client_id = $1 AND ($2::uuid IS NULL OR n.request_id = $2) AND ($3::timestamptz IS NULL OR n.created_at >= $3) AND ($4::timestamptz IS NULL OR n.created_at < $4)`
	return pageWithTotal(ctx, d.pg, `SELECT `+intentColumns+`, count(*) OVER () FROM payment_intents n WHERE `+where+`
		ORDER BY n.created_at DESC, n.id DESC LIMIT $5 OFFSET $6`, `SELECT count(*) FROM payment_intents n WHERE `+where, 4,
		[]any{clientID, requestID, from, to, limit, offset}, offset, func(r pgx.CollectableRow, total *int) (*PaymentIntentRow, error) { return scanIntent(r, total) })
}

// PaymentIntentsOfRequests reads every intent of several requests in one statement,
// newest first.
func (c *conn) PaymentIntentsOfRequests(ctx context.Context, clientID uuid.UUID, requestIDs []uuid.UUID) ([]*PaymentIntentRow, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+intentColumns+` FROM payment_intents n WHERE n.client_id = $1 AND n.request_id = ANY($2)
		ORDER BY n.created_at DESC, n.id DESC`, clientID, requestIDs)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*PaymentIntentRow, error) { return scanIntent(r) })
}

// PaymentIntentSteps reads the status history of several intents in one statement.
func (c *conn) PaymentIntentSteps(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID][]*model.PaymentIntentStep, error) {
	rows, err := c.pg.Query(ctx, `SELECT intent_id, status, at, cause FROM payment_intent_steps WHERE intent_id = ANY($1) ORDER BY intent_id, seq`, ids)
	if err != nil {
		return nil, err
	}
	type step struct {
		intent uuid.UUID
		step   *model.PaymentIntentStep
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (step, error) {
		s := step{step: &model.PaymentIntentStep{}}
		err := r.Scan(&s.intent, &s.step.Status, &s.step.At, &s.step.Cause)
		return s, err
	})
	if err != nil {
		return nil, err
	}
	out := map[uuid.UUID][]*model.PaymentIntentStep{}
	for _, s := range list {
		out[s.intent] = append(out[s.intent], s.step)
	}
	return out, nil
}
