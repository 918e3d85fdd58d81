package db

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The monitor's pace. A probe is a trivial statement on a connection of its own, outside
// the pool, so a pool busy with legitimate work never makes the database look away; it
// takes two failed probes in a row (or one plain refusal) to declare an outage, and one
// answer to end it, so requests recover within a probe interval of the database's return.
const (
	probeEvery   = 250 * time.Millisecond
	probeTimeout = time.Second
	failuresDown = 2
)

// monitor watches the database for the request path: Available is a cheap flag requests
// check before waiting on the database.
type monitor struct {
	cfg    *pgx.ConnConfig
	log    *slog.Logger
	onDown func()

	down  atomic.Bool
	since time.Time // when the current outage began; loop goroutine only
	conn  *pgx.Conn // loop goroutine only
	fails int       // consecutive failed probes; loop goroutine only

	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

func startMonitor(cfg *pgx.ConnConfig, log *slog.Logger, onDown func()) *monitor {
	cfg = cfg.Copy()
	cfg.Tracer = nil
	cfg.ConnectTimeout = probeTimeout
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	m := &monitor{cfg: cfg, log: log, onDown: onDown, stop: make(chan struct{}), done: make(chan struct{})}
	go m.run()
	return m
}

func (m *monitor) run() {
	defer close(m.done)
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	for {
		m.tick()
		select {
		case <-m.stop:
			if m.conn != nil {
				ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
				_ = m.conn.Close(ctx)
				cancel()
			}
			return
		case <-t.C:
		}
	}
}

func (m *monitor) close() {
	m.stopOnce.Do(func() { close(m.stop) })
	<-m.done
}

func (m *monitor) tick() {
	for {
		refused, err := m.probe()
		if err == nil {
			m.fails = 0
			if m.down.CompareAndSwap(true, false) {
				m.log.Warn("database reachable again", "outage", time.Since(m.since).Round(time.Millisecond))
			}
			return
		}
		m.fails++
		if refused || m.fails >= failuresDown {
			if m.down.CompareAndSwap(false, true) {
				m.since = time.Now()
				m.log.Error("database unreachable: requests are answered 503 until it is back", "err", err)
				m.onDown()
			}
			return
		}
		// One failure may be this connection's own end (an administrator's
		// pg_terminate_backend, a proxy's idle limit): a fresh connection decides at once.
	}
}

// probe runs one statement. refused reports a server that said no at once (no socket,
// connection refused, shutting down or starting up) rather than one that did not answer.
func (m *monitor) probe() (refused bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	if m.conn == nil {
		c, err := pgx.ConnectConfig(ctx, m.cfg)
		if err != nil {
			return !errors.Is(err, context.DeadlineExceeded) && !pgconn.Timeout(err), err
		}
		m.conn = c
	}
	if _, err := m.conn.Exec(ctx, "SELECT 1"); err != nil {
		closeCtx, done := context.WithTimeout(context.Background(), 100*time.Millisecond)
		_ = m.conn.Close(closeCtx)
		done()
		m.conn = nil
		return false, err
	}
	return false, nil
}

// Available reports whether the database answered its last probes. Without a monitor
// (tools, tests) it is always true and each statement finds out for itself.
func (d *DB) Available() bool { return d.mon == nil || !d.mon.down.Load() }
