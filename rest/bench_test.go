package rest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sort"
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
		"parameters": map[string]any{"user": "user-ok-perf-2800", "password": "password-ok"}}).Want(200).JSON(&it)
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

	baseline := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	}))
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
	readOurs := func() result {
		var r result
		start := time.Now()
		path := "/v2/transactions?accountId=" + account.String()
		for {
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
			path = *p.Next
		}
		r.elapsed = time.Since(start)
		return r
	}
	readBaseline := func() result {
		var r result
		start := time.Now()
		q := ""
		for {
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
	}
	close(stop)
}
