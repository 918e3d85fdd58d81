package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/testsupport"
)

// BenchmarkCredentialCheck prints what checking an API key costs per request, in the same
// process: with the enabled flag cached (the service listens for client changes), and with
// it read from PostgreSQL on every request (a process whose listener is down), both for
// the check alone and for a whole GET /connectors/0 over loopback HTTP. It also prints what
// one POST /auth costs (one argon2id verification). Run with -benchtime=1x.
func BenchmarkCredentialCheck(b *testing.B) {
	env := testsupport.New(b)
	c := env.NewClient(b, "credential bench")
	testsupport.Eventually(b, "the listener", 10*time.Second, env.Auth.Listening)
	ctx := context.Background()
	uncached := auth.NewService(env.DB, testsupport.MasterKey) // never listens: reads every time

	const n = 5000
	per := func(f func()) time.Duration {
		for range 200 { // warm the pool and the cache
			f()
		}
		start := time.Now()
		for range n {
			f()
		}
		return time.Since(start) / n
	}
	verify := func(s *auth.Service) func() {
		return func() {
			if _, err := s.Verify(ctx, c.APIKey); err != nil {
				b.Fatal(err)
			}
		}
	}
	get := func() {
		resp := get(b, http.DefaultClient, env.URL, "/connectors/0", c.APIKey)
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	for range b.N {
		cached, read := per(verify(env.Auth)), per(verify(uncached))
		httpCached := per(get)
		env.Auth.ForgetClient(uuid.MustParse(c.ID)) // keep the next round's cache honest
		b.ReportMetric(float64(cached.Nanoseconds()), "ns/check-cached")
		b.ReportMetric(float64(read.Nanoseconds()), "ns/check-read")
		b.Logf("API key check: %s cached, %s reading the flag (%.0fx); GET /connectors/0 with the cache: %s, so a read per request would add %.1f%%",
			cached, read, float64(read)/float64(cached), httpCached, 100*float64(read-cached)/float64(httpCached))

		start := time.Now()
		const auths = 20
		for range auths {
			env.Do(b, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": c.Secret}).Want(200)
		}
		b.Logf("POST /auth (one argon2id m=19 MiB t=2 p=1): %s each, sequential", time.Since(start)/auths)
	}
}
