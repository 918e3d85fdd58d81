package testsupport

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"ponte/db"
)

// Streaming is a private primary and a hot standby streaming from it, each its own
// throwaway cluster, for tests of the read replica. Database "ponte" exists on both.
type Streaming struct {
	Primary, Standby *db.Cluster
}

// StartStreaming starts the pair and stops both when the test ends.
func StartStreaming(t testing.TB) *Streaming {
	t.Helper()
	ctx := context.Background()
	dirs := [2]string{}
	for i := range dirs {
		d, err := os.MkdirTemp("", "ponte-pg-")
		if err != nil {
			t.Fatal(err)
		}
		dirs[i] = d
		t.Cleanup(func() { _ = os.RemoveAll(d) })
	}
	primary, err := db.StartCluster(ctx, dirs[0], db.ClusterOptions{Ephemeral: true})
	if err != nil {
		t.Fatalf("start primary: %v", err)
	}
	t.Cleanup(func() { _ = primary.Stop() })
	if err := primary.EnsureDatabase(ctx, "ponte"); err != nil {
		t.Fatal(err)
	}
	standby, err := db.StartStandby(ctx, dirs[1], primary, db.ClusterOptions{Ephemeral: true})
	if err != nil {
		t.Fatalf("start standby: %v", err)
	}
	t.Cleanup(func() { _ = standby.Stop() })
	return &Streaming{Primary: primary, Standby: standby}
}

// query runs one statement on database ponte of c and scans its one row into dest.
func query(t testing.TB, c *db.Cluster, sql string, dest ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.URL("ponte"))
	if err != nil {
		t.Fatalf("connect to %s: %v", c.Dir, err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, sql).Scan(dest...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// WaitReplayed waits until the standby has replayed everything the primary had written
// when it was called.
func (s *Streaming) WaitReplayed(t testing.TB) {
	t.Helper()
	var written string
	query(t, s.Primary, `SELECT pg_current_wal_insert_lsn()::text`, &written)
	Eventually(t, "the standby to replay the primary's WAL up to "+written, time.Minute, func() bool {
		var done bool
		query(t, s.Standby, `SELECT pg_last_wal_replay_lsn() >= '`+written+`'::pg_lsn`, &done)
		return done
	})
}

// PauseReplay stops the standby applying WAL (it keeps receiving it), and returns once
// replay has stopped.
func (s *Streaming) PauseReplay(t testing.TB) {
	t.Helper()
	var ignored any
	query(t, s.Standby, `SELECT pg_wal_replay_pause()::text`, &ignored)
	Eventually(t, "the standby's replay to pause", time.Minute, func() bool {
		var state string
		query(t, s.Standby, `SELECT pg_get_wal_replay_pause_state()`, &state)
		return state == "paused"
	})
}

// ResumeReplay lets the standby apply WAL again.
func (s *Streaming) ResumeReplay(t testing.TB) {
	t.Helper()
	var ignored any
	query(t, s.Standby, `SELECT pg_wal_replay_resume()::text`, &ignored)
}
