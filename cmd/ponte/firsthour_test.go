package main_test

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runPonte runs one command line to its end (bounded: a hang is a failure, not a stuck
// test) and returns its exit status, stdout and stderr.
func runPonte(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	bin := build(t) // built first: the bound is the command's, not the compiler's
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("ponte %v did not end within 60s\nstdout: %s\nstderr: %s", args, &stdout, &stderr)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), stdout.String(), stderr.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// What an operator meets in the first hour with the private cluster: a start that cannot
// listen leaves nothing behind, a second ponte on a folder in use says so at once and by
// whom, and doctor checks the private cluster, running or not, leaving it as it found it.
func TestPrivateClusterFirstHour(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	private := []string{"DATABASE_URL=", "PONTE_SECRET_KEY=", "PONTE_CLIENT_ID=", "PONTE_CLIENT_SECRET=", "PONTE_DATA_DIR=" + dir}

	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runPonte(t, append(private, "PONTE_ADDR="+taken.Addr().String()), "serve")
	taken.Close()
	if code != 1 || !strings.Contains(errOut, "address already in use") || out != "" {
		t.Fatalf("a start on a taken port: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a start that could not listen left the data folder behind (%v)", err)
	}

	first := start(t, private...)
	code, out, errOut = runPonte(t, append(private, "PONTE_ADDR=127.0.0.1:0"), "serve")
	want := "in use by process " + strconv.Itoa(first.cmd.Process.Pid)
	if code != 1 || !strings.Contains(errOut, want) {
		t.Fatalf("a second ponte on the same folder: exit %d, stderr lacks %q\nstdout: %s\nstderr: %s", code, want, out, errOut)
	}

	code, out, _ = runPonte(t, private, "doctor")
	for _, want := range []string{"(a running ponte's) is reachable", "ok    migrations    all applied", "ok    clock"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("doctor beside the running service: exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	if code, out, _ = runPonte(t, private, "clients", "list"); code != 0 || !strings.Contains(out, `"id"`) {
		t.Fatalf("clients list beside the running service: exit %d\n%s", code, out)
	}

	first.stop(t)
	code, out, _ = runPonte(t, private, "doctor")
	if code != 0 || !strings.Contains(out, "(started for this check, stopped after it) is reachable") {
		t.Fatalf("doctor with the service stopped: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "pg", "postmaster.pid")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("doctor left the cluster it started running (%v)", err)
	}
	// The folder is free again: a new start takes it.
	start(t, private...).stop(t)
}
