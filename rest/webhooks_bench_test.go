package rest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/testsupport"
	"ponte/webhooks"
)

// BenchmarkWebhookDelivery prints deliveries per second to local receivers that answer at
// once: 10,000 pending events to one receiver, against the target of 2,000 per second; then
// 1,000 events to nine receivers, and the same with a tenth that never answers within the
// time-out, with the ratio of the healthy receivers' rate with it to their rate without it
// (the target: at least 0.9). The pair runs three times, the first and last without the dead
// receiver first, the middle one with it first, so neither side always runs on a warmer
// or a more loaded machine; each pair's ratio is printed and the median is the figure.
// Events go through the outbox as the service writes them (fan-out in the event's
// transaction); the delivery queue is paused while they are written, so the run measures
// delivery alone. Run with -benchtime=1x; PONTE_BENCH_WEBHOOK_SCALE divides the event
// counts for a quick run; PONTE_BENCH_WEBHOOK_WORKERS sets the delivery workers (default
// webhooks.Workers) to compare against another count in the same run conditions.
func BenchmarkWebhookDelivery(b *testing.B) {
	scale := benchScale(b)
	for i := 0; i < b.N; i++ {
		var one float64
		b.Run("10000 events, one receiver", func(b *testing.B) {
			n := deliveryRun(b, []*countingReceiver{counter(0)}, 10_000/scale)
			one = n.rate
			b.ReportMetric(n.rate, "deliveries/s")
			b.ReportMetric(n.rate/2000, "x-target-2000/s")
			b.Logf("one receiver: %.0f deliveries/s, %.2f× the target of 2,000/s", n.rate, n.rate/2000)
		})
		var ratios []float64
		for pair := range pairs {
			var without, with float64
			runWithout := func() {
				b.Run(fmt.Sprintf("pair %d: 1000 events, nine receivers", pair+1), func(b *testing.B) {
					without = deliveryRun(b, receivers(9, false), 1_000/scale).rate
					b.ReportMetric(without, "healthy-deliveries/s")
				})
			}
			runWith := func() {
				b.Run(fmt.Sprintf("pair %d: 1000 events, nine receivers and one that times out", pair+1), func(b *testing.B) {
					with = deliveryRun(b, receivers(9, true), 1_000/scale).rate
					b.ReportMetric(with, "healthy-deliveries/s")
				})
			}
			if pair%2 == 0 {
				runWithout()
				runWith()
			} else {
				runWith()
				runWithout()
			}
			if without > 0 && with > 0 {
				ratios = append(ratios, with/without)
				b.Logf("pair %d: healthy receivers with a dead one %.0f/s against %.0f/s without it, %.2f×", pair+1, with, without, with/without)
			}
		}
		if len(ratios) == pairs && one > 0 {
			b.Run("summary", func(b *testing.B) {
				// A sub-benchmark's log shows without -v; the parent's does not.
				sorted := slices.Sorted(slices.Values(ratios))
				med := sorted[len(sorted)/2]
				b.ReportMetric(med, "x-without-dead-median")
				b.Logf("summary: one receiver %.0f deliveries/s, %.2f× the 2,000/s target; healthy receivers with a dead one %.2f×, %.2f×, %.2f× their rate without it in the three pairs, median %.2f× (target ≥ 0.90)",
					one, one/2000, ratios[0], ratios[1], ratios[2], med)
			})
		}
	}
}

// pairs is how many times the runs with and without a dead receiver are made.
const pairs = 3

// receivers are n receivers that answer at once, and with dead a last one that never does.
func receivers(n int, dead bool) []*countingReceiver {
	var rs []*countingReceiver
	for range n {
		rs = append(rs, counter(0))
	}
	if dead {
		rs = append(rs, counter(10*time.Second))
	}
	return rs
}

// benchScale divides the event counts by PONTE_BENCH_WEBHOOK_SCALE (default 1), for quick
// runs while iterating.
func benchScale(b *testing.B) int {
	v := os.Getenv("PONTE_BENCH_WEBHOOK_SCALE")
	if v == "" {
		return 1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("PONTE_BENCH_WEBHOOK_SCALE=%q: want a whole number from 1", v)
	}
	return n
}

type countingReceiver struct {
	srv   *httptest.Server
	got   atomic.Int64
	delay time.Duration
}

func counter(delay time.Duration) *countingReceiver {
	c := &countingReceiver{delay: delay}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c.delay > 0 {
			// The body read to its end: only then does the server notice the client
			// hanging up, and a request the sender gave up on stops holding the
			// receiver's close (ten seconds a run, with the time-out long past).
			_, _ = io.Copy(io.Discard, r.Body)
			select {
			case <-time.After(c.delay):
			case <-r.Context().Done():
			}
			return
		}
		c.got.Add(1)
	}))
	return c
}

type runResult struct{ rate float64 }

func deliveryRun(b *testing.B, receivers []*countingReceiver, events int) runResult {
	for _, r := range receivers {
		defer r.srv.Close()
	}
	env := testsupport.New(b, func(s *testsupport.Setup) {
		s.Webhooks.AllowInsecure = true
		s.Webhooks.Timeout = time.Second
		if v := os.Getenv("PONTE_BENCH_WEBHOOK_WORKERS"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				b.Fatalf("PONTE_BENCH_WEBHOOK_WORKERS=%q: want a whole number from 1", v)
			}
			s.Jobs.Queues[webhooks.Queue] = n
		}
	})
	c := env.NewClient(b, "bench")
	for i, r := range receivers {
		env.Do(b, "POST", "/webhooks", c.APIKey, map[string]any{"event": "all", "url": fmt.Sprintf("%s/hook%d", r.srv.URL, i)}).Want(200)
	}
	ctx := context.Background()
	if err := env.Jobs.QueuePause(ctx, webhooks.Queue, nil); err != nil {
		b.Fatal(err)
	}
	client := uuid.MustParse(c.ID)
	for start := 0; start < events; start += 500 {
		err := env.DB.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			for i := start; i < min(start+500, events); i++ {
				if err := tx.InsertEvent(ctx, &db.Event{ClientID: client, Event: "item/updated",
					Payload: map[string]any{"itemId": uuid.NewString(), "clientUserId": nil, "triggeredBy": "SYNC"}}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	healthy := 0
	for _, r := range receivers {
		if r.delay == 0 {
			healthy++
		}
	}
	want := int64(events * healthy)
	b.ResetTimer()
	began := time.Now()
	if err := env.Jobs.QueueResume(ctx, webhooks.Queue, nil); err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	deadline := time.Now().Add(10 * time.Minute)
	for {
		var got int64
		for _, r := range receivers {
			got += r.got.Load()
		}
		if got >= want {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d deliveries after 10 minutes", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	elapsed := time.Since(began)
	wg.Wait()
	rate := float64(want) / elapsed.Seconds()
	b.Logf("%d events to %d receivers (%d healthy): %d healthy deliveries in %s, %.0f per second", events, len(receivers), healthy, want, elapsed.Round(time.Millisecond), rate)
	return runResult{rate: rate}
}
