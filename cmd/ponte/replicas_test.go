package main_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"

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
			// The counts were Redis's: its key for the minute holds the numbers the replicas
			// claimed, past the limit but no more than the calls (nothing is counted once a
			// replica has seen the limit passed).
			opts, _ := redis.ParseURL(url)
			rc := redis.NewClient(opts)
			defer rc.Close()
			keys, err := rc.Keys(context.Background(), "ponte:ratelimit:auth:*").Result()
			if err != nil || len(keys) != 1 {
				t.Fatalf("Redis holds %v (%v), want one key for the minute", keys, err)
			}
			if n, err := rc.Get(context.Background(), keys[0]).Int(); err != nil || n <= 360 || n > 400 {
				t.Fatalf("Redis counted %d (%v), want more than the limit (360) and at most the calls (400)", n, err)
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

// Two replicas on one database share syncs, deliveries and payments; one is killed with
// SIGKILL while it works a payment step, an execution or a delivery, with the queue's
// default time-outs. The other finishes everything: every job completes once (no job left
// or given up, no effect twice), every event reaches the receiver (de-duplicated on
// webhook-id, none missing), and the payments in flight resume within seconds.
func TestTwoReplicasSurviveKill(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewReceiver(t)
	// A slow receiver keeps deliveries in flight when the replica dies.
	rc.Answer = func(testsupport.Delivery) (int, time.Duration) { return 200, 200 * time.Millisecond }
	env, keys := configured(t, "PONTE_SANDBOX_STEP_DELAY=300ms", "PONTE_PAYMENT_STEP_DELAY=1s", "PONTE_ALLOW_INSECURE_WEBHOOKS=1")
	dbURL := strings.TrimPrefix(env[0], "DATABASE_URL=")
	a, b := start(t, env...), start(t, env...)
	replicas := []*server{a, b}
	key := apiKey(t, a.url, keys)
	if status, m := do(t, "POST", a.url+"/webhooks", key, map[string]any{"event": "all", "url": rc.URL + "/hook"}); status != 200 {
		t.Fatalf("create webhook: %d %v", status, m)
	}
	recipient(t, a.url, key)

	var items, intents []string
	users := []string{"user-ok", "user-ok-two-checking-accounts", "user-ok-account-warning", "user-ok-perf-1",
		"user-ok-perf-2", "user-ok-perf-3", "user-ok-perf-4", "user-ok-perf-5"}
	for i, user := range users {
		status, it := do(t, "POST", replicas[i%2].url+"/items", key, map[string]any{"connectorId": 0,
			"parameters": map[string]any{"user": user, "password": "password-ok"}})
		if status != 200 {
			t.Fatalf("create item: %d %v", status, it)
		}
		items = append(items, it["id"].(string))
		if i%2 == 0 {
			intents = append(intents, authorizedIntent(t, replicas[i/2%2].url, key))
		}
	}

	// Kill a while it runs a payment step, once it also has other work in hand.
	owner := replicaID(t, a)
	var held map[string]int
	waitFor(t, "replica a to run a payment step and other work", func() bool {
		held = runningByKind(t, dbURL, owner)
		return held["payment_intent_step"] > 0 && len(held) > 1
	})
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	<-a.exited
	a.cmd.ProcessState = &os.ProcessState{}
	t.Logf("killed replica a while it ran %v", held)

	var paid time.Duration
	waitWithin(t, "every payment to complete on replica b", time.Minute, func() bool {
		for _, id := range intents {
			if _, n := do(t, "GET", b.url+"/payments/intents/"+id, key, nil); n["status"] != "PAYMENT_COMPLETED" {
				return false
			}
		}
		paid = time.Since(killed)
		return true
	})
	waitWithin(t, "every item to finish on replica b", 2*time.Minute, func() bool {
		for _, id := range items {
			if _, it := do(t, "GET", b.url+"/items/"+id, key, nil); it["status"] != "UPDATED" || it["executionStatus"] != "SUCCESS" {
				return false
			}
		}
		return true
	})
	synced := time.Since(killed)

	// Each effect once: the payments' statuses, the items' first events.
	for _, id := range intents {
		_, n := do(t, "GET", b.url+"/payments/intents/"+id, key, nil)
		seen := map[string]bool{}
		for _, st := range n["statusHistory"].([]any) {
			s := st.(map[string]any)["status"].(string)
			if seen[s] {
				t.Fatalf("intent %s went through %s twice: %v", id, s, n["statusHistory"])
			}
			seen[s] = true
		}
	}
	status, ev := do(t, "POST", b.url+"/graphql", key, map[string]any{"query": `{ events { id event payload } }`})
	if status != 200 {
		t.Fatalf("events: %d %v", status, ev)
	}
	events := ev["data"].(map[string]any)["events"].([]any)
	once := map[string]int{}
	for _, e := range events {
		e := e.(map[string]any)
		p := e["payload"].(map[string]any)
		switch e["event"] {
		case "item/created", "item/login_succeeded":
			once[fmt.Sprint(e["event"], " ", p["itemId"])]++
		case "payment_intent/completed":
			once[fmt.Sprint(e["event"], " ", p["paymentIntentId"])]++
		}
	}
	if len(once) != 2*len(items)+len(intents) {
		t.Fatalf("%d distinct item/created, item/login_succeeded and payment_intent/completed events, want %d: %v", len(once), 2*len(items)+len(intents), once)
	}
	for k, n := range once {
		if n != 1 {
			t.Fatalf("%s recorded %d times", k, n)
		}
	}

	// Every event at the receiver, counted by webhook-id.
	var missing []string
	dups := 0
	waitWithin(t, "every event at the receiver", time.Minute, func() bool {
		got := map[string]int{}
		for _, d := range rc.Got() {
			got[d.Header.Get("webhook-id")]++
		}
		missing, dups = nil, 0
		for _, e := range events {
			id := e.(map[string]any)["id"].(string)
			if got[id] == 0 {
				missing = append(missing, id)
			}
			dups += max(got[id]-1, 0)
		}
		return len(missing) == 0
	})

	// The queue: nothing left to run, nothing given up; the killed replica's jobs were
	// taken back rather than left to River's 3-minute rescue.
	var states map[string]int
	var rescued int
	waitWithin(t, "the queue to drain", time.Minute, func() bool {
		states, rescued = jobStates(t, dbURL)
		return states["available"]+states["running"]+states["retryable"] == 0
	})
	for _, s := range []string{"available", "running", "retryable", "discarded", "cancelled"} {
		if states[s] > 0 {
			t.Fatalf("jobs by state at the end: %v; %s", states, unfinishedJobs(t, dbURL))
		}
	}
	status, ev = do(t, "POST", b.url+"/graphql", key, map[string]any{"query": `{ events { id deliveries { status } } }`})
	if status != 200 {
		t.Fatalf("events: %d %v", status, ev)
	}
	for _, e := range ev["data"].(map[string]any)["events"].([]any) {
		for _, d := range e.(map[string]any)["deliveries"].([]any) {
			if st := d.(map[string]any)["status"]; st != "DELIVERED" {
				t.Fatalf("event %v: a delivery %v", e.(map[string]any)["id"], st)
			}
		}
	}
	if rescued == 0 {
		t.Fatalf("no job of the killed replica was rescued: %v", states)
	}
	t.Logf("%d events delivered (%d twice: sent by the killed replica, not recorded); %d jobs completed, %d rescued from the killed replica; "+
		"from the kill: payments completed after %s, items after %s", len(events), dups, states["completed"], rescued,
		paid.Round(10*time.Millisecond), synced.Round(10*time.Millisecond))
}

// runningByKind counts the running jobs that owner took, by kind.
func runningByKind(t *testing.T, dbURL, owner string) map[string]int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, _ := conn.Query(context.Background(), `SELECT kind, count(*)::int FROM river_job
		WHERE state = 'running' AND attempted_by[cardinality(attempted_by)] = $1 GROUP BY kind`, owner)
	out := map[string]int{}
	var kind string
	var n int
	if _, err := pgx.ForEachRow(rows, []any{&kind, &n}, func() error { out[kind] = n; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// jobStates counts the queue's jobs by state, and those rescued from a dead process.
func jobStates(t *testing.T, dbURL string) (map[string]int, int) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, _ := conn.Query(context.Background(), `SELECT state::text, count(*)::int FROM river_job GROUP BY state`)
	out := map[string]int{}
	var state string
	var n int
	if _, err := pgx.ForEachRow(rows, []any{&state, &n}, func() error { out[state] = n; return nil }); err != nil {
		t.Fatal(err)
	}
	var rescued int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM river_job
		WHERE EXISTS (SELECT FROM unnest(errors) e WHERE e->>'error' = 'Rescued: the process working it died')`).Scan(&rescued); err != nil {
		t.Fatal(err)
	}
	return out, rescued
}

// Two replicas share the per-host cap on concurrent webhook deliveries: a slow receiver
// never has more than 8 requests in flight from both together (each replica alone allows
// 8), and still gets every event, from both replicas.
func TestReplicasShareWebhookHostCap(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	inFlight, peak := 0, 0
	got := map[string]bool{}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		got[r.Header.Get("webhook-id")] = true
		mu.Unlock()
		time.Sleep(400 * time.Millisecond) // a slow receiver
		mu.Lock()
		inFlight--
		mu.Unlock()
	}))
	defer receiver.Close()
	// Eight workers each: with the default 50, one replica could fetch every delivery and
	// hold it while the host's slots were full, and the other deliver nothing (seen once,
	// in a full run of the suite). Each alone still allows 8 at once, so without the shared
	// slots the receiver would see 16.
	env, keys := configured(t, "PONTE_ALLOW_INSECURE_WEBHOOKS=1", "PONTE_SANDBOX_STEP_DELAY=0s", "PONTE_WEBHOOK_WORKERS=8")
	replicas := []*server{start(t, env...), start(t, env...)}
	key := apiKey(t, replicas[0].url, keys)
	if status, m := do(t, "POST", replicas[0].url+"/webhooks", key, map[string]any{"event": "all", "url": receiver.URL + "/hook"}); status != 200 {
		t.Fatalf("create webhook: %d %v", status, m)
	}
	began := time.Now()
	for i := range 24 {
		if status, m := do(t, "POST", replicas[i%2].url+"/items", key, map[string]any{"connectorId": 0,
			"parameters": map[string]any{"user": "user-ok-perf-1", "password": fmt.Sprint("password-", i)}}); status != 200 {
			t.Fatalf("create item: %d %v", status, m)
		}
	}
	var ids []string
	waitWithin(t, "every event at the receiver", 2*time.Minute, func() bool {
		status, m := do(t, "POST", replicas[1].url+"/graphql", key, map[string]any{"query": `{ events { id } }`})
		if status != 200 {
			return false
		}
		ids = ids[:0]
		for _, e := range m["data"].(map[string]any)["events"].([]any) {
			ids = append(ids, e.(map[string]any)["id"].(string))
		}
		mu.Lock()
		defer mu.Unlock()
		for _, id := range ids {
			if !got[id] {
				return false
			}
		}
		return len(ids) >= 24
	})
	for i, s := range replicas {
		if !strings.Contains(s.logs.String(), "webhook delivered") {
			t.Fatalf("replica %d delivered nothing: the test did not load both", i)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("%d events delivered in %s, at most %d at once at the receiver", len(ids), time.Since(began).Round(10*time.Millisecond), peak)
	if peak > 8 {
		t.Fatalf("%d deliveries at once to one host from two replicas, want at most 8", peak)
	}
}

var replicaRE = regexp.MustCompile(`replica=(\S+)`)

// replicaID is the job-queue client id a server logged when it began serving (its stderr
// may arrive a little after the stdout line start waits for).
func replicaID(t *testing.T, s *server) string {
	t.Helper()
	var m []string
	waitFor(t, "the replica id in the log", func() bool {
		m = replicaRE.FindStringSubmatch(s.logs.String())
		return m != nil
	})
	return m[1]
}
