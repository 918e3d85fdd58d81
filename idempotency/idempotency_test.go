package idempotency_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/idempotency"
	"ponte/model"
	"ponte/testsupport"
)

// The rules of Idempotency-Keys against a real database: these tests call Keys directly, as
// rest's middleware does, with the caller's credential in the context. The HTTP side (which
// requests are covered, the replayed headers) is tested in rest/.

func TestMain(m *testing.M) { testsupport.Main(m) }

// world is one database with two applications and the callers the keys are claimed as.
type world struct {
	url   string
	store *db.DB
	keys  *idempotency.Keys
	// a and b are two applications' API keys; tokenA and tokenA2 are two of a's Connect
	// Tokens; none carries no credential.
	a, b, tokenA, tokenA2, none context.Context
}

func newWorld(t *testing.T) *world {
	t.Helper()
	ctx := context.Background()
	url := testsupport.NewDatabase(t)
	store, err := db.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	authn := auth.NewService(store, testsupport.MasterKey)
	client := func(name string) uuid.UUID {
		c, _, err := authn.NewClient(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	as := func(p *auth.Principal) context.Context { return auth.WithResult(ctx, p, nil) }
	a, b := client("idem-a"), client("idem-b")
	return &world{
		url:     url,
		store:   store,
		keys:    idempotency.New(store, authn.AnswerSealer(), testsupport.Logger()),
		a:       as(&auth.Principal{ClientID: a, Kind: auth.KindAPIKey}),
		b:       as(&auth.Principal{ClientID: b, Kind: auth.KindAPIKey}),
		tokenA:  as(&auth.Principal{ClientID: a, Kind: auth.KindConnectToken, TokenID: uuid.New()}),
		tokenA2: as(&auth.Principal{ClientID: a, Kind: auth.KindConnectToken, TokenID: uuid.New()}),
		none:    ctx,
	}
}

func fingerprint(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }

// claim claims key for request as the caller of ctx and wants a claim back.
func (w *world) claim(t *testing.T, ctx context.Context, key, request string) *idempotency.Claim {
	t.Helper()
	c, err := w.keys.Claim(ctx, []string{key}, fingerprint(request))
	if err != nil || c == nil {
		t.Fatalf("claim %q: %v, %v", key, c, err)
	}
	return c
}

func wantCode(t *testing.T, err error, code model.Code) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("error %v, want %s", err, code)
	}
}

func wantReplay(t *testing.T, c *idempotency.Claim, status int, contentType, body string) {
	t.Helper()
	if c.Replay == nil {
		t.Fatalf("no replay, want %d %s", status, body)
	}
	if r := c.Replay; r.Status != status || r.ContentType != contentType || string(r.Body) != body {
		t.Fatalf("replay %d %q %s, want %d %q %s", r.Status, r.ContentType, r.Body, status, contentType, body)
	}
}

func (w *world) exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	if _, err := w.store.Pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatal(err)
	}
}

func (w *world) rows(t *testing.T) int {
	t.Helper()
	var n int
	if err := w.store.Pool.QueryRow(context.Background(), `SELECT count(*) FROM idempotency_keys`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A request without a valid credential is not covered: its endpoint answers the credential
// error, and nothing is recorded.
func TestClaimWithoutCredential(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	refused := auth.WithResult(context.Background(), nil, model.Fail(model.CodeAPIKeyInvalid, "bad key"))
	for name, ctx := range map[string]context.Context{"none": w.none, "refused": refused} {
		if c, err := w.keys.Claim(ctx, []string{"k"}, fingerprint("r")); c != nil || err != nil {
			t.Fatalf("%s: claim %v, %v; want neither", name, c, err)
		}
	}
	// Checked before the key's format: an invalid key without credential is not its error.
	if c, err := w.keys.Claim(w.none, []string{""}, fingerprint("r")); c != nil || err != nil {
		t.Fatalf("empty key without credential: %v, %v", c, err)
	}
	if n := w.rows(t); n != 0 {
		t.Fatalf("%d keys recorded, want none", n)
	}
}

func TestKeyFormat(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, bad := range [][]string{{}, {""}, {"a", "b"}, {"a", "a"}, {strings.Repeat("k", 256)}, {"tab\there"}, {"olá"}, {"del\x7f"}} {
		_, err := w.keys.Claim(w.a, bad, fingerprint("r"))
		wantCode(t, err, model.CodeInvalidParameter)
	}
	for _, good := range []string{"k", strings.Repeat("k", 255), " !~", "a b"} {
		w.claim(t, w.a, good, "r")
	}
	if n := w.rows(t); n != 4 {
		t.Fatalf("%d keys recorded, want the 4 valid ones", n)
	}
}

// The first answer is replayed to the same request, refused to another request under the
// same key, and the key is busy while the first request runs.
func TestKeepReplayReuseInUse(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	first := w.claim(t, w.a, "order-1", "POST /x {1}")
	if first.Replay != nil {
		t.Fatalf("a fresh key replays %v", first.Replay)
	}
	_, err := w.keys.Claim(w.a, []string{"order-1"}, fingerprint("POST /x {1}"))
	wantCode(t, err, model.CodeIdempotencyKeyInUse)
	_, err = w.keys.Claim(w.a, []string{"order-1"}, fingerprint("POST /x {2}"))
	wantCode(t, err, model.CodeIdempotencyKeyReused)

	if err := first.Keep(ctx, 201, "application/json", []byte(`{"id":"1"}`)); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		wantReplay(t, w.claim(t, w.a, "order-1", "POST /x {1}"), 201, "application/json", `{"id":"1"}`)
	}
	_, err = w.keys.Claim(w.a, []string{"order-1"}, fingerprint("POST /x {2}"))
	wantCode(t, err, model.CodeIdempotencyKeyReused)

	// A client error is an answer like any other; an empty body and no type are kept as such.
	c := w.claim(t, w.a, "bad", "POST /x {}")
	if err := c.Keep(ctx, 400, "", nil); err != nil {
		t.Fatal(err)
	}
	wantReplay(t, w.claim(t, w.a, "bad", "POST /x {}"), 400, "", "")
}

// Release frees the key for the retry; releasing twice, or after keeping, changes nothing.
func TestRelease(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	c := w.claim(t, w.a, "retry", "r")
	if err := c.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if n := w.rows(t); n != 0 {
		t.Fatalf("%d keys after release, want 0", n)
	}
	// Free for another request now, not only the same one.
	again := w.claim(t, w.a, "retry", "another request")
	if err := again.Keep(ctx, 200, "text/plain", []byte("ok")); err != nil {
		t.Fatal(err)
	}
	if err := again.Release(ctx); err != nil {
		t.Fatal(err)
	}
	wantReplay(t, w.claim(t, w.a, "retry", "another request"), 200, "text/plain", "ok")
}

// Keys are scoped to the application and, for Connect Tokens, to the token: end users of one
// application must not see each other's answers.
func TestKeyScope(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	callers := []context.Context{w.a, w.b, w.tokenA, w.tokenA2}
	for i, caller := range callers {
		c := w.claim(t, caller, "same", "same request")
		if c.Replay != nil {
			t.Fatalf("caller %d saw another caller's answer %s", i, c.Replay.Body)
		}
		if err := c.Keep(ctx, 200, "application/json", []byte{'0' + byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	for i, caller := range callers {
		wantReplay(t, w.claim(t, caller, "same", "same request"), 200, "application/json", string([]byte{'0' + byte(i)}))
	}
}

// A claim whose request never finished is taken over once stale; the first holder then can
// neither write its answer over the new one nor release the new holder's key.
func TestStaleClaimTakenOver(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	dead := w.claim(t, w.a, "crash", "r")
	w.exec(t, `UPDATE idempotency_keys SET claimed_at = now() - $1::interval WHERE key = 'crash'`, idempotency.StaleClaim-5*time.Second)
	_, err := w.keys.Claim(w.a, []string{"crash"}, fingerprint("r"))
	wantCode(t, err, model.CodeIdempotencyKeyInUse)
	w.exec(t, `UPDATE idempotency_keys SET claimed_at = now() - $1::interval WHERE key = 'crash'`, idempotency.StaleClaim)
	// Taken over by any request: the stale holder's fingerprint binds nothing.
	live := w.claim(t, w.a, "crash", "another request")
	if live.Replay != nil {
		t.Fatalf("a stale claim replayed %v", live.Replay)
	}
	if err := dead.Keep(ctx, 200, "", []byte("late")); err != nil {
		t.Fatal(err)
	}
	if err := dead.Release(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = w.keys.Claim(w.a, []string{"crash"}, fingerprint("another request"))
	wantCode(t, err, model.CodeIdempotencyKeyInUse)
	if err := live.Keep(ctx, 200, "", []byte("mine")); err != nil {
		t.Fatal(err)
	}
	wantReplay(t, w.claim(t, w.a, "crash", "another request"), 200, "", "mine")
}

// An expired answer is not replayed: the key starts afresh, for any request.
func TestExpiredAnswer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	if err := w.claim(t, w.a, "old", "r").Keep(ctx, 200, "", []byte("first")); err != nil {
		t.Fatal(err)
	}
	var left time.Duration
	if err := w.store.Pool.QueryRow(ctx, `SELECT expires_at - now() FROM idempotency_keys WHERE key = 'old'`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left < idempotency.TTL-time.Minute || left > idempotency.TTL {
		t.Fatalf("answer kept for %s, want %s", left, idempotency.TTL)
	}
	w.exec(t, `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'old'`)
	c := w.claim(t, w.a, "old", "another request")
	if c.Replay != nil {
		t.Fatalf("an expired answer was replayed: %s", c.Replay.Body)
	}
}

// Answers are sealed at rest, bound to their row: one copied to another key does not open,
// and neither does one sealed under another master key. Neither is replayed nor run again.
func TestAnswersSealed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	secret := []byte(`{"accessToken":"s3cret-token"}`)
	for _, k := range []string{"one", "two"} {
		if err := w.claim(t, w.a, k, "r").Keep(ctx, 200, "application/json", secret); err != nil {
			t.Fatal(err)
		}
	}
	var clear int
	if err := w.store.Pool.QueryRow(ctx, `SELECT count(*) FROM idempotency_keys WHERE position($1::bytea IN body) > 0`, []byte("s3cret")).Scan(&clear); err != nil {
		t.Fatal(err)
	}
	if clear != 0 {
		t.Fatalf("%d answers hold the secret in clear", clear)
	}

	other := idempotency.New(w.store, auth.NewService(w.store, bytes.Repeat([]byte{7}, 32)).AnswerSealer(), testsupport.Logger())
	if c, err := other.Claim(w.a, []string{"one"}, fingerprint("r")); c != nil || err == nil {
		t.Fatalf("an answer sealed under another master key opened: %v", c)
	} else if _, internal := model.AsError(err); !internal {
		t.Fatalf("a kept answer that does not open is the client's error: %v", err)
	}

	w.exec(t, `UPDATE idempotency_keys SET body = (SELECT body FROM idempotency_keys WHERE key = 'one') WHERE key = 'two'`)
	if c, err := w.keys.Claim(w.a, []string{"two"}, fingerprint("r")); c != nil || err == nil {
		t.Fatalf("an answer copied from another key opened: %v", c)
	}
	wantReplay(t, w.claim(t, w.a, "one", "r"), 200, "application/json", string(secret))
}

// Of many requests racing for one key, exactly one holds it; the others are told it is busy.
func TestClaimRace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const racers = 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	held, busy := 0, 0
	start := make(chan struct{})
	for range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			c, err := w.keys.Claim(w.a, []string{"race"}, fingerprint("r"))
			mu.Lock()
			defer mu.Unlock()
			var e *model.Error
			switch {
			case err == nil && c != nil && c.Replay == nil:
				held++
			case errors.As(err, &e) && e.Code == model.CodeIdempotencyKeyInUse:
				busy++
			default:
				t.Errorf("claim: %v, %v", c, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if held != 1 || busy != racers-1 {
		t.Fatalf("%d held the key and %d were told it is busy, want 1 and %d", held, busy, racers-1)
	}
}

// The purge deletes expired keys at once when it starts, and keeps the live ones.
func TestRunPurge(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	for _, k := range []string{"expired-answer", "expired-claim", "live"} {
		if err := w.claim(t, w.a, k, "r").Keep(ctx, 200, "", []byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	w.claim(t, w.a, "running", "r")
	w.exec(t, `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key LIKE 'expired-%'`)
	run, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.keys.RunPurge(run)
	}()
	testsupport.Eventually(t, "the purge of expired keys", 10*time.Second, func() bool { return w.rows(t) == 2 })
	stop()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the purge did not stop with its context")
	}
	wantReplay(t, w.claim(t, w.a, "live", "r"), 200, "", "live")
	_, err := w.keys.Claim(w.a, []string{"running"}, fingerprint("r"))
	wantCode(t, err, model.CodeIdempotencyKeyInUse)
}

// A database that fails is the service's failure, never a client's error, and the purge
// logs it and keeps its schedule.
func TestStoreFailure(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gone, err := db.Open(context.Background(), w.url)
	if err != nil {
		t.Fatal(err)
	}
	gone.Close()
	var logs syncBuffer
	keys := idempotency.New(gone, auth.NewSealerFor(testsupport.MasterKey, "idempotency-answers"), slog.New(slog.NewTextHandler(&logs, nil)))
	c, err := keys.Claim(w.a, []string{"k"}, fingerprint("r"))
	if c != nil || err == nil {
		t.Fatalf("claim on a closed store: %v, %v", c, err)
	}
	if _, internal := model.AsError(err); !internal {
		t.Fatalf("a store failure is the client's error: %v", err)
	}
	run, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		keys.RunPurge(run)
	}()
	testsupport.Eventually(t, "the purge's failure in the log", 10*time.Second, func() bool {
		return strings.Contains(logs.String(), "idempotency key purge failed")
	})
	stop()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the purge did not stop with its context")
	}
}

// syncBuffer is a log the purge's goroutine writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
