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

// ErrRequestInBulk is returned when a request already belongs to a bulk payment under way.
var ErrRequestInBulk = errors.New("the payment request is in another bulk payment")

// BulkPaymentRow is a bulk payment as stored, with its requests in order.
type BulkPaymentRow struct {
	ID, ClientID, SmartAccountID                    uuid.UUID
	Status                                          string
	TotalAmount                                     float64
	CallbackSuccess, CallbackError, CallbackPending *string
	ErrorDetail                                     *model.PaymentErrorDetail
	CreatedAt, UpdatedAt                            time.Time
	RequestIDs                                      []uuid.UUID
}

const bulkCols = `b.id, b.client_id, b.smart_account_id, b.status, b.total_amount::float8, b.callback_success, b.callback_error,
	b.callback_pending, b.error_detail, b.created_at, b.updated_at,
	ARRAY(SELECT r.payment_request_id FROM bulk_payment_requests r WHERE r.bulk_payment_id = b.id ORDER BY r.position)`

func scanBulk(r pgx.CollectableRow, extra ...any) (*BulkPaymentRow, error) {
	b := &BulkPaymentRow{}
	err := r.Scan(append([]any{&b.ID, &b.ClientID, &b.SmartAccountID, &b.Status, &b.TotalAmount, &b.CallbackSuccess, &b.CallbackError,
		&b.CallbackPending, &b.ErrorDetail, &b.CreatedAt, &b.UpdatedAt, &b.RequestIDs}, extra...)...)
	return b, err
}

// InsertBulkPayment records a bulk payment and its requests; ErrRequestInBulk when one of
// them is in another bulk payment that has not failed.
func (tx *Tx) InsertBulkPayment(ctx context.Context, b *BulkPaymentRow) error {
	_, err := tx.pg.Exec(ctx, `INSERT INTO bulk_payments (id, client_id, smart_account_id, status, total_amount, callback_success,
		callback_error, callback_pending, error_detail, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		b.ID, b.ClientID, b.SmartAccountID, b.Status, b.TotalAmount, b.CallbackSuccess, b.CallbackError, b.CallbackPending, b.ErrorDetail,
		b.CreatedAt, b.UpdatedAt)
	if err != nil {
		return err
	}
	_, err = tx.pg.Exec(ctx, `INSERT INTO bulk_payment_requests (bulk_payment_id, payment_request_id, position)
		SELECT $1, id, n FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, n)`, b.ID, b.RequestIDs)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.ConstraintName == "bulk_payment_requests_active" {
		return ErrRequestInBulk
	}
	return err
}

// BulkPayment reads a bulk payment of a client (of any client when clientID is Nil: its
// authorization page); lock takes the row for the transaction.
func (c *conn) BulkPayment(ctx context.Context, clientID, id uuid.UUID, lock bool) (*BulkPaymentRow, bool, error) {
	sql := `SELECT ` + bulkCols + ` FROM bulk_payments b WHERE b.id = $1
		AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR b.client_id = $2)`
	if lock {
		sql += ` FOR UPDATE`
	}
	rows, err := c.pg.Query(ctx, sql, id, clientID)
	if err != nil {
		return nil, false, err
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*BulkPaymentRow, error) { return scanBulk(r) })
	if err != nil || len(list) == 0 {
		return nil, false, err
	}
	return list[0], true, nil
}

// BulkPayments lists a page of a client's bulk payments, oldest first.
func (d *DB) BulkPayments(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*BulkPaymentRow, int, error) {
	return pageWithTotal(ctx, d.pg, `SELECT `+bulkCols+`, count(*) OVER () FROM bulk_payments b WHERE b.client_id = $1
		ORDER BY b.created_at, b.id LIMIT $2 OFFSET $3`, `SELECT count(*) FROM bulk_payments WHERE client_id = $1`, 1,
		[]any{clientID, limit, offset}, offset, func(r pgx.CollectableRow, total *int) (*BulkPaymentRow, error) { return scanBulk(r, total) })
}

// SaveBulkPayment writes a bulk payment's status and error; one that failed lets its
// requests go (they may join another).
func (tx *Tx) SaveBulkPayment(ctx context.Context, b *BulkPaymentRow, release bool) error {
	if _, err := tx.pg.Exec(ctx, `UPDATE bulk_payments SET status = $2, error_detail = $3, updated_at = $4 WHERE id = $1`,
		b.ID, b.Status, b.ErrorDetail, b.UpdatedAt); err != nil || !release {
		return err
	}
	_, err := tx.pg.Exec(ctx, `UPDATE bulk_payment_requests SET active = false WHERE bulk_payment_id = $1`, b.ID)
	return err
}

// DeleteBulkPayment removes a bulk payment that was never authorized, and with it the
// hold on its requests.
func (tx *Tx) DeleteBulkPayment(ctx context.Context, id uuid.UUID) error {
	_, err := tx.pg.Exec(ctx, `DELETE FROM bulk_payments WHERE id = $1`, id)
	return err
}

// LockSmartAccount takes a smart account's row for the transaction: movements out of it
// are decided one at a time, against a balance nobody else is changing. clientID Nil takes
// the account of any application (the ledger's own checks).
func (tx *Tx) LockSmartAccount(ctx context.Context, clientID, id uuid.UUID) (bool, error) {
	rows, err := tx.pg.Query(ctx, `SELECT id FROM smart_accounts WHERE id = $1
		AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR client_id = $2) FOR UPDATE`, id, clientID)
	if err != nil {
		return false, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	return len(ids) == 1, err
}

// OpenBulkOf is the bulk payment, not yet authorized, that holds a request: while there is
// one, the request is what its owner is asked to approve and must not change.
func (c *conn) OpenBulkOf(ctx context.Context, requestID uuid.UUID) (uuid.UUID, bool, error) {
	rows, err := c.pg.Query(ctx, `SELECT b.id FROM bulk_payment_requests r JOIN bulk_payments b ON b.id = r.bulk_payment_id
		WHERE r.payment_request_id = $1 AND r.active AND b.status = 'CREATED'`, requestID)
	if err != nil {
		return uuid.Nil, false, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil || len(ids) == 0 {
		return uuid.Nil, false, err
	}
	return ids[0], true, nil
}
