package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"ponte/db"
	"ponte/model"
	"ponte/testsupport"
)

// monitoredGate puts the database monitor, as a served process runs it, behind the
// database gate: the test can then take its database away for real.
func monitoredGate(t *testing.T, mon **db.DB) testsupport.Option {
	return func(s *testsupport.Setup) {
		d, err := db.OpenWith(context.Background(), s.DB.Pool.Config().ConnString(), db.Limits{Monitor: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(d.Close)
		s.REST.Database, *mon = d, d
	}
}

// Refusals written before the credential is checked (the database gate, the Accept check)
// or because the check failed reach a page of an allowed origin, and only such a page: the
// token's own origin and the operator's read them; another origin, or any origin with an
// API key, does not.
func TestCORSRefusals(t *testing.T) {
	t.Parallel()
	const operator, target, other = "https://operator.example", "http://127.0.0.1:5173", "https://evil.example"
	var mon *db.DB
	env := testsupport.New(t, corsOrigins(operator), monitoredGate(t, &mon))
	c := env.NewClient(t, "cors refusals")
	tok := env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"targetOrigin": target}}).Want(200).String("accessToken")
	call := func(key, origin string, extra map[string]string) *testsupport.Response {
		h := map[string]string{"Origin": origin}
		for k, v := range extra {
			h[k] = v
		}
		return env.DoHeaders(t, "GET", "/connectors", key, nil, h)
	}
	check := func(what string, status int, code model.Code, extra map[string]string) {
		t.Helper()
		for _, c := range []struct {
			key, origin, want string
		}{{tok, target, target}, {tok, operator, operator}, {tok, other, ""}, {c.APIKey, operator, ""}, {c.APIKey, target, ""}} {
			r := call(c.key, c.origin, extra)
			if r.Status != status {
				t.Fatalf("%s from %s (API key: %v): %d %s", what, c.origin, c.key != tok, r.Status, r.Body)
			}
			r.WantError(status, code.String())
			if got := r.Header.Get("Access-Control-Allow-Origin"); got != c.want {
				t.Errorf("%s from %s: Access-Control-Allow-Origin %q, want %q", what, c.origin, got, c.want)
			}
		}
	}

	check("406", http.StatusNotAcceptable, model.CodeNotAcceptable, map[string]string{"Accept": "image/png"})

	// A failed credential check: the token's stored half cannot be read.
	env.Exec(t, `ALTER TABLE connect_tokens RENAME TO connect_tokens_away`)
	for _, o := range []string{target, operator} {
		r := call(tok, o, nil)
		r.WantError(http.StatusInternalServerError, model.CodeInternal.String())
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != o {
			t.Errorf("500 from %s: Access-Control-Allow-Origin %q", o, got)
		}
	}
	r := call(tok, other, nil)
	r.WantError(http.StatusInternalServerError, model.CodeInternal.String())
	if got := r.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("500 from another origin: Access-Control-Allow-Origin %q", got)
	}
	env.Exec(t, `ALTER TABLE connect_tokens_away RENAME TO connect_tokens`)
	call(tok, target, nil).Want(200)

	// The database gate: the test's database stops taking connections and loses the ones
	// it had, the monitor's among them.
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(env.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	name := cfg.Database
	cfg.Database = "postgres" // a database may not refuse connections to its own sessions
	admin, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	ident := pgx.Identifier{name}.Sanitize()
	if _, err := admin.Exec(ctx, `ALTER DATABASE `+ident+` ALLOW_CONNECTIONS false`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = admin.Exec(ctx, `ALTER DATABASE `+ident+` ALLOW_CONNECTIONS true`) })
	if _, err := admin.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name); err != nil {
		t.Fatal(err)
	}
	testsupport.Eventually(t, "the database gate to close", 10*time.Second, func() bool { return !mon.Available() })
	check("503", http.StatusServiceUnavailable, model.CodeDatabaseUnavailable, nil)
	if _, err := admin.Exec(ctx, `ALTER DATABASE `+ident+` ALLOW_CONNECTIONS true`); err != nil {
		t.Fatal(err)
	}
}
