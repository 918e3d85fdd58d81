package db

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"syscall"
	"time"
)

// Restart pacing: a server that keeps dying is retried ever more slowly, up to
// maxRestartDelay; one that ran for stableRun before dying starts again at minRestartDelay.
const (
	minRestartDelay = 500 * time.Millisecond
	maxRestartDelay = 30 * time.Second
	stableRun       = time.Minute
)

// supervise restarts the server whenever it exits without Stop having asked it to, until
// Stop. p is the server running when supervision begins.
func (c *Cluster) supervise(p *serverProc) {
	defer close(c.supervised)
	log := c.opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	delay := minRestartDelay
	for {
		<-p.exited
		if c.isStopping() {
			return
		}
		if time.Since(p.started) >= stableRun {
			delay = minRestartDelay
		}
		exitedAt := time.Now()
		log.Error("PostgreSQL exited unexpectedly; restarting it", "exit", exitReason(p.err), "ranFor", exitedAt.Sub(p.started).Round(time.Millisecond), "dir", c.Dir)
		for attempt := 1; ; attempt++ {
			select {
			case <-c.halt:
				return
			case <-time.After(delay):
			}
			delay = min(2*delay, maxRestartDelay)
			next, err := c.restart()
			if err == nil {
				log.Warn("PostgreSQL restarted", "attempt", attempt, "down", time.Since(exitedAt).Round(time.Millisecond), "dir", c.Dir)
				p = next
				break
			}
			if c.isStopping() {
				return
			}
			log.Error("PostgreSQL restart failed; retrying", "attempt", attempt, "err", err, "retryIn", delay)
		}
	}
}

func (c *Cluster) isStopping() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopping
}

// exitReason names how the server ended: a signal's name or an exit status.
func exitReason(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// restart starts the server again once what remains of the last one is gone.
func (c *Cluster) restart() (*serverProc, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-c.halt:
			cancel()
		case <-ctx.Done():
		}
	}()
	return c.launch(ctx)
}

// orphanGrace is how long a killed postmaster's backends get to notice its death and exit
// by themselves before they are told to quit.
const orphanGrace = 5 * time.Second

// waitOrphans waits until no server process of the last run works in the data folder;
// called once the lock file names no live postmaster.
// When the postmaster is killed, its backends and auxiliary processes live on until they
// notice; while they hold its shared memory a new postmaster refuses to start. Past
// orphanGrace they get SIGQUIT, PostgreSQL's own "exit at once" for children of a dead
// postmaster (and SIGCONT, in case they were stopped).
func (c *Cluster) waitOrphans(ctx context.Context) error {
	start := time.Now()
	signalled := false
	for {
		pids := c.orphans()
		if len(pids) == 0 {
			return nil
		}
		if !signalled && time.Since(start) > orphanGrace {
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGQUIT)
				_ = syscall.Kill(pid, syscall.SIGCONT)
			}
			signalled = true
		}
		if time.Since(start) > 2*orphanGrace {
			return fmt.Errorf("processes %v of the previous PostgreSQL server still run in %s", pids, c.Dir)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// orphans lists live postgres processes working in the data folder (see postgresIn);
// called between runs only.
func (c *Cluster) orphans() []int {
	dir := c.realDir()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if in, err := postgresIn(pid, dir); in && err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// ServerPID is the process id of the running server, or 0 (attached to another's, or
// between runs).
func (c *Cluster) ServerPID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc == nil {
		return 0
	}
	select {
	case <-c.proc.exited:
		return 0
	default:
		return c.proc.cmd.Process.Pid
	}
}
