package main_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// PONTE_WEBHOOK_LIMIT caps an application's webhooks, and a start seals the plaintext
// headers that webhooks stored before migration 0011 hold.
func TestWebhookLimitAndLegacyHeaders(t *testing.T) {
	t.Parallel()
	env, keys := configured(t, "PONTE_WEBHOOK_LIMIT=1")
	dbURL := strings.TrimPrefix(env[0], "DATABASE_URL=")
	s := start(t, env...)
	key := apiKey(t, s.url, keys)
	status, w := do(t, "POST", s.url+"/webhooks", key, map[string]any{"event": "all", "url": "https://hooks.example.com/a",
		"headers": map[string]any{"Authorization": "Bearer new"}})
	if status != 200 {
		t.Fatalf("create webhook: %d %v", status, w)
	}
	id := w["id"].(string)
	if status, m := do(t, "POST", s.url+"/webhooks", key, map[string]any{"event": "all", "url": "https://hooks.example.com/b"}); status != 409 ||
		m["codeDescription"] != "WEBHOOK_LIMIT_REACHED" {
		t.Fatalf("second webhook with PONTE_WEBHOOK_LIMIT=1: %d %v", status, m)
	}
	s.stop(t)

	// The row as a service before migration 0011 left it.
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE webhooks SET headers_sealed = NULL, headers_plaintext = '{"Authorization": "Bearer legacy"}' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}

	s = start(t, env...)
	var plain *string
	var sealed []byte
	if err := conn.QueryRow(ctx, `SELECT headers_plaintext::text, headers_sealed FROM webhooks WHERE id = $1`, id).Scan(&plain, &sealed); err != nil {
		t.Fatal(err)
	}
	if plain != nil || len(sealed) == 0 || strings.Contains(string(sealed), "legacy") {
		t.Fatalf("after a start: plaintext %v, sealed %d bytes", deref(plain), len(sealed))
	}
	key = apiKey(t, s.url, keys)
	if status, m := do(t, "GET", s.url+"/webhooks/"+id, key, nil); status != 200 || m["headers"].(map[string]any)["Authorization"] != "Bearer legacy" {
		t.Fatalf("GET the sealed webhook: %d %v", status, m)
	}
}

// A limit that is not a positive number stops the service before it starts.
func TestWebhookLimitSetting(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"0", "-1", "many"} {
		bin := build(t) // built first: the bound is the command's, not the compiler's
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, bin, "serve")
		cmd.Env = append(os.Environ(), "PONTE_ADDR=127.0.0.1:0", "PONTE_DATA_DIR="+t.TempDir(), "PONTE_WEBHOOK_LIMIT="+v)
		out, err := cmd.CombinedOutput()
		cancel()
		if err == nil || !strings.Contains(string(out), "PONTE_WEBHOOK_LIMIT must be a positive number") {
			t.Fatalf("PONTE_WEBHOOK_LIMIT=%s: %v\n%s", v, err, out)
		}
	}
}
