package db

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"ponte/model"
)

// ErrDuplicateSeuNumero is returned when a connection already has a boleto with that
// seuNumero.
var ErrDuplicateSeuNumero = errors.New("duplicate seuNumero")

// BoletoConnectionRow is a boleto connection with the ids it belongs to.
type BoletoConnectionRow struct {
	model.BoletoConnection
	ClientID uuid.UUID
	ItemID   uuid.UUID
}

const boletoConnectionCols = `id, connector_id, created_at, updated_at, client_id, item_id`

func scanBoletoConnection(r pgx.CollectableRow) (*BoletoConnectionRow, error) {
	c := &BoletoConnectionRow{}
	var created, updated time.Time
	err := r.Scan(&c.ID, &c.ConnectorID, &created, &updated, &c.ClientID, &c.ItemID)
	c.CreatedAt, c.UpdatedAt = model.NewTime(created), model.NewTime(updated)
	return c, err
}

// EnsureBoletoConnection records the item's connection, or returns the one it has.
func (d *DB) EnsureBoletoConnection(ctx context.Context, c *BoletoConnectionRow) (*BoletoConnectionRow, error) {
	rows, err := d.pg.Query(ctx, `WITH ins AS (
		INSERT INTO boleto_connections (id, client_id, item_id, connector_id, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (client_id, item_id) DO NOTHING RETURNING `+boletoConnectionCols+`)
		SELECT `+boletoConnectionCols+` FROM ins
		UNION ALL SELECT `+boletoConnectionCols+` FROM boleto_connections WHERE client_id = $2 AND item_id = $3`,
		c.ID, c.ClientID, c.ItemID, c.ConnectorID, c.CreatedAt.Time)
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, scanBoletoConnection)
	if err != nil || len(list) == 0 {
		return nil, errors.Join(err, errors.New("boleto connection neither inserted nor found"))
	}
	return list[0], nil
}

// BoletoConnection reads one of an application's connections.
func (c *conn) BoletoConnection(ctx context.Context, clientID, id uuid.UUID) (*BoletoConnectionRow, bool, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+boletoConnectionCols+` FROM boleto_connections WHERE client_id = $1 AND id = $2`, clientID, id)
	if err != nil {
		return nil, false, err
	}
	list, err := pgx.CollectRows(rows, scanBoletoConnection)
	if err != nil || len(list) == 0 {
		return nil, false, err
	}
	return list[0], true, nil
}

// BoletoConnections lists an application's connections, oldest first, with the total.
func (c *conn) BoletoConnections(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*BoletoConnectionRow, int, error) {
	var total int
	if err := c.pg.QueryRow(ctx, `SELECT count(*) FROM boleto_connections WHERE client_id = $1`, clientID).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := c.pg.Query(ctx, `SELECT `+boletoConnectionCols+` FROM boleto_connections WHERE client_id = $1
		ORDER BY created_at, id LIMIT $2 OFFSET $3`, clientID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	list, err := pgx.CollectRows(rows, scanBoletoConnection)
	return list, total, err
}

// BoletoRow is an issued boleto with the ids it belongs to.
type BoletoRow struct {
	model.Boleto
	ClientID uuid.UUID
}

const boletoCols = `id, connection_id, seu_numero, amount::float8, due_date, status, nosso_numero, barcode, digitable_line,
	pix_qr, payer, fine, interest, amount_paid::float8, payment_origin, paid_at, created_at, updated_at, client_id, test_clock_id`

func scanBoleto(r pgx.CollectableRow) (*BoletoRow, error) {
	b := &BoletoRow{}
	var due, created, updated time.Time
	var paid *time.Time
	var payer []byte
	var fine, interest []byte
	err := r.Scan(&b.ID, &b.BoletoConnectionID, &b.SeuNumero, &b.Amount, &due, &b.Status, &b.NossoNumero, &b.Barcode,
		&b.DigitableLine, &b.PixQr, &payer, &fine, &interest, &b.AmountPaid, &b.PaymentOrigin, &paid, &created, &updated, &b.ClientID, &b.TestClockID)
	if err != nil {
		return nil, err
	}
	b.DueDate, b.CreatedAt, b.UpdatedAt = model.NewTime(due), model.NewTime(created), model.NewTime(updated)
	if paid != nil {
		t := model.NewTime(*paid)
		b.PaidAt = &t
	}
	if err := json.Unmarshal(payer, &b.Payer); err != nil {
		return nil, fmt.Errorf("boleto %s payer: %w", b.ID, err)
	}
	for _, c := range []struct {
		raw []byte
		dst **model.BoletoCharge
	}{{fine, &b.Fine}, {interest, &b.Interest}} {
		if c.raw != nil {
			if err := json.Unmarshal(c.raw, c.dst); err != nil {
				return nil, fmt.Errorf("boleto %s charges: %w", b.ID, err)
			}
		}
	}
	return b, nil
}

// NextNossoNumero draws the next nosso número (unique across the service).
func (tx *Tx) NextNossoNumero(ctx context.Context) (int64, error) {
	var n int64
	err := tx.pg.QueryRow(ctx, `SELECT nextval('boleto_nosso_numero_seq')`).Scan(&n)
	return n, err
}

// InsertBoleto records an issued boleto; ErrDuplicateSeuNumero when its connection has the
// seuNumero already.
func (tx *Tx) InsertBoleto(ctx context.Context, b *BoletoRow) error {
	_, err := tx.pg.Exec(ctx, `INSERT INTO boletos (id, client_id, connection_id, seu_numero, amount, due_date, status, nosso_numero,
		barcode, digitable_line, pix_qr, payer, fine, interest, created_at, updated_at, test_clock_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15, $16)`,
		b.ID, b.ClientID, b.BoletoConnectionID, b.SeuNumero, b.Amount, b.DueDate.Time, b.Status, b.NossoNumero,
		b.Barcode, b.DigitableLine, b.PixQr, b.Payer, b.Fine, b.Interest, b.CreatedAt.Time, b.TestClockID)
	if pgCode(err) == sqlstateUniqueViolation {
		return ErrDuplicateSeuNumero
	}
	return err
}

// SaveBoletoState writes a boleto's status and what was paid.
func (tx *Tx) SaveBoletoState(ctx context.Context, b *BoletoRow) error {
	var paid *time.Time
	if b.PaidAt != nil {
		paid = &b.PaidAt.Time
	}
	_, err := tx.pg.Exec(ctx, `UPDATE boletos SET status = $2, amount_paid = $3, payment_origin = $4, paid_at = $5, updated_at = $6
		WHERE id = $1`, b.ID, b.Status, b.AmountPaid, b.PaymentOrigin, paid, b.UpdatedAt.Time)
	return err
}

// LockBoleto reads a boleto for a change (clientID uuid.Nil: any application's, for jobs
// and the PIX location).
func (tx *Tx) LockBoleto(ctx context.Context, clientID, id uuid.UUID) (*BoletoRow, bool, error) {
	rows, err := tx.pg.Query(ctx, `SELECT `+boletoCols+` FROM boletos WHERE id = $1 AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR client_id = $2)
		FOR UPDATE`, id, clientID)
	return oneBoleto(rows, err)
}

// Boleto reads one boleto (clientID uuid.Nil: any application's).
func (c *conn) Boleto(ctx context.Context, clientID, id uuid.UUID) (*BoletoRow, bool, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+boletoCols+` FROM boletos WHERE id = $1 AND ($2 = '00000000-0000-0000-0000-000000000000'::uuid OR client_id = $2)`, id, clientID)
	return oneBoleto(rows, err)
}

func oneBoleto(rows pgx.Rows, err error) (*BoletoRow, bool, error) {
	if err != nil {
		return nil, false, err
	}
	list, err := pgx.CollectRows(rows, scanBoleto)
	if err != nil || len(list) == 0 {
		return nil, false, err
	}
	return list[0], true, nil
}

// BoletoQuery is a list of an application's boletos by its filters. Dates are compared as
// the calendar dates of the times given (parameters typed date: the session's time zone
// plays no part).
type BoletoQuery struct {
	ClientID     uuid.UUID
	ConnectionID *uuid.UUID
	Status       *string
	DueFrom      *time.Time
	DueTo        *time.Time
}

// Boletos lists boletos oldest first, with the total.
func (c *conn) Boletos(ctx context.Context, q BoletoQuery, limit, offset int) ([]*BoletoRow, int, error) {
	where := `client_id = $1 AND ($2::uuid IS NULL OR connection_id = $2) AND ($3::text IS NULL OR status = $3)
		AND ($4::date IS NULL OR due_date >= $4::date) AND ($5::date IS NULL OR due_date <= $5::date)`
	args := []any{q.ClientID, q.ConnectionID, q.Status, q.DueFrom, q.DueTo}
	var total int
	if err := c.pg.QueryRow(ctx, `SELECT count(*) FROM boletos WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := c.pg.Query(ctx, `SELECT `+boletoCols+` FROM boletos WHERE `+where+` ORDER BY created_at, id LIMIT $6 OFFSET $7`,
		append(args, limit, offset)...)
	if err != nil {
		return nil, 0, err
	}
	list, err := pgx.CollectRows(rows, scanBoleto)
	return list, total, err
}

// UnsettledBoletos lists the ids of OPEN boletos due before a date and of OVERDUE ones due
// before another, for the daily lifecycle job: those on the test clock named (clockID
// uuid.Nil: those on none, which real time moves).
func (c *conn) UnsettledBoletos(ctx context.Context, clockID uuid.UUID, overdueBefore, protestBefore time.Time, limit int) ([]uuid.UUID, error) {
	rows, err := c.pg.Query(ctx, `SELECT id FROM boletos WHERE status IN ('OPEN', 'OVERDUE') AND
		(status = 'OPEN' AND due_date < $1::date OR status = 'OVERDUE' AND due_date < $2::date)
		AND test_clock_id IS NOT DISTINCT FROM $4 ORDER BY due_date, id LIMIT $3`, overdueBefore, protestBefore, limit, nilAsNull(clockID))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
}

// NextClockBoletoDay is the first day (a date, midnight UTC) on which a boleto of the clock
// has a date pass: the day after an OPEN one's due date, or after an OVERDUE one's due date
// plus protestDays; found is false when none of its boletos waits on a date.
func (tx *Tx) NextClockBoletoDay(ctx context.Context, clockID uuid.UUID, protestDays int) (day time.Time, found bool, err error) {
	var d *time.Time
	err = tx.pg.QueryRow(ctx, `SELECT min(CASE WHEN status = 'OPEN' THEN due_date + 1 ELSE due_date + $2::int + 1 END)::timestamp
		FROM boletos WHERE test_clock_id = $1 AND status IN ('OPEN', 'OVERDUE')`, clockID, protestDays).Scan(&d)
	if err != nil || d == nil {
		return time.Time{}, false, err
	}
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC), true, nil
}

func nilAsNull(id uuid.UUID) *uuid.UUID {
	if id == uuid.Nil {
		return nil
	}
	return &id
}

// LockBoletoByNossoNumero reads, for a change, the boleto a line of this service carries.
func (tx *Tx) LockBoletoByNossoNumero(ctx context.Context, nossoNumero string) (*BoletoRow, bool, error) {
	rows, err := tx.pg.Query(ctx, `SELECT `+boletoCols+` FROM boletos WHERE nosso_numero = $1 FOR UPDATE`, nossoNumero)
	return oneBoleto(rows, err)
}

// ErrBoletoHeld is returned when another live payment request already pays the boleto.
var ErrBoletoHeld = errors.New("the boleto is already paid by another payment request")

// liveRequest is what a payment request holds a boleto by: it is not over (ERROR, EXPIRED
// and CANCELED free the boleto) and not deleted. payment_requests_boleto_once says the same.
const liveRequest = `deleted_at IS NULL AND status NOT IN ('ERROR', 'EXPIRED', 'CANCELED')`

// BoletoHolder finds the live payment request that pays a boleto, with its application.
func (tx *Tx) BoletoHolder(ctx context.Context, boletoID uuid.UUID) (requestID, clientID uuid.UUID, found bool, err error) {
	err = tx.pg.QueryRow(ctx, `SELECT id, client_id FROM payment_requests WHERE boleto_id = $1 AND `+liveRequest+` LIMIT 1`, boletoID).
		Scan(&requestID, &clientID)
	if errors.Is(err, pgx.ErrNoRows) {
		return uuid.Nil, uuid.Nil, false, nil
	}
	return requestID, clientID, err == nil, err
}

// SetRequestBoleto records that a request pays a boleto this service issued; ErrBoletoHeld
// when another live request pays it.
func (tx *Tx) SetRequestBoleto(ctx context.Context, requestID, boletoID uuid.UUID) error {
	_, err := tx.pg.Exec(ctx, `UPDATE payment_requests SET boleto_id = $2 WHERE id = $1`, requestID, boletoID)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.ConstraintName == "payment_requests_boleto_once" {
		return ErrBoletoHeld
	}
	return err
}
