package db_test

import "testing"

// Migration 0026 on data written before it, which already broke its rules: each boleto
// goes to one live request (the one that paid it, else one being paid, else the oldest),
// each calendar period of an automatic PIX authorization to its oldest live charge that
// is not the first payment, and the two unique indexes build over the rest and then hold.
func TestBoletoPaidOnceMigration(t *testing.T) {
	t.Parallel()
	ctx, conn, migration, exec := migrationRig(t, "0026_boleto_paid_once.sql")
	exec(`CREATE SCHEMA before_0026`)
	exec(`SET search_path = before_0026`)
	exec(`CREATE TABLE boletos (id uuid PRIMARY KEY, name text NOT NULL, barcode text NOT NULL)`)
	exec(`CREATE TABLE payment_requests (id text PRIMARY KEY, status text NOT NULL, boleto jsonb, automatic_pix jsonb,
		created_at timestamptz NOT NULL, deleted_at timestamptz)`)
	exec(`CREATE TABLE automatic_pix_payments (id text PRIMARY KEY, request_id text NOT NULL, status text NOT NULL, date date NOT NULL,
		is_first boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL)`)
	exec(`INSERT INTO boletos VALUES (md5('b1')::uuid, 'b1', '955-one'), (md5('b2')::uuid, 'b2', '955-two')`)
	exec(`INSERT INTO payment_requests (id, status, boleto, created_at, deleted_at) VALUES
		('r1', 'CREATED', '{"barcode": "955-one"}', '2026-01-01', NULL),
		('r2', 'COMPLETED', '{"barcode": "955-one"}', '2026-01-02', NULL),
		('r3', 'ERROR', '{"barcode": "955-one"}', '2025-12-01', NULL),
		('r4', 'CREATED', '{"barcode": "955-one"}', '2025-12-02', '2025-12-03'),
		('r5', 'CREATED', '{"barcode": "955-two"}', '2026-01-01', NULL),
		('r6', 'IN_PROGRESS', '{"barcode": "955-two"}', '2026-01-02', NULL),
		('r7', 'CREATED', '{"barcode": "001-other-bank"}', '2026-01-01', NULL)`)
	exec(`INSERT INTO payment_requests (id, status, automatic_pix, created_at) VALUES
		('m', 'AUTHORIZED', '{"interval": "MONTHLY"}', '2026-01-01'), ('w', 'AUTHORIZED', '{"interval": "WEEKLY"}', '2026-01-01'),
		('q', 'AUTHORIZED', '{"interval": "QUARTERLY"}', '2026-01-01'), ('s', 'AUTHORIZED', '{"interval": "SEMESTER"}', '2026-01-01'),
		('y', 'AUTHORIZED', '{"interval": "YEARLY"}', '2026-01-01')`)
	exec(`INSERT INTO automatic_pix_payments (id, request_id, status, date, is_first, created_at) VALUES
		('m1', 'm', 'COMPLETED', '2026-03-05', false, '2026-01-01'),
		('m2', 'm', 'SCHEDULED', '2026-03-20', false, '2026-01-02'),
		('m3', 'm', 'ERROR', '2026-04-01', false, '2026-01-03'),
		('m4', 'm', 'CANCELED', '2026-05-01', false, '2026-01-04'),
		('m5', 'm', 'COMPLETED', '2026-03-01', true, '2026-01-01'),
		('w1', 'w', 'SCHEDULED', '2026-03-08', false, '2026-01-01'),
		('q1', 'q', 'SCHEDULED', '2026-05-31', false, '2026-01-01'),
		('s1', 's', 'SCHEDULED', '2026-08-15', false, '2026-01-01'),
		('y1', 'y', 'SCHEDULED', '2026-12-31', false, '2026-01-01')`)
	exec(migration)

	rows, err := conn.Query(ctx, `SELECT r.id, coalesce(b.name, '-') FROM payment_requests r LEFT JOIN boletos b ON b.id = r.boleto_id WHERE r.boleto IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for rows.Next() {
		var id, b string
		if err := rows.Scan(&id, &b); err != nil {
			t.Fatal(err)
		}
		got[id] = b
	}
	want := map[string]string{"r1": "-", "r2": "b1", "r3": "-", "r4": "-", "r5": "-", "r6": "b2", "r7": "-"}
	for id, b := range want {
		if got[id] != b {
			t.Errorf("request %s holds boleto %q, want %q", id, got[id], b)
		}
	}
	rows, err = conn.Query(ctx, `SELECT id, coalesce(period_start::text, '-'), original_date = date FROM automatic_pix_payments`)
	if err != nil {
		t.Fatal(err)
	}
	periods := map[string]string{}
	for rows.Next() {
		var id, p string
		var same bool
		if err := rows.Scan(&id, &p, &same); err != nil {
			t.Fatal(err)
		}
		if !same {
			t.Errorf("charge %s: original_date is not its date", id)
		}
		periods[id] = p
	}
	for id, p := range map[string]string{"m1": "2026-03-01", "m2": "-", "m3": "2026-04-01", "m4": "-", "m5": "-",
		"w1": "2026-03-02", "q1": "2026-04-01", "s1": "2026-07-01", "y1": "2026-01-01"} {
		if periods[id] != p {
			t.Errorf("charge %s: period %q, want %q", id, periods[id], p)
		}
	}
	// The indexes hold from now on.
	if _, err := conn.Exec(ctx, `UPDATE payment_requests SET boleto_id = md5('b1')::uuid WHERE id = 'r1'`); err == nil {
		t.Error("a second live request took boleto b1")
	}
	if _, err := conn.Exec(ctx, `INSERT INTO automatic_pix_payments (id, request_id, status, date, created_at, original_date, period_start)
		VALUES ('m6', 'm', 'SCHEDULED', '2026-04-20', now(), '2026-04-20', '2026-04-01')`); err == nil {
		t.Error("a second live charge took April")
	}
	exec(`UPDATE payment_requests SET boleto_id = md5('b1')::uuid WHERE id = 'r3'`) // an ERROR request holds nothing
	exec(`INSERT INTO automatic_pix_payments (id, request_id, status, date, created_at, original_date, period_start)
		VALUES ('m7', 'm', 'SCHEDULED', '2026-05-20', now(), '2026-05-20', '2026-05-01')`) // May's only charge was canceled
}
