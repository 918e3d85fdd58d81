package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// BenchmarkTransactionsV2Read reads an account of about a million transactions through
// GET /v2/transactions, page by page over loopback HTTP, and in the same run through a
// minimal baseline (net/http, one keyset query per page through pgx, encoding/json).
// It prints pages per second, p50/p99 page latency, the ratio, and the service's peak
// heap during the read. Run with -benchtime=1x.
func BenchmarkTransactionsV2Read(b *testing.B) {
	env := testsupport.New(b, func(s *testsupport.Setup) { s.Jobs.JobTimeout, s.Jobs.RescueAfter = 20*time.Minute, 21*time.Minute })
	key := env.NewClient(b, "read bench").APIKey
	var it model.Item
	env.Do(b, "POST", "/items", key, map[string]any{"connectorId": 0, "products": []string{"ACCOUNTS", "TRANSACTIONS"},
		"parameters": map[string]any{"user": benchUser(), "password": "password-ok"}}).Want(200).JSON(&it)
	deadline := time.Now().Add(20 * time.Minute)
	for !testsupport.Settled(env.Item(b, key, it.ID.String())) {
		if time.Now().After(deadline) {
			b.Fatal("sync did not finish")
		}
		time.Sleep(200 * time.Millisecond)
	}
	var accounts model.AccountPage
	env.Do(b, "GET", "/accounts?itemId="+it.ID.String()+"&type=BANK", key, nil).Want(200).JSON(&accounts)
	var account uuid.UUID
	for _, a := range accounts.Results {
		if a.Subtype == "CHECKING_ACCOUNT" {
			account = a.ID
		}
	}

	baseline := httptest.NewServer(baselineTxPages(env, account))
	defer baseline.Close()

	client := &http.Client{}
	get := func(url string, v any) time.Duration {
		start := time.Now()
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("X-API-KEY", key)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		d := time.Since(start)
		if resp.StatusCode != 200 {
			b.Fatalf("%s: %d %s", url, resp.StatusCode, body[:min(len(body), 300)])
		}
		if err := json.Unmarshal(body, v); err != nil {
			b.Fatal(err)
		}
		return d
	}
	type result struct {
		pages, rows int
		elapsed     time.Duration
		lat         []time.Duration
	}
	var paths []string
	readOurs := func() result {
		var r result
		start := time.Now()
		path := "/v2/transactions?accountId=" + account.String()
		paths = paths[:0]
		for {
			paths = append(paths, path)
			var p struct {
				Results []json.RawMessage `json:"results"`
				Next    *string           `json:"next"`
			}
			r.lat = append(r.lat, get(env.URL+path, &p))
			r.pages++
			r.rows += len(p.Results)
			if p.Next == nil {
				break
			}
			path = "/v2/transactions" + *p.Next
		}
		r.elapsed = time.Since(start)
		return r
	}
	var basePaths []string
	readBaseline := func() result {
		var r result
		start := time.Now()
		q := ""
		basePaths = basePaths[:0]
		for {
			basePaths = append(basePaths, "/?"+q)
			var p struct {
				Results []json.RawMessage `json:"results"`
				Next    string            `json:"next"`
			}
			r.lat = append(r.lat, get(baseline.URL+"/?"+q, &p))
			r.pages++
			r.rows += len(p.Results)
			if p.Next == "" {
				break
			}
			q = p.Next
		}
		r.elapsed = time.Since(start)
		return r
	}
	post := func(url string, body, v any) time.Duration {
		start := time.Now()
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", url, bytes.NewReader(raw))
		req.Header.Set("X-API-KEY", key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		d := time.Since(start)
		if resp.StatusCode != 200 {
			b.Fatalf("%s: %d %s", url, resp.StatusCode, out[:min(len(out), 300)])
		}
		if err := json.Unmarshal(out, v); err != nil {
			b.Fatal(err)
		}
		return d
	}
	// The same pages through GraphQL: selection is nodes with every field of a transaction,
	// or the documents as stored.
	readGraphQL := func(selection string) result {
		var r result
		start := time.Now()
		var after *string
		for {
			var p struct {
				Data struct {
					Transactions struct {
						PageInfo struct {
							HasNextPage bool    `json:"hasNextPage"`
							EndCursor   *string `json:"endCursor"`
						} `json:"pageInfo"`
						Nodes     []json.RawMessage `json:"nodes"`
						Documents []json.RawMessage `json:"documents"`
					} `json:"transactions"`
				} `json:"data"`
				Errors []any `json:"errors"`
			}
			r.lat = append(r.lat, post(env.URL+"/graphql", map[string]any{
				"query":     `query($a: UUID!, $after: String) { transactions(accountId: $a, first: 500, after: $after) { pageInfo { hasNextPage endCursor } ` + selection + ` } }`,
				"variables": map[string]any{"a": account, "after": after},
			}, &p))
			if len(p.Errors) > 0 {
				b.Fatalf("GraphQL errors: %v", p.Errors)
			}
			r.pages++
			r.rows += len(p.Data.Transactions.Nodes) + len(p.Data.Transactions.Documents)
			if !p.Data.Transactions.PageInfo.HasNextPage {
				break
			}
			after = p.Data.Transactions.PageInfo.EndCursor
		}
		r.elapsed = time.Since(start)
		return r
	}
	pct := func(l []time.Duration, p float64) time.Duration {
		s := append([]time.Duration(nil), l...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[int(float64(len(s)-1)*p)]
	}

	// Peak heap of this process (the service runs in it) while reading, measured from a
	// collected heap so the sync's garbage does not count.
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak.Load() {
					peak.Store(m.HeapInuse)
				}
			}
		}
	}()
	// One untimed pass of each warms PostgreSQL's cache, so the first timed reader does not
	// pay for both; then each is timed twice, alternating, and the better pass counts.
	readBaseline()
	readOurs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ours, base := readOurs(), readBaseline()
		if o2, b2 := readOurs(), readBaseline(); o2.elapsed < ours.elapsed || b2.elapsed < base.elapsed {
			if o2.elapsed < ours.elapsed {
				ours = o2
			}
			if b2.elapsed < base.elapsed {
				base = b2
			}
		}
		oursRate := float64(ours.pages) / ours.elapsed.Seconds()
		baseRate := float64(base.pages) / base.elapsed.Seconds()
		b.ReportMetric(oursRate, "pages/s")
		b.ReportMetric(baseRate, "baseline-pages/s")
		b.ReportMetric(100*oursRate/baseRate, "%-of-baseline")
		b.Logf("GET /v2/transactions: %d rows in %d pages, %.1f pages/s, p50 %s p99 %s", ours.rows, ours.pages, oursRate, pct(ours.lat, 0.5), pct(ours.lat, 0.99))
		b.Logf("baseline (pgx + encoding/json): %d rows in %d pages, %.1f pages/s, p50 %s p99 %s", base.rows, base.pages, baseRate, pct(base.lat, 0.5), pct(base.lat, 0.99))
		b.Logf("ratio %.0f%%; heap in use %.1f MiB before the reads, peak %.1f MiB during them", 100*oursRate/baseRate,
			float64(before.HeapInuse)/(1<<20), float64(peak.Load())/(1<<20))
		if ours.rows != base.rows {
			b.Fatalf("the endpoint read %d rows, the baseline %d", ours.rows, base.rows)
		}

		for _, g := range []struct{ name, selection string }{
			{"documents", "documents"},
			{"nodes, every field", "nodes { " + txFields + " }"},
		} {
			gql := readGraphQL(g.selection)
			gqlRate := float64(gql.pages) / gql.elapsed.Seconds()
			b.ReportMetric(gqlRate, "graphql-"+strings.Fields(g.name)[0]+"-pages/s")
			b.Logf("GraphQL transactions(first: 500) { %s }: %d rows in %d pages, %.1f pages/s, p50 %s p99 %s; REST is %.2fx faster",
				g.name, gql.rows, gql.pages, gqlRate, pct(gql.lat, 0.5), pct(gql.lat, 0.99), oursRate/gqlRate)
			if gql.rows != ours.rows {
				b.Fatalf("GraphQL read %d rows, REST %d", gql.rows, ours.rows)
			}
		}

		// A constant 200 requests per second from a second process, over the account's pages.
		load, err := testsupport.RunLoad(testsupport.LoadSpec{BaseURL: env.URL, Key: key, Paths: append([]string(nil), paths...), Rate: 200, Duration: 15 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(load.P99.Microseconds())/1000, "p99-ms-at-200rps")
		b.Logf("GET /v2/transactions at a constant 200/s from a second process: %d requests at %.0f/s, %d errors, p50 %s p99 %s max %s",
			load.Sent, load.Achieved, load.Errors, load.P50, load.P99, load.Max)
		baseLoad, err := testsupport.RunLoad(testsupport.LoadSpec{BaseURL: baseline.URL, Key: key, Paths: append([]string(nil), basePaths...), Rate: 200, Duration: 15 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("baseline at the same load: %d requests at %.0f/s, %d errors, p50 %s p99 %s max %s",
			baseLoad.Sent, baseLoad.Achieved, baseLoad.Errors, baseLoad.P50, baseLoad.P99, baseLoad.Max)
	}
	close(stop)
}

// benchUser is the sandbox user whose history the read benchmark reads: user-ok-perf-2800
// (about a million transactions on the checking account), or PONTE_BENCH_USER for a
// quicker look.
func benchUser() string {
	if u := os.Getenv("PONTE_BENCH_USER"); u != "" {
		return u
	}
	return "user-ok-perf-2800"
}

// baselineTxPages is the minimal server the transaction-page benchmarks compare with:
// net/http, one keyset query per page through pgx on the service's pool, encoding/json.
func baselineTxPages(env *testsupport.Env, account uuid.UUID) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var rows []json.RawMessage
		q := `SELECT data, date, id FROM transactions WHERE account_id = $1 ORDER BY date, id LIMIT 500`
		args := []any{account}
		if d := r.URL.Query().Get("d"); d != "" {
			ts, _ := time.Parse(time.RFC3339Nano, d)
			id, _ := uuid.Parse(r.URL.Query().Get("i"))
			q = `SELECT data, date, id FROM transactions WHERE account_id = $1 AND (date, id) > ($2, $3) ORDER BY date, id LIMIT 500`
			args = append(args, ts, id)
		}
		res, err := env.DB.Pool.Query(r.Context(), q, args...)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		var last time.Time
		var lastID uuid.UUID
		for res.Next() {
			var raw []byte
			_ = res.Scan(&raw, &last, &lastID)
			rows = append(rows, raw)
		}
		res.Close()
		next := ""
		if len(rows) == 500 {
			next = fmt.Sprintf("d=%s&i=%s", last.Format(time.RFC3339Nano), lastID)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"results": rows, "next": next})
	}
}
