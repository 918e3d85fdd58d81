// Package jobs runs the durable background work of every engine (item executions, webhook
// deliveries, payment time-outs, auto-sync) on River, sharing the service's pgx pool.
package jobs

import (
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
)

// Client inserts and works jobs.
type Client = river.Client[pgx.Tx]

// Config tunes the queue.
type Config struct {
	// MaxWorkers bounds concurrent jobs per process. An item execution holds two
	// connections (its lock and its transaction), so twice this must stay well under the
	// pool size, leaving room for requests.
	MaxWorkers int
	// JobTimeout is the default limit of a job's run; RescueAfter must exceed it. A job of a
	// killed process is retried once RescueAfter has passed.
	JobTimeout  time.Duration
	RescueAfter time.Duration
	// PollInterval is how often idle workers look for due jobs (notifications wake them
	// sooner for new ones).
	PollInterval time.Duration
	// Queues are further queues and their workers per process (webhook deliveries wait on
	// the network, not on the database, and run many at once).
	Queues map[string]int
	Log    *slog.Logger
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
	cfg := &river.Config{
		Logger:               c.Log,
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
	return river.NewClient(riverpgxv5.New(pool), cfg)
}
