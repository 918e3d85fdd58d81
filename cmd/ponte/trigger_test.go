package main_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
	"ponte/webhooks"
)

// controlEnv is the environment of a control command: the test's, without the operator's
// PONTE_ variables.
func controlEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PONTE_") && !strings.HasPrefix(kv, "DATABASE_URL=") {
			env = append(env, kv)
		}
	}
	return env
}

// runControl runs the command to its end: its exit status, stdout and stderr.
func runControl(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(build(t), args...)
	cmd.Dir, cmd.Env = t.TempDir(), env
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// Usage mistakes of trigger and listen are usage errors: exit 2, one line, nothing sent.
func TestTriggerListenUsage(t *testing.T) {
	t.Parallel()
	env := controlEnv()
	for _, c := range []struct {
		args []string
		exit int
		says string
	}{
		{[]string{"trigger", "--help"}, 0, "--payment-request"},
		{[]string{"listen", "--help"}, 0, "--forward-to"},
		{[]string{"trigger"}, 2, "one argument, the event name"},
		{[]string{"trigger", "item/updated", "extra"}, 2, "one argument"},
		{[]string{"trigger", "item/updated"}, 2, "--client-id and --client-secret"},
		{[]string{"trigger", "item/updated", "--url", "ftp://x", "--client-id", "a", "--client-secret", "b"}, 2, "http:// or https://"},
		{[]string{"trigger", "item/updated", "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"listen"}, 2, "--forward-to"},
		{[]string{"listen", "--forward-to", "localhost:3000"}, 2, "http:// or https:// URL"},
		{[]string{"listen", "--forward-to", "http://localhost:3000"}, 2, "--client-id and --client-secret"},
		{[]string{"listen", "extra"}, 2, "takes no arguments"},
	} {
		exit, stdout, stderr := runControl(t, env, c.args...)
		if exit != c.exit || !strings.Contains(stdout+stderr, c.says) {
			t.Errorf("%v: exit %d, want %d; output lacks %q:\n%s%s", c.args, exit, c.exit, c.says, stdout, stderr)
		}
		if exit != 0 && (stdout != "" || strings.Count(strings.TrimSuffix(stderr, "\n"), "\n") > 0) {
			t.Errorf("%v: a failure must be one line on stderr and nothing on stdout;\nstdout: %s\nstderr: %s", c.args, stdout, stderr)
		}
	}
}

// ponte trigger fires an event; ponte listen forwards it, signed with the application's
// secret, to a local receiver and prints a line for the delivery.
func TestTriggerAndListen(t *testing.T) {
	t.Parallel()
	svc := testsupport.New(t, func(s *testsupport.Setup) { s.REST.StreamPoll = 50 * time.Millisecond })
	a := svc.NewClient(t, "trigger")
	var it model.Item
	svc.Do(t, "POST", "/items", a.APIKey, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).
		Want(200).JSON(&it)
	svc.WaitItem(t, a.APIKey, it.ID.String(), testsupport.Settled)
	secret := svc.Do(t, "GET", "/webhooks/signing-secret", a.APIKey, nil).Want(200).String("secret")

	var mu sync.Mutex
	type got struct {
		header http.Header
		body   []byte
	}
	var received []got
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		received = append(received, got{r.Header.Clone(), b})
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	}))
	defer local.Close()

	env := append(controlEnv(), "PONTE_URL="+svc.URL, "PONTE_CLIENT_ID="+a.ID, "PONTE_CLIENT_SECRET="+a.Secret)
	listen := exec.Command(build(t), "listen", "--forward-to", local.URL+"/hooks")
	listen.Env = env
	stdout, err := listen.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := listen.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := listen.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	defer func() {
		_ = listen.Process.Signal(syscall.SIGINT)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("listen ended with %v on an interrupt", err)
			}
		case <-time.After(10 * time.Second):
			_ = listen.Process.Kill()
			t.Error("listen did not stop on an interrupt")
		}
	}()
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "Ready:") {
				ready <- sc.Text()
			}
		}
	}()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		exited <- listen.Wait()
	}()
	select {
	case <-ready:
	case <-time.After(20 * time.Second):
		t.Fatal("listen never said it was ready")
	}

	exit, out, errOut := runControl(t, env, "trigger", "item/updated", "--item", it.ID.String())
	if exit != 0 {
		t.Fatalf("trigger: exit %d: %s%s", exit, out, errOut)
	}
	var ev model.Event
	if err := json.Unmarshal([]byte(out), &ev); err != nil || ev.Event != "item/updated" || !ev.SandboxControl {
		t.Fatalf("trigger printed %q (%v)", out, err)
	}
	select {
	case line := <-lines:
		if !strings.Contains(line, "item/updated") || !strings.Contains(line, ev.ID.String()) || !strings.Contains(line, "-> 202") {
			t.Errorf("listen's line %q", line)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("listen printed no delivery")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(received) != 1 {
		t.Fatalf("the receiver got %d requests", len(received))
	}
	r := received[0]
	key, err := webhooks.SecretKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	if r.header.Get("webhook-id") != ev.ID.String() ||
		r.header.Get("webhook-signature") != webhooks.Sign([][]byte{key}, ev.ID.String(), r.header.Get("webhook-timestamp"), r.body) {
		t.Errorf("forwarded without a valid signature: %v", r.header)
	}
	var payload map[string]any
	if err := json.Unmarshal(r.body, &payload); err != nil || payload["eventId"] != ev.ID.String() || payload["itemId"] != it.ID.String() {
		t.Errorf("forwarded body %s", r.body)
	}

	// An error of the service is one line and exit 1.
	exit, out, errOut = runControl(t, env, "trigger", "item/sneezed", "--item", it.ID.String())
	if exit != 1 || out != "" || !strings.Contains(errOut, "INVALID_WEBHOOK_EVENT") {
		t.Errorf("a refused trigger: exit %d, stdout %q, stderr %q", exit, out, errOut)
	}
}
