package main_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/uuid"
)

// A start right after kill -9 of the service and of its private cluster works the first
// time, every time. Issue 34: about half such starts failed with `lstat …/pg/postmaster.pid:
// no such file or directory`. A server of the killed run was still shutting down (the
// kernel sends it SIGINT as the service dies) and removed its lock file under the new
// start's walk of the data folder. Each round kills one way and starts again at once.
func TestStartAfterKill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pg := filepath.Join(dir, "pg")
	keys := map[string]string{"clientId": uuid.NewString(), "clientSecret": "a-long-configured-secret"}
	env := []string{"DATABASE_URL=", "PONTE_DATA_DIR=" + dir, "PONTE_SECRET_KEY=" + strings.Repeat("k", 40),
		"PONTE_CLIENT_ID=" + keys["clientId"], "PONTE_CLIENT_SECRET=" + keys["clientSecret"]}
	lockPID := func() string {
		b, _ := os.ReadFile(filepath.Join(pg, "postmaster.pid"))
		first, _, _ := strings.Cut(string(b), "\n")
		return first
	}
	// The kill of the cluster comes too late: it is already shutting down by itself. The
	// next start meets it mid-shutdown in about one round in five, so this way comes often.
	serviceAlone := struct {
		name string
		kill func(s *server)
	}{"the service alone", func(s *server) { _ = s.cmd.Process.Kill() }}
	kills := []struct {
		name string
		kill func(s *server)
	}{
		serviceAlone,
		{"the service, then every process of its cluster", func(s *server) {
			cluster := clusterPIDs(t, pg)
			_ = s.cmd.Process.Kill()
			signalAll(cluster, syscall.SIGKILL)
		}},
		serviceAlone,
		{"every process of the cluster, then the service", func(s *server) {
			signalAll(clusterPIDs(t, pg), syscall.SIGKILL)
			_ = s.cmd.Process.Kill()
		}},
		serviceAlone,
		// Two commands typed one after the other: the service restarts its cluster between.
		{"the postmaster, then the service once it restarted the cluster", func(s *server) {
			old := strconv.Itoa(postmasterPID(t, pg))
			_ = syscall.Kill(postmasterPID(t, pg), syscall.SIGKILL)
			waitFor(t, "the service to restart its cluster", func() bool { p := lockPID(); return p != "" && p != old })
			_ = s.cmd.Process.Kill()
		}},
		{"the service and its postmaster, whose children notice by themselves", func(s *server) {
			pm := postmasterPID(t, pg)
			_ = s.cmd.Process.Kill()
			_ = syscall.Kill(pm, syscall.SIGKILL)
		}},
		serviceAlone,
		serviceAlone,
	}
	for _, k := range kills {
		s := start(t, env...) // fails the test unless this start serves
		apiKey(t, s.url, keys)
		k.kill(s)
		<-s.exited
		s.cmd.ProcessState = &os.ProcessState{} // already reaped: stop() has nothing to do
		t.Logf("killed %s", k.name)
	}
	s := start(t, env...)
	apiKey(t, s.url, keys)
	s.stop(t)
	if _, err := os.Stat(filepath.Join(pg, "postmaster.pid")); !os.IsNotExist(err) {
		t.Fatalf("PostgreSQL still running after the service stopped (postmaster.pid: %v)", err)
	}
}
