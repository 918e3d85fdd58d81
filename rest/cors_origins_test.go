package rest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"ponte/auth"
	"ponte/db"
	"ponte/graph"
	"ponte/rest"
	"ponte/testsupport"
)

// preflightPasses asks url's API whether a page of origin may call it.
func preflightPasses(t *testing.T, url, origin string) bool {
	t.Helper()
	req, err := http.NewRequest("OPTIONS", url+"/connectors", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", "GET")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusNoContent && resp.Header.Get("Access-Control-Allow-Origin") == origin
}

// A token issued through GraphQL drops the remembered "no" of its origin at once, as one
// issued through REST does: the next preflight passes.
func TestCORSOriginIssuedThroughGraphQL(t *testing.T) {
	t.Parallel()
	const origin = "https://graphql.example"
	env := testsupport.New(t)
	env.Auth.RememberOrigins(time.Hour)
	c := env.NewClient(t, "graphql origin")
	if preflightPasses(t, env.URL, origin) {
		t.Fatal("an origin no token names passed a preflight")
	}
	env.GraphQL(t, c.APIKey, `mutation($o: String) { createConnectToken(options: {targetOrigin: $o}) { accessToken } }`,
		map[string]any{"o": origin}).OK(t)
	if !preflightPasses(t, env.URL, origin) {
		t.Fatal("the origin of a token issued through GraphQL is still refused")
	}
}

// A token issued by one process drops the remembered "no" of its origin in another on the
// same database, announced through the database, long before the answer would expire.
func TestCORSOriginIssuedOnAnotherProcess(t *testing.T) {
	t.Parallel()
	const origin = "https://replica.example"
	env := testsupport.New(t)
	c := env.NewClient(t, "replica origin")
	ctx, cancel := context.WithCancel(context.Background())
	store, err := db.Open(ctx, env.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	other := auth.NewService(store, testsupport.MasterKey)
	other.RememberOrigins(time.Hour)
	done := make(chan struct{})
	go func() { defer close(done); other.Listen(ctx, testsupport.Logger()) }()
	srv := httptest.NewServer(rest.New(&graph.Resolver{Auth: other, Log: testsupport.Logger()}, rest.Config{Database: store}))
	t.Cleanup(func() { srv.Close(); cancel(); <-done; store.Close() })
	testsupport.Eventually(t, "the other process listening", 10*time.Second, other.Listening)

	if preflightPasses(t, srv.URL, origin) {
		t.Fatal("an origin no token names passed a preflight")
	}
	env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"targetOrigin": origin}}).Want(200)
	testsupport.Eventually(t, "the other process to allow the origin", 2*time.Second, func() bool { return preflightPasses(t, srv.URL, origin) })
}

// storedOrigins is the origins the store holds, each with whether it is still live.
func storedOrigins(t *testing.T, env *testsupport.Env) map[string]bool {
	t.Helper()
	rows, err := env.DB.Pool.Query(context.Background(), `SELECT origin, expires_at > now() FROM browser_origins`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]bool{}
	for rows.Next() {
		var o string
		var live bool
		if err := rows.Scan(&o, &live); err != nil {
			t.Fatal(err)
		}
		got[o] = live
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// An origin whose tokens all expired is deleted when the next token naming an origin is
// issued; an expired origin named again is kept, live again.
func TestBrowserOriginsExpiredDeleted(t *testing.T) {
	t.Parallel()
	const old, kept, again = "https://old.example", "https://kept.example", "https://again.example"
	env := testsupport.New(t)
	c := env.NewClient(t, "origins")
	issue := func(origin string) {
		env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"targetOrigin": origin}}).Want(200)
	}
	issue(old)
	issue(kept)
	issue(again)
	env.Exec(t, `UPDATE browser_origins SET expires_at = now() - interval '1 second' WHERE origin = ANY($1)`, []string{old, again})
	issue(again)
	got := storedOrigins(t, env)
	if _, ok := got[old]; ok || len(got) != 2 || !got[kept] || !got[again] {
		t.Fatalf("stored origins %v, want %s and %s live and %s gone", got, kept, again, old)
	}
	// A token naming no origin touches nothing.
	env.Exec(t, `UPDATE browser_origins SET expires_at = now() - interval '1 second' WHERE origin = $1`, kept)
	env.Do(t, "POST", "/connect_token", c.APIKey, nil).Want(200)
	if got := storedOrigins(t, env); len(got) != 2 || got[kept] {
		t.Fatalf("after a token with no origin: %v", got)
	}
}
