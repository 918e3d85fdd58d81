package main_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The service on its private cluster, which is frozen and then killed. While the database
// is away every answer is a fast 503 DATABASE_UNAVAILABLE naming no connection detail;
// the service restarts a killed cluster by itself and answers 200 again.
func TestDatabaseFaults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pg := filepath.Join(dir, "pg")
	s := start(t, "PONTE_DATA_DIR="+dir, "DATABASE_URL=", "PONTE_SANDBOX_STEP_DELAY=0s")
	var keys map[string]string
	if err := json.Unmarshal([]byte(keysRE.FindString(s.stdout.String())), &keys); err != nil {
		t.Fatalf("no credentials printed:\n%s", s.stdout)
	}
	key := apiKey(t, s.url, keys)
	forbidden := []string{pg, ".s.PGSQL", "user=", "database=", "SQLSTATE", "postgres"}

	// Concurrent load on a healthy database never trips the monitor.
	var wg sync.WaitGroup
	statuses := make(chan int, 200)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				req, _ := http.NewRequest("GET", s.url+"/connectors", nil)
				req.Header.Set("X-API-KEY", key)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					statuses <- -1
					continue
				}
				resp.Body.Close()
				statuses <- resp.StatusCode
			}
		}()
	}
	wg.Wait()
	close(statuses)
	for st := range statuses {
		if st != 200 {
			t.Fatalf("GET /connectors under load on a healthy database: %d", st)
		}
	}

	t.Run("frozen", func(t *testing.T) {
		pids := clusterPIDs(t, pg)
		t.Cleanup(func() { signalAll(pids, syscall.SIGCONT) })
		signalAll(pids, syscall.SIGSTOP)

		r := probe(s.url, "GET", "/readyz", "")
		t.Logf("frozen: /readyz answered %d in %s", r.status, r.took)
		r.wantUnavailable(t, forbidden)
		// The first requests wait on the database, REST and GraphQL at once.
		var first [2]probeResult
		var wg sync.WaitGroup
		for i, path := range []string{"/connectors", "/graphql"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				first[i] = probe(s.url, map[bool]string{true: "POST", false: "GET"}[path == "/graphql"], path, key)
			}()
		}
		wg.Wait()
		t.Logf("frozen: first GET /connectors answered %d in %s; first GraphQL query %d in %s", first[0].status, first[0].took, first[1].status, first[1].took)
		first[0].wantUnavailable(t, forbidden)
		first[1].wantGraphQLUnavailable(t, forbidden)
		r = probe(s.url, "GET", "/connectors", key)
		t.Logf("frozen: second GET /connectors answered %d in %s", r.status, r.took)
		r.wantUnavailable(t, forbidden)
		r = probe(s.url, "POST", "/graphql", key)
		t.Logf("frozen: GraphQL answered %d in %s", r.status, r.took)
		r.wantGraphQLUnavailable(t, forbidden)
		r = probe(s.url, "GET", "/readyz", "")
		t.Logf("frozen: /readyz answered %d in %s", r.status, r.took)
		r.wantUnavailable(t, forbidden)

		signalAll(pids, syscall.SIGCONT)
		resumed := time.Now()
		waitFor(t, "200s after SIGCONT", func() bool {
			return probe(s.url, "GET", "/readyz", "").status == 200 && probe(s.url, "GET", "/connectors", key).status == 200
		})
		t.Logf("frozen: 200 again %s after SIGCONT", time.Since(resumed).Round(time.Millisecond))
	})

	t.Run("killed", func(t *testing.T) {
		old := postmasterPID(t, pg)
		if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		killed := time.Now()
		// A request racing the kill may still be served by a backend that has not yet
		// noticed; then every answer is a 503 until the cluster is back.
		unavailable := 0
		var last probeResult
		deadline := time.Now().Add(2 * time.Minute)
		for {
			r := probe(s.url, "GET", "/connectors", key)
			if r.status == 200 && unavailable > 0 {
				break
			}
			if r.status != 200 || unavailable > 0 {
				r.wantUnavailable(t, forbidden)
				unavailable++
				last = r
			}
			if unavailable == 1 {
				if rz := probe(s.url, "GET", "/readyz", ""); rz.status != 200 {
					rz.wantUnavailable(t, forbidden)
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("no 503 then 200 within 2 minutes of the kill (%d answers 503)\n%s", unavailable, s.logs)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("killed: %d answers 503 (the last in %s), 200 again %s after the kill", unavailable, last.took, time.Since(killed).Round(time.Millisecond))
		if pid := postmasterPID(t, pg); pid == old {
			t.Fatalf("postmaster pid still %d", pid)
		}
		// The supervisor logs the restart once the new server answers, which a request may
		// see first: wait for the line rather than read it at once.
		restartLogged := func() bool {
			logs := s.logs.String()
			return strings.Contains(logs, "PostgreSQL exited unexpectedly") && strings.Contains(logs, `exit="signal: killed"`) && strings.Contains(logs, "PostgreSQL restarted")
		}
		deadline = time.Now().Add(30 * time.Second)
		for !restartLogged() {
			if time.Now().After(deadline) {
				t.Fatalf("restart not logged with its reason:\n%s", s.logs)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if probe(s.url, "GET", "/readyz", "").status != 200 {
			t.Fatal("readyz not 200 after the restart")
		}
		// The job queue recovered too: a new item syncs to the end.
		status, item := do(t, "POST", s.url+"/items", key, map[string]any{"connectorId": 0,
			"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}})
		if status != 200 {
			t.Fatalf("POST /items after the restart: %d %v", status, item)
		}
		waitFor(t, "the item's sync after the restart", func() bool {
			_, it := do(t, "GET", s.url+"/items/"+item["id"].(string), key, nil)
			return it["status"] == "UPDATED"
		})
	})

	// Stopping the service still stops its cluster, and nothing restarts it.
	s.stop(t)
	if _, err := os.Stat(filepath.Join(pg, "postmaster.pid")); !os.IsNotExist(err) {
		t.Fatalf("PostgreSQL still running after the service stopped (postmaster.pid: %v)", err)
	}
}

type probeResult struct {
	status int
	header http.Header
	body   []byte
	took   time.Duration
}

// probe sends one request (for /graphql, a query reading the database) and times it; a
// transport failure is status -1. It may run on any goroutine.
func probe(base, method, path, key string) probeResult {
	var body io.Reader
	if path == "/graphql" {
		body = strings.NewReader(`{"query":"{ connectors(filter:{sandbox:true}) { total results { id } } }"}`)
	}
	req, _ := http.NewRequest(method, base+path, body)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("X-API-KEY", key)
	}
	client := &http.Client{Timeout: 30 * time.Second}
	began := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return probeResult{status: -1, body: []byte(err.Error()), took: time.Since(began)}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return probeResult{status: resp.StatusCode, header: resp.Header, body: b, took: time.Since(began)}
}

// hangGuard is the longest any answer may take while the database is away: generous, so
// that a slow machine does not fail the test, and far below the minutes pgx would wait.
const hangGuard = 10 * time.Second

func (r probeResult) wantUnavailable(t *testing.T, forbidden []string) {
	t.Helper()
	var body struct {
		Code            int    `json:"code"`
		CodeDescription string `json:"codeDescription"`
		Message         string `json:"message"`
		Data            struct {
			RequestID string `json:"requestId"`
		} `json:"data"`
	}
	_ = json.Unmarshal(r.body, &body)
	if r.status != 503 || body.Code != 503 || body.CodeDescription != "DATABASE_UNAVAILABLE" || body.Message == "" {
		t.Fatalf("want 503 DATABASE_UNAVAILABLE, got %d %s", r.status, r.body)
	}
	// Like every 5xx, it gives the request id to quote.
	if id := r.header.Get("X-Request-Id"); id == "" || body.Data.RequestID != id || !strings.Contains(body.Message, id) {
		t.Fatalf("503 without its request id (X-Request-Id %q): %s", id, r.body)
	}
	r.check(t, forbidden, true)
}

// wantGraphQLUnavailable accepts the two forms a GraphQL client may get: refused before
// execution (the service already knew), an HTTP 503 with the documented body; or found out
// by a resolver, a GraphQL error whose extensions carry the same code.
func (r probeResult) wantGraphQLUnavailable(t *testing.T, forbidden []string) {
	t.Helper()
	if r.status == 503 {
		r.wantUnavailable(t, forbidden)
		return
	}
	var body struct {
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	_ = json.Unmarshal(r.body, &body)
	if r.status != 200 || len(body.Errors) == 0 ||
		body.Errors[0].Extensions["codeDescription"] != "DATABASE_UNAVAILABLE" || body.Errors[0].Extensions["code"] != float64(503) {
		t.Fatalf("want GraphQL DATABASE_UNAVAILABLE, got %d %s", r.status, r.body)
	}
	if id := r.header.Get("X-Request-Id"); id == "" || body.Errors[0].Extensions["requestId"] != id {
		t.Fatalf("GraphQL 503 without its request id (X-Request-Id %q): %s", id, r.body)
	}
	r.check(t, forbidden, false)
}

func (r probeResult) check(t *testing.T, forbidden []string, retryAfter bool) {
	t.Helper()
	for _, f := range forbidden {
		if bytes.Contains(r.body, []byte(f)) {
			t.Fatalf("the answer shows %q: %s", f, r.body)
		}
	}
	if retryAfter && r.header.Get("Retry-After") == "" {
		t.Fatalf("503 without Retry-After: %v", r.header)
	}
	if r.took > hangGuard {
		t.Fatalf("the answer took %s", r.took)
	}
}

// postmasterPID reads the first line of the cluster's lock file.
func postmasterPID(t *testing.T, pg string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(pg, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// clusterPIDs is the postmaster and its children (backends and auxiliary processes), found
// through the parent pid in /proc/<pid>/stat.
func clusterPIDs(t *testing.T, pg string) []int {
	t.Helper()
	pm := postmasterPID(t, pg)
	pids := []int{pm}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The command name in parentheses may hold spaces: fields start after the last ')'.
		fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pm) {
			pids = append(pids, pid)
		}
	}
	if len(pids) < 3 {
		t.Fatalf("found only %v as the cluster's processes", pids)
	}
	return pids
}

func signalAll(pids []int, sig syscall.Signal) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, sig)
	}
}
