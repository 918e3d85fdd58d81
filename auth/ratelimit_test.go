package auth

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)
	now := start
	l := NewLimiter(map[string]int{"auth": 2, "item-update": 1})
	l.now = func() time.Time { return now }
	steps := []struct {
		at         time.Duration
		group, ip  string
		allowed    bool
		limit, sec int
	}{
		{0, "auth", "a", true, 2, 60},
		{10 * time.Second, "auth", "a", true, 2, 50},
		{20 * time.Second, "auth", "a", false, 2, 40},
		{20 * time.Second, "auth", "b", true, 2, 40},         // another IP has its own count
		{20 * time.Second, "item-update", "a", true, 1, 40},  // another group too
		{30 * time.Second, "item-update", "a", false, 1, 30}, // a group's own limit
		{59*time.Second + 500*time.Millisecond, "auth", "a", false, 2, 1},
		{60 * time.Second, "auth", "a", true, 2, 60},     // a new window
		{61 * time.Second, "unlimited", "a", true, 0, 0}, // groups without a limit pass
		{61 * time.Second, "unlimited", "a", true, 0, 0},
	}
	for i, s := range steps {
		now = start.Add(s.at)
		d := l.Allow(t.Context(), s.group, s.ip)
		if d.Allowed != s.allowed || d.Limit != s.limit || d.Reset != s.sec {
			t.Errorf("step %d (%s %s at %s): %+v, want allowed %v limit %d reset %d", i, s.group, s.ip, s.at, d, s.allowed, s.limit, s.sec)
		}
	}
}

// sharedCount is a Counter in memory, as replicas see the database's: one count per key,
// and the number of round trips made.
type sharedCount struct {
	mu    sync.Mutex
	n     map[string]int
	calls int
	// latency stands for the store's round trip, during which other requests arrive.
	latency time.Duration
}

func (s *sharedCount) add(_ context.Context, group, ip string, window time.Time, n int) (int, error) {
	time.Sleep(s.latency)
	s.mu.Lock()
	defer s.mu.Unlock()
	k := group + ip + window.String()
	s.n[k] += n
	s.calls++
	return s.n[k], nil
}

// trips is the number of round trips so far; claims ahead may still be on their way.
func (s *sharedCount) trips() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// Replicas claim runs of numbers from the shared count: across them no more than the limit
// are allowed, all of it is allowed to a client that keeps calling, and far below the limit
// one round trip serves many requests.
func TestSharedLimiterClaims(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name            string
		replicas, calls int
		limit           int
		concurrent      bool
		allowed         int // exact when not concurrent
		maxTrips        int
		latency         time.Duration
	}{
		// Past the limit nothing is counted, so a refused flood adds no round trips.
		{"one replica", 1, 4000, 360, false, 360, 40, 0},
		{"two replicas in turns", 2, 4000, 360, false, 360, 45, 0},
		{"three replicas in turns", 3, 4000, 360, false, 360, 50, 0},
		{"a limit of one", 2, 10, 1, false, 1, 2, 0},
		// Each replica's first claim, and one claimed ahead each beyond the runs used.
		{"far below the limit", 2, 2000, 1 << 30, false, 2000, 2000/maxClaim + 4, 0},
		{"eight at once on two replicas", 2, 4000, 360, true, 360, 100, 0},
		// Requests that find the run empty while a claim is on its way wait for it: one
		// claim per run of numbers, not one per request that arrived meanwhile.
		{"eight at once far below the limit", 2, 4000, 1 << 30, true, 4000, 4000/maxClaim + 4, 200 * time.Microsecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			store := &sharedCount{n: map[string]int{}, latency: c.latency}
			now := time.Date(2026, 1, 31, 12, 0, 5, 0, time.UTC)
			var ls []*Limiter
			for range c.replicas {
				l := NewSharedLimiter(map[string]int{"auth": c.limit}, store.add)
				l.now = func() time.Time { return now }
				ls = append(ls, l)
			}
			var allowed atomic.Int64
			if c.concurrent {
				var wg sync.WaitGroup
				for w := range 8 {
					wg.Go(func() {
						for i := range c.calls / 8 {
							if ls[(w+i)%len(ls)].Allow(t.Context(), "auth", "a").Allowed {
								allowed.Add(1)
							}
						}
					})
				}
				wg.Wait()
				// Replicas' claims may leave numbers unused: never more than the limit, and
				// not much less.
				if got := int(allowed.Load()); got > c.allowed || got < c.allowed*3/4 {
					t.Fatalf("allowed %d of %d, want at most %d and near it", got, c.calls, c.allowed)
				}
			} else {
				for i := range c.calls {
					if ls[i%len(ls)].Allow(t.Context(), "auth", "a").Allowed {
						allowed.Add(1)
					}
				}
				if got := int(allowed.Load()); got != c.allowed {
					t.Fatalf("allowed %d of %d, want %d", got, c.calls, c.allowed)
				}
			}
			if trips := store.trips(); trips > c.maxTrips {
				t.Fatalf("%d round trips for %d calls, want at most %d", trips, c.calls, c.maxTrips)
			}
			// Another client and the next minute start from nothing.
			if !ls[0].Allow(t.Context(), "auth", "b").Allowed {
				t.Fatal("another IP was refused")
			}
			now = now.Add(time.Minute)
			if !ls[0].Allow(t.Context(), "auth", "a").Allowed {
				t.Fatal("the next minute was refused")
			}
		})
	}
}

func TestClaimSize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ limit, seen, want int }{
		{360, 0, 45}, {360, 300, 7}, {360, 352, 1}, {360, 359, 1}, {360, 360, 1}, {360, 500, 1},
		{1 << 30, 0, maxClaim}, {1, 0, 1}, {20, 0, 2},
	} {
		if got := claimSize(c.limit, c.seen); got != c.want {
			t.Errorf("claimSize(%d, %d) = %d, want %d", c.limit, c.seen, got, c.want)
		}
	}
}

// A shared count that cannot be reached lets requests through, and the requests that waited
// on a failed claim pass with it rather than each trying the store again in turn.
func TestSharedLimiterStoreDown(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	calls := 0
	release := make(chan struct{})
	down := func(ctx context.Context, _, _ string, _ time.Time, _ int) (int, error) {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if first {
			<-release // the first claim hangs until every other request is waiting on it
		}
		return 0, errors.New("connection refused")
	}
	l := NewSharedLimiter(map[string]int{"auth": 1}, down)
	const n = 8
	results := make(chan Decision, n)
	go func() { results <- l.Allow(t.Context(), "auth", "a") }()
	await(t, "the first claim", func() bool { mu.Lock(); defer mu.Unlock(); return calls == 1 })
	waiting := make(chan struct{}, n)
	for range n - 1 {
		go func() { waiting <- struct{}{}; results <- l.Allow(t.Context(), "auth", "a") }()
	}
	for range n - 1 {
		<-waiting
	}
	// The others are on their way into Allow; once in, each finds the claim in flight.
	await(t, "the others waiting on it", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.claims[limiterKey{"auth", "a"}].pending.waiting == n-1
	})
	close(release)
	for range n {
		if d := <-results; !d.Allowed {
			t.Fatalf("refused while the store is down: %+v", d)
		}
	}
	if calls != 1 {
		t.Fatalf("%d claims, want the one the others waited on", calls)
	}
}

// await polls cond until it holds, for at most ten seconds (testsupport's Eventually, which
// this package cannot import).
func await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// A claim given up because its own client hung up is not the store failing: the requests
// that waited on it claim again and are counted, so hanging up cannot open the limit.
func TestSharedLimiterClaimerHangsUp(t *testing.T) {
	t.Parallel()
	store := &sharedCount{n: map[string]int{}}
	release := make(chan struct{})
	var first sync.Once
	counter := func(ctx context.Context, group, ip string, window time.Time, n int) (int, error) {
		hang := false
		first.Do(func() { hang = true })
		if hang {
			<-release
			return 0, ctx.Err()
		}
		return store.add(ctx, group, ip, window, n)
	}
	l := NewSharedLimiter(map[string]int{"auth": 1}, counter)
	gone, hangUp := context.WithCancel(t.Context())
	claimer := make(chan Decision, 1)
	go func() { claimer <- l.Allow(gone, "auth", "a") }()
	await(t, "the first claim", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		c := l.claims[limiterKey{"auth", "a"}]
		return c != nil && c.pending != nil
	})
	waiter := make(chan Decision, 1)
	go func() { waiter <- l.Allow(t.Context(), "auth", "a") }()
	await(t, "a request waiting on it", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.claims[limiterKey{"auth", "a"}].pending.waiting == 1
	})
	hangUp()
	close(release)
	<-claimer
	if d := <-waiter; !d.Allowed {
		t.Fatalf("the waiting request was refused: %+v", d)
	}
	if store.trips() != 1 {
		t.Fatalf("the waiting request made %d claims, want its own one", store.trips())
	}
	// Its claim counted it: the limit of one is used up.
	if d := l.Allow(t.Context(), "auth", "a"); d.Allowed {
		t.Fatal("a second request passed a limit of one")
	}
}

// Far from the limit, the next run is claimed while half the current one is left, so a
// busy client's requests do not wait for the store's round trip; the claim is the
// replica's and outlives the request that started it.
func TestSharedLimiterClaimsAhead(t *testing.T) {
	t.Parallel()
	store := &sharedCount{n: map[string]int{}}
	var calls atomic.Int32
	started, release := make(chan context.Context, 1), make(chan struct{})
	counter := func(ctx context.Context, group, ip string, window time.Time, n int) (int, error) {
		if calls.Add(1) == 2 {
			started <- ctx
			<-release // the claim ahead takes its time
		}
		return store.add(ctx, group, ip, window, n)
	}
	l := NewSharedLimiter(map[string]int{"auth": 1 << 30}, counter)
	now := time.Date(2026, 1, 31, 12, 0, 5, 0, time.UTC)
	l.now = func() time.Time { return now }
	allow := func(ctx context.Context, from, to int) {
		t.Helper()
		done := make(chan struct{})
		go func() {
			defer close(done)
			for range to - from + 1 {
				if !l.Allow(ctx, "auth", "a").Allowed {
					t.Error("refused far below the limit")
				}
			}
		}()
		await(t, fmt.Sprintf("requests %d to %d, none waiting on the store", from, to), func() bool {
			select {
			case <-done:
				return true
			default:
				return false
			}
		})
	}
	allow(t.Context(), 1, maxClaim-claimAheadAt-1)
	if calls.Load() != 1 {
		t.Fatalf("%d claims before half the first run was used, want 1", calls.Load())
	}
	// The request that leaves half the run starts the next claim, and its context ends.
	gone, hangUp := context.WithCancel(t.Context())
	allow(gone, maxClaim-claimAheadAt, maxClaim-claimAheadAt)
	hangUp()
	var claimCtx context.Context
	select {
	case claimCtx = <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("no claim ahead")
	}
	// The rest of the run is served while that claim is on its way.
	allow(t.Context(), maxClaim-claimAheadAt+1, maxClaim)
	// The next request has nothing left and waits for it.
	next := make(chan Decision, 1)
	go func() { next <- l.Allow(t.Context(), "auth", "a") }()
	await(t, "a request waiting on the claim ahead", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		f := l.claims[limiterKey{"auth", "a"}].pending
		return f != nil && f.waiting == 1
	})
	if claimCtx.Err() != nil {
		t.Fatalf("the claim ahead ended with the request that started it: %v", claimCtx.Err())
	}
	close(release)
	if d := <-next; !d.Allowed {
		t.Fatalf("refused: %+v", d)
	}
	// Its numbers were the run claimed ahead: no claim of its own, and the count is two
	// full runs.
	if calls.Load() != 2 {
		t.Fatalf("%d claims, want 2", calls.Load())
	}
	if total := store.n["auth"+"a"+now.Truncate(time.Minute).String()]; total != 2*maxClaim {
		t.Fatalf("shared count %d, want %d", total, 2*maxClaim)
	}
}
