package main_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// `ponte clients disable` in its own process reaches two running replicas at once: when it
// returns, both refuse the client's API key and its login (POST /auth) on their very next
// request, though both had the client cached as enabled and its login row cached too;
// `enable` lets both log the client in again the same way, while the key issued before the
// disable stays refused on both. A third start with a new PONTE_CLIENT_SECRET, the way an
// operator replaces the secret, revokes the keys of the old one on the two running replicas.
func TestClientsDisableReachesReplicas(t *testing.T) {
	t.Parallel()
	env, keys := configured(t)
	a := start(t, env...)
	b := start(t, env...)
	key := apiKey(t, a.url, keys)

	var dbURL string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "DATABASE_URL="); ok {
			dbURL = v
		}
	}
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	waitFor(t, "both replicas to listen for client changes", func() bool {
		var n int
		_ = conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = 'ponte-client-listener'`).Scan(&n)
		return n == 2
	})

	run := func(sub string) {
		t.Helper()
		cmd := exec.Command(build(t), "clients", sub, keys["clientId"])
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "client "+keys["clientId"]+" "+sub+"d") || strings.Contains(string(out), "did not acknowledge") {
			t.Fatalf("clients %s: %v\n%s", sub, err, out)
		}
	}
	login := func(s *server) (int, string) {
		status, m := post(t, s.url+"/auth", keys)
		code, _ := m["codeDescription"].(string)
		return status, code
	}
	revoked := func(s *server, key string) bool {
		status, m := do(t, "GET", s.url+"/connectors", key, nil)
		return status == 401 && m["codeDescription"] == model.CodeAPIKeyExpired.String()
	}
	for range 2 {
		for _, s := range []*server{a, b} {
			if got := get(t, s.url+"/connectors", key); got != 200 {
				t.Fatalf("before disable: %d", got)
			}
			if got, _ := login(s); got != 200 {
				t.Fatalf("POST /auth before disable: %d", got)
			}
		}
		run("disable")
		for _, s := range []*server{a, b} {
			if got := get(t, s.url+"/connectors", key); got != 401 {
				t.Fatalf("the request right after `clients disable`: %d, want 401", got)
			}
			if got, code := login(s); got != 401 || code != model.CodeClientDisabled.String() {
				t.Fatalf("POST /auth right after `clients disable`: %d %s, want 401 CLIENT_DISABLED", got, code)
			}
		}
		run("enable")
		for _, s := range []*server{a, b} {
			if !revoked(s, key) {
				t.Fatal("the key issued before `clients disable` is not refused as revoked right after `clients enable`")
			}
		}
		key = apiKey(t, b.url, keys)
	}
	for _, s := range []*server{a, b} {
		if got := get(t, s.url+"/connectors", key); got != 200 {
			t.Fatalf("a key issued after enable: %d", got)
		}
	}

	rotated := map[string]string{"clientId": keys["clientId"], "clientSecret": "a-replacement-configured-secret"}
	start(t, append(env, "PONTE_CLIENT_SECRET="+rotated["clientSecret"])...)
	for _, s := range []*server{a, b} {
		waitFor(t, "the old secret's key to be revoked on a running replica", func() bool { return revoked(s, key) })
		if got, code := login(s); got != 401 || code != model.CodeClientKeysBad.String() {
			t.Fatalf("POST /auth with the replaced secret: %d %s", got, code)
		}
		apiKey(t, s.url, rotated)
	}
}
