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

// Querier is what payment reads need: the pool outside a transaction, Tx.PGX inside one.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// ErrActiveIntent is returned when a request already has an attempt under way.
var ErrActiveIntent = errors.New("the payment request already has an active intent")

// pageWithTotal reads one page of rows whose last column is count(*) OVER (), and the
// number of all matches; a page past the end has no row to carry it, so countSQL (with
// the same leading arguments) counts instead.
func pageWithTotal[T any](ctx context.Context, q Querier, sql, countSQL string, nCountArgs int, args []any, offset int,
	scan func(r pgx.Rows, total *int) (T, error)) ([]T, int, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var list []T
	total := 0
	for rows.Next() {
		v, err := scan(rows, &total)
		if err != nil {
			return nil, 0, err
		}
		list = append(list, v)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if len(list) == 0 && offset > 0 {
		err = q.QueryRow(ctx, countSQL, args[:nCountArgs]...).Scan(&total)
	}
	return list, total, err
}

// ---- institutions

const institutionColumns = `i.id, i.name, i.trade_name, i.ispb, i.compe, i.created_at, i.updated_at`

func scanInstitution(r pgx.Row) (*model.PaymentInstitution, error) {
	var p model.PaymentInstitution
	err := r.Scan(&p.ID, &p.Name, &p.TradeName, &p.Ispb, &p.Compe, &p.CreatedAt, &p.UpdatedAt)
	return &p, err
}

// PaymentInstitutions lists institutions by trade name, optionally those whose name or
// trade name contains name.
func (d *DB) PaymentInstitutions(ctx context.Context, name string, limit, offset int) ([]*model.PaymentInstitution, int, error) {
	const where = `$1 = '' OR i.name ILIKE '%' || $1 || '%' OR i.trade_name ILIKE '%' || $1 || '%'`
	return pageWithTotal(ctx, d.Pool, `SELECT `+institutionColumns+`, count(*) OVER () FROM payment_institutions i WHERE `+where+`
		ORDER BY lower(i.trade_name), i.id LIMIT $2 OFFSET $3`, `SELECT count(*) FROM payment_institutions i WHERE `+where, 1,
		[]any{name, limit, offset}, offset, func(r pgx.Rows, total *int) (*model.PaymentInstitution, error) {
			var p model.PaymentInstitution
			err := r.Scan(&p.ID, &p.Name, &p.TradeName, &p.Ispb, &p.Compe, &p.CreatedAt, &p.UpdatedAt, total)
			return &p, err
		})
}

// PaymentInstitution reads one institution.
func (d *DB) PaymentInstitution(ctx context.Context, id uuid.UUID) (*model.PaymentInstitution, bool, error) {
	p, err := scanInstitution(d.Pool.QueryRow(ctx, `SELECT `+institutionColumns+` FROM payment_institutions i WHERE i.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return p, err == nil, err
}

// PaymentInstitutionByIndex picks the n-th institution (modulo their number): the sandbox
// directory of PIX keys places a key's account at a stable institution.
func (d *DB) PaymentInstitutionByIndex(ctx context.Context, n int) (*model.PaymentInstitution, error) {
	return scanInstitution(d.Pool.QueryRow(ctx, `SELECT `+institutionColumns+` FROM payment_institutions i
		ORDER BY i.ispb OFFSET $1 % (SELECT count(*) FROM payment_institutions) LIMIT 1`, n))
}

// ---- customers

const customerColumns = `c.id, c.type, c.name, c.email, c.cpf, c.cnpj, c.created_at, c.updated_at`

func scanCustomer(r pgx.Row, extra ...any) (*model.PaymentCustomer, error) {
	var c model.PaymentCustomer
	err := r.Scan(append([]any{&c.ID, &c.Type, &c.Name, &c.Email, &c.Cpf, &c.Cnpj, &c.CreatedAt, &c.UpdatedAt}, extra...)...)
	return &c, err
}

// InsertPaymentCustomer stores a new customer.
func (d *DB) InsertPaymentCustomer(ctx context.Context, clientID uuid.UUID, c *model.PaymentCustomer) error {
	_, err := d.Pool.Exec(ctx, `INSERT INTO payment_customers (id, client_id, type, name, email, cpf, cnpj, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, c.ID, clientID, c.Type, c.Name, c.Email, c.Cpf, c.Cnpj, c.CreatedAt, c.UpdatedAt)
	return err
}

// UpdatePaymentCustomer writes a customer's fields back.
func (d *DB) UpdatePaymentCustomer(ctx context.Context, clientID uuid.UUID, c *model.PaymentCustomer) error {
	_, err := d.Pool.Exec(ctx, `UPDATE payment_customers SET type = $3, name = $4, email = $5, cpf = $6, cnpj = $7, updated_at = $8
		WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL`, c.ID, clientID, c.Type, c.Name, c.Email, c.Cpf, c.Cnpj, c.UpdatedAt)
	return err
}

// PaymentCustomer reads a customer; withDeleted also finds one deleted after a request
// named it.
func (d *DB) PaymentCustomer(ctx context.Context, clientID, id uuid.UUID, withDeleted bool) (*model.PaymentCustomer, bool, error) {
	c, err := scanCustomer(d.Pool.QueryRow(ctx, `SELECT `+customerColumns+` FROM payment_customers c
		WHERE c.id = $1 AND c.client_id = $2 AND ($3 OR c.deleted_at IS NULL)`, id, clientID, withDeleted))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return c, err == nil, err
}

// PaymentCustomers lists a page of customers, newest first.
func (d *DB) PaymentCustomers(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*model.PaymentCustomer, int, error) {
	const where = `c.client_id = $1 AND c.deleted_at IS NULL`
	return pageWithTotal(ctx, d.Pool, `SELECT `+customerColumns+`, count(*) OVER () FROM payment_customers c WHERE `+where+`
		ORDER BY c.created_at DESC, c.id DESC LIMIT $2 OFFSET $3`, `SELECT count(*) FROM payment_customers c WHERE `+where, 1,
		[]any{clientID, limit, offset}, offset, func(r pgx.Rows, total *int) (*model.PaymentCustomer, error) { return scanCustomer(r, total) })
}

// DeletePaymentCustomer hides a customer; requests that named it keep it.
func (d *DB) DeletePaymentCustomer(ctx context.Context, clientID, id uuid.UUID, now time.Time) error {
	_, err := d.Pool.Exec(ctx, `UPDATE payment_customers SET deleted_at = $3 WHERE id = $1 AND client_id = $2`, id, clientID, now)
	return err
}

// ---- recipients

const recipientColumns = `r.id, r.name, r.tax_number, r.is_default, r.account, r.pix_key, r.created_at, r.updated_at, ` + institutionColumns

func scanRecipient(row pgx.Row, extra ...any) (*model.PaymentRecipient, error) {
	r := model.PaymentRecipient{Type: "BANK_ACCOUNT", PaymentInstitution: &model.PaymentInstitution{}}
	i := r.PaymentInstitution
	err := row.Scan(append([]any{&r.ID, &r.Name, &r.TaxNumber, &r.IsDefault, &r.Account, &r.PixKey, &r.CreatedAt, &r.UpdatedAt,
		&i.ID, &i.Name, &i.TradeName, &i.Ispb, &i.Compe, &i.CreatedAt, &i.UpdatedAt}, extra...)...)
	return &r, err
}

// SavePaymentRecipient inserts or updates a recipient; a default one stops the previous
// default from being one, in the same transaction.
func (tx *Tx) SavePaymentRecipient(ctx context.Context, clientID uuid.UUID, r *model.PaymentRecipient, insert bool) error {
	if r.IsDefault {
		if _, err := tx.PGX.Exec(ctx, `UPDATE payment_recipients SET is_default = false, updated_at = $3
			WHERE client_id = $1 AND is_default AND id <> $2`, clientID, r.ID, r.UpdatedAt); err != nil {
			return err
		}
	}
	if insert {
		_, err := tx.PGX.Exec(ctx, `INSERT INTO payment_recipients (id, client_id, name, tax_number, is_default, institution_id, account, pix_key, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, r.ID, clientID, r.Name, r.TaxNumber, r.IsDefault, r.PaymentInstitution.ID, r.Account, r.PixKey, r.CreatedAt, r.UpdatedAt)
		return err
	}
	_, err := tx.PGX.Exec(ctx, `UPDATE payment_recipients SET name = $3, tax_number = $4, is_default = $5, account = $6, updated_at = $7
		WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL`, r.ID, clientID, r.Name, r.TaxNumber, r.IsDefault, r.Account, r.UpdatedAt)
	return err
}

// PaymentRecipient reads a recipient with its institution.
func (d *DB) PaymentRecipient(ctx context.Context, clientID, id uuid.UUID, withDeleted bool) (*model.PaymentRecipient, bool, error) {
	r, err := scanRecipient(d.Pool.QueryRow(ctx, `SELECT `+recipientColumns+` FROM payment_recipients r JOIN payment_institutions i ON i.id = r.institution_id
		WHERE r.id = $1 AND r.client_id = $2 AND ($3 OR r.deleted_at IS NULL)`, id, clientID, withDeleted))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return r, err == nil, err
}

// PaymentRecipientsByID reads several recipients (deleted ones too: requests still name
// them) in one statement.
func (d *DB) PaymentRecipientsByID(ctx context.Context, clientID uuid.UUID, ids []uuid.UUID) ([]*model.PaymentRecipient, error) {
	rows, err := d.Pool.Query(ctx, `SELECT `+recipientColumns+` FROM payment_recipients r JOIN payment_institutions i ON i.id = r.institution_id
		WHERE r.client_id = $1 AND r.id = ANY($2)`, clientID, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*model.PaymentRecipient, error) { return scanRecipient(r) })
}

// PaymentCustomersByID reads several customers (deleted ones too) in one statement.
func (d *DB) PaymentCustomersByID(ctx context.Context, clientID uuid.UUID, ids []uuid.UUID) ([]*model.PaymentCustomer, error) {
	rows, err := d.Pool.Query(ctx, `SELECT `+customerColumns+` FROM payment_customers c WHERE c.client_id = $1 AND c.id = ANY($2)`, clientID, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*model.PaymentCustomer, error) { return scanCustomer(r) })
}

// DefaultPaymentRecipient is the application's default recipient, if it named one.
func (d *DB) DefaultPaymentRecipient(ctx context.Context, clientID uuid.UUID) (*model.PaymentRecipient, bool, error) {
	r, err := scanRecipient(d.Pool.QueryRow(ctx, `SELECT `+recipientColumns+` FROM payment_recipients r JOIN payment_institutions i ON i.id = r.institution_id
		WHERE r.client_id = $1 AND r.is_default AND r.deleted_at IS NULL`, clientID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return r, err == nil, err
}

// PaymentRecipients lists a page of recipients, newest first.
func (d *DB) PaymentRecipients(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*model.PaymentRecipient, int, error) {
	const where = `r.client_id = $1 AND r.deleted_at IS NULL`
	return pageWithTotal(ctx, d.Pool, `SELECT `+recipientColumns+`, count(*) OVER () FROM payment_recipients r JOIN payment_institutions i ON i.id = r.institution_id
		WHERE `+where+` ORDER BY r.created_at DESC, r.id DESC LIMIT $2 OFFSET $3`, `SELECT count(*) FROM payment_recipients r WHERE `+where, 1,
		[]any{clientID, limit, offset}, offset, func(r pgx.Rows, total *int) (*model.PaymentRecipient, error) { return scanRecipient(r, total) })
}

// DeletePaymentRecipient hides a recipient; requests that named it keep it.
func (d *DB) DeletePaymentRecipient(ctx context.Context, clientID, id uuid.UUID, now time.Time) error {
	_, err := d.Pool.Exec(ctx, `UPDATE payment_recipients SET deleted_at = $3, is_default = false WHERE id = $1 AND client_id = $2`, id, clientID, now)
	return err
}

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
}

const requestColumns = `p.id, p.client_id, p.status, p.amount::float8, p.fees::float8, p.description, p.client_payment_id, p.callback_urls,
	p.recipient_id, p.customer_id, p.pix_qr_code, p.schedule, p.error_detail, p.is_sandbox, p.webhook_url, p.created_at, p.updated_at, p.automatic_pix`

func scanRequest(r pgx.Row, extra ...any) (*PaymentRequestRow, error) {
	var p PaymentRequestRow
	err := r.Scan(append([]any{&p.ID, &p.ClientID, &p.Status, &p.Amount, &p.Fees, &p.Description, &p.ClientPaymentID, &p.CallbackURLs,
		&p.RecipientID, &p.CustomerID, &p.PixQrCode, &p.Schedule, &p.ErrorDetail, &p.IsSandbox, &p.WebhookURL, &p.CreatedAt, &p.UpdatedAt, &p.AutomaticPix}, extra...)...)
	return &p, err
}

// InsertPaymentRequest stores a new request.
func (tx *Tx) InsertPaymentRequest(ctx context.Context, p *PaymentRequestRow) error {
	_, err := tx.PGX.Exec(ctx, `INSERT INTO payment_requests (id, client_id, status, amount, fees, description, client_payment_id, callback_urls,
		recipient_id, customer_id, pix_qr_code, schedule, error_detail, is_sandbox, webhook_url, created_at, updated_at, automatic_pix)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
		p.ID, p.ClientID, p.Status, p.Amount, p.Fees, p.Description, p.ClientPaymentID, p.CallbackURLs,
		p.RecipientID, p.CustomerID, p.PixQrCode, p.Schedule, p.ErrorDetail, p.IsSandbox, p.WebhookURL, p.CreatedAt, p.UpdatedAt, p.AutomaticPix)
	return err
}

// SavePaymentRequest writes every field of a request back.
func (tx *Tx) SavePaymentRequest(ctx context.Context, p *PaymentRequestRow) error {
	_, err := tx.PGX.Exec(ctx, `UPDATE payment_requests SET status = $2, amount = $3, fees = $4, description = $5, client_payment_id = $6,
		callback_urls = $7, recipient_id = $8, customer_id = $9, schedule = $10, error_detail = $11, webhook_url = $12, updated_at = $13
		WHERE id = $1`, p.ID, p.Status, p.Amount, p.Fees, p.Description, p.ClientPaymentID, p.CallbackURLs, p.RecipientID, p.CustomerID,
		p.Schedule, p.ErrorDetail, p.WebhookURL, p.UpdatedAt)
	return err
}

// DeletePaymentRequest hides a request from the API.
func (tx *Tx) DeletePaymentRequest(ctx context.Context, id uuid.UUID, now time.Time) error {
	_, err := tx.PGX.Exec(ctx, `UPDATE payment_requests SET deleted_at = $2 WHERE id = $1`, id, now)
	return err
}

// PaymentRequest reads a request of a client (any client when clientID is Nil); lock
// takes the row for the rest of the transaction, which serializes every move of it.
func PaymentRequest(ctx context.Context, q Querier, clientID, id uuid.UUID, lock bool) (*PaymentRequestRow, bool, error) {
	sql := `SELECT ` + requestColumns + ` FROM payment_requests p WHERE p.id = $1 AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR p.client_id = $2) AND p.deleted_at IS NULL`
	if lock {
		sql += ` FOR UPDATE`
	}
	p, err := scanRequest(q.QueryRow(ctx, sql, id, clientID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return p, err == nil, err
}

// PaymentRequestsByID reads several of a client's requests (deleted ones too: their
// intents still name them) in one statement.
func (d *DB) PaymentRequestsByID(ctx context.Context, clientID uuid.UUID, ids []uuid.UUID) ([]*PaymentRequestRow, error) {
	rows, err := d.Pool.Query(ctx, `SELECT `+requestColumns+` FROM payment_requests p WHERE p.client_id = $1 AND p.id = ANY($2)`, clientID, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*PaymentRequestRow, error) { return scanRequest(r) })
}

// PaymentRequests lists a page of a client's requests, newest first, created in [from, to).
func (d *DB) PaymentRequests(ctx context.Context, clientID uuid.UUID, from, to *time.Time, limit, offset int) ([]*PaymentRequestRow, int, error) {
	const where = `p.client_id = $1 AND p.deleted_at IS NULL AND ($2::timestamptz IS NULL OR p.created_at >= $2) AND ($3::timestamptz IS NULL OR p.created_at < $3)`
	return pageWithTotal(ctx, d.Pool, `SELECT `+requestColumns+`, count(*) OVER () FROM payment_requests p WHERE `+where+`
		ORDER BY p.created_at DESC, p.id DESC LIMIT $4 OFFSET $5`, `SELECT count(*) FROM payment_requests p WHERE `+where, 3,
		[]any{clientID, from, to, limit, offset}, offset, func(r pgx.Rows, total *int) (*PaymentRequestRow, error) { return scanRequest(r, total) })
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
	n.pix_data, n.debtor, n.error_detail, n.active, n.authorize_by, n.created_at, n.updated_at`

func scanIntent(r pgx.Row, extra ...any) (*PaymentIntentRow, error) {
	var n PaymentIntentRow
	err := r.Scan(append([]any{&n.ID, &n.ClientID, &n.RequestID, &n.ConnectorID, &n.Status, &n.PaymentMethod, &n.IsDynamicPix, &n.Payer,
		&n.ReferenceID, &n.PixData, &n.Debtor, &n.ErrorDetail, &n.Active, &n.AuthorizeBy, &n.CreatedAt, &n.UpdatedAt}, extra...)...)
	return &n, err
}

// InsertPaymentIntent stores a new intent; ErrActiveIntent when its request has another
// one under way.
func (tx *Tx) InsertPaymentIntent(ctx context.Context, n *PaymentIntentRow) error {
	_, err := tx.PGX.Exec(ctx, `INSERT INTO payment_intents (id, client_id, request_id, connector_id, status, payment_method, is_dynamic_pix, payer,
		reference_id, pix_data, debtor, error_detail, active, authorize_by, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
		n.ID, n.ClientID, n.RequestID, n.ConnectorID, n.Status, n.PaymentMethod, n.IsDynamicPix, n.Payer,
		n.ReferenceID, n.PixData, n.Debtor, n.ErrorDetail, n.Active, n.AuthorizeBy, n.CreatedAt, n.UpdatedAt)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.ConstraintName == "payment_intents_one_active" {
		return ErrActiveIntent
	}
	return err
}

// SavePaymentIntent writes an intent's changing fields back.
func (tx *Tx) SavePaymentIntent(ctx context.Context, n *PaymentIntentRow) error {
	_, err := tx.PGX.Exec(ctx, `UPDATE payment_intents SET status = $2, payer = $3, reference_id = $4, pix_data = $5, debtor = $6,
		error_detail = $7, active = $8, updated_at = $9, authorize_by = $10 WHERE id = $1`,
		n.ID, n.Status, n.Payer, n.ReferenceID, n.PixData, n.Debtor, n.ErrorDetail, n.Active, n.UpdatedAt, n.AuthorizeBy)
	return err
}

// AddPaymentIntentStep records a status the intent reached.
func (tx *Tx) AddPaymentIntentStep(ctx context.Context, id uuid.UUID, status string, at time.Time) error {
	_, err := tx.PGX.Exec(ctx, `INSERT INTO payment_intent_steps (intent_id, seq, status, at)
		SELECT $1, coalesce(max(seq), 0) + 1, $2, $3 FROM payment_intent_steps WHERE intent_id = $1`, id, status, at)
	return err
}

// PaymentIntent reads an intent (of any client when clientID is Nil), optionally locked.
func PaymentIntent(ctx context.Context, q Querier, clientID, id uuid.UUID, lock bool) (*PaymentIntentRow, bool, error) {
	sql := `SELECT ` + intentColumns + ` FROM payment_intents n WHERE n.id = $1 AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR n.client_id = $2)`
	if lock {
		sql += ` FOR UPDATE`
	}
	n, err := scanIntent(q.QueryRow(ctx, sql, id, clientID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return n, err == nil, err
}

// ActivePaymentIntent is the attempt under way on a request, if any.
func ActivePaymentIntent(ctx context.Context, q Querier, requestID uuid.UUID) (*PaymentIntentRow, bool, error) {
	n, err := scanIntent(q.QueryRow(ctx, `SELECT `+intentColumns+` FROM payment_intents n WHERE n.request_id = $1 AND n.active FOR UPDATE`, requestID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return n, err == nil, err
}

// PaymentIntents lists a page of a client's intents, newest first, optionally of one request.
func (d *DB) PaymentIntents(ctx context.Context, clientID uuid.UUID, requestID *uuid.UUID, from, to *time.Time, limit, offset int) ([]*PaymentIntentRow, int, error) {
	const where = `n.client_id = $1 AND ($2::uuid IS NULL OR n.request_id = $2) AND ($3::timestamptz IS NULL OR n.created_at >= $3) AND ($4::timestamptz IS NULL OR n.created_at < $4)`
	return pageWithTotal(ctx, d.Pool, `SELECT `+intentColumns+`, count(*) OVER () FROM payment_intents n WHERE `+where+`
		ORDER BY n.created_at DESC, n.id DESC LIMIT $5 OFFSET $6`, `SELECT count(*) FROM payment_intents n WHERE `+where, 4,
		[]any{clientID, requestID, from, to, limit, offset}, offset, func(r pgx.Rows, total *int) (*PaymentIntentRow, error) { return scanIntent(r, total) })
}

// PaymentIntentsOfRequests reads every intent of several requests in one statement,
// newest first.
func (d *DB) PaymentIntentsOfRequests(ctx context.Context, clientID uuid.UUID, requestIDs []uuid.UUID) ([]*PaymentIntentRow, error) {
	rows, err := d.Pool.Query(ctx, `SELECT `+intentColumns+` FROM payment_intents n WHERE n.client_id = $1 AND n.request_id = ANY($2)
		ORDER BY n.created_at DESC, n.id DESC`, clientID, requestIDs)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*PaymentIntentRow, error) { return scanIntent(r) })
}

// PaymentIntentSteps reads the status history of several intents in one statement.
func (d *DB) PaymentIntentSteps(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID][]*model.PaymentIntentStep, error) {
	rows, err := d.Pool.Query(ctx, `SELECT intent_id, status, at FROM payment_intent_steps WHERE intent_id = ANY($1) ORDER BY intent_id, seq`, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[uuid.UUID][]*model.PaymentIntentStep{}
	for rows.Next() {
		var id uuid.UUID
		var s model.PaymentIntentStep
		if err := rows.Scan(&id, &s.Status, &s.At); err != nil {
			return nil, err
		}
		out[id] = append(out[id], &s)
	}
	return out, rows.Err()
}

// ---- scheduled payments

// ScheduledPaymentRow is one dated payment of a request.
type ScheduledPaymentRow struct {
	ID            uuid.UUID
	RequestID     uuid.UUID
	ClientID      uuid.UUID
	ScheduledDate time.Time
	Status        string
	Description   *string
	ErrorDetail   *model.PaymentErrorDetail
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

const scheduledColumns = `s.id, s.request_id, s.client_id, s.scheduled_date, s.status, s.description, s.error_detail, s.created_at, s.updated_at`

func scanScheduled(r pgx.Row) (*ScheduledPaymentRow, error) {
	var s ScheduledPaymentRow
	err := r.Scan(&s.ID, &s.RequestID, &s.ClientID, &s.ScheduledDate, &s.Status, &s.Description, &s.ErrorDetail, &s.CreatedAt, &s.UpdatedAt)
	return &s, err
}

// InsertScheduledPayment stores one dated payment.
func (tx *Tx) InsertScheduledPayment(ctx context.Context, s *ScheduledPaymentRow) error {
	_, err := tx.PGX.Exec(ctx, `INSERT INTO scheduled_payments (id, request_id, client_id, scheduled_date, status, description, error_detail, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, s.ID, s.RequestID, s.ClientID, s.ScheduledDate, s.Status, s.Description, s.ErrorDetail, s.CreatedAt, s.UpdatedAt)
	return err
}

// SaveScheduledPayment writes a dated payment's status back.
func (tx *Tx) SaveScheduledPayment(ctx context.Context, s *ScheduledPaymentRow) error {
	_, err := tx.PGX.Exec(ctx, `UPDATE scheduled_payments SET status = $2, error_detail = $3, updated_at = $4 WHERE id = $1`, s.ID, s.Status, s.ErrorDetail, s.UpdatedAt)
	return err
}

// ScheduledPayments lists a request's dated payments in date order; lock takes them all.
func ScheduledPayments(ctx context.Context, q Querier, requestID uuid.UUID, lock bool) ([]*ScheduledPaymentRow, error) {
	sql := `SELECT ` + scheduledColumns + ` FROM scheduled_payments s WHERE s.request_id = $1 ORDER BY s.scheduled_date, s.id`
	if lock {
		sql += ` FOR UPDATE`
	}
	rows, err := q.Query(ctx, sql, requestID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*ScheduledPaymentRow, error) { return scanScheduled(r) })
}

// ScheduledPaymentsOfRequests reads the dated payments of several requests in one statement.
func (d *DB) ScheduledPaymentsOfRequests(ctx context.Context, clientID uuid.UUID, requestIDs []uuid.UUID) ([]*ScheduledPaymentRow, error) {
	rows, err := d.Pool.Query(ctx, `SELECT `+scheduledColumns+` FROM scheduled_payments s WHERE s.client_id = $1 AND s.request_id = ANY($2)
		ORDER BY s.scheduled_date, s.id`, clientID, requestIDs)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*ScheduledPaymentRow, error) { return scanScheduled(r) })
}

// ScheduledPayment reads one dated payment, optionally locked.
func ScheduledPayment(ctx context.Context, q Querier, id uuid.UUID, lock bool) (*ScheduledPaymentRow, bool, error) {
	sql := `SELECT ` + scheduledColumns + ` FROM scheduled_payments s WHERE s.id = $1`
	if lock {
		sql += ` FOR UPDATE`
	}
	s, err := scanScheduled(q.QueryRow(ctx, sql, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return s, err == nil, err
}

// ---- pricing

// PaymentPrice is the fee of one payment method: a fixed part plus a percentage.
type PaymentPrice struct {
	Fixed   float64 `json:"fixed"`
	Percent float64 `json:"percent"`
}

// ClientPaymentPricing reads an application's fees by payment method.
func (d *DB) ClientPaymentPricing(ctx context.Context, clientID uuid.UUID) (map[string]PaymentPrice, error) {
	var out map[string]PaymentPrice
	err := d.Pool.QueryRow(ctx, `SELECT payment_pricing FROM client_applications WHERE id = $1`, clientID).Scan(&out)
	return out, err
}

// SetClientPaymentPricing replaces an application's fees by payment method.
func (d *DB) SetClientPaymentPricing(ctx context.Context, clientID uuid.UUID, p map[string]PaymentPrice) error {
	tag, err := d.Pool.Exec(ctx, `UPDATE client_applications SET payment_pricing = $2 WHERE id = $1`, clientID, p)
	if err == nil && tag.RowsAffected() == 0 {
		return errors.New("no such client application")
	}
	return err
}

// ---- automatic PIX payments

// AutomaticPixPaymentRow is one charge under an automatic PIX authorization.
type AutomaticPixPaymentRow struct {
	ID          uuid.UUID
	RequestID   uuid.UUID
	ClientID    uuid.UUID
	Status      string
	Amount      float64
	Description *string
	Date        time.Time
	IsFirst     bool
	EndToEndID  *string
	ErrorDetail *model.PaymentErrorDetail
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

const autoPixColumns = `a.id, a.request_id, a.client_id, a.status, a.amount::float8, a.description, a.date, a.is_first, a.end_to_end_id,
	a.error_detail, a.created_at, a.updated_at`

func scanAutoPix(r pgx.Row, extra ...any) (*AutomaticPixPaymentRow, error) {
	var a AutomaticPixPaymentRow
	err := r.Scan(append([]any{&a.ID, &a.RequestID, &a.ClientID, &a.Status, &a.Amount, &a.Description, &a.Date, &a.IsFirst, &a.EndToEndID,
		&a.ErrorDetail, &a.CreatedAt, &a.UpdatedAt}, extra...)...)
	return &a, err
}

// InsertAutomaticPixPayment stores a new charge.
func (tx *Tx) InsertAutomaticPixPayment(ctx context.Context, a *AutomaticPixPaymentRow) error {
	_, err := tx.PGX.Exec(ctx, `INSERT INTO automatic_pix_payments (id, request_id, client_id, status, amount, description, date, is_first,
		end_to_end_id, error_detail, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		a.ID, a.RequestID, a.ClientID, a.Status, a.Amount, a.Description, a.Date, a.IsFirst, a.EndToEndID, a.ErrorDetail, a.CreatedAt, a.UpdatedAt)
	return err
}

// SaveAutomaticPixPayment writes a charge's changing fields back.
func (tx *Tx) SaveAutomaticPixPayment(ctx context.Context, a *AutomaticPixPaymentRow) error {
	_, err := tx.PGX.Exec(ctx, `UPDATE automatic_pix_payments SET status = $2, date = $3, end_to_end_id = $4, error_detail = $5, updated_at = $6
		WHERE id = $1`, a.ID, a.Status, a.Date, a.EndToEndID, a.ErrorDetail, a.UpdatedAt)
	return err
}

// AutomaticPixPayment reads one charge, optionally locked.
func AutomaticPixPayment(ctx context.Context, q Querier, id uuid.UUID, lock bool) (*AutomaticPixPaymentRow, bool, error) {
	sql := `SELECT ` + autoPixColumns + ` FROM automatic_pix_payments a WHERE a.id = $1`
	if lock {
		sql += ` FOR UPDATE`
	}
	a, err := scanAutoPix(q.QueryRow(ctx, sql, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return a, err == nil, err
}

// AutomaticPixPayments lists a page of a request's charges by date.
func (d *DB) AutomaticPixPayments(ctx context.Context, requestID uuid.UUID, limit, offset int) ([]*AutomaticPixPaymentRow, int, error) {
	const where = `a.request_id = $1`
	return pageWithTotal(ctx, d.Pool, `SELECT `+autoPixColumns+`, count(*) OVER () FROM automatic_pix_payments a WHERE `+where+`
		ORDER BY a.date, a.id LIMIT $2 OFFSET $3`, `SELECT count(*) FROM automatic_pix_payments a WHERE `+where, 1,
		[]any{requestID, limit, offset}, offset, func(r pgx.Rows, total *int) (*AutomaticPixPaymentRow, error) { return scanAutoPix(r, total) })
}

// ScheduledAutomaticPixPayments lists, locked, a request's charges still to run.
func ScheduledAutomaticPixPayments(ctx context.Context, q Querier, requestID uuid.UUID) ([]*AutomaticPixPaymentRow, error) {
	rows, err := q.Query(ctx, `SELECT `+autoPixColumns+` FROM automatic_pix_payments a WHERE a.request_id = $1 AND a.status = 'SCHEDULED'
		ORDER BY a.date, a.id FOR UPDATE`, requestID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*AutomaticPixPaymentRow, error) { return scanAutoPix(r) })
}
