// Package jobs runs the durable background work of every engine (item executions, webhook
// deliveries, payment time-outs, auto-sync) on River, sharing the service's pgx pool.
package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"ponte/metrics"
)

// Client inserts and works jobs.
type Client = river.Client[pgx.Tx]

// Config tunes the queue.
type Config struct {
	// MaxWorkers bounds concurrent jobs per process. An item execution holds two
	// connections (its lock and its transaction), so twice this must stay well under the
	// pool size, leaving room for requests.
	MaxWorkers int
	// JobTimeout is the default limit of a job's run; RescueAfter must exceed it. River
	// retries a job still running after RescueAfter: the fallback for a machine that
	// vanished, since a killed process's jobs are taken back within seconds through its
	// liveness lock (db/liveness.go).
	JobTimeout  time.Duration
	RescueAfter time.Duration
	// PollInterval is how often idle workers look for due jobs (notifications wake them
	// sooner for new ones).
	PollInterval time.Duration
	// Queues are further queues and their workers per process (webhook deliveries wait on
	// the network, not on the database, and run many at once).
	Queues map[string]int
	Log    *slog.Logger
	// ID names this process's client in the jobs it takes (river_job.attempted_by); unique
	// per process. Empty: River makes one up.
	ID string
}

// IDPrefix starts the client id of every serving process of this service: such a process
// holds a liveness lock on its id while it runs (db.HoldLiveness), so its running jobs
// are taken back within seconds of its death (db.RescueJobsOfDeadProcesses).
const IDPrefix = "ponte:"

// NewID is a fresh client id for this process: host, process id and a random part,
// within River's 100 characters.
func NewID() string {
	host, _ := os.Hostname()
	if len(host) > 60 {
		host = host[:60]
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s%s:%d:%s", IDPrefix, host, os.Getpid(), hex.EncodeToString(b[:]))
}

// New builds a client that works the given workers and periodic jobs. Without workers it
// can only insert.
func New(pool *pgxpool.Pool, workers *river.Workers, periodic []*river.PeriodicJob, c Config) (*Client, error) {
	if c.MaxWorkers == 0 {
		c.MaxWorkers = 10
	}
	if c.JobTimeout == 0 {
		c.JobTimeout = 2 * time.Minute
	}
	if c.RescueAfter == 0 {
		c.RescueAfter = c.JobTimeout + time.Minute
	}
	if c.PollInterval == 0 {
		c.PollInterval = time.Second
	}
	log := c.Log
	if log != nil {
		log = slog.New(quieter{log.Handler()})
	}
	cfg := &river.Config{
		ID:                   c.ID,
		Logger:               log,
		JobTimeout:           c.JobTimeout,
		RescueStuckJobsAfter: c.RescueAfter,
		FetchPollInterval:    c.PollInterval,
		FetchCooldown:        50 * time.Millisecond,
		MaxAttempts:          10,
	}
	if workers != nil {
		cfg.Workers = workers
		cfg.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: c.MaxWorkers}}
		for name, n := range c.Queues {
			cfg.Queues[name] = river.QueueConfig{MaxWorkers: n}
		}
		cfg.PeriodicJobs = periodic
	}
	client, err := river.NewClient(riverpgxv5.New(pool), cfg)
	if err != nil || workers == nil {
		return client, err
	}
	// Every run of this process's workers is counted and timed; the channel closes when
	// the client stops.
	events, _ := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed,
		river.EventKindJobCancelled, river.EventKindJobSnoozed)
	go observe(events)
	return client, nil
}

var outcomes = map[river.EventKind]string{river.EventKindJobCompleted: "completed", river.EventKindJobFailed: "failed",
	river.EventKindJobCancelled: "cancelled", river.EventKindJobSnoozed: "snoozed"}

func observe(events <-chan *river.Event) {
	for ev := range events {
		if ev.Job == nil {
			continue
		}
		metrics.Jobs.WithLabelValues(ev.Job.Queue, ev.Job.Kind, outcomes[ev.Kind]).Inc()
		if ev.JobStats != nil {
			metrics.JobRunSeconds.WithLabelValues(ev.Job.Queue, ev.Job.Kind).Observe(ev.JobStats.RunDuration.Seconds())
			metrics.JobWaitSeconds.WithLabelValues(ev.Job.Queue, ev.Job.Kind).Observe(ev.JobStats.QueueWaitDuration.Seconds())
		}
	}
}

// quieter writes a library's Info lines at Debug: River reports its producers' counters at
// Info every minute for as long as it runs, which buried the service's own lines. Its
// warnings and errors keep their level.
type quieter struct{ slog.Handler }

func (q quieter) Enabled(ctx context.Context, l slog.Level) bool {
	return q.Handler.Enabled(ctx, lower(l))
}

func (q quieter) Handle(ctx context.Context, r slog.Record) error {
	r.Level = lower(r.Level)
	return q.Handler.Handle(ctx, r)
}

func (q quieter) WithAttrs(a []slog.Attr) slog.Handler { return quieter{q.Handler.WithAttrs(a)} }
func (q quieter) WithGroup(n string) slog.Handler      { return quieter{q.Handler.WithGroup(n)} }

func lower(l slog.Level) slog.Level {
	if l == slog.LevelInfo {
		return slog.LevelDebug
	}
	return l
}
