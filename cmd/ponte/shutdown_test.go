package main_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Ctrl-C in a terminal signals the service's whole process group. The service stops its
// private PostgreSQL itself, after the requests and jobs that use it: the stop ends with
// exit status 0, logs no ERROR line and leaves no server behind. The log is JSON when asked
// (PONTE_LOG_FORMAT=json), at info level the service's own lines (an item's execution) and
// not the job queue's counters.
func TestInterruptStopsCleanly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := start(t, "PONTE_DATA_DIR="+dir, "DATABASE_URL=", "PONTE_LOG_FORMAT=json")
	var keys map[string]string
	_ = json.Unmarshal([]byte(keysRE.FindString(s.stdout.String())), &keys)
	key := apiKey(t, s.url, keys)
	status, it := do(t, "POST", s.url+"/items", key, map[string]any{"connectorId": 0,
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}})
	if status != 200 {
		t.Fatalf("POST /items: %d %v", status, it)
	}
	waitFor(t, "the item's sync", func() bool {
		_, m := do(t, "GET", s.url+"/items/"+it["id"].(string), key, nil)
		return m["executionStatus"] == "SUCCESS"
	})

	// The running binary's metrics include the database pool's, the execution's and its
	// job's (counted when River reports the run, just after the item's status).
	var scraped []byte
	waitFor(t, "the execution's metrics", func() bool {
		resp, err := http.Get(s.url + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		scraped, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		return strings.Contains(string(scraped), `ponte_jobs_total{kind="item_execution",outcome="completed"`)
	})
	for _, want := range []string{`ponte_db_pool_connections{state="max"}`, `ponte_item_executions_total{status="SUCCESS"} 1`} {
		if !strings.Contains(string(scraped), want) {
			t.Fatalf("/metrics lacks %s:\n%s", want, scraped)
		}
	}

	stopping := time.Now()
	if err := syscall.Kill(-s.cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.exited:
		if err != nil {
			t.Fatalf("ponte exited with %v after Ctrl-C\n%s", err, s.logs)
		}
	case <-time.After(60 * time.Second):
		_ = s.cmd.Process.Kill()
		t.Fatalf("ponte did not stop within 60s of Ctrl-C\n%s", s.logs)
	}
	t.Logf("stopped %s after Ctrl-C", time.Since(stopping).Round(time.Millisecond))
	if _, err := os.Stat(filepath.Join(dir, "pg", "postmaster.pid")); !os.IsNotExist(err) {
		t.Fatalf("PostgreSQL still running after Ctrl-C (postmaster.pid: %v)", err)
	}

	var ended bool
	for _, line := range strings.Split(strings.TrimSpace(s.logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		if m["level"] == "ERROR" || strings.HasPrefix(m["msg"].(string), "River") {
			t.Fatalf("logged at info level: %q\n%s", line, s.logs)
		}
		ended = ended || m["msg"] == "item execution ended" && m["itemId"] == it["id"]
	}
	if !ended {
		t.Fatalf("no line for the item's execution:\n%s", s.logs)
	}
}

// SIGTERM lets a request in flight finish: a POST /auth whose body is still arriving when
// the signal comes gets its API key, and the service then exits 0 having refused new
// connections.
func TestTerminateFinishesInFlightRequests(t *testing.T) {
	t.Parallel()
	env, keys := configured(t)
	s := start(t, env...)
	body, send := io.Pipe()
	answer := make(chan *http.Response, 1)
	wrote := make(chan struct{})
	var client net.Addr
	go func() {
		req, _ := http.NewRequest("POST", s.url+"/auth", body)
		req.Header.Set("Content-Type", "application/json")
		trace := &httptrace.ClientTrace{GotConn: func(c httptrace.GotConnInfo) { client = c.Conn.LocalAddr() },
			WroteHeaders: func() { close(wrote) }}
		resp, err := http.DefaultClient.Do(req.WithContext(httptrace.WithClientTrace(req.Context(), trace)))
		if err != nil {
			t.Errorf("the in-flight request failed: %v", err)
			close(answer)
			return
		}
		answer <- resp
	}()
	half := `{"clientId":"` + keys["clientId"] + `",`
	if _, err := send.Write([]byte(half)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-wrote:
	case <-time.After(30 * time.Second):
		t.Fatal("the request's headers were never written")
	}
	// The server closes connections whose request it has not begun to read: wait until
	// it has read what was sent.
	waitFor(t, "the service to read the request's first half", func() bool { return readByProcess(t, s.cmd.Process.Pid, s.url, client) })
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the listener to close", func() bool {
		_, err := http.Get(s.url + "/healthz")
		return err != nil
	})
	if _, err := send.Write([]byte(`"clientSecret":"` + keys["clientSecret"] + `"}`)); err != nil {
		t.Fatal(err)
	}
	send.Close()
	resp, ok := <-answer
	if !ok {
		return
	}
	defer resp.Body.Close()
	var got map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&got)
	if resp.StatusCode != 200 || got["apiKey"] == nil {
		t.Fatalf("the request in flight at SIGTERM got %d %v", resp.StatusCode, got)
	}
	select {
	case err := <-s.exited:
		if err != nil {
			t.Fatalf("ponte exited with %v\n%s", err, s.logs)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("ponte did not stop after its last request")
	}
}

// readByProcess reports whether process pid holds the TCP connection from client to the
// server at base (it accepted it) and has read every byte sent on it so far (its receive
// queue is empty), as Linux's /proc tells.
func readByProcess(t *testing.T, pid int, base string, client net.Addr) bool {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	server, err := netip.ParseAddrPort(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	from, err := netip.ParseAddrPort(client.String())
	if err != nil {
		t.Fatal(err)
	}
	table, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(table), "\n")[1:] {
		// sl local_address rem_address st tx_queue:rx_queue tr:when retrnsmt uid timeout inode
		f := strings.Fields(line)
		if len(f) < 10 || f[1] != procTCPAddr(server) || f[2] != procTCPAddr(from) {
			continue
		}
		if _, rx, _ := strings.Cut(f[4], ":"); strings.Trim(rx, "0") != "" {
			return false
		}
		fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range fds {
			if l, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); l == "socket:["+f[9]+"]" {
				return true
			}
		}
		return false
	}
	return false
}

// procTCPAddr spells an IPv4 address and port as /proc/net/tcp does: the address's four
// bytes as one machine word (little-endian here), the port big-endian, both in hex.
func procTCPAddr(a netip.AddrPort) string {
	b := a.Addr().Unmap().As4()
	return fmt.Sprintf("%02X%02X%02X%02X:%04X", b[3], b[2], b[1], b[0], a.Port())
}
