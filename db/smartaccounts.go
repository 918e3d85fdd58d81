package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

const smartAccountCols = `id, agency, number, verifying_digit, is_sandbox, name, tax_number, email, phone_number, created_at`

func scanSmartAccount(r pgx.CollectableRow) (*model.SmartAccount, error) {
	a := &model.SmartAccount{Type: "CHECKING_ACCOUNT"}
	var created time.Time
	err := r.Scan(&a.ID, &a.Agency, &a.Number, &a.VerifyingDigit, &a.IsSandbox, &a.Name, &a.TaxNumber, &a.Email, &a.PhoneNumber, &created)
	a.CreatedAt = model.NewTime(created)
	return a, err
}

// InsertSmartAccount records a smart account, numbering it from a sequence.
func (d *DB) InsertSmartAccount(ctx context.Context, clientID uuid.UUID, a *model.SmartAccount) error {
	return d.Pool.QueryRow(ctx, `INSERT INTO smart_accounts (id, client_id, name, tax_number, email, phone_number, agency, number,
		verifying_digit, is_sandbox, created_at)
		SELECT $1, $2, $3, $4, $5, $6, '0001', lpad(n::text, 8, '0'), (n % 10)::text, $7, $8 FROM nextval('smart_account_number_seq') n
		RETURNING agency, number, verifying_digit`, a.ID, clientID, a.Name, a.TaxNumber, a.Email, a.PhoneNumber, a.IsSandbox, a.CreatedAt.Time).
		Scan(&a.Agency, &a.Number, &a.VerifyingDigit)
}

// SmartAccount reads one of an application's smart accounts.
func (d *DB) SmartAccount(ctx context.Context, clientID, id uuid.UUID) (*model.SmartAccount, bool, error) {
	rows, err := d.Pool.Query(ctx, `SELECT `+smartAccountCols+` FROM smart_accounts WHERE client_id = $1 AND id = $2`, clientID, id)
	if err != nil {
		return nil, false, err
	}
	list, err := pgx.CollectRows(rows, scanSmartAccount)
	if err != nil || len(list) == 0 {
		return nil, false, err
	}
	return list[0], true, nil
}

// SmartAccounts lists an application's smart accounts, oldest first, with the total.
func (d *DB) SmartAccounts(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*model.SmartAccount, int, error) {
	var total int
	if err := d.Pool.QueryRow(ctx, `SELECT count(*) FROM smart_accounts WHERE client_id = $1`, clientID).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := d.Pool.Query(ctx, `SELECT `+smartAccountCols+` FROM smart_accounts WHERE client_id = $1 ORDER BY created_at, id
		LIMIT $2 OFFSET $3`, clientID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	list, err := pgx.CollectRows(rows, scanSmartAccount)
	return list, total, err
}

// Balance sums an account's ledger entries (credits less debits) and says when it last moved.
func (c *conn) Balance(ctx context.Context, account string) (float64, *time.Time, error) {
	var balance float64
	var last *time.Time
	err := c.pg.QueryRow(ctx, `SELECT COALESCE(sum(credit - debit), 0)::float8, max(created_at) FROM ledger_entries WHERE account = $1`, account).
		Scan(&balance, &last)
	return balance, last, err
}

// Transfer records one movement: a debit of from and a credit of to, of the same amount, in
// the caller's transaction. reference makes it happen once (a second call does nothing).
func (tx *Tx) Transfer(ctx context.Context, from, to string, amount float64, reference string, at time.Time) error {
	movement := uuid.New()
	_, err := tx.pg.Exec(ctx, `INSERT INTO ledger_entries (movement_id, account, debit, credit, reference, created_at)
		VALUES ($1, $2, $3, 0, $5, $6), ($1, $4, 0, $3, $5, $6) ON CONFLICT (reference, account) DO NOTHING`,
		movement, from, amount, to, reference, at)
	return err
}

// LedgerTotal is the sum of every entry's credit less debit: zero when every movement is
// balanced.
func (d *DB) LedgerTotal(ctx context.Context) (float64, error) {
	var total float64
	err := d.Pool.QueryRow(ctx, `SELECT COALESCE(sum(credit - debit), 0)::float8 FROM ledger_entries`).Scan(&total)
	return total, err
}
