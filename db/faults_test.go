package db

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"ponte/model"
)

type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// await polls cond until it holds, or fails the test after limit.
func await(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// wantUnavailable checks err is what a client sees as 503 DATABASE_UNAVAILABLE.
func wantUnavailable(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", what)
	}
	if e, _ := model.AsError(err); e.Status() != 503 || e.Code != model.CodeDatabaseUnavailable {
		t.Fatalf("%s: %v became %d %s", what, err, e.Status(), e.Code.String())
	}
}

// A private cluster under the service's limits: statements past the time-out, a pool with
// no connection to give, a frozen server and a killed one all end quickly as
// DATABASE_UNAVAILABLE, the monitor follows the database, and a supervised cluster comes
// back by itself after a kill.
func TestClusterFaults(t *testing.T) {
	t.Parallel()
	dir, err := os.MkdirTemp("", "ponte-faults-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	logs := &syncLog{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	ctx := context.Background()
	c, err := StartCluster(ctx, dir, ClusterOptions{Ephemeral: true, Supervise: true, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	d, err := OpenWith(ctx, c.URL("postgres"), Limits{ConnectTimeout: time.Second, AcquireTimeout: 300 * time.Millisecond,
		StatementTimeout: 200 * time.Millisecond, Monitor: true, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)

	t.Run("statement timeout", func(t *testing.T) {
		_, err := d.bun.ExecContext(ctx, "SELECT pg_sleep(2)")
		wantUnavailable(t, "a statement past the time-out", err)
		err = d.InTx(ctx, func(ctx context.Context, tx *Tx) error {
			_, err := tx.bun.ExecContext(ctx, "SELECT pg_sleep(0.5)")
			return err
		})
		wantUnavailable(t, "a request's transaction past the time-out", err)
		// Background work runs without it, through bun and through the pool directly, and
		// the next request has it back.
		for range 3 {
			if err := d.InTx(LongRunning(ctx), func(ctx context.Context, tx *Tx) error {
				_, err := tx.bun.ExecContext(ctx, "SELECT pg_sleep(0.3)")
				return err
			}); err != nil {
				t.Fatalf("long-running transaction: %v", err)
			}
			if _, err := d.Pool.Exec(LongRunning(ctx), "SELECT pg_sleep(0.3)"); err != nil {
				t.Fatalf("long-running statement on the pool: %v", err)
			}
			var setting string
			if err := d.bun.QueryRowContext(ctx, "SHOW statement_timeout").Scan(&setting); err != nil || setting != "200ms" {
				t.Fatalf("statement_timeout of a request after long-running work: %q %v", setting, err)
			}
			if err := d.Pool.QueryRow(ctx, "SHOW statement_timeout").Scan(&setting); err != nil || setting != "200ms" {
				t.Fatalf("statement_timeout of a request on the pool after long-running work: %q %v", setting, err)
			}
		}
		_, err = d.Pool.Exec(ctx, "SELECT pg_sleep(2)")
		wantUnavailable(t, "a statement on the pool past the time-out", err)
	})

	t.Run("acquire timeout", func(t *testing.T) {
		var held []*pgxpool.Conn
		for int32(len(held)) < d.Pool.Config().MaxConns {
			conn, err := d.Pool.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, conn)
		}
		_, err := d.bun.ExecContext(ctx, "SELECT 1")
		for _, conn := range held {
			conn.Release()
		}
		wantUnavailable(t, "a statement with no connection to be had", err)
	})

	t.Run("frozen", func(t *testing.T) {
		pids := serverPIDs(t, c)
		t.Cleanup(func() { signalAll(pids, syscall.SIGCONT) })
		// A statement in flight when the server freezes ends when the monitor gives up.
		conn, err := d.bdb.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		signalAll(pids, syscall.SIGSTOP)
		done := make(chan error, 1)
		go func() {
			_, err := conn.ExecContext(ctx, "SELECT 1")
			done <- err
		}()
		await(t, "the monitor to see the frozen server", 10*time.Second, func() bool { return !d.Available() })
		select {
		case err := <-done:
			wantUnavailable(t, "the statement in flight", err)
		case <-time.After(10 * time.Second):
			t.Fatal("the statement in flight still waits after the monitor gave up")
		}
		_, err = d.bun.ExecContext(ctx, "SELECT 1")
		wantUnavailable(t, "a new statement", err)
		signalAll(pids, syscall.SIGCONT)
		await(t, "the monitor to see the server again", 10*time.Second, d.Available)
		if _, err := d.bun.ExecContext(ctx, "SELECT 1"); err != nil {
			t.Fatalf("after SIGCONT: %v", err)
		}
	})

	t.Run("killed", func(t *testing.T) {
		// An open connection leaves a backend behind the killed postmaster.
		if _, err := d.bun.ExecContext(ctx, "SELECT 1"); err != nil {
			t.Fatal(err)
		}
		old := c.ServerPID()
		if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		await(t, "the monitor to see the killed server", 10*time.Second, func() bool { return !d.Available() })
		// The restart is logged just after the new server answers: wait for the line too.
		await(t, "the server's restart", time.Minute, func() bool {
			pid := c.ServerPID()
			return pid != 0 && pid != old && d.Available() && strings.Contains(logs.String(), "PostgreSQL restarted")
		})
		if _, err := d.bun.ExecContext(ctx, "SELECT 1"); err != nil {
			t.Fatalf("after the restart: %v", err)
		}
		out := logs.String()
		if !strings.Contains(out, "PostgreSQL exited unexpectedly") || !strings.Contains(out, "signal: killed") || !strings.Contains(out, "PostgreSQL restarted") {
			t.Fatalf("restart not logged:\n%s", out)
		}
	})

	t.Run("stop", func(t *testing.T) {
		d.Close()
		if err := c.Stop(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(c.Dir, "postmaster.pid")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("server still running after Stop (postmaster.pid: %v)", err)
		}
		if c.ServerPID() != 0 {
			t.Fatal("a server was started after Stop")
		}
	})
}

// serverPIDs is the running postmaster and its children.
func serverPIDs(t *testing.T, c *Cluster) []int {
	t.Helper()
	pm := c.ServerPID()
	pids := []int{pm}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pm) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func signalAll(pids []int, sig syscall.Signal) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, sig)
	}
}
