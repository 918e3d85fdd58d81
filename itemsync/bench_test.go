package itemsync_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"ponte/model"
	"ponte/sandbox"
	"ponte/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }

// BenchmarkIngestPerf5000 syncs user-ok-perf-5000 (over a million transactions) end to end
// through the API, and in the same run COPYs the same rows into a bare table: the plain
// rate the ingestion is compared with. Run with -benchtime=1x.
func BenchmarkIngestPerf5000(b *testing.B) {
	// A long sync must not be mistaken for the job of a killed process.
	env := testsupport.New(b, func(s *testsupport.Setup) { s.Jobs.JobTimeout, s.Jobs.RescueAfter = 20*time.Minute, 21*time.Minute })
	key := env.NewClient(b, "perf").APIKey
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		var it model.Item
		start := time.Now()
		env.Do(b, "POST", "/items", key, map[string]any{"connectorId": 0, "products": []string{"ACCOUNTS", "TRANSACTIONS"},
			"parameters": map[string]any{"user": "user-ok-perf-5000", "password": "password-ok"}}).Want(200).JSON(&it)
		waitSettled(b, env, key, it.ID.String(), 20*time.Minute)
		syncTime := time.Since(start)
		var rows int
		if err := env.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE item_id = $1`, it.ID).Scan(&rows); err != nil {
			b.Fatal(err)
		}

		// Idempotent: a second sync of the same history adds nothing.
		env.Do(b, "PATCH", "/items/"+it.ID.String(), key, map[string]any{}).Want(200)
		start2 := time.Now()
		waitSettled(b, env, key, it.ID.String(), 20*time.Minute)
		resync := time.Since(start2)
		var rows2 int
		_ = env.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE item_id = $1`, it.ID).Scan(&rows2)

		// Baseline: the same rows, generated and encoded the same way, COPYed into a bare
		// table with the same columns.
		snap := sandbox.Generate(it.ID, 0, "user-ok-perf-5000", 1, time.Now())
		if _, err := env.DB.Pool.Exec(ctx, `CREATE TABLE copy_baseline (id uuid, item_id uuid, account_id uuid, date timestamptz,
			status text, amount numeric, data jsonb)`); err != nil {
			b.Fatal(err)
		}
		copyStart := time.Now()
		n := 0
		list := snap.Transactions
		src := pgx.CopyFromFunc(func() ([]any, error) {
			if n >= len(list) {
				return nil, nil
			}
			t := &list[n]
			n++
			data, err := json.Marshal(t)
			return []any{t.ID, it.ID, t.AccountID, t.Date.Time, string(t.Status), t.Amount, data}, err
		})
		if _, err := env.DB.Pool.CopyFrom(ctx, pgx.Identifier{"copy_baseline"}, []string{"id", "item_id", "account_id", "date", "status", "amount", "data"}, src); err != nil {
			b.Fatal(err)
		}
		copyTime := time.Since(copyStart)
		_, _ = env.DB.Pool.Exec(ctx, `DROP TABLE copy_baseline`)

		ingestRate := float64(rows) / syncTime.Seconds()
		copyRate := float64(len(list)) / copyTime.Seconds()
		b.ReportMetric(ingestRate, "rows/s")
		b.ReportMetric(copyRate, "copy-rows/s")
		b.ReportMetric(100*ingestRate/copyRate, "%-of-copy")
		b.Logf("sync of %d transactions: %s (%.0f rows/s); plain COPY of %d rows: %s (%.0f rows/s); ratio %.0f%%; re-sync %s, rows after %d",
			rows, syncTime.Round(time.Millisecond), ingestRate, len(list), copyTime.Round(time.Millisecond), copyRate,
			100*ingestRate/copyRate, resync.Round(time.Millisecond), rows2)
		// Idempotent: after the second execution the table holds exactly that execution's
		// rows (its three new ones per copy included), nothing twice.
		want := 0
		snap2 := sandbox.Generate(it.ID, 0, "user-ok-perf-5000", 2, time.Now())
		cards := map[any]bool{}
		for _, a := range snap2.Accounts {
			if a.Type == "CREDIT" {
				cards[a.ID] = true
			}
		}
		for _, t := range snap2.Transactions {
			if !cards[t.AccountID] {
				want++
			}
		}
		if rows2 != want {
			b.Fatalf("after the re-sync the account holds %d rows, want %d", rows2, want)
		}
	}
}

func waitSettled(b *testing.B, env *testsupport.Env, key, id string, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for {
		it := env.Item(b, key, id)
		if testsupport.Settled(it) {
			if it.Status != model.ItemUpdated {
				b.Fatalf("item ended %s/%s", it.Status, it.ExecutionStatus)
			}
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("sync did not finish within %s", limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
