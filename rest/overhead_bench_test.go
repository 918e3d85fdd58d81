package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkRequestOverhead serves GET /accounts, POST /auth and the dashboard query in
// this process, without a network between, through the service's handler and through
// BenchmarkCapacity's baseline, and reports the service's time, allocations and bytes per
// request beside the baseline's measured in the same run: what the service's middleware
// and handler add to the same reads. Sequential and parallel (GOMAXPROCS callers); the CPU
// profile of a run (-cpuprofile) shows where the difference goes.
func BenchmarkRequestOverhead(b *testing.B) {
	env, c, item, account := capacityFixture(b, "user-ok", "ACCOUNTS", "TRANSACTIONS")
	service, baseline := env.Server.Config.Handler, capacityBaseline(b, env, account)
	authBody, _ := json.Marshal(map[string]any{"clientId": c.ID, "clientSecret": c.Secret})
	dashboard := dashboardBody(b, env, c.APIKey, item, account)
	cases := []struct {
		name       string
		ours, base func() *http.Request
		// What each answers: the refused call's statuses differ (the service's is section 7's
		// 400, the baseline's a bare 401), its work does not.
		oursStatus, baseStatus int
	}{
		{"accounts", func() *http.Request {
			r := httptest.NewRequest("GET", "/accounts?itemId="+item, nil)
			r.Header.Set("X-API-KEY", c.APIKey)
			return r
		}, func() *http.Request { return httptest.NewRequest("GET", "/accounts", nil) }, 200, 200},
		{"auth", func() *http.Request {
			r := httptest.NewRequest("POST", "/auth", strings.NewReader(string(authBody)))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, func() *http.Request { return httptest.NewRequest("POST", "/auth", strings.NewReader(string(authBody))) }, 200, 200},
		{"dashboard", func() *http.Request {
			r := httptest.NewRequest("POST", "/graphql", strings.NewReader(dashboard))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("X-API-KEY", c.APIKey)
			return r
		}, func() *http.Request { return httptest.NewRequest("GET", "/dashboard", nil) }, 200, 200},
		// Keys left out: refused before the database, so what is measured is the service's own
		// work around a handler (middleware, body checks, the error body), which the database
		// round trip hides in the cases above.
		{"auth-refused", func() *http.Request {
			r := httptest.NewRequest("POST", "/auth", strings.NewReader(`{"clientId":"","clientSecret":""}`))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, func() *http.Request {
			return httptest.NewRequest("POST", "/auth", strings.NewReader(`{"clientId":"","clientSecret":""}`))
		}, 400, 401},
	}
	serve := func(b *testing.B, h http.Handler, req func() *http.Request, status int) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req())
		if w.Code != status {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
	for _, c := range cases {
		for _, parallel := range []bool{false, true} {
			name := c.name + "/sequential"
			if parallel {
				name = c.name + "/parallel"
			}
			b.Run(name, func(b *testing.B) {
				// Allocations are counted per side too: they are the steadier figure, and the
				// collector's work grows with them.
				run := func(h http.Handler, req func() *http.Request, status int) (took time.Duration, allocs, bytes uint64) {
					serve(b, h, req, status) // warm: the first call pays what a running server has paid
					var m runtime.MemStats
					runtime.ReadMemStats(&m)
					mallocs, total := m.Mallocs, m.TotalAlloc
					start := time.Now()
					if parallel {
						b.RunParallel(func(pb *testing.PB) {
							for pb.Next() {
								serve(b, h, req, status)
							}
						})
					} else {
						for range b.N {
							serve(b, h, req, status)
						}
					}
					took = time.Since(start)
					runtime.ReadMemStats(&m)
					return took, m.Mallocs - mallocs, m.TotalAlloc - total
				}
				b.ResetTimer()
				base, baseAllocs, baseBytes := run(baseline, c.base, c.baseStatus)
				ours, oursAllocs, oursBytes := run(service, c.ours, c.oursStatus)
				b.ReportMetric(float64(ours)/float64(b.N), "service-ns/op")
				b.ReportMetric(float64(base)/float64(b.N), "baseline-ns/op")
				b.ReportMetric(float64(ours)/float64(base), "x-baseline")
				b.ReportMetric(float64(oursAllocs)/float64(b.N), "service-allocs/op")
				b.ReportMetric(float64(baseAllocs)/float64(b.N), "baseline-allocs/op")
				b.ReportMetric(float64(oursBytes)/float64(b.N), "service-B/op")
				b.ReportMetric(float64(baseBytes)/float64(b.N), "baseline-B/op")
			})
		}
	}
}
