package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// wantCode checks that err is a model.Error with the given code.
func wantCode(t *testing.T, what string, err error, code model.Code) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Errorf("%s: got %v, want %s", what, err, code)
	}
}

// The token format: only this service's header, a canonical base64url HMAC-SHA256 under
// the key, and this service's issuer parse; expiry is Verify's to judge.
func TestTokenParse(t *testing.T) {
	t.Parallel()
	key := DeriveKey([]byte("rules-master-key-0123456789abcdef"), "jwt")
	c := claims{Issuer: issuer, Subject: "3f1c6a55-8b7e-4f0e-9d57-5d1f4a3b2c10", Type: tokenAPIKey, ID: "j1", IssuedAt: 1700000000, Expires: 1700007200}
	good := sign(key, c)
	parts := strings.Split(good, ".")
	// resign writes a token the service never would, correctly signed by its key.
	resign := func(header, payload string) string {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(header + "." + payload))
		return header + "." + payload + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
	foreign := c
	foreign.Issuer = "someone-else"
	cases := []struct {
		name  string
		token string
		err   error
	}{
		{"signed by the service", good, nil},
		{"under another key", sign(DeriveKey([]byte("another-master-key-0123456789abc"), "jwt"), c), errSignature},
		{"payload swapped", parts[0] + "." + strings.Split(sign(key, claims{Issuer: issuer, Subject: "x"}), ".")[1] + "." + parts[2], errSignature},
		{"alg none", base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + ".", errMalformed},
		{"another header, signed", resign(base64.RawURLEncoding.EncodeToString([]byte(`{"typ":"JWT","alg":"HS256"}`)), parts[1]), errMalformed},
		{"two parts", parts[0] + "." + parts[1], errMalformed},
		{"four parts", good + ".x", errMalformed},
		{"padded signature", good + "=", errMalformed},
		{"signature with a line break", parts[0] + "." + parts[1] + "." + parts[2][:10] + "\n" + parts[2][10:], errMalformed},
		{"another issuer, signed", sign(key, foreign), errMalformed},
		{"payload not JSON, signed", resign(jwtHeader, base64.RawURLEncoding.EncodeToString([]byte("not json"))), errMalformed},
		{"empty", "", errMalformed},
	}
	for _, tc := range cases {
		got, err := parse(key, tc.token)
		if err != tc.err {
			t.Errorf("%s: parse error %v, want %v", tc.name, err, tc.err)
			continue
		}
		if err == nil && got != c {
			t.Errorf("%s: claims %+v, want %+v", tc.name, got, c)
		}
	}
}

// Verify's refusals that need no database: a forged or malformed credential is
// API_KEY_INVALID, one whose exp has come is API_KEY_EXPIRED (exp itself included), and a
// subject that is not a client id is API_KEY_INVALID.
func TestVerifyRefusals(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	s := NewService(nil, []byte("rules-master-key-0123456789abcdef")).WithClock(func() time.Time { return now })
	other := NewService(nil, []byte("another-master-key-0123456789abc"))
	client := uuid.NewString()
	token := func(sv *Service, sub string, exp time.Time) string {
		return sign(sv.jwtKey, claims{Issuer: issuer, Subject: sub, Type: tokenAPIKey, ID: "k", IssuedAt: now.Add(-time.Hour).Unix(), Expires: exp.Unix()})
	}
	cases := []struct {
		name  string
		token string
		code  model.Code
	}{
		{"not a token", "abc", model.CodeAPIKeyInvalid},
		{"signed under another master key", token(other, client, now.Add(time.Hour)), model.CodeAPIKeyInvalid},
		{"expired a second ago", token(s, client, now.Add(-time.Second)), model.CodeAPIKeyExpired},
		{"expires now", token(s, client, now), model.CodeAPIKeyExpired},
		{"subject not a client id", token(s, "client-1", now.Add(time.Hour)), model.CodeAPIKeyInvalid},
	}
	for _, tc := range cases {
		p, err := s.Verify(context.Background(), tc.token)
		if p != nil {
			t.Errorf("%s: verified as %+v", tc.name, p)
		}
		wantCode(t, tc.name, err, tc.code)
	}
}

// A credential's claims are remembered once its signature checked out; what can change is
// still checked each time, and a token differing by one byte is parsed (and refused) anew.
func TestRememberedClaims(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	s := NewService(nil, []byte("rules-master-key-0123456789abcdef")).WithClock(func() time.Time { return now })
	good := sign(s.jwtKey, claims{Issuer: issuer, Subject: uuid.NewString(), Type: tokenAPIKey, ID: "k", IssuedAt: now.Unix(), Expires: now.Add(time.Hour).Unix()})
	for range 2 {
		if c, err := s.claimsOf(good); err != nil || c.Expires != now.Add(time.Hour).Unix() {
			t.Fatalf("claimsOf = %+v, %v", c, err)
		}
	}
	if s.tokens.Len() != 1 {
		t.Fatalf("%d tokens remembered, want 1", s.tokens.Len())
	}
	forged := good[:len(good)-2] + map[bool]string{true: "AA", false: "BB"}[good[len(good)-2:] != "AA"]
	for _, bad := range []string{forged, good + "x", "x" + good, good[:len(good)-1]} {
		if _, err := s.claimsOf(bad); err == nil {
			t.Fatalf("%q accepted after the genuine token was remembered", bad)
		}
	}
	if s.tokens.Len() != 1 {
		t.Fatalf("%d tokens remembered after refusals, want 1", s.tokens.Len())
	}
	// A remembered credential still expires: the clock is read on every request.
	later := s.WithClock(func() time.Time { return now.Add(2 * time.Hour) })
	_, err := later.Verify(context.Background(), good)
	wantCode(t, "a remembered credential past its exp", err, model.CodeAPIKeyExpired)
}

// Cursors open only as the service wrote them, under its own key.
func TestCursorOpen(t *testing.T) {
	t.Parallel()
	s := NewService(nil, []byte("rules-master-key-0123456789abcdef"))
	other := NewService(nil, []byte("another-master-key-0123456789abc"))
	payload := []byte(`{"a":"7b0c","d":1700000000}`)
	good := s.SignCursor(payload)
	p, mac, _ := strings.Cut(good, ".")
	cases := []struct {
		name   string
		cursor string
		ok     bool
	}{
		{"as signed", good, true},
		{"empty payload", s.SignCursor(nil), true},
		{"signed under another key", other.SignCursor(payload), false},
		{"payload of another cursor", strings.Split(s.SignCursor([]byte(`{"a":"other"}`)), ".")[0] + "." + mac, false},
		{"no signature", p, false},
		{"empty", "", false},
		{"padded", good + "=", false},
		{"line break inside", p[:4] + "\n" + p[4:] + "." + mac, false},
		{"two dots", good + ".", false},
		{"signature cut short", p + "." + mac[:len(mac)-2], false},
	}
	for _, tc := range cases {
		got, err := s.OpenCursor(tc.cursor)
		if tc.ok != (err == nil) {
			t.Errorf("%s: OpenCursor(%q) error %v, want ok %v", tc.name, tc.cursor, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrBadCursor) {
			t.Errorf("%s: error %v is not ErrBadCursor", tc.name, err)
		}
		if tc.name == "as signed" && string(got) != string(payload) {
			t.Errorf("opened %q, want %q", got, payload)
		}
	}
}

// A Connect Token reaches exactly the actions of the Connect flow; an API key reaches all.
func TestRequire(t *testing.T) {
	t.Parallel()
	every := []Action{ReadConnectors, ValidateParameters, ReadCategories, ReadClient, IssueConnectToken, ReadItem, ListItems,
		CreateItem, UpdateItem, DeleteItem, ReadAccounts, ReadProductData, WriteProductData, ManageWebhooks, ReadEvents, ManagePayments}
	tokenMay := map[Action]bool{ReadConnectors: true, ValidateParameters: true, ReadItem: true, CreateItem: true, UpdateItem: true, ReadAccounts: true}
	apiKey := WithResult(context.Background(), &Principal{ClientID: uuid.New(), Kind: KindAPIKey}, nil)
	token := WithResult(context.Background(), &Principal{ClientID: uuid.New(), Kind: KindConnectToken}, nil)
	refused := model.Fail(model.CodeAPIKeyExpired, "expired")
	for _, a := range every {
		if _, err := Require(apiKey, a); err != nil {
			t.Errorf("API key refused %s: %v", a, err)
		}
		_, err := Require(token, a)
		if tokenMay[a] && err != nil {
			t.Errorf("Connect Token refused %s: %v", a, err)
		}
		if !tokenMay[a] {
			wantCode(t, "Connect Token on "+string(a), err, model.CodeForbidden)
		}
		_, err = Require(context.Background(), a)
		wantCode(t, "no credential on "+string(a), err, model.CodeAPIKeyMissing)
		if _, err := Require(WithResult(context.Background(), nil, refused), a); err != refused {
			t.Errorf("a refused credential on %s: got %v, want the refusal itself", a, err)
		}
	}
}

// A Connect Token reaches only its own item, and none before it has one; API keys are not
// bound to items.
func TestRequireItem(t *testing.T) {
	t.Parallel()
	mine, other := uuid.New(), uuid.New()
	cases := []struct {
		name string
		p    Principal
		item uuid.UUID
		ok   bool
	}{
		{"API key", Principal{Kind: KindAPIKey}, other, true},
		{"token on its item", Principal{Kind: KindConnectToken, ItemID: &mine}, mine, true},
		{"token on another item", Principal{Kind: KindConnectToken, ItemID: &mine}, other, false},
		{"token without an item yet", Principal{Kind: KindConnectToken}, mine, false},
	}
	for _, tc := range cases {
		err := tc.p.RequireItem(tc.item)
		if tc.ok && err != nil {
			t.Errorf("%s: refused: %v", tc.name, err)
		}
		if !tc.ok {
			wantCode(t, tc.name, err, model.CodeForbidden)
		}
	}
}

// The limiter counts per group and IP in fixed one-minute windows, and says how many
// seconds are left of the window (at least 1).
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
		{"far below the limit", 2, 2000, 1 << 30, false, 2000, 2000/maxClaim + 2, 0},
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
			if store.calls > c.maxTrips {
				t.Fatalf("%d round trips for %d calls, want at most %d", store.calls, c.calls, c.maxTrips)
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
	if store.calls != 1 {
		t.Fatalf("the waiting request made %d claims, want its own one", store.calls)
	}
	// Its claim counted it: the limit of one is used up.
	if d := l.Allow(t.Context(), "auth", "a"); d.Allowed {
		t.Fatal("a second request passed a limit of one")
	}
}
