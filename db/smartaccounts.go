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
func (c *conn) InsertSmartAccount(ctx context.Context, clientID uuid.UUID, a *model.SmartAccount) error {
	return c.pg.QueryRow(ctx, `INSERT INTO smart_accounts (id, client_id, name, tax_number, email, phone_number, agency, number,
		verifying_digit, is_sandbox, created_at)
		SELECT $1, $2, $3, $4, $5, $6, '0001', lpad(n::text, 8, '0'), (n % 10)::text, $7, $8 FROM nextval('smart_account_number_seq') n
		RETURNING agency, number, verifying_digit`, a.ID, clientID, a.Name, a.TaxNumber, a.Email, a.PhoneNumber, a.IsSandbox, a.CreatedAt.Time).
		Scan(&a.Agency, &a.Number, &a.VerifyingDigit)
}

// SmartAccount reads one of an application's smart accounts.
func (c *conn) SmartAccount(ctx context.Context, clientID, id uuid.UUID) (*model.SmartAccount, bool, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+smartAccountCols+` FROM smart_accounts WHERE client_id = $1 AND id = $2`, clientID, id)
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
func (c *conn) SmartAccounts(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*model.SmartAccount, int, error) {
	var total int
	if err := c.pg.QueryRow(ctx, `SELECT count(*) FROM smart_accounts WHERE client_id = $1`, clientID).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := c.pg.Query(ctx, `SELECT `+smartAccountCols+` FROM smart_accounts WHERE client_id = $1 ORDER BY created_at, id
		LIMIT $2 OFFSET $3`, clientID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	list, err := pgx.CollectRows(rows, scanSmartAccount)
	return list, total, err
}
