package db_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"ponte/model"
	"ponte/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }

// migrationRig is how a test of a migration on old data starts: a connection to a database
// of its own, the migration's text, and an exec that fails the test naming the statement.
func migrationRig(t *testing.T, file string) (context.Context, *pgx.Conn, string, func(string, ...any)) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testsupport.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	migration, err := os.ReadFile("migrations/" + file)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, conn, string(migration), func(sql string, args ...any) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%v\n%s", err, sql)
		}
	}
}

// Migration 0023 turns the accounts of a database written before it into documents that
// hold their dates, as ReplaceAccounts now writes them: run on the table as it was (in a
// schema of its own), it writes each row's created_at and updated_at into its document to
// the millisecond, truncated as model.Time is, and fills subtype.
func TestAccountDocumentsMigration(t *testing.T) {
	t.Parallel()
	ctx, conn, migration, _ := migrationRig(t, "0023_account_text_documents.sql")
	created := time.Date(2025, 12, 31, 23, 59, 59, 999_999_000, time.UTC)
	updated := time.Date(2026, 1, 2, 3, 4, 5, 6_000, time.UTC)
	for _, sql := range []string{
		`CREATE SCHEMA before_0023`,
		`SET search_path = before_0023`,
		`CREATE TABLE accounts (id uuid PRIMARY KEY, item_id uuid NOT NULL, type text NOT NULL, data jsonb NOT NULL,
			created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())`,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	// As ReplaceAccounts stored documents before: the dates as zero-time placeholders.
	placeholder := `{"id": "00000000-0000-0000-0000-000000000001", "name": "Conta, \"corrente\"", "type": "BANK", "subtype": "SAVINGS_ACCOUNT",
		"createdAt": "0001-01-01T00:00:00.000Z", "updatedAt": "0001-01-01T00:00:00.000Z", "balance": 1.5}`
	if _, err := conn.Exec(ctx, `INSERT INTO accounts VALUES ('00000000-0000-0000-0000-000000000001', gen_random_uuid(), 'BANK', $1, $2, $3)`,
		placeholder, created, updated); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, migration); err != nil {
		t.Fatal(err)
	}
	var data, subtype string
	if err := conn.QueryRow(ctx, `SELECT data, subtype FROM accounts`).Scan(&data, &subtype); err != nil {
		t.Fatal(err)
	}
	var a model.Account
	if err := json.Unmarshal([]byte(data), &a); err != nil {
		t.Fatalf("the migrated document is not an account: %v\n%s", err, data)
	}
	if a.CreatedAt.String() != model.NewTime(created).String() || a.UpdatedAt.String() != model.NewTime(updated).String() || a.CreatedAt.String() != "2025-12-31T23:59:59.999Z" ||
		subtype != "SAVINGS_ACCOUNT" || a.Name != `Conta, "corrente"` || *a.Balance != 1.5 {
		t.Fatalf("migrated to subtype %q and\n%s", subtype, data)
	}
}
