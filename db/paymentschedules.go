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

// Payments that run on dates: the dated payments of a scheduled request, and the charges
// under an automatic PIX authorization.

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
	_, err := tx.pg.Exec(ctx, `INSERT INTO scheduled_payments (id, request_id, client_id, scheduled_date, status, description, error_detail, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, s.ID, s.RequestID, s.ClientID, s.ScheduledDate, s.Status, s.Description, s.ErrorDetail, s.CreatedAt, s.UpdatedAt)
	return err
}

// SaveScheduledPayment writes a dated payment's status back.
func (tx *Tx) SaveScheduledPayment(ctx context.Context, s *ScheduledPaymentRow) error {
	_, err := tx.pg.Exec(ctx, `UPDATE scheduled_payments SET status = $2, error_detail = $3, updated_at = $4 WHERE id = $1`, s.ID, s.Status, s.ErrorDetail, s.UpdatedAt)
	return err
}

// ScheduledPayments lists a request's dated payments in date order; lock takes them all.
func (c *conn) ScheduledPayments(ctx context.Context, requestID uuid.UUID, lock bool) ([]*ScheduledPaymentRow, error) {
	sql := `SELECT ` + scheduledColumns + ` FROM scheduled_payments s WHERE s.request_id = $1 ORDER BY s.scheduled_date, s.id`
	if lock {
		sql += ` FOR UPDATE`
	}
	rows, err := c.pg.Query(ctx, sql, requestID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*ScheduledPaymentRow, error) { return scanScheduled(r) })
}

// ScheduledPaymentsOfRequests reads the dated payments of several requests in one statement.
func (c *conn) ScheduledPaymentsOfRequests(ctx context.Context, clientID uuid.UUID, requestIDs []uuid.UUID) ([]*ScheduledPaymentRow, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+scheduledColumns+` FROM scheduled_payments s WHERE s.client_id = $1 AND s.request_id = ANY($2)
		ORDER BY s.scheduled_date, s.id`, clientID, requestIDs)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*ScheduledPaymentRow, error) { return scanScheduled(r) })
}

// ScheduledPayment reads one dated payment, optionally locked.
func (c *conn) ScheduledPayment(ctx context.Context, id uuid.UUID, lock bool) (*ScheduledPaymentRow, bool, error) {
	sql := `SELECT ` + scheduledColumns + ` FROM scheduled_payments s WHERE s.id = $1`
	if lock {
		sql += ` FOR UPDATE`
	}
	s, err := scanScheduled(c.pg.QueryRow(ctx, sql, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return s, err == nil, err
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
	// OriginalDate is the date the charge was scheduled for; a retry moves Date only.
	OriginalDate time.Time
	// PeriodStart is the first day of the authorization's period the charge belongs to
	// (nil for the first payment, which is outside the periods).
	PeriodStart *time.Time
}

// ErrPeriodCharged is returned when the authorization's period already has a live charge.
var ErrPeriodCharged = errors.New("the period already has a charge")

const autoPixColumns = `a.id, a.request_id, a.client_id, a.status, a.amount::float8, a.description, a.date, a.is_first, a.end_to_end_id,
	a.error_detail, a.created_at, a.updated_at, a.original_date, a.period_start`

func scanAutoPix(r pgx.Row, extra ...any) (*AutomaticPixPaymentRow, error) {
	var a AutomaticPixPaymentRow
	err := r.Scan(append([]any{&a.ID, &a.RequestID, &a.ClientID, &a.Status, &a.Amount, &a.Description, &a.Date, &a.IsFirst, &a.EndToEndID,
		&a.ErrorDetail, &a.CreatedAt, &a.UpdatedAt, &a.OriginalDate, &a.PeriodStart}, extra...)...)
	return &a, err
}

// InsertAutomaticPixPayment stores a new charge; ErrPeriodCharged when its period has a
// live charge already.
func (tx *Tx) InsertAutomaticPixPayment(ctx context.Context, a *AutomaticPixPaymentRow) error {
	_, err := tx.pg.Exec(ctx, `INSERT INTO automatic_pix_payments (id, request_id, client_id, status, amount, description, date, is_first,
		end_to_end_id, error_detail, created_at, updated_at, original_date, period_start)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		a.ID, a.RequestID, a.ClientID, a.Status, a.Amount, a.Description, a.Date, a.IsFirst, a.EndToEndID, a.ErrorDetail, a.CreatedAt, a.UpdatedAt,
		a.OriginalDate, a.PeriodStart)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.ConstraintName == "automatic_pix_payments_one_per_period" {
		return ErrPeriodCharged
	}
	return err
}

// AutomaticPixPaymentInPeriod finds the live (not canceled) charge of a request's period.
func (tx *Tx) AutomaticPixPaymentInPeriod(ctx context.Context, requestID uuid.UUID, periodStart time.Time) (*AutomaticPixPaymentRow, bool, error) {
	a, err := scanAutoPix(tx.pg.QueryRow(ctx, `SELECT `+autoPixColumns+` FROM automatic_pix_payments a
		WHERE a.request_id = $1 AND a.period_start = $2 AND a.status <> 'CANCELED' LIMIT 1`, requestID, periodStart))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return a, err == nil, err
}

// SaveAutomaticPixPayment writes a charge's changing fields back.
func (tx *Tx) SaveAutomaticPixPayment(ctx context.Context, a *AutomaticPixPaymentRow) error {
	_, err := tx.pg.Exec(ctx, `UPDATE automatic_pix_payments SET status = $2, date = $3, end_to_end_id = $4, error_detail = $5, updated_at = $6
		WHERE id = $1`, a.ID, a.Status, a.Date, a.EndToEndID, a.ErrorDetail, a.UpdatedAt)
	return err
}

// AutomaticPixPayment reads one charge, optionally locked.
func (c *conn) AutomaticPixPayment(ctx context.Context, id uuid.UUID, lock bool) (*AutomaticPixPaymentRow, bool, error) {
	sql := `SELECT ` + autoPixColumns + ` FROM automatic_pix_payments a WHERE a.id = $1`
	if lock {
		sql += ` FOR UPDATE`
	}
	a, err := scanAutoPix(c.pg.QueryRow(ctx, sql, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return a, err == nil, err
}

// AutomaticPixPayments lists a page of a request's charges by date.
func (d *DB) AutomaticPixPayments(ctx context.Context, requestID uuid.UUID, limit, offset int) ([]*AutomaticPixPaymentRow, int, error) {
	const where = `a.request_id = $1`
	return pageWithTotal(ctx, d.pg, `SELECT `+autoPixColumns+`, count(*) OVER () FROM automatic_pix_payments a WHERE `+where+`
		ORDER BY a.date, a.id LIMIT $2 OFFSET $3`, `SELECT count(*) FROM automatic_pix_payments a WHERE `+where, 1,
		[]any{requestID, limit, offset}, offset, func(r pgx.CollectableRow, total *int) (*AutomaticPixPaymentRow, error) { return scanAutoPix(r, total) })
}

// ScheduledAutomaticPixPayments lists, locked, a request's charges still to run.
func (tx *Tx) ScheduledAutomaticPixPayments(ctx context.Context, requestID uuid.UUID) ([]*AutomaticPixPaymentRow, error) {
	rows, err := tx.pg.Query(ctx, `SELECT `+autoPixColumns+` FROM automatic_pix_payments a WHERE a.request_id = $1 AND a.status = 'SCHEDULED'
		ORDER BY a.date, a.id FOR UPDATE`, requestID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*AutomaticPixPaymentRow, error) { return scanAutoPix(r) })
}

// CompletedAutomaticPixPayments counts a request's charges that were paid.
func (tx *Tx) CompletedAutomaticPixPayments(ctx context.Context, requestID uuid.UUID) (int, error) {
	var n int
	err := tx.pg.QueryRow(ctx, `SELECT count(*) FROM automatic_pix_payments WHERE request_id = $1 AND status = 'COMPLETED'`, requestID).Scan(&n)
	return n, err
}
