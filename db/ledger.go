package db

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// The ledger's statements. Amounts are integer centavos here and numeric in the table; the
// conversion is the database's (exact), never a float's.

// ErrPosted is returned by Post when a movement with the same reference exists already:
// a posting happens once, so a retried step changes nothing.
var ErrPosted = errors.New("ledger: a movement with this reference is posted already")

// Post records one movement in the caller's transaction: a debit of from and a credit of
// to, of the same positive amount. reference names the movement; a second Post with it is
// ErrPosted and writes nothing.
func (tx *Tx) Post(ctx context.Context, from, to string, cents int64, kind, reference string, at time.Time) error {
	tag, err := tx.pg.Exec(ctx, `INSERT INTO ledger_entries (movement_id, account, debit, credit, kind, reference, created_at)
		VALUES ($1, $2, $3::bigint / 100.0, 0, $5, $6, $7), ($1, $4, 0, $3::bigint / 100.0, $5, $6, $7)
		ON CONFLICT (reference, account) DO NOTHING`, uuid.New(), from, cents, to, kind, reference, at)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrPosted
	}
	return nil
}

// Posted reports whether a movement with this reference exists.
func (c *conn) Posted(ctx context.Context, reference string) (bool, error) {
	var found bool
	err := c.pg.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM ledger_entries WHERE reference = $1)`, reference).Scan(&found)
	return found, err
}

// Balance sums an account's entries (credits less debits) in centavos and says when it
// last moved.
func (c *conn) Balance(ctx context.Context, account string) (int64, *time.Time, error) {
	var balance int64
	var last *time.Time
	err := c.pg.QueryRow(ctx, `SELECT (COALESCE(sum(credit - debit), 0) * 100)::bigint, max(created_at) FROM ledger_entries WHERE account = $1`, account).
		Scan(&balance, &last)
	return balance, last, err
}

// LedgerAudit is what the ledger's invariants read: movements that do not sum to zero,
// smart accounts whose balance is below zero, and boletos this service issued whose issuer
// was paid more than once. All are empty in a sound ledger.
type LedgerAudit struct {
	Unbalanced []uuid.UUID
	Negative   map[string]int64
	PaidTwice  []string
}

// AuditLedger reads the ledger's invariants in one snapshot.
func (d *DB) AuditLedger(ctx context.Context) (*LedgerAudit, error) {
	a := &LedgerAudit{Negative: map[string]int64{}}
	err := d.InTx(ctx, func(ctx context.Context, tx *Tx) error {
		if _, err := tx.pg.Exec(ctx, `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`); err != nil {
			return err
		}
		rows, err := tx.pg.Query(ctx, `SELECT movement_id FROM ledger_entries GROUP BY movement_id HAVING sum(credit - debit) <> 0 OR count(*) <> 2`)
		if err != nil {
			return err
		}
		if a.Unbalanced, err = pgx.CollectRows(rows, pgx.RowTo[uuid.UUID]); err != nil {
			return err
		}
		rows, err = tx.pg.Query(ctx, `SELECT s.id::text, (COALESCE(sum(l.credit - l.debit), 0) * 100)::bigint FROM smart_accounts s
			JOIN ledger_entries l ON l.account = s.id::text GROUP BY s.id HAVING sum(l.credit - l.debit) < 0`)
		if err != nil {
			return err
		}
		type neg struct {
			account string
			cents   int64
		}
		list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (neg, error) {
			var n neg
			return n, r.Scan(&n.account, &n.cents)
		})
		for _, n := range list {
			a.Negative[n.account] = n.cents
		}
		if err != nil {
			return err
		}
		// Paid less what was given back: a payment returned (a bulk payment's failed
		// request) leaves its boleto payable again.
		rows, err = tx.pg.Query(ctx, `SELECT b.id::text FROM boletos b JOIN ledger_entries l ON l.account = 'boleto:' || b.barcode
			GROUP BY b.id HAVING count(*) FILTER (WHERE l.kind = 'payment' AND l.credit > 0) -
				count(*) FILTER (WHERE l.kind = 'payment_return' AND l.debit > 0) > 1`)
		if err != nil {
			return err
		}
		a.PaidTwice, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	return a, err
}
