package rest_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/testsupport"
)

// BenchmarkWebhookHostSlot measures what sharing the per-host webhook cap across replicas
// costs a delivery: taking one of a host's 8 slots in PostgreSQL and giving it back, one
// delivery at a time and 8 at once (each on a host of its own, so none is refused), as p50
// and p99. Nothing is asserted on time; a delivery itself waits on the network for far
// longer.
func BenchmarkWebhookHostSlot(b *testing.B) {
	env := testsupport.New(b)
	ctx := context.Background()
	const n = 4000
	for range b.N {
		for _, workers := range []int{1, 8} {
			lat := make([]time.Duration, 0, n)
			var mu sync.Mutex
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					host := fmt.Sprintf("hooks-%d.example.com", w)
					mine := make([]time.Duration, 0, n/workers)
					for range n / workers {
						id := uuid.New()
						start := time.Now()
						slot, ok, _, err := env.DB.TakeHostSlot(ctx, host, 8, id, 7*time.Second)
						if err != nil || !ok {
							b.Errorf("take: %v %v", ok, err)
							return
						}
						if err := env.DB.FreeHostSlot(ctx, host, slot, id); err != nil {
							b.Error(err)
							return
						}
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
			b.Logf("%d at once  take and give back a slot  p50 %9s  p99 %9s", workers, p50.Round(time.Microsecond/10), p99.Round(time.Microsecond/10))
			b.ReportMetric(float64(p99.Microseconds()), fmt.Sprintf("p99-µs-%d", workers))
		}
	}
}
