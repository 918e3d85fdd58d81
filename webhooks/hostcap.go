package webhooks

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// The per-host cap: at most PerHost deliveries to one host at once, across every replica on
// the database. A delivery first takes a place in its own process (no database trip while
// the process alone is at the cap), then one of the host's numbered slots in PostgreSQL
// (db.TakeHostSlot), leased for the delivery's longest run so a killed replica's slots free
// themselves. It gives both back when it ends.

// A delivery whose host already has PerHost deliveries running in this process waits up to
// busyWait for a slot (a healthy receiver frees one within milliseconds), then goes back
// to the queue for busySnooze, so a slow host never holds more than its share of workers.
const (
	busyWait   = 25 * time.Millisecond
	busySnooze = 200 * time.Millisecond
)

func (e *Engine) acquire(ctx context.Context, host string) bool {
	timer := time.NewTimer(busyWait)
	defer timer.Stop()
	for {
		e.mu.Lock()
		if e.inFlight[host] < e.cfg.PerHost {
			e.inFlight[host]++
			e.mu.Unlock()
			return true
		}
		freed := e.freed
		e.mu.Unlock()
		select {
		case <-freed:
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

func (e *Engine) release(host string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.inFlight[host]--; e.inFlight[host] <= 0 {
		delete(e.inFlight, host)
	}
	close(e.freed)
	e.freed = make(chan struct{})
}

// slotTries is how many free slots a delivery tries before going back to the queue: one
// more taker than free slots at the same instant may find its pick taken.
const slotTries = 3

// fullFor is how long a process, told that every slot of a host is taken, sends its next
// deliveries to that host back to the queue without asking again: while another replica
// holds them all, this one's waiting deliveries would otherwise each ask at every snooze.
const fullFor = busySnooze / 2

// noSlot marks a delivery sent without a shared slot: the database could not be asked, and
// like the rate limits the cap then lets it through (the process's own cap still holds).
const noSlot = -1

// takeSharedSlot takes one of host's shared slots for delivery, or reports every slot taken.
func (e *Engine) takeSharedSlot(ctx context.Context, host string, delivery uuid.UUID) (int, bool) {
	e.mu.Lock()
	until, known := e.full[host]
	e.mu.Unlock()
	if known && time.Now().Before(until) {
		return 0, false
	}
	for range slotTries {
		slot, ok, full, err := e.db.TakeHostSlot(ctx, host, e.cfg.PerHost, delivery, e.cfg.JobTimeout())
		switch {
		case err != nil:
			e.log.Debug("webhook host slot unavailable; sending under this process's cap only", "host", host, "err", err)
			return noSlot, true
		case ok:
			return slot, true
		case full:
			e.mu.Lock()
			e.full[host] = time.Now().Add(fullFor)
			e.mu.Unlock()
			return 0, false
		}
	}
	return 0, false
}

// freeSharedSlot gives a slot back, even when the delivery's context has ended.
func (e *Engine) freeSharedSlot(ctx context.Context, host string, slot int, delivery uuid.UUID) {
	if slot == noSlot {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := e.db.FreeHostSlot(ctx, host, slot, delivery); err != nil {
		e.log.Debug("webhook host slot not given back; its lease will end it", "host", host, "err", err)
		return
	}
	e.mu.Lock()
	delete(e.full, host) // a slot is free now, to this process's knowledge
	e.mu.Unlock()
}
