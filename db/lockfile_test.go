package db

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A lock file no live server of the folder holds is removed before a start, whatever it
// names; a missing one is no error; one a running server holds is kept and waited on. Both
// of the server's lock files, the data folder's and the socket's, are judged alike.
func TestStaleLockFile(t *testing.T) {
	t.Parallel()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	// A zombie: ended, not reaped. kill(pid, 0) succeeds on it, so PostgreSQL took a lock
	// file naming one for a live server's.
	zombie := exec.Command("true")
	if err := zombie.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = zombie.Wait() })
	await(t, "the child to become a zombie", 10*time.Second, func() bool {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(zombie.Process.Pid), "stat"))
		return err == nil && strings.Contains(string(b[bytes.LastIndexByte(b, ')'):]), " Z ")
	})
	other := exec.Command("sleep", "60")
	other.Dir = t.TempDir()
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })

	c := &Cluster{Dir: other.Dir} // sleep works in this folder: not a postgres
	stale := map[string]string{
		"pid of a process that ended":          strconv.Itoa(dead.ProcessState.Pid()) + "\n" + c.Dir + "\n",
		"pid of a zombie":                      strconv.Itoa(zombie.Process.Pid) + "\n",
		"pid of a live program in the folder":  strconv.Itoa(other.Process.Pid) + "\n" + c.Dir + "\n",
		"pid of this process (a reused pid)":   strconv.Itoa(os.Getpid()) + "\n",
		"garbage":                              "not a pid\n",
		"a negative pid":                       "-5\n",
		"empty (a crash while it was written)": "",
	}
	for _, path := range c.lockFiles() {
		for name, content := range stale {
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			if pid, err := c.lockHolder(path); pid != 0 || err != nil {
				t.Fatalf("%s, %s: held by %d, %v", filepath.Base(path), name, pid, err)
			}
			if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("%s, %s: the stale lock file was not removed (%v)", filepath.Base(path), name, err)
			}
		}
		if pid, err := c.lockHolder(path); pid != 0 || err != nil {
			t.Fatalf("a missing %s: held by %d, %v", filepath.Base(path), pid, err)
		}
		if err := os.WriteFile(path, []byte(strconv.Itoa(zombie.Process.Pid)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.waitStaleServer(context.Background()); err != nil {
		t.Fatalf("waitStaleServer on stale files: %v", err)
	}
	for _, path := range c.lockFiles() {
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("waitStaleServer left the stale %s (%v)", filepath.Base(path), err)
		}
	}

	// A running server's files stay, and a start waits for them; the same pid written into
	// another folder's file is not that folder's server.
	server, err := StartCluster(context.Background(), t.TempDir(), ClusterOptions{Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Stop() })
	running := &Cluster{Dir: server.Dir}
	for _, held := range running.lockFiles() {
		if pid, err := running.lockHolder(held); pid != server.ServerPID() || err != nil {
			t.Fatalf("a running server's %s: held by %d, %v; want %d", filepath.Base(held), pid, err, server.ServerPID())
		}
		if _, err := os.Stat(held); err != nil {
			t.Fatalf("a running server's %s: %v", filepath.Base(held), err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := running.waitStaleServer(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waitStaleServer on a running server's folder: %v, want to wait", err)
	}
	path := c.lockFiles()[0]
	if err := os.WriteFile(path, []byte(strconv.Itoa(server.ServerPID())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if pid, err := c.lockHolder(path); pid != 0 || err != nil {
		t.Fatalf("another folder's server: held by %d, %v", pid, err)
	}
}
