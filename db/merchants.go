package db

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// DirectoryMerchant is one establishment of the merchant directory with its company's
// registered name ("" when the company's Empresas row was not loaded).
type DirectoryMerchant struct {
	CNPJ, TradeName, BusinessName, CNAE string
}

// MerchantsByCNPJ reads the directory's establishments among cnpjs (bare, upper case).
// Declared on conn: the resolvers read it on the pool, an execution inside its transaction.
func (c *conn) MerchantsByCNPJ(ctx context.Context, cnpjs []string) ([]DirectoryMerchant, error) {
	if len(cnpjs) == 0 {
		return nil, nil
	}
	rows, err := c.pg.Query(ctx, `SELECT m.cnpj, m.trade_name, coalesce(co.business_name, ''), m.cnae
		FROM merchants m LEFT JOIN merchant_companies co ON co.cnpj_root = left(m.cnpj, 8)
		WHERE m.cnpj = ANY($1) ORDER BY m.cnpj`, cnpjs)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[DirectoryMerchant])
}

// MerchantFileKind is which of the Receita Federal's tables a file holds.
type MerchantFileKind string

const (
	MerchantFileCompanies      MerchantFileKind = "EMPRESAS"
	MerchantFileEstablishments MerchantFileKind = "ESTABELECIMENTOS"
)

// MerchantFileLoaded reports whether a file of this name and size was loaded already.
func (d *DB) MerchantFileLoaded(ctx context.Context, name string, size int64) (bool, error) {
	var n int
	err := d.pg.QueryRow(ctx, `SELECT count(*) FROM merchant_import_files WHERE name = $1 AND size = $2`, name, size).Scan(&n)
	return n > 0, err
}

// merchantStage is each kind's staging table and the statement that merges it: COPY fills
// the stage (no constraint, no index), then one INSERT ... ON CONFLICT writes the rows,
// the last of a repeated key winning, as a later month's file replaces an earlier one's.
var merchantStage = map[MerchantFileKind]struct{ create, merge string }{
	MerchantFileCompanies: {
		`CREATE TEMP TABLE merchant_stage (n bigserial, cnpj_root text, business_name text) ON COMMIT DROP`,
		`INSERT INTO merchant_companies (cnpj_root, business_name)
		 SELECT DISTINCT ON (cnpj_root) cnpj_root, business_name FROM merchant_stage ORDER BY cnpj_root, n DESC
		 ON CONFLICT (cnpj_root) DO UPDATE SET business_name = EXCLUDED.business_name`,
	},
	MerchantFileEstablishments: {
		`CREATE TEMP TABLE merchant_stage (n bigserial, cnpj text, trade_name text, cnae text, status text) ON COMMIT DROP`,
		`INSERT INTO merchants (cnpj, trade_name, cnae, status)
		 SELECT DISTINCT ON (cnpj) cnpj, trade_name, cnae, status FROM merchant_stage ORDER BY cnpj, n DESC
		 ON CONFLICT (cnpj) DO UPDATE SET trade_name = EXCLUDED.trade_name, cnae = EXCLUDED.cnae, status = EXCLUDED.status`,
	},
}

// MerchantColumns are the staged columns of each kind, in the order rows give them.
var MerchantColumns = map[MerchantFileKind][]string{
	MerchantFileCompanies:      {"cnpj_root", "business_name"},
	MerchantFileEstablishments: {"cnpj", "trade_name", "cnae", "status"},
}

// LoadMerchantFile loads one file's rows with COPY and records the file, all in one
// transaction: a load that stops leaves nothing of the file and no record, so the next
// run loads it again from its start. next yields each row (MerchantColumns' order) and
// false at the end; its error aborts the load.
func (d *DB) LoadMerchantFile(ctx context.Context, kind MerchantFileKind, name string, size int64, next func() ([]any, bool, error)) (int64, error) {
	stage, ok := merchantStage[kind]
	if !ok {
		return 0, fmt.Errorf("unknown merchant file kind %q", kind)
	}
	var copied int64
	err := d.InTx(ctx, func(ctx context.Context, tx *Tx) error {
		if _, err := tx.pg.Exec(ctx, stage.create); err != nil {
			return err
		}
		var readErr error
		src := pgx.CopyFromFunc(func() ([]any, error) {
			row, more, err := next()
			if err != nil {
				readErr = err
				return nil, err
			}
			if !more {
				return nil, nil
			}
			return row, nil
		})
		n, err := tx.pg.CopyFrom(ctx, pgx.Identifier{"merchant_stage"}, MerchantColumns[kind], src)
		if readErr != nil {
			return readErr
		}
		if err != nil {
			return fmt.Errorf("copy %s: %w", name, err)
		}
		copied = n
		if _, err := tx.pg.Exec(ctx, stage.merge); err != nil {
			return err
		}
		_, err = tx.pg.Exec(ctx, `INSERT INTO merchant_import_files (name, size, kind, rows) VALUES ($1, $2, $3, $4)
			ON CONFLICT (name) DO UPDATE SET size = EXCLUDED.size, kind = EXCLUDED.kind, rows = EXCLUDED.rows, loaded_at = now()`,
			name, size, string(kind), n)
		return err
	})
	return copied, err
}

// CopyPlainRows is the benchmark's baseline: the same rows COPYed into a fresh unindexed
// table, nothing merged or recorded.
func (d *DB) CopyPlainRows(ctx context.Context, kind MerchantFileKind, rows [][]any) (int64, error) {
	var n int64
	err := d.InTx(ctx, func(ctx context.Context, tx *Tx) error {
		if _, err := tx.pg.Exec(ctx, merchantStage[kind].create); err != nil {
			return err
		}
		var err error
		n, err = tx.pg.CopyFrom(ctx, pgx.Identifier{"merchant_stage"}, MerchantColumns[kind], pgx.CopyFromRows(rows))
		return err
	})
	return n, err
}
