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
	// Its own process group, as a shell gives a command: a test can signal the group the
	// way a terminal's Ctrl-C does.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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
		amount  float64
		sandbox bool
		fees    float64
	}{{100, false, 1.50}, {100, true, 0}, {14.50, false, 0.65}, {24.50, false, 0.75}} { // 0.50 + 0.145 and 0.245, half a cent up
		status, r := do(t, "POST", s2.url+"/payments/requests", key, map[string]any{"amount": c.amount, "isSandbox": c.sandbox})
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
			bin := build(t) // built first: the bound is the command's, not the compiler's
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
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

func configured(t *testing.T, extra ...string) (env []string, keys map[string]string) {
	t.Helper()
	keys = map[string]string{"clientId": uuid.NewString(), "clientSecret": "a-long-configured-secret"}
	env = []string{"DATABASE_URL=" + testsupport.NewDatabase(t), "PONTE_DATA_DIR=" + t.TempDir(),
		"PONTE_CLIENT_ID=" + keys["clientId"], "PONTE_CLIENT_SECRET=" + keys["clientSecret"],
		"PONTE_SECRET_KEY=" + strings.Repeat("k", 40)}
	return append(env, extra...), keys
}
