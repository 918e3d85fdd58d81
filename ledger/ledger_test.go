package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"pgregory.net/rapid"

	"ponte/auth"
	"ponte/db"
	"ponte/ledger"
	"ponte/model"
	"ponte/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }

// smartAccounts opens n smart accounts of one application on a fresh service.
func smartAccounts(t *testing.T, n int) (*testsupport.Env, []string) {
	env := testsupport.New(t)
	c := env.NewClient(t, "ledger")
	// The credential the API checks before the engine acts: the application's key.
	ctx := auth.WithResult(context.Background(), &auth.Principal{ClientID: uuid.MustParse(c.ID), Kind: auth.KindAPIKey}, nil)
	yes := true
	var out []string
	for i := range n {
		name, tax, email, phone := fmt.Sprintf("Conta %d", i), "11222333000181", "conta@example.com", "+5511999990000"
		a, err := env.Payments.CreateSmartAccount(ctx, model.SmartAccountInput{Name: &name, TaxNumber: &tax,
			Email: &email, PhoneNumber: &phone, IsSandbox: &yes})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ledger.SmartAccount(a.ID))
	}
	return env, out
}

func move(ctx context.Context, store *db.DB, m ledger.Movement) error {
	return store.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return ledger.Move(ctx, tx, m) })
}

// TestLedgerRules drives random movements between smart accounts and the outside through
// the ledger and holds it, after every one, to its rules: a smart account never goes below
// zero (a movement it cannot cover is refused and writes nothing), a reference posts once,
// every balance is the sum of what moved, and every movement balances. rapid prints the seed
// of a failure and keeps it under testdata/rapid, where every later run replays it.
func TestLedgerRules(t *testing.T) {
	t.Parallel()
	env, accounts := smartAccounts(t, 3)
	all := append([]string{ledger.Payers, ledger.Payees, ledger.Refunds}, accounts...)
	ctx := context.Background()
	run := 0
	rapid.Check(t, func(r *rapid.T) {
		// Each run starts from the balances the runs before it left: the ledger is
		// append-only, so a run's model is seeded from the database, not from zero.
		run++
		want := map[string]int64{}
		for _, a := range all {
			b, _, err := env.DB.Balance(ctx, a)
			if err != nil {
				r.Fatal(err)
			}
			want[a] = b
		}
		var posted []ledger.Movement
		steps := rapid.IntRange(1, 25).Draw(r, "steps")
		for i := range steps {
			if len(posted) > 0 && rapid.Bool().Draw(r, "replay") {
				m := posted[rapid.IntRange(0, len(posted)-1).Draw(r, "which")]
				if err := move(ctx, env.DB, m); !errors.Is(err, ledger.ErrPosted) {
					r.Fatalf("replayed movement %s: %v", m.Reference, err)
				}
				continue
			}
			from := rapid.SampledFrom(all).Draw(r, "from")
			to := rapid.SampledFrom(all).Filter(func(s string) bool { return s != from }).Draw(r, "to")
			m := ledger.Movement{From: from, To: to, Cents: rapid.Int64Range(1, 50_000).Draw(r, "cents"), Kind: ledger.KindPayment,
				Reference: fmt.Sprintf("test:%d:%d:%s", run, i, uuid.NewString()), At: time.Now()}
			err := move(ctx, env.DB, m)
			covered := !slices.Contains(accounts, from) || want[from] >= m.Cents
			switch {
			case covered && err != nil:
				r.Fatalf("movement of %d from %s (holding %d) refused: %v", m.Cents, from, want[from], err)
			case !covered && err == nil:
				r.Fatalf("movement of %d from %s holding %d went through", m.Cents, from, want[from])
			case !covered:
				if f, _ := model.AsError(err); f == nil || f.Code != model.CodeInsufficientSmartAccountBalance {
					r.Fatalf("uncovered movement refused with %v", err)
				}
			default:
				want[from] -= m.Cents
				want[to] += m.Cents
				posted = append(posted, m)
			}
		}
		for _, a := range all {
			got, _, err := env.DB.Balance(ctx, a)
			if err != nil || got != want[a] {
				r.Fatalf("balance of %s is %d (%v), the movements add up to %d", a, got, err, want[a])
			}
		}
		a, err := env.DB.AuditLedger(ctx)
		if err != nil || len(a.Unbalanced) > 0 || len(a.Negative) > 0 {
			r.Fatalf("audit: %+v, %v", a, err)
		}
	})
}

// TestLedgerRefusesRewrites checks the table itself: no update, no delete, no half a
// movement, whoever writes the statement.
func TestLedgerRefusesRewrites(t *testing.T) {
	t.Parallel()
	env, accounts := smartAccounts(t, 1)
	ctx := context.Background()
	if err := move(ctx, env.DB, ledger.Movement{From: ledger.Payers, To: accounts[0], Cents: 1000, Kind: ledger.KindPayment, Reference: "r1", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		`UPDATE ledger_entries SET credit = credit * 2`,
		`DELETE FROM ledger_entries`,
		`TRUNCATE ledger_entries`,
		`INSERT INTO ledger_entries (movement_id, account, debit, credit, reference, created_at) VALUES (gen_random_uuid(), 'payers', 0, 5, 'half', now())`,
		`INSERT INTO ledger_entries (movement_id, account, debit, credit, reference, created_at) VALUES (gen_random_uuid(), 'payers', 5, 5, 'both', now())`,
	} {
		if _, err := env.DB.Pool.Exec(ctx, sql); err == nil {
			t.Errorf("%s was accepted", sql)
		}
	}
	if b, _, err := env.DB.Balance(ctx, accounts[0]); err != nil || b != 1000 {
		t.Fatalf("balance %d, %v", b, err)
	}
	for _, bad := range []ledger.Movement{
		{From: ledger.Payers, To: accounts[0], Cents: 0, Reference: "zero"},
		{From: ledger.Payers, To: accounts[0], Cents: -5, Reference: "negative"},
		{From: accounts[0], To: accounts[0], Cents: 5, Reference: "self"},
		{From: ledger.Payers, To: accounts[0], Cents: 5},
	} {
		if err := move(ctx, env.DB, bad); err == nil {
			t.Errorf("movement %+v was accepted", bad)
		}
	}
}

func TestReais(t *testing.T) {
	for cents, want := range map[int64]string{0: "0.00", 1: "0.01", 99: "0.99", 100: "1.00", 123456: "1234.56", -250: "-2.50"} {
		if got := ledger.Reais(cents); got != want {
			t.Errorf("Reais(%d) = %s, want %s", cents, got, want)
		}
	}
}
