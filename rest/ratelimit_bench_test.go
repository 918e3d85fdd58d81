package rest_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"ponte/auth"
	"ponte/db"
	"ponte/testsupport"
)

// BenchmarkRateLimitCounter measures what sharing the rate limits across replicas costs a
// request: the database counter against the in-memory one and a Redis counter (a local
// redis-server), sequentially and with 8 requests at once, as p50 and p99 per decision.
// Each of the 200 clients a worker plays makes 20 requests in the minute, so a replica
// claims numbers from the shared count about once a client (an upsert or an INCRBY) and
// answers the rest from its claim. Nothing is asserted on time; the target is a p99 under
// a millisecond.
func BenchmarkRateLimitCounter(b *testing.B) {
	env := testsupport.New(b)
	ctx := context.Background()
	limiters := []struct {
		name, short string
		l           *auth.Limiter
	}{{"in memory", "memory", auth.NewLimiter(nil)}, {"shared (PostgreSQL)", "postgresql", auth.NewSharedLimiter(nil, env.DB.CountRequests)},
		{"shared (Redis)", "redis", auth.NewSharedLimiter(nil, db.RedisCounter(redisClient(b)))}}
	const n = 4000 // per worker: 20 requests for each of its 200 clients
	for range b.N {
		for _, workers := range []int{1, 8} {
			var base time.Duration
			for _, lim := range limiters {
				lat := make([]time.Duration, 0, n)
				var mu sync.Mutex
				var wg sync.WaitGroup
				for w := range workers {
					wg.Go(func() {
						mine := make([]time.Duration, 0, n)
						for i := range n {
							start := time.Now()
							lim.l.Allow(ctx, "auth", fmt.Sprintf("198.51.%d.%d", w, i%200)) // each worker its own 200 clients
							mine = append(mine, time.Since(start))
						}
						mu.Lock()
						lat = append(lat, mine...)
						mu.Unlock()
					})
				}
				wg.Wait()
				sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
				p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
				if base == 0 {
					base = p99
				}
				b.Logf("%d at once  %-20s p50 %9s  p99 %9s", workers, lim.name, p50.Round(time.Microsecond/10), p99.Round(time.Microsecond/10))
				b.ReportMetric(float64(p99.Microseconds()), fmt.Sprintf("p99-µs-%d-%s", workers, lim.short))
			}
		}
	}
}

func redisClient(b *testing.B) *redis.Client {
	opts, err := redis.ParseURL(testsupport.StartRedis(b))
	if err != nil {
		b.Fatal(err)
	}
	c := redis.NewClient(opts)
	b.Cleanup(func() { _ = c.Close() })
	return c
}
