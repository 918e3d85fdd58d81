package main_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/testsupport"
)

func TestMain(m *testing.M) {
	testsupport.Main(m, func() {
		if binary != "" {
			_ = os.RemoveAll(filepath.Dir(binary))
		}
	})
}

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// build compiles the command once per test binary; the tests run it as operators do.
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ponte-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "ponte")
		if b, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("%v\n%s", err, b)
		}
	})
	if buildErr != nil {
		t.Fatalf("build: %v", buildErr)
	}
	return binary
}

// server is a running ponte process.
type server struct {
	cmd *exec.Cmd
	url string
	// stdout is everything printed before the serving line: printed credentials, if any.
	stdout *bytes.Buffer
	logs   *syncBuffer
	exited chan error
}

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

var servingRE = regexp.MustCompile(`^Ponte is serving on (\S+)`)

func start(t *testing.T, env ...string) *server {
	t.Helper()
	cmd := exec.Command(build(t), "serve")
	cmd.Env = append(os.Environ(), append([]string{"PONTE_ADDR=127.0.0.1:0"}, env...)...)
	s := &server{cmd: cmd, stdout: &bytes.Buffer{}, logs: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = s.logs
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		serving := false
		for sc.Scan() {
			line := sc.Text()
			if m := servingRE.FindStringSubmatch(line); m != nil && !serving {
				serving = true
				found <- m[1]
			} else if !serving {
				s.stdout.WriteString(line + "\n")
			}
		}
		s.exited <- cmd.Wait()
	}()
	select {
	case s.url = <-found:
	case err := <-s.exited:
		t.Fatalf("ponte exited before serving: %v\n%s", err, s.logs)
	case <-time.After(90 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("ponte did not start within 90s\n%s", s.logs)
	}
	t.Cleanup(func() { s.stop(t) })
	return s
}

func (s *server) stop(t *testing.T) {
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.exited:
		if err != nil {
			t.Errorf("ponte exited with %v\n%s", err, s.logs)
		}
	case <-time.After(60 * time.Second):
		_ = s.cmd.Process.Kill()
		t.Errorf("ponte did not stop within 60s")
	}
}

func post(t *testing.T, url string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &m)
	return resp.StatusCode, m
}

func get(t *testing.T, url, key string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("X-API-KEY", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// apiKey exchanges keys for an API key and checks it opens GET /connectors.
func apiKey(t *testing.T, url string, keys map[string]string) string {
	t.Helper()
	status, m := post(t, url+"/auth", keys)
	if status != 200 {
		t.Fatalf("POST /auth: %d %v", status, m)
	}
	key := m["apiKey"].(string)
	if s := get(t, url+"/connectors", key); s != 200 {
		t.Fatalf("GET /connectors with the printed keys: %d", s)
	}
	return key
}

var keysRE = regexp.MustCompile(`\{"clientId":"[^"]+","clientSecret":"[^"]+"\}`)

// A fresh start runs its own PostgreSQL, prints working credentials once, stops the cluster
// on exit, and a second start reuses the data.
func TestEmbeddedDatabaseLifecycle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := start(t, "PONTE_DATA_DIR="+dir, "DATABASE_URL=")
	raw := keysRE.FindString(s.stdout.String())
	if raw == "" {
		t.Fatalf("no credentials printed:\n%s", s.stdout)
	}
	var keys map[string]string
	_ = json.Unmarshal([]byte(raw), &keys)
	apiKey(t, s.url, keys)
	if get(t, s.url+"/readyz", "") != 200 {
		t.Fatal("readyz not ready")
	}

	// An operator command works next to the running service, on the same cluster.
	cmd := exec.Command(build(t), "clients", "create", "--name", "Second app")
	cmd.Env = append(os.Environ(), "PONTE_DATA_DIR="+dir, "DATABASE_URL=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("clients create: %v", err)
	}
	var second map[string]string
	if err := json.Unmarshal(out, &second); err != nil || second["clientId"] == "" || second["clientSecret"] == "" {
		t.Fatalf("clients create printed %q", out)
	}
	apiKey(t, s.url, second)

	s.stop(t)
	if _, err := os.Stat(filepath.Join(dir, "pg", "postmaster.pid")); !os.IsNotExist(err) {
		t.Fatalf("PostgreSQL still running after the service stopped (postmaster.pid: %v)", err)
	}

	s2 := start(t, "PONTE_DATA_DIR="+dir, "DATABASE_URL=")
	if keysRE.MatchString(s2.stdout.String()) {
		t.Fatal("second start printed new credentials: the data was not reused")
	}
	apiKey(t, s2.url, keys)
	apiKey(t, s2.url, second)
}

// With DATABASE_URL and PONTE_CLIENT_ID/SECRET the service uses that server and makes sure
// exactly that client exists, idempotently.
func TestConfiguredDatabaseAndClient(t *testing.T) {
	t.Parallel()
	env, keys := configured(t)
	s := start(t, env...)
	if keysRE.MatchString(s.stdout.String()) {
		t.Fatal("a development client was created although PONTE_CLIENT_ID is set")
	}
	key := apiKey(t, s.url, keys)
	s.stop(t)

	s2 := start(t, env...)
	apiKey(t, s2.url, keys)
	// Same PONTE_SECRET_KEY: keys issued before the restart stay valid.
	if get(t, s2.url+"/connectors", key) != 200 {
		t.Fatal("API key from before the restart was rejected")
	}

	pk := exec.Command(build(t), "clients", "public-key", keys["clientId"])
	pk.Env = append(os.Environ(), env...)
	if out, err := pk.Output(); err != nil || !strings.HasPrefix(string(out), "-----BEGIN PUBLIC KEY-----") {
		t.Fatalf("clients public-key: %v %s", err, out)
	}
	set := exec.Command(build(t), "clients", "set", keys["clientId"], "itemsV2=true", "itemLimit=5")
	set.Env = append(os.Environ(), env...)
	if out, err := set.Output(); err != nil || !strings.Contains(string(out), `"itemsV2": true`) || !strings.Contains(string(out), `"itemLimit": 5`) {
		t.Fatalf("clients set: %v %s", err, out)
	}
	if status, _ := do(t, "GET", s2.url+"/v2/items", key, nil); status != 200 {
		t.Fatalf("GET /v2/items after clients set itemsV2=true: %d", status)
	}
	bad := exec.Command(build(t), "clients", "set", keys["clientId"], "colour=blue")
	bad.Env = append(os.Environ(), env...)
	if out, err := bad.CombinedOutput(); err == nil || !strings.Contains(string(out), "unknown setting") {
		t.Fatalf("clients set with an unknown key: %v %s", err, out)
	}

	// Fees of real (non-sandbox) payment requests follow the client's pricing.
	price := exec.Command(build(t), "clients", "pricing", keys["clientId"], "PIX=0.50+1%")
	price.Env = append(os.Environ(), env...)
	if out, err := price.Output(); err != nil || !strings.Contains(string(out), `"percent": 1`) {
		t.Fatalf("clients pricing: %v %s", err, out)
	}
	_, inst := do(t, "GET", s2.url+"/payments/recipients/institutions?name=Itau", key, nil)
	instID := inst["results"].([]any)[0].(map[string]any)["id"]
	if status, r := do(t, "POST", s2.url+"/payments/recipients", key, map[string]any{"name": "Loja", "taxNumber": "11222333000181", "isDefault": true,
		"paymentInstitutionId": instID, "account": map[string]any{"branch": "1", "number": "123", "type": "CHECKING_ACCOUNT"}}); status != 200 {
		t.Fatalf("recipient: %d %v", status, r)
	}
	for _, c := range []struct {
		sandbox bool
		fees    float64
	}{{false, 1.50}, {true, 0}} {
		status, r := do(t, "POST", s2.url+"/payments/requests", key, map[string]any{"amount": 100, "isSandbox": c.sandbox})
		if status != 200 || r["fees"] != c.fees {
			t.Fatalf("request isSandbox=%v: %d fees %v, want %v", c.sandbox, status, r["fees"], c.fees)
		}
	}

	mig := exec.Command(build(t), "migrate")
	mig.Env = append(os.Environ(), env...)
	if out, err := mig.CombinedOutput(); err != nil || !strings.Contains(string(out), "migrations applied") {
		t.Fatalf("migrate: %v %s", err, out)
	}
}

func TestBadConfiguration(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  []string
		want string
	}{
		{"short secret key", []string{"PONTE_SECRET_KEY=short"}, "PONTE_SECRET_KEY"},
		{"client id not a uuid", []string{"DATABASE_URL=" + "postgres://x@127.0.0.1:1/x", "PONTE_CLIENT_ID=abc", "PONTE_CLIENT_SECRET=0123456789abcdef0"}, ""},
		{"unknown command", nil, "unknown command"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"serve"}
			if tc.name == "unknown command" {
				args = []string{"frobnicate"}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, build(t), args...)
			cmd.Env = append(os.Environ(), append([]string{"PONTE_ADDR=127.0.0.1:0", "PONTE_DATA_DIR=" + t.TempDir()}, tc.env...)...)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("ponte accepted a bad configuration:\n%s", out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Fatalf("message %q does not mention %q", out, tc.want)
			}
		})
	}
}

// CI must run exactly the test command README.md gives, and README must keep its run
// command; both are promises to people setting up a fresh machine.
func TestREADMECommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)## Test\\s+```sh\\n([^\\n]+)\\n```").FindSubmatch(readme)
	if block == nil {
		t.Fatal("README has no test command under ## Test")
	}
	testCmd := string(block[1])
	if !regexp.MustCompile("(?m)^" + regexp.QuoteMeta(testCmd) + "$").Match(ci) {
		t.Fatalf(".ci/run has no line running README's test command %q exactly", testCmd)
	}
	if !regexp.MustCompile("(?s)## Run\\s+```sh\\ngo run ./cmd/ponte\\n```").Match(readme) {
		t.Fatal("README's run command is not `go run ./cmd/ponte`")
	}
}

// With PONTE_TLS_CERT and PONTE_TLS_KEY the service speaks HTTPS only, TLS 1.2 or later.
func TestTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore:   time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	_ = os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	_ = os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)

	s := start(t, "DATABASE_URL="+testsupport.NewDatabase(t), "PONTE_DATA_DIR="+dir,
		"PONTE_TLS_CERT="+certFile, "PONTE_TLS_KEY="+keyFile)
	if !strings.HasPrefix(s.url, "https://") {
		t.Fatalf("serving %s, want https", s.url)
	}
	pool := x509.NewCertPool()
	pool.AddCert(must(x509.ParseCertificate(der)))
	client := func(maxVersion uint16) *http.Client {
		return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
			TLSClientConfig: &tls.Config{RootCAs: pool, MaxVersion: maxVersion}}}
	}
	resp, err := client(tls.VersionTLS12).Get(s.url + "/healthz")
	if err != nil {
		t.Fatalf("TLS 1.2 client refused: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("healthz over TLS: %d", resp.StatusCode)
	}
	if _, err := client(tls.VersionTLS11).Get(s.url + "/healthz"); err == nil {
		t.Fatal("a TLS 1.1 client was served")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func do(t *testing.T, method, url, key string, body any) (int, map[string]any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, r)
	req.Header.Set("X-API-KEY", key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &m)
	return resp.StatusCode, m
}

// waitFor polls until cond holds or a minute passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A service killed with SIGKILL in the middle of an execution leaves it to the next
// process, which finishes it exactly once.
func TestKilledMidExecution(t *testing.T) {
	t.Parallel()
	env, keys := configured(t, "PONTE_SANDBOX_STEP_DELAY=200ms", "PONTE_JOB_TIMEOUT=2s", "PONTE_JOB_RESCUE_AFTER=3s", "PONTE_WEBHOOK_TIMEOUT=500ms")
	s := start(t, env...)
	key := apiKey(t, s.url, keys)
	status, item := do(t, "POST", s.url+"/items", key, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}})
	if status != 200 {
		t.Fatalf("create item: %d %v", status, item)
	}
	id := item["id"].(string)
	waitFor(t, "a collection step", func() bool {
		_, it := do(t, "GET", s.url+"/items/"+id, key, nil)
		return strings.HasSuffix(fmt.Sprint(it["executionStatus"]), "_IN_PROGRESS") && it["executionStatus"] != "LOGIN_IN_PROGRESS"
	})
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.exited
	s.cmd.ProcessState = &os.ProcessState{} // already reaped: stop() has nothing to do

	s2 := start(t, env...)
	key = apiKey(t, s2.url, keys)
	var final map[string]any
	waitFor(t, "the execution to finish after the restart", func() bool {
		_, final = do(t, "GET", s2.url+"/items/"+id, key, nil)
		return final["status"] == "UPDATED"
	})
	if final["executionStatus"] != "SUCCESS" {
		t.Fatalf("final item %v", final)
	}
	// Nothing duplicated: one item/created, one login, and the events query works.
	status, ev := do(t, "POST", s2.url+"/graphql", key, map[string]any{"query": `query($id: UUID) { events(itemId: $id) { event } }`, "variables": map[string]any{"id": id}})
	if status != 200 {
		t.Fatalf("events: %d %v", status, ev)
	}
	counts := map[string]int{}
	for _, e := range ev["data"].(map[string]any)["events"].([]any) {
		counts[e.(map[string]any)["event"].(string)]++
	}
	if counts["item/created"] != 1 || counts["item/login_succeeded"] != 1 || counts["transactions/created"] == 0 {
		t.Fatalf("events after the restart: %v", counts)
	}
}

// The receiver is down while a thousand events are produced; the service is killed with
// SIGKILL while deliveries are failing and retrying, and restarted; the receiver comes
// back; every event arrives at least once. The schedule (three attempts, 40 s, three
// more) outlasts the outage, as the real one (hours) outlasts a restart; item/login_succeeded,
// which variant A gives only three immediate attempts, gets a fourth here so that it can
// outlast the outage too.
func TestWebhooksSurviveKill(t *testing.T) {
	t.Parallel()
	// The receiver's address, unused while it is down.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env, keys := configured(t, "PONTE_SANDBOX_STEP_DELAY=0s",
		"PONTE_ALLOW_INSECURE_WEBHOOKS=1", "PONTE_WEBHOOK_TIMEOUT=1s", "PONTE_WEBHOOK_SCHEDULE=0s,0s,40s,0s,0s,40s,0s,0s", "PONTE_WEBHOOK_SHORT_SCHEDULE=0s,0s,40s",
		"PONTE_JOB_TIMEOUT=4s", "PONTE_JOB_RESCUE_AFTER=6s")
	dbURL := strings.TrimPrefix(env[0], "DATABASE_URL=")
	s := start(t, env...)
	key := apiKey(t, s.url, keys)
	if status, m := do(t, "POST", s.url+"/webhooks", key, map[string]any{"event": "all", "url": "http://" + addr + "/hook"}); status != 200 {
		t.Fatalf("create webhook: %d %v", status, m)
	}
	eventIDs := func(url, key string) []string {
		status, m := do(t, "POST", url+"/graphql", key, map[string]any{"query": `{ events { id } }`})
		if status != 200 {
			t.Fatalf("events: %d %v", status, m)
		}
		var ids []string
		for _, e := range m["data"].(map[string]any)["events"].([]any) {
			ids = append(ids, e.(map[string]any)["id"].(string))
		}
		return ids
	}
	attempts := func(url, key string) int {
		_, m := do(t, "GET", url+"/webhooks", key, nil)
		id := m["results"].([]any)[0].(map[string]any)["id"].(string)
		_, page := do(t, "GET", url+"/webhooks/"+id+"/deliveries?pageSize=500", key, nil)
		n := 0
		for _, d := range page["results"].([]any) {
			n += int(d.(map[string]any)["attempts"].(float64))
		}
		return n
	}
	began := time.Now()
	for i := 0; len(eventIDs(s.url, key)) < 1000; i++ {
		for j := range 20 {
			status, m := do(t, "POST", s.url+"/items", key, map[string]any{"connectorId": 0,
				"parameters": map[string]any{"user": "user-ok-perf-1", "password": fmt.Sprint("password-", i*20+j)}})
			if status != 200 {
				t.Fatalf("create item: %d %v", status, m)
			}
		}
		if i > 40 {
			t.Fatal("too few events from 800 items")
		}
	}
	waitFor(t, "failing delivery attempts", func() bool { return attempts(s.url, key) > 100 })
	t.Logf("%d events recorded in %s with the receiver down", len(eventIDs(s.url, key)), time.Since(began))
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.exited
	s.cmd.ProcessState = &os.ProcessState{}

	s2 := start(t, env...)
	key = apiKey(t, s2.url, keys)
	var mu sync.Mutex
	got := map[string]int{}
	receiver := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.Header.Get("webhook-id")]++
		mu.Unlock()
	})}
	rl, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("receiver address taken meanwhile: %v", err)
	}
	go func() { _ = receiver.Serve(rl) }()
	defer receiver.Close()

	// Items still running at the kill finish after the restart; then the events are final.
	waitFor(t, "every item to settle", func() bool {
		status, m := do(t, "POST", s2.url+"/graphql", key, map[string]any{"query": `{ itemConnection(first: 500) { nodes { status } } }`})
		if status != 200 {
			return false
		}
		for _, n := range m["data"].(map[string]any)["itemConnection"].(map[string]any)["nodes"].([]any) {
			if n.(map[string]any)["status"] == "UPDATING" {
				return false
			}
		}
		return true
	})
	ids := eventIDs(s2.url, key)
	back := time.Now()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		mu.Lock()
		missing := 0
		for _, id := range ids {
			if got[id] == 0 {
				missing++
			}
		}
		mu.Unlock()
		if missing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d events never arrived; jobs not completed: %s", missing, len(ids), unfinishedJobs(t, dbURL))
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("%d events, every one delivered within %s of the receiver's return", len(ids), time.Since(back))
}

// unfinishedJobs describes delivery jobs that have not completed, for a failure message.
func unfinishedJobs(t *testing.T, dbURL string) string {
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		return err.Error()
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(context.Background(), `SELECT state, count(*), max(attempt), min((errors[array_length(errors, 1)])->>'error'), min(scheduled_at)::text
		FROM river_job WHERE kind = 'webhook_delivery' AND state <> 'completed' GROUP BY state`)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var state string
		var n, attempt int
		var msg, at *string
		_ = rows.Scan(&state, &n, &attempt, &msg, &at)
		out = append(out, fmt.Sprintf("%s ×%d (attempt %d, scheduled %v): %v", state, n, attempt, deref(at), deref(msg)))
	}
	var st []string
	srows, _ := conn.Query(context.Background(), `SELECT status || ' ' || count(*) FROM webhook_deliveries GROUP BY status`)
	for srows.Next() {
		var s string
		_ = srows.Scan(&s)
		st = append(st, s)
	}
	srows.Close()
	return strings.Join(out, "; ") + " | deliveries: " + strings.Join(st, ", ")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// A payment whose settlement is under way when the service is killed finishes after the
// restart, once: its steps are durable jobs.
func TestPaymentSurvivesKill(t *testing.T) {
	t.Parallel()
	env, keys := configured(t, "PONTE_PAYMENT_STEP_DELAY=1s", "PONTE_JOB_TIMEOUT=2s", "PONTE_JOB_RESCUE_AFTER=3s", "PONTE_WEBHOOK_TIMEOUT=500ms")
	s := start(t, env...)
	key := apiKey(t, s.url, keys)
	_, inst := do(t, "GET", s.url+"/payments/recipients/institutions?name=Nubank", key, nil)
	instID := inst["results"].([]any)[0].(map[string]any)["id"]
	if status, r := do(t, "POST", s.url+"/payments/recipients", key, map[string]any{"name": "Loja", "taxNumber": "11222333000181", "isDefault": true,
		"paymentInstitutionId": instID, "account": map[string]any{"branch": "1", "number": "123", "type": "CHECKING_ACCOUNT"}}); status != 200 {
		t.Fatalf("recipient: %d %v", status, r)
	}
	_, req := do(t, "POST", s.url+"/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true})
	status, intent := do(t, "POST", s.url+"/payments/intents", key, map[string]any{"paymentRequestId": req["id"], "connectorId": 5,
		"parameters": map[string]any{"cpf": "11144477735"}})
	if status != 200 {
		t.Fatalf("intent: %d %v", status, intent)
	}
	resp, err := http.PostForm(intent["consentUrl"].(string), url.Values{"decision": {"authorize"}})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("consent: %v %v", err, resp)
	}
	resp.Body.Close()
	id := intent["id"].(string)
	waitFor(t, "settlement to start", func() bool {
		_, n := do(t, "GET", s.url+"/payments/intents/"+id, key, nil)
		return n["status"] == "PAYMENT_SETTLEMENT_PROCESSING"
	})
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.exited
	s.cmd.ProcessState = &os.ProcessState{}

	s2 := start(t, env...)
	key = apiKey(t, s2.url, keys)
	var final map[string]any
	waitFor(t, "the payment to complete after the restart", func() bool {
		_, final = do(t, "GET", s2.url+"/payments/intents/"+id, key, nil)
		return final["status"] == "PAYMENT_COMPLETED"
	})
	var steps []string
	for _, st := range final["statusHistory"].([]any) {
		steps = append(steps, st.(map[string]any)["status"].(string))
	}
	want := []string{"STARTED", "ENQUEUED", "CONSENT_AWAITING_AUTHORIZATION", "CONSENT_AUTHORIZED", "PAYMENT_PENDING",
		"PAYMENT_SETTLEMENT_PROCESSING", "PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT", "PAYMENT_COMPLETED"}
	if fmt.Sprint(steps) != fmt.Sprint(want) {
		t.Fatalf("steps %v, want each once: %v", steps, want)
	}
}

// configured is a service on a fresh test database with a configured client application
// and master key (so that a restart keeps both), plus extra environment.
func configured(t *testing.T, extra ...string) (env []string, keys map[string]string) {
	t.Helper()
	keys = map[string]string{"clientId": uuid.NewString(), "clientSecret": "a-long-configured-secret"}
	env = []string{"DATABASE_URL=" + testsupport.NewDatabase(t), "PONTE_DATA_DIR=" + t.TempDir(),
		"PONTE_CLIENT_ID=" + keys["clientId"], "PONTE_CLIENT_SECRET=" + keys["clientSecret"],
		"PONTE_SECRET_KEY=" + strings.Repeat("k", 40)}
	return append(env, extra...), keys
}
