package itemsync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/db"
	"ponte/model"
	"ponte/testsupport"
)

// Shape of the loaded table: items of two accounts, each account a run of daily-ish rows.
const (
	scaleRowsPerItem = 5_000
	scaleAccounts    = 2
	scalePage        = 500
	scaleSamples     = 200
	scaleRounds      = 5 // one more item's ingest, per table: the median of these
)

// BenchmarkTransactionsAtScale loads PONTE_SCALE_ROWS transactions (default 50,000,000)
// across items of 5,000 (two accounts each) by COPY straight into the transactions table,
// its indexes and partitions as deployed, and measures what the table costs at that size:
// the load's rows/s, one more item's first and repeated ingest (5,000 rows, the sync's own
// statements), 500-row keyset pages of random accounts and GET-by-id (p50/p99 of 200
// each), and the table's and indexes' size. Run with -benchtime=1x and a long -timeout.
func BenchmarkTransactionsAtScale(b *testing.B) {
	total := 50_000_000
	if s := os.Getenv("PONTE_SCALE_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < scaleRowsPerItem {
			b.Fatalf("PONTE_SCALE_ROWS=%q: a number of rows of at least %d", s, scaleRowsPerItem)
		}
		total = n
	}
	items := total / scaleRowsPerItem
	env := testsupport.New(b)
	ctx := context.Background()
	w := newRuleWorld(b, env, "scale-bench")
	var template uuid.UUID
	for id := range w.accounts {
		template = id
		break
	}
	env.Exec(b, `DELETE FROM transactions`)
	scaleMakeIDs(items + scaleRounds)
	scaleOwners(b, env, w.item, template, 0, items+scaleRounds)
	// The baseline: the same columns, key and indexes in one unpartitioned table, loaded
	// chunk by chunk in turn with the partitioned one so that the machine's swings fall on
	// both, then measured through the same code under the same name.
	// PONTE_SCALE_BASELINE=off leaves it out (half the disk and the time, for the largest sizes).
	tables := []string{"transactions", "transactions_flat"}
	if os.Getenv("PONTE_SCALE_BASELINE") == "off" {
		tables = tables[:1]
	} else {
		env.Exec(b, `CREATE TABLE transactions_flat (LIKE transactions INCLUDING ALL)`)
		env.Exec(b, `ALTER TABLE transactions_flat ADD FOREIGN KEY (user_category_id) REFERENCES categories (id)`)
	}

	for i := 0; i < b.N; i++ {
		b.Logf("load average %s", loadAverage())
		conn, err := env.DB.Pool.Acquire(ctx)
		if err != nil {
			b.Fatal(err)
		}
		loads := map[string]time.Duration{}
		start := time.Now()
		const chunk = 200 // items per COPY statement
		for first := 0; first < items; first += chunk {
			last := min(first+chunk, items)
			for _, table := range tables {
				t0 := time.Now()
				if _, err := conn.Conn().CopyFrom(ctx, pgx.Identifier{table}, scaleColumns, scaleRows(first, last)); err != nil {
					b.Fatal(err)
				}
				loads[table] += time.Since(t0)
			}
			if last%(chunk*25) == 0 {
				b.Logf("loaded %d rows into each table in %s", last*scaleRowsPerItem, time.Since(start).Round(time.Second))
			}
		}
		conn.Release()
		for _, table := range tables {
			env.Exec(b, `ANALYZE `+table)
		}
		n := items * scaleRowsPerItem
		labels := []string{"partitioned", "unpartitioned"}[:len(tables)]
		if len(tables) == 2 {
			part, flat := float64(n)/loads["transactions"].Seconds(), float64(n)/loads["transactions_flat"].Seconds()
			b.Logf("COPY of %d rows (%d items × %d, %d accounts each): partitioned %s, %.0f rows/s; unpartitioned %s, %.0f rows/s; ratio %.2f",
				n, items, scaleRowsPerItem, scaleAccounts, loads["transactions"].Round(time.Second), part,
				loads["transactions_flat"].Round(time.Second), flat, part/flat)
		} else {
			b.Logf("COPY of %d rows (%d items × %d, %d accounts each): partitioned %s, %.0f rows/s", n, items, scaleRowsPerItem,
				scaleAccounts, loads["transactions"].Round(time.Second), float64(n)/loads["transactions"].Seconds())
		}
		b.ReportMetric(float64(n)/loads["transactions"].Seconds(), "rows/s-load")
		// Each table in turn goes under the name the code reads; the first one alternates.
		current := "partitioned"
		use := func(label string) {
			if label == current {
				return
			}
			env.Exec(b, `ALTER TABLE transactions RENAME TO `+scaleStash[current])
			env.Exec(b, `ALTER TABLE `+scaleStash[label]+` RENAME TO transactions`)
			current = label
		}
		got := map[string]map[string]float64{}
		for _, l := range labels {
			got[l] = map[string]float64{}
		}
		times := map[string][]time.Duration{}
		for r := 0; r < scaleRounds; r++ {
			for j := range labels {
				l := labels[(j+r)%len(labels)]
				use(l)
				first, again := scaleIngest(b, env, items+r)
				times[l+" first"], times[l+" unchanged"] = append(times[l+" first"], first), append(times[l+" unchanged"], again)
			}
		}
		for _, l := range labels {
			for _, pass := range []string{"first", "unchanged"} {
				med := median(times[l+" "+pass])
				b.Logf("%s: one more item's %s ingest of %d rows (median of %d): %s, %.0f rows/s", l, pass, scaleRowsPerItem, scaleRounds,
					med.Round(time.Millisecond), scaleRowsPerItem/med.Seconds())
				got[l][pass+" ingest"] = med.Seconds()
			}
		}
		for _, l := range labels {
			use(l)
			scaleReads(b, env, w.app.id, items, l, got[l])
			got[l]["bytes"] = scaleSize(b, env, items+scaleRounds, l)
		}
		use("partitioned")
		b.Logf("load average %s", loadAverage())
		if len(labels) == 2 {
			for _, k := range []string{"first ingest", "unchanged ingest", "page p50", "page p99", "get p50", "get p99", "bytes"} {
				b.Logf("partitioned / unpartitioned, %s: %.2f", k, got["partitioned"][k]/got["unpartitioned"][k])
			}
		}
	}
}

// scaleStash is where each table waits while the other is measured.
var scaleStash = map[string]string{"partitioned": "transactions_partitioned", "unpartitioned": "transactions_flat"}

// scaleSize prints and returns the size of the table named transactions, indexes included.
func scaleSize(b *testing.B, env *testsupport.Env, items int, label string) float64 {
	var heap, indexes int64
	if err := env.DB.Pool.QueryRow(context.Background(), `SELECT coalesce(sum(pg_table_size(relid)), pg_table_size('transactions')),
			coalesce(sum(pg_indexes_size(relid)), pg_indexes_size('transactions'))
		FROM pg_partition_tree('transactions') WHERE isleaf`).Scan(&heap, &indexes); err != nil {
		b.Fatal(err)
	}
	n := items * scaleRowsPerItem
	b.Logf("%s size: table %s, indexes %s, total %s (%d bytes a row, indexes included)",
		label, mib(heap), mib(indexes), mib(heap+indexes), (heap+indexes)/int64(n))
	return float64(heap + indexes)
}

// scaleIngest times one more item's history through the sync's own statements: its first
// ingest (COPY into the table) and the same history again (staged and merged, nothing
// changed).
func scaleIngest(b *testing.B, env *testsupport.Env, g int) (first, again time.Duration) {
	ctx := context.Background()
	list := make([]model.Transaction, 0, scaleRowsPerItem)
	for r := 0; r < scaleRowsPerItem; r++ {
		list = append(list, scaleTransaction(g, r))
	}
	var took [2]time.Duration
	for pass := range took {
		start := time.Now()
		err := env.DB.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := tx.IngestTransactions(ctx, scaleItem(g), list, db.Delivery{}, time.Now())
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		took[pass] = time.Since(start)
	}
	return took[0], took[1]
}

// scaleReads times keyset pages of random accounts, from a random position, and
// transactions read by id alone, as the API reads them.
func scaleReads(b *testing.B, env *testsupport.Env, clientID uuid.UUID, items int, label string, out map[string]float64) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	var pages, gets []time.Duration
	for s := 0; s < scaleSamples; s++ {
		g, k := rng.IntN(items), rng.IntN(scaleAccounts)
		r := k*(scaleRowsPerItem/scaleAccounts) + rng.IntN(scaleRowsPerItem/scaleAccounts-scalePage)
		after := &db.TransactionKey{Date: scaleDate(r), ID: scaleID(g, r)}
		start := time.Now()
		docs, _, err := env.DB.TransactionPage(ctx, scaleItem(g), db.TransactionFilter{AccountID: scaleAccount(g, k)}, after, scalePage)
		pages = append(pages, time.Since(start))
		if err != nil || len(docs) != scalePage {
			b.Fatalf("page of account %d/%d after row %d: %d rows, %v", g, k, r, len(docs), err)
		}
		start = time.Now()
		_, found, err := env.DB.Transaction(ctx, clientID, scaleID(rng.IntN(items), rng.IntN(scaleRowsPerItem)))
		gets = append(gets, time.Since(start))
		if err != nil || !found {
			b.Fatalf("transaction by id: found %v, %v", found, err)
		}
	}
	p50, p99 := percentiles(pages)
	b.Logf("%s: keyset page of %d rows, random account and position (%d reads): p50 %s, p99 %s", label, scalePage, scaleSamples, p50, p99)
	out["page p50"], out["page p99"] = p50.Seconds(), p99.Seconds()
	p50, p99 = percentiles(gets)
	b.Logf("%s: transaction by id (%d reads): p50 %s, p99 %s", label, scaleSamples, p50, p99)
	out["get p50"], out["get p99"] = p50.Seconds(), p99.Seconds()
	var plan []string
	rows, err := env.DB.Pool.Query(ctx, `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT t.data FROM transactions t
		WHERE t.account_id = $1 AND t.item_id = (SELECT item_id FROM accounts WHERE id = $1) ORDER BY t.date, t.id LIMIT 500`, scaleAccount(0, 0))
	if err == nil {
		plan, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	if err != nil {
		b.Fatal(err)
	}
	var scans []string
	for _, l := range plan {
		if strings.Contains(l, " Scan ") && !strings.Contains(l, "never executed") && !strings.Contains(l, " on accounts") {
			scans = append(scans, strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "->")))
		}
	}
	b.Logf("%s: an account's page reads %d index: %s", label, len(scans), strings.Join(scans, "; "))
}

var scaleColumns = []string{"id", "item_id", "account_id", "date", "status", "amount", "type", "category_id",
	"auto_category_id", "match_text", "data", "created_at", "updated_at"}

// scaleRows streams the rows of items [first, last) for COPY.
func scaleRows(first, last int) pgx.CopyFromSource {
	g, r := first, 0
	now := time.Now()
	return pgx.CopyFromFunc(func() ([]any, error) {
		if g >= last {
			return nil, nil
		}
		t, item := scaleTransaction(g, r), scaleItem(g)
		r++
		if r == scaleRowsPerItem {
			g, r = g+1, 0
		}
		t.CreatedAt, t.UpdatedAt = model.NewTime(now), model.NewTime(now)
		data, err := json.Marshal(&t)
		if err != nil {
			return nil, err
		}
		return []any{t.ID, item, t.AccountID, t.Date.Time, t.Status, t.Amount, t.Type, t.CategoryID, t.CategoryID,
			model.FoldText(t.Description), string(data), now, now}, nil
	})
}

var scaleWords = []string{"PADARIA DO ZE", "SUPERMERCADO DIA", "POSTO IPIRANGA", "PIX ENVIADO MARIA", "UBER TRIP",
	"IFOOD PEDIDO", "FARMACIA RAIA", "NETFLIX.COM", "PAGTO FATURA", "TED RECEBIDA JOAO"}

// scaleTransaction is row r of item g: its account's rows are consecutive, one a day
// apart in (date, id) order.
func scaleTransaction(g, r int) model.Transaction {
	cat := "05010000"
	name := "Transfer - PIX"
	typ := "DEBIT"
	if r%5 == 0 {
		typ = "CREDIT"
	}
	return model.Transaction{ID: scaleID(g, r), AccountID: scaleAccount(g, r/(scaleRowsPerItem/scaleAccounts)),
		Date: model.NewTime(scaleDate(r)), Description: scaleWords[r%len(scaleWords)] + " " + strconv.Itoa(r%997), Type: typ,
		Amount: float64((r*7919)%100000) / 100, CurrencyCode: "BRL", Category: &name, CategoryID: &cat, Status: "POSTED", Order: 1}
}

func scaleDate(r int) time.Time {
	return time.Date(2010, 1, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(r%(scaleRowsPerItem/scaleAccounts)) * 3 * time.Hour)
}

// scaleOwners clones a synced item and one of its accounts as items [first, last) and
// their accounts, which the loaded rows belong to.
func scaleOwners(b *testing.B, env *testsupport.Env, item, account uuid.UUID, first, last int) {
	var ids, accItems, accIDs []uuid.UUID
	for g := first; g < last; g++ {
		ids = append(ids, scaleItem(g))
		for k := 0; k < scaleAccounts; k++ {
			accItems, accIDs = append(accItems, scaleItem(g)), append(accIDs, scaleAccount(g, k))
		}
	}
	env.Exec(b, `INSERT INTO items SELECT (jsonb_populate_record(NULL::items, to_jsonb(i) || jsonb_build_object('id', n.id))).*
		FROM items i, unnest($2::uuid[]) n(id) WHERE i.id = $1`, item, ids)
	env.Exec(b, `INSERT INTO accounts SELECT (jsonb_populate_record(NULL::accounts, to_jsonb(a) ||
			jsonb_build_object('id', n.id, 'item_id', n.item))).*
		FROM accounts a, unnest($2::uuid[], $3::uuid[]) n(id, item) WHERE a.id = $1`, account, accIDs, accItems)
}

// Ids are made as the sandbox makes them: name-based in the item's namespace.
var scaleItems []uuid.UUID
var scaleAccountIDs [][scaleAccounts]uuid.UUID

func scaleMakeIDs(n int) {
	scaleItems, scaleAccountIDs = make([]uuid.UUID, n), make([][scaleAccounts]uuid.UUID, n)
	for g := range n {
		scaleItems[g] = uuid.NewSHA1(uuid.NameSpaceOID, []byte("scale-item:"+strconv.Itoa(g)))
		for k := range scaleAccounts {
			scaleAccountIDs[g][k] = uuid.NewSHA1(scaleItems[g], []byte("account:"+strconv.Itoa(k)))
		}
	}
}

func scaleItem(g int) uuid.UUID       { return scaleItems[g] }
func scaleAccount(g, k int) uuid.UUID { return scaleAccountIDs[g][k] }
func scaleID(g, r int) uuid.UUID {
	return uuid.NewSHA1(scaleItems[g], []byte("transaction:"+strconv.Itoa(r)))
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func percentiles(d []time.Duration) (p50, p99 time.Duration) {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2].Round(time.Microsecond), s[len(s)*99/100].Round(time.Microsecond)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func loadAverage() string {
	raw, _ := os.ReadFile("/proc/loadavg")
	return strings.TrimSpace(string(raw))
}
