package rest_test

import (
	"context"
	"testing"

	"ponte/testsupport"
)

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
