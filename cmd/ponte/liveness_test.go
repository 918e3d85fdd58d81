package main_test

import (
	"context"
	"testing"

	"ponte/db"
	"ponte/jobs"
	"ponte/testsupport"
)

// The rescue of dead processes' jobs takes back exactly the running jobs whose last taker
// is one of this service's clients without its liveness lock: not a live one's, not a
// client that never promised a lock, not a job out of attempts; and a client's jobs once
// it lets go of its lock.
func TestRescueJobsOfDeadProcesses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, err := db.Open(ctx, testsupport.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	live, dead := jobs.IDPrefix+"live", jobs.IDPrefix+"dead"
	l, err := store.HoldLiveness(ctx, live, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.HoldLiveness(ctx, live, nil); err == nil {
		t.Fatal("a second process took a held client id")
	}
	ids := map[string]int64{}
	for _, j := range []struct {
		name, owner string
		attempt     int
	}{{"live", live, 1}, {"dead", dead, 1}, {"foreign", "other_host_2026", 1}, {"spent", dead, 25}, {"earlier", dead + "," + live, 1}} {
		var id int64
		if err := store.Pool.QueryRow(ctx, `INSERT INTO river_job (args, kind, max_attempts, state, attempt, attempted_at, attempted_by, queue)
			VALUES ('{}', 'test_kind', 25, 'running', $1, now(), string_to_array($2, ','), 'payments') RETURNING id`, j.attempt, j.owner).Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[j.name] = id
	}
	rescued, err := store.RescueJobsOfDeadProcesses(ctx, jobs.IDPrefix)
	if err != nil {
		t.Fatal(err)
	}
	if len(rescued) != 1 || rescued[0].ID != ids["dead"] || rescued[0].Queue != "payments" {
		t.Fatalf("rescued %+v, want only the dead client's job %d", rescued, ids["dead"])
	}
	var state string
	var errs int
	if err := store.Pool.QueryRow(ctx, `SELECT state::text, cardinality(errors) FROM river_job WHERE id = $1`, ids["dead"]).Scan(&state, &errs); err != nil || state != "available" || errs != 1 {
		t.Fatalf("rescued job: %s with %d errors (%v)", state, errs, err)
	}
	if again, err := store.RescueJobsOfDeadProcesses(ctx, jobs.IDPrefix); err != nil || len(again) != 0 {
		t.Fatalf("second look rescued %+v (%v)", again, err)
	}
	l.Close()
	rescued, err = store.RescueJobsOfDeadProcesses(ctx, jobs.IDPrefix)
	if err != nil || len(rescued) != 2 {
		t.Fatalf("after the live client let go: rescued %+v (%v), want its two jobs", rescued, err)
	}
}
