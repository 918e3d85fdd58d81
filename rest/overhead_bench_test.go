package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// BenchmarkRequestOverhead serves GET /accounts and POST /auth in this process, without a
// network between, through the service's handler and through BenchmarkCapacity's
// baseline, and reports the service's time per request as a ratio to the baseline's
// measured in the same run: what the service's middleware and handler add to the same
// reads. Sequential and parallel (GOMAXPROCS callers); the CPU profile of a run
// (-cpuprofile) shows where the difference goes.
func BenchmarkRequestOverhead(b *testing.B) {
	env, c, item, account := capacityFixture(b, "user-ok", "ACCOUNTS")
	service, baseline := env.Server.Config.Handler, capacityBaseline(b, env, account)
	authBody, _ := json.Marshal(map[string]any{"clientId": c.ID, "clientSecret": c.Secret})
	cases := []struct {
		name       string
		ours, base func() *http.Request
	}{
		{"accounts", func() *http.Request {
			r := httptest.NewRequest("GET", "/accounts?itemId="+item, nil)
			r.Header.Set("X-API-KEY", c.APIKey)
			return r
		}, func() *http.Request { return httptest.NewRequest("GET", "/accounts", nil) }},
		{"auth", func() *http.Request {
			r := httptest.NewRequest("POST", "/auth", strings.NewReader(string(authBody)))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, func() *http.Request { return httptest.NewRequest("POST", "/auth", strings.NewReader(string(authBody))) }},
	}
	serve := func(b *testing.B, h http.Handler, req func() *http.Request) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req())
		if w.Code != http.StatusOK {
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
				run := func(h http.Handler, req func() *http.Request) time.Duration {
					serve(b, h, req) // warm: the first call pays what a running server has paid
					start := time.Now()
					if parallel {
						b.RunParallel(func(pb *testing.PB) {
							for pb.Next() {
								serve(b, h, req)
							}
						})
					} else {
						for range b.N {
							serve(b, h, req)
						}
					}
					return time.Since(start)
				}
				b.ResetTimer()
				base := run(baseline, c.base)
				ours := run(service, c.ours)
				b.ReportMetric(float64(ours)/float64(b.N), "service-ns/op")
				b.ReportMetric(float64(base)/float64(b.N), "baseline-ns/op")
				b.ReportMetric(float64(ours)/float64(base), "x-baseline")
			})
		}
	}
}
