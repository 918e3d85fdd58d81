package main_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// README's Quickstart and "Connect a bank" blocks, run as printed (the keys the service
// printed in place of the Quickstart's placeholder, this test's address in place of
// 127.0.0.1:8080) in one shell against a fresh service: every call works, the item asks
// for its token and reaches SUCCESS, accounts and transactions come back, and the event
// reaches the receiver, its delivery logged.
func TestREADMEWalkThrough(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := func(heading string) string {
		m := regexp.MustCompile("(?s)## " + heading + "\n.*?```sh\n(.*?)```").FindSubmatch(readme)
		if m == nil {
			t.Fatalf("README has no sh block under ## %s", heading)
		}
		return string(m[1])
	}
	var mu sync.Mutex
	var received []string
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var ev struct{ Event string }
		_ = json.Unmarshal(b, &ev)
		mu.Lock()
		received = append(received, ev.Event)
		mu.Unlock()
	}))
	defer receiver.Close()

	s := start(t, "PONTE_DATA_DIR="+t.TempDir(), "DATABASE_URL=", "PONTE_ALLOW_INSECURE_WEBHOOKS=1", "PONTE_SANDBOX_STEP_DELAY=50ms")
	var keys map[string]string
	if err := json.Unmarshal([]byte(keysRE.FindString(s.stdout.String())), &keys); err != nil {
		t.Fatalf("no keys printed: %v\n%s", err, s.stdout)
	}
	quick := block("Quickstart")
	if !strings.Contains(quick, "CLIENT_ID=... CLIENT_SECRET=...") {
		t.Fatal("the Quickstart no longer has its CLIENT_ID=... CLIENT_SECRET=... line")
	}
	quick = strings.Replace(quick, "CLIENT_ID=... CLIENT_SECRET=...", "CLIENT_ID="+keys["clientId"]+" CLIENT_SECRET="+keys["clientSecret"], 1)
	script := strings.ReplaceAll(quick+block("Connect a bank"), "http://127.0.0.1:8080", s.url)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-c", script)
	cmd.Env = append(os.Environ(), "WEBHOOK_URL="+receiver.URL+"/hooks")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("README's blocks failed: %v\n%s", err, out)
	}
	text := string(out)
	for _, want := range []string{"\nWAITING_USER_INPUT\n", "\nSUCCESS\n", `"subtype":"CHECKING_ACCOUNT"`, `"results":[{"id":"`, `"event":"item/created"`, `"status":"DELIVERED"`} {
		if !strings.Contains(text, want) {
			t.Fatalf("the output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, `"codeDescription"`) {
		t.Fatalf("a call in README's blocks was refused:\n%s", text)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(received) == 0 || received[0] != "item/created" {
		t.Fatalf("the receiver got %v", received)
	}
}
