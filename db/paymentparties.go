package db

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// Who payments name: the institutions of the PIX directory, an application's customers
// (payers) and recipients.

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
	return pageWithTotal(ctx, d.pg, `SELECT `+institutionColumns+`, count(*) OVER () FROM payment_institutions i WHERE `+where+`
		ORDER BY lower(i.trade_name), i.id LIMIT $2 OFFSET $3`, `SELECT count(*) FROM payment_institutions i WHERE `+where, 1,
		[]any{likeLiteral(name), limit, offset}, offset, func(r pgx.CollectableRow, total *int) (*model.PaymentInstitution, error) {
			var p model.PaymentInstitution
			err := r.Scan(&p.ID, &p.Name, &p.TradeName, &p.Ispb, &p.Compe, &p.CreatedAt, &p.UpdatedAt, total)
			return &p, err
		})
}

// PaymentInstitution reads one institution.
func (c *conn) PaymentInstitution(ctx context.Context, id uuid.UUID) (*model.PaymentInstitution, bool, error) {
	p, err := scanInstitution(c.pg.QueryRow(ctx, `SELECT `+institutionColumns+` FROM payment_institutions i WHERE i.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return p, err == nil, err
}

// PaymentInstitutionByIndex picks the n-th institution (modulo their number): the sandbox
// directory of PIX keys places a key's account at a stable institution.
func (c *conn) PaymentInstitutionByIndex(ctx context.Context, n int) (*model.PaymentInstitution, error) {
	return scanInstitution(c.pg.QueryRow(ctx, `SELECT `+institutionColumns+` FROM payment_institutions i
		ORDER BY i.ispb OFFSET $1 % NULLIF((SELECT count(*) FROM payment_institutions), 0) LIMIT 1`, n))
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
	_, err := d.pg.Exec(ctx, `INSERT INTO payment_customers (id, client_id, type, name, email, cpf, cnpj, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, c.ID, clientID, c.Type, c.Name, c.Email, c.Cpf, c.Cnpj, c.CreatedAt, c.UpdatedAt)
	return err
}

// UpdatePaymentCustomer writes a customer's fields back.
func (d *DB) UpdatePaymentCustomer(ctx context.Context, clientID uuid.UUID, c *model.PaymentCustomer) error {
	_, err := d.pg.Exec(ctx, `UPDATE payment_customers SET type = $3, name = $4, email = $5, cpf = $6, cnpj = $7, updated_at = $8
		WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL`, c.ID, clientID, c.Type, c.Name, c.Email, c.Cpf, c.Cnpj, c.UpdatedAt)
	return err
}

// PaymentCustomer reads a customer; withDeleted also finds one deleted after a request
// named it.
func (c *conn) PaymentCustomer(ctx context.Context, clientID, id uuid.UUID, withDeleted bool) (*model.PaymentCustomer, bool, error) {
	cust, err := scanCustomer(c.pg.QueryRow(ctx, `SELECT `+customerColumns+` FROM payment_customers c
		WHERE c.id = $1 AND c.client_id = $2 AND ($3 OR c.deleted_at IS NULL)`, id, clientID, withDeleted))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return cust, err == nil, err
}

// PaymentCustomers lists a page of customers, newest first.
func (d *DB) PaymentCustomers(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*model.PaymentCustomer, int, error) {
	const where = `c.client_id = $1 AND c.deleted_at IS NULL`
	return pageWithTotal(ctx, d.pg, `SELECT `+customerColumns+`, count(*) OVER () FROM payment_customers c WHERE `+where+`
		ORDER BY c.created_at DESC, c.id DESC LIMIT $2 OFFSET $3`, `SELECT count(*) FROM payment_customers c WHERE `+where, 1,
		[]any{clientID, limit, offset}, offset, func(r pgx.CollectableRow, total *int) (*model.PaymentCustomer, error) { return scanCustomer(r, total) })
}

// DeletePaymentCustomer hides a customer; requests that named it keep it.
func (c *conn) DeletePaymentCustomer(ctx context.Context, clientID, id uuid.UUID, now time.Time) error {
	_, err := c.pg.Exec(ctx, `UPDATE payment_customers SET deleted_at = $3 WHERE id = $1 AND client_id = $2`, id, clientID, now)
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
		if _, err := tx.pg.Exec(ctx, `UPDATE payment_recipients SET is_default = false, updated_at = $3
			WHERE client_id = $1 AND is_default AND id <> $2`, clientID, r.ID, r.UpdatedAt); err != nil {
			return err
		}
	}
	if insert {
		_, err := tx.pg.Exec(ctx, `INSERT INTO payment_recipients (id, client_id, name, tax_number, is_default, institution_id, account, pix_key, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, r.ID, clientID, r.Name, r.TaxNumber, r.IsDefault, r.PaymentInstitution.ID, r.Account, r.PixKey, r.CreatedAt, r.UpdatedAt)
		return err
	}
	_, err := tx.pg.Exec(ctx, `UPDATE payment_recipients SET name = $3, tax_number = $4, is_default = $5, account = $6, updated_at = $7
		WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL`, r.ID, clientID, r.Name, r.TaxNumber, r.IsDefault, r.Account, r.UpdatedAt)
	return err
}

// PaymentRecipient reads a recipient with its institution.
func (c *conn) PaymentRecipient(ctx context.Context, clientID, id uuid.UUID, withDeleted bool) (*model.PaymentRecipient, bool, error) {
	r, err := scanRecipient(c.pg.QueryRow(ctx, `SELECT `+recipientColumns+` FROM payment_recipients r JOIN payment_institutions i ON i.id = r.institution_id
		WHERE r.id = $1 AND r.client_id = $2 AND ($3 OR r.deleted_at IS NULL)`, id, clientID, withDeleted))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return r, err == nil, err
}

// PaymentRecipientsByID reads several recipients (deleted ones too: requests still name
// them) in one statement.
func (c *conn) PaymentRecipientsByID(ctx context.Context, clientID uuid.UUID, ids []uuid.UUID) ([]*model.PaymentRecipient, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+recipientColumns+` FROM payment_recipients r JOIN payment_institutions i ON i.id = r.institution_id
		WHERE r.client_id = $1 AND r.id = ANY($2)`, clientID, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*model.PaymentRecipient, error) { return scanRecipient(r) })
}

// PaymentCustomersByID reads several customers (deleted ones too) in one statement.
func (d *DB) PaymentCustomersByID(ctx context.Context, clientID uuid.UUID, ids []uuid.UUID) ([]*model.PaymentCustomer, error) {
	rows, err := d.pg.Query(ctx, `SELECT `+customerColumns+` FROM payment_customers c WHERE c.client_id = $1 AND c.id = ANY($2)`, clientID, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*model.PaymentCustomer, error) { return scanCustomer(r) })
}

// DefaultPaymentRecipient is the application's default recipient, if it named one.
func (c *conn) DefaultPaymentRecipient(ctx context.Context, clientID uuid.UUID) (*model.PaymentRecipient, bool, error) {
	r, err := scanRecipient(c.pg.QueryRow(ctx, `SELECT `+recipientColumns+` FROM payment_recipients r JOIN payment_institutions i ON i.id = r.institution_id
		WHERE r.client_id = $1 AND r.is_default AND r.deleted_at IS NULL`, clientID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return r, err == nil, err
}

// PaymentRecipients lists a page of recipients, newest first.
func (d *DB) PaymentRecipients(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*model.PaymentRecipient, int, error) {
	const where = `r.client_id = $1 AND r.deleted_at IS NULL`
	return pageWithTotal(ctx, d.pg, `SELECT `+recipientColumns+`, count(*) OVER () FROM payment_recipients r JOIN payment_institutions i ON i.id = r.institution_id
		WHERE `+where+` ORDER BY r.created_at DESC, r.id DESC LIMIT $2 OFFSET $3`, `SELECT count(*) FROM payment_recipients r WHERE `+where, 1,
		[]any{clientID, limit, offset}, offset, func(r pgx.CollectableRow, total *int) (*model.PaymentRecipient, error) {
			return scanRecipient(r, total)
		})
}

// DeletePaymentRecipient hides a recipient; requests that named it keep it.
func (c *conn) DeletePaymentRecipient(ctx context.Context, clientID, id uuid.UUID, now time.Time) error {
	_, err := c.pg.Exec(ctx, `UPDATE payment_recipients SET deleted_at = $3, is_default = false WHERE id = $1 AND client_id = $2`, id, clientID, now)
	return err
}
