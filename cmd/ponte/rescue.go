package main

import (
	"context"
	"log/slog"
	"time"

	"ponte/db"
	"ponte/jobs"
	"ponte/metrics"
)

// rescueEvery is how often a process looks for running jobs of processes that died (see
// db/liveness.go). One indexed statement; any replica may do it, and two doing it at once
// rescue each job once (the second finds it no longer running).
const rescueEvery = 2 * time.Second

// steadyFor is how long this process must have held its own liveness lock before it
// rescues others' jobs (see db.Liveness.HeldFor): longer than live processes take to take
// theirs again after the database restarts (a second or three).
const steadyFor = 5 * time.Second

// rescueJobs gives back, every rescueEvery, the running jobs of dead processes, logging
// each one, until ctx ends.
func rescueJobs(ctx context.Context, store *db.DB, live *db.Liveness, log *slog.Logger) {
	t := time.NewTicker(rescueEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !live.HeldFor(steadyFor) {
			continue
		}
		rescued, err := store.RescueJobsOfDeadProcesses(ctx, jobs.IDPrefix)
		if err != nil {
			if ctx.Err() == nil {
				log.Debug("rescue of dead processes' jobs failed", "err", err)
			}
			continue
		}
		for _, j := range rescued {
			log.Info("job of a dead process made available again", "jobId", j.ID, "queue", j.Queue, "kind", j.Kind)
			metrics.Jobs.WithLabelValues(j.Queue, j.Kind, "rescued").Inc()
		}
	}
}
