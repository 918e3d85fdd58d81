package main_test

import (
	"context"

	"bytes"
	"github.com/redis/go-redis/v9"
	"net/http"
	"testing"
	"time"

	"ponte/testsupport"
)

// Two replicas on one database share the rate limits: 400 calls to POST /auth from one
// address, alternating between them within one minute, get 360 answers and 40 refusals
// (each replica counting alone would have allowed all 400).
// The counts live in PostgreSQL, or in Redis when PONTE_REDIS_URL names one.
func TestReplicasShareRateLimits(t *testing.T) {
	t.Parallel()
	for _, store := range []string{"PostgreSQL", "Redis"} {
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			if store == "PostgreSQL" {
				replicasShareRateLimits(t)
				return
			}
			url := testsupport.StartRedis(t)
			replicasShareRateLimits(t, "PONTE_REDIS_URL="+url)
			// The counts were Redis's: its key for the minute holds all 400.
			opts, _ := redis.ParseURL(url)
			rc := redis.NewClient(opts)
			defer rc.Close()
			keys, err := rc.Keys(context.Background(), "ponte:ratelimit:auth:*").Result()
			if err != nil || len(keys) != 1 {
				t.Fatalf("Redis holds %v (%v), want one key for the minute", keys, err)
			}
			if n, err := rc.Get(context.Background(), keys[0]).Int(); err != nil || n != 400 {
				t.Fatalf("Redis counted %d (%v), want 400", n, err)
			}
		})
	}
}

func replicasShareRateLimits(t *testing.T, extra ...string) {
	env, _ := configured(t, extra...)
	replicas := []*server{start(t, env...), start(t, env...)}
	// The counts are per clock minute: start early in one, so 400 calls (about two seconds)
	// fit in it.
	if left := time.Until(time.Now().Truncate(time.Minute).Add(time.Minute)); left < 20*time.Second {
		time.Sleep(left + 100*time.Millisecond)
	}
	begun := time.Now()
	refused := 0
	for i := 0; i < 400; i++ {
		// An empty body is refused at once (400) after the limit counted it: the test
		// measures the limit, not the password hash.
		resp, err := http.Post(replicas[i%2].url+"/auth", "application/json", bytes.NewReader([]byte(`{}`)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			refused++
		}
	}
	if !begun.Truncate(time.Minute).Equal(time.Now().Truncate(time.Minute)) {
		t.Fatalf("400 calls took %s and crossed a minute", time.Since(begun))
	}
	if refused != 40 {
		t.Fatalf("%d of 400 calls across two replicas refused, want 40 (limit 360 a minute)", refused)
	}
}
