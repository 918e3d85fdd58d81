package webhooks_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/testsupport"
	"ponte/webhooks"
)

// heldSlots counts the host's shared slots whose lease still runs.
func heldSlots(t *testing.T, env *testsupport.Env, host string) int {
	t.Helper()
	var n int
	if err := env.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM webhook_host_slots WHERE host = $1 AND expires_at > now()`,
		host).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A process keeps the slot its delivery used only while it is used: left idle, it is given
// back long before its reuse would end (here 12 s), and another process on the database,
// which could not have it meanwhile, takes it.
func TestKeptHostSlotGivenBackWhenIdle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, func(s *testsupport.Setup) {
		rc.Route(s)
		s.Webhooks.PerHost, s.Webhooks.Timeout = 1, 10*time.Second
	})
	host := strings.TrimPrefix(rc.URL, "https://")
	// The other process: its own engine and pool on the same database.
	store, err := db.Open(ctx, env.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	other := webhooks.New(store, testsupport.MasterKey, env.Webhooks.Config(), testsupport.Logger())

	a := newClient(t, env, "kept-slot")
	ev := record(t, env, a, "item/updated", rc.URL+"/kept")
	if d := settled(t, env, a, ev)[0]; d.Status != webhooks.StatusDelivered {
		t.Fatalf("delivery %+v", d)
	}
	start := time.Now()
	testsupport.Eventually(t, "the idle slot to be given back", 5*time.Second, func() bool { return heldSlots(t, env, host) == 0 })
	var give func()
	testsupport.Eventually(t, "the other process to take the host's one slot", 5*time.Second, func() bool {
		var ok bool
		give, ok = other.TakeHostPlace(ctx, host)
		return ok
	})
	if took := time.Since(start); took >= env.Webhooks.Config().JobTimeout() {
		t.Fatalf("the slot came free after %s: at its reuse's end, not when idle", took)
	}
	if n := heldSlots(t, env, host); n != 1 {
		t.Fatalf("%d slots held with the other process sending", n)
	}
	// While the other process holds it, this one sends nothing to the host.
	if _, ok := env.Webhooks.TakeHostPlace(ctx, host); ok {
		t.Fatal("a second place under a cap of one, while another process holds the slot")
	}
	give()
	testsupport.Eventually(t, "the other process's idle slot to be given back", 5*time.Second, func() bool { return heldSlots(t, env, host) == 0 })
}

// The per-host cap holds across two processes that keep and reuse their slots: a steady
// stream of quick answers never has more requests at the receiver than the cap, and every
// delivery arrives once.
func TestHostCapWithKeptSlots(t *testing.T) {
	t.Parallel()
	const perHost, n = 2, 40
	rc := testsupport.NewTLSReceiver(t)
	rc.Answer = func(testsupport.Delivery) (int, time.Duration) { return 200, 10 * time.Millisecond }
	env := testsupport.New(t, func(s *testsupport.Setup) {
		rc.Route(s)
		s.Webhooks.PerHost, s.Webhooks.Timeout = perHost, 5*time.Second
	})
	env.AddProcess(t)
	a := newClient(t, env, "kept-cap")
	events := make([]uuid.UUID, n)
	for i := range events {
		events[i] = record(t, env, a, "item/updated", fmt.Sprint(rc.URL, "/steady/", i))
	}
	for _, ev := range events {
		if d := settled(t, env, a, ev)[0]; d.Status != webhooks.StatusDelivered || d.Attempts != 1 {
			t.Fatalf("delivery %+v", d)
		}
	}
	drained(t, env)
	if got := len(rc.Got()); got != n {
		t.Fatalf("the receiver got %d requests, want %d", got, n)
	}
	if most := rc.MostAtOnce(); most > perHost || most < 1 {
		t.Fatalf("%d requests at the receiver at once under a cap of %d", most, perHost)
	}
	var workers int
	if err := env.DB.Pool.QueryRow(context.Background(), `SELECT count(DISTINCT attempted_by[array_length(attempted_by, 1)]) FROM river_job
		WHERE kind = 'webhook_delivery' AND state = 'completed'`).Scan(&workers); err != nil {
		t.Fatal(err)
	}
	t.Logf("deliveries completed by %d processes; most at once %d", workers, rc.MostAtOnce())
}

// A host whose slots are all held by requests that get no answer holds no worker beyond
// them: with one worker more than the cap, and the dead host's deliveries queued before the
// others, every delivery to a healthy host arrives while the dead one still holds its
// requests (its time-out is longer than the test's wait, so no time-out frees a worker).
func TestFullHostHoldsNoFurtherWorker(t *testing.T) {
	t.Parallel()
	const perHost, n = 2, 20
	dead, fast := testsupport.NewTLSReceiver(t), testsupport.NewTLSReceiver(t)
	release := make(chan struct{})
	dead.Answer = func(testsupport.Delivery) (int, time.Duration) { <-release; return 200, 0 }
	env := testsupport.New(t, func(s *testsupport.Setup) {
		testsupport.Route(s, dead, fast)
		s.Webhooks.PerHost, s.Webhooks.Timeout = perHost, 5*time.Minute
		s.Jobs.Queues[webhooks.Queue] = perHost + 1
		s.Jobs.RescueAfter = 10 * time.Minute
	})
	// Answered before the service stops, which would otherwise wait out the time-out.
	t.Cleanup(func() { close(release) })
	a := newClient(t, env, "full-host")
	for i := range n {
		record(t, env, a, "item/updated", fmt.Sprint(dead.URL, "/dead/", i))
	}
	for i := range n {
		record(t, env, a, "item/updated", fmt.Sprint(fast.URL, "/fast/", i))
	}
	fast.Await(t, "every delivery at the healthy receiver", time.Minute, func(got []testsupport.Delivery) bool { return len(got) == n })
	if got := len(dead.Got()); got != perHost {
		t.Fatalf("the dead receiver, which has answered nothing, got %d requests under a cap of %d", got, perHost)
	}
}
