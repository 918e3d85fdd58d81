package db

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// lockFileName is the server's lock file in its data folder: the postmaster's pid on the
// first line, then its folder, start time, port, socket folder and shared memory key.
const lockFileName = "postmaster.pid"

// lockFiles are the server's two lock files: the data folder's, and the one beside its
// socket (in the same folder), which starts with the postmaster's pid too.
func (c *Cluster) lockFiles() []string {
	return []string{filepath.Join(c.Dir, lockFileName), filepath.Join(c.Dir, ".s.PGSQL."+strconv.Itoa(socketPort)+".lock")}
}

// waitStaleServer waits until no server of an earlier run holds the data folder's lock
// files, and removes those that are stale. A server left by a killed process finishes its
// shutdown (it got SIGINT when its parent died, see start) and removes them itself; one
// killed with it leaves them behind, naming a pid that may be dead, a zombie nobody reaps
// (PostgreSQL, which asks kill(pid, 0), takes that for alive) or, after a reboot or in a
// new container, some other process. PostgreSQL removes a stale file itself only when its
// pid is gone: a zombie's, a reused pid or a torn file made it refuse to start. A missing
// file at any point means no server holds it.
func (c *Cluster) waitStaleServer(ctx context.Context) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		held := 0
		for _, path := range c.lockFiles() {
			pid, err := c.lockHolder(path)
			if err != nil {
				return err
			}
			held = max(held, pid)
		}
		if held == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("another PostgreSQL server (pid %d) still runs on %s: is another ponte using this data folder? Stop it or set PONTE_DATA_DIR", held, c.Dir)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// lockHolder returns the pid of the live server holding the lock file at path, or 0 when
// none does: the file is missing, or it was stale and is removed now. As PostgreSQL's own
// check does, it trusts the first line's pid only if that process lives; it also asks that
// the process be a postgres working in this folder, which a reused pid is not. A file
// whose first line is no pid (a crash as a server wrote it) is stale unless some postgres
// works in the folder: that one may be writing it right now.
func (c *Cluster) lockHolder(path string) (int, error) {
	content, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the PostgreSQL lock file: %w", err)
	}
	first, _, _ := strings.Cut(string(content), "\n")
	if pid, err := strconv.Atoi(strings.TrimSpace(first)); err == nil && pid > 0 {
		if c.serverInFolder(pid) {
			return pid, nil
		}
	} else if pids := c.orphans(); len(pids) > 0 {
		return pids[0], nil
	}
	// Removed only if unchanged since read: a server starting meanwhile may have replaced a
	// stale file with its own.
	if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, content) {
		return 0, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("remove the stale PostgreSQL lock file: %w", err)
	}
	return 0, nil
}

// serverInFolder reports whether pid is a live postgres working in the data folder (see
// postgresIn). What /proc does not show is assumed to be one, so a server is never taken
// for stale: only a process that is gone, another program, or a postgres of another
// folder is not.
func (c *Cluster) serverInFolder(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		// ESRCH: no such process. EPERM: another user's, and the server runs as this one
		// (root, which may signal anyone, runs it as postgres).
		return false
	}
	in, err := postgresIn(pid, c.realDir())
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return in || err != nil
}

// postgresIn reads /proc: whether pid runs a postgres binary with dir as its working folder
// (the server changes into its data folder before it writes its lock file, and its
// children inherit it). Any postgres binary counts, another version's or one a package
// upgrade replaced as it ran ("postgres (deleted)"): none may share the folder with a new
// server. The error is fs.ErrNotExist for a process that is gone (a zombie has no cwd
// either) and another one when /proc does not tell (another user's process).
func postgresIn(pid int, dir string) (bool, error) {
	proc := filepath.Join("/proc", strconv.Itoa(pid))
	cwd, err := os.Readlink(filepath.Join(proc, "cwd"))
	if err != nil {
		return false, err
	}
	exe, err := os.Readlink(filepath.Join(proc, "exe"))
	if err != nil {
		return false, err
	}
	return cwd == dir && strings.TrimSuffix(filepath.Base(exe), " (deleted)") == "postgres", nil
}

// realDir is the data folder with symbolic links resolved, as /proc shows working folders.
func (c *Cluster) realDir() string {
	if dir, err := filepath.EvalSymlinks(c.Dir); err == nil {
		return dir
	}
	return c.Dir
}
