package webhooks

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/google/uuid"
)

// The per-host cap: at most PerHost deliveries to one host at once, across every replica on
// the database. A delivery first takes a place in its own process (no database trip while
// the process alone is at the cap), then one of the host's numbered slots in PostgreSQL
// (db.TakeHostSlot). It holds both only while its request is out: the attempt is recorded
// after, so the host's next delivery need not wait on that write.
//
// A process keeps a slot it took for its next deliveries to the same host, for slotReuse
// at most and while one has used it within slotIdle, so a steady stream to one host costs
// no database trip per delivery. The slot's lease covers that reuse plus a delivery's
// longest run, so a killed replica's slots still free themselves; when the reuse ends the
// slot is given back and taken again like any other, so another replica gets its turn.

// A delivery whose host already has PerHost deliveries running in this process waits in
// the host's line for a place (a healthy receiver frees one within milliseconds; each freed
// place wakes the first in line, not every waiting delivery), up to lineWait, then goes
// back to the queue for busySnooze: a queued-again delivery costs the job queue two writes
// and a fetch, a waiting one nothing, and a busy healthy host's line moves at its
// answers' pace (a few hundred a second on a loaded machine). Every busyWait in line it
// looks at the host again. A host whose last answer took longer than busyWait gets no
// such wait, nor does one whose requests out now have been out longer than busyWait (a dead
// host is known as such at once, not only at its first time-out): its deliveries go back to
// the queue at once, for about as long as its answers take, spread by how many already wait
// (parkLocked), so a slow or dead host holds no worker beyond its PerHost sending and its
// waiting deliveries do not come back all at once.
const (
	busyWait   = 25 * time.Millisecond
	busySnooze = 200 * time.Millisecond
	// lineWait comes out of the 2 s a delivery's job has beyond its request's time-out:
	// a wait of 1 s there let a job outlive the limit under load and be run again.
	lineWait = busySnooze
	slotIdle = 50 * time.Millisecond
)

// slotReuse is how long a process may reuse a shared slot it took: one delivery's longest
// run, so the lease (reuse plus that run) is twice the run.
func (c Config) slotReuse() time.Duration { return c.JobTimeout() }

// hostState is this process's view of one host.
type hostState struct {
	inFlight int
	// sending are when this process's requests to the host now out were sent.
	sending map[*place]time.Time
	// idle are shared slots this process holds that no delivery uses, latest freed last.
	idle []heldSlot
	// latency is how long the host's last answer (or time-out) took.
	latency time.Duration
	// parked are when the deliveries sent back to the queue for a slow host come back.
	parked   []time.Time
	sweeping bool
	// waiting is the line of deliveries waiting for a place, first first.
	waiting []chan struct{}
}

// heldSlot is a shared slot this process holds.
type heldSlot struct {
	slot       int
	holder     uuid.UUID
	reuseUntil time.Time
	idleSince  time.Time
}

// place is a delivery's right to send to its host.
type place struct {
	host string
	slot heldSlot
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

func (e *Engine) hostLocked(host string) *hostState {
	h := e.hosts[host]
	if h == nil {
		h = &hostState{sending: map[*place]time.Time{}}
		e.hosts[host] = h
	}
	return h
}

// take gets delivery a place to send to host, or says how long to wait in the queue.
func (e *Engine) take(ctx context.Context, host string) (*place, time.Duration) {
	timer := time.NewTimer(busyWait)
	defer timer.Stop()
	until := time.Now().Add(lineWait)
	var stale []heldSlot
	defer func() { e.freeSlots(ctx, host, stale) }()
	for {
		e.mu.Lock()
		h := e.hostLocked(host)
		now := time.Now()
		if h.inFlight < e.cfg.PerHost {
			h.inFlight++
			for len(h.idle) > 0 {
				s := h.idle[len(h.idle)-1]
				h.idle = h.idle[:len(h.idle)-1]
				if now.Before(s.reuseUntil) {
					p := &place{host: host, slot: s}
					h.sending[p] = now
					e.mu.Unlock()
					return p, 0
				}
				stale = append(stale, s)
			}
			until, full := e.full[host]
			e.mu.Unlock()
			if full && now.Before(until) {
				return nil, e.giveUp(host)
			}
			return e.takeShared(ctx, host)
		}
		if h.slowLocked(now) {
			wait := e.parkLocked(h, now)
			e.mu.Unlock()
			return nil, wait
		}
		if !now.Before(until) {
			e.mu.Unlock()
			return nil, busySnooze
		}
		turn := make(chan struct{})
		h.waiting = append(h.waiting, turn)
		e.mu.Unlock()
		if wait, left := e.inLine(ctx, host, turn, timer, until); left {
			return nil, wait
		}
	}
}

// inLine waits in the host's line until the delivery's turn comes (left false: it tries
// for a place again), or it leaves the line: its context ended, its wait ran out, or the
// host turned slow (then it is parked like a delivery that finds a slow host).
func (e *Engine) inLine(ctx context.Context, host string, turn chan struct{}, timer *time.Timer, until time.Time) (wait time.Duration, left bool) {
	for {
		select {
		case <-turn:
			return 0, false
		case <-ctx.Done():
			e.mu.Lock()
			e.leaveLineLocked(host, turn)
			e.mu.Unlock()
			return busySnooze, true
		case <-timer.C:
			timer.Reset(busyWait)
		}
		e.mu.Lock()
		select {
		case <-turn: // woken meanwhile: a place is free
			e.mu.Unlock()
			return 0, false
		default:
		}
		h, now := e.hosts[host], time.Now()
		switch {
		case h == nil:
			e.mu.Unlock()
			return 0, false
		case h.slowLocked(now):
			e.leaveLineLocked(host, turn)
			wait = e.parkLocked(h, now)
			e.mu.Unlock()
			return wait, true
		case !now.Before(until):
			e.leaveLineLocked(host, turn)
			e.mu.Unlock()
			return busySnooze, true
		}
		e.mu.Unlock()
	}
}

// leaveLineLocked takes a delivery that stopped waiting out of its host's line; one
// already woken has left it.
func (e *Engine) leaveLineLocked(host string, turn chan struct{}) {
	if h := e.hosts[host]; h != nil {
		h.waiting = slices.DeleteFunc(h.waiting, func(c chan struct{}) bool { return c == turn })
	}
}

// parkLocked is how long a delivery to a slow host waits in the queue: about one answer's
// time for each PerHost deliveries already waiting, at random within that, so the host's
// slots find a few takers each time one frees rather than every waiting delivery.
func (e *Engine) parkLocked(h *hostState, now time.Time) time.Duration {
	h.parked = slices.DeleteFunc(h.parked, func(t time.Time) bool { return !t.After(now) })
	rounds := 1 + float64(len(h.parked))/float64(e.cfg.PerHost)
	wait := max(busySnooze, time.Duration(float64(h.latencyLocked(now))*(1+rand.Float64()*rounds)))
	h.parked = append(h.parked, now.Add(wait))
	return wait
}

// latencyLocked is how long the host takes to answer: its last answer's time, or longer
// when a request now out has waited longer than that.
func (h *hostState) latencyLocked(now time.Time) time.Duration {
	l := h.latency
	for _, sent := range h.sending {
		l = max(l, now.Sub(sent))
	}
	return l
}

// slowLocked reports whether a delivery that finds the host at its cap should go back to
// the queue at once rather than wait for a place.
func (h *hostState) slowLocked(now time.Time) bool { return h.latencyLocked(now) > busyWait }

// takeShared takes one of host's shared slots for a delivery holding a place in this
// process, or gives that place back when every slot is taken.
func (e *Engine) takeShared(ctx context.Context, host string) (*place, time.Duration) {
	for range slotTries {
		holder := uuid.New()
		slot, ok, full, err := e.db.TakeHostSlot(ctx, host, e.cfg.PerHost, holder, e.cfg.slotReuse()+e.cfg.JobTimeout())
		switch {
		case err != nil:
			e.log.Debug("webhook host slot unavailable; sending under this process's cap only", "host", host, "err", err)
			return e.sendingFrom(&place{host: host, slot: heldSlot{slot: noSlot}}), 0
		case ok:
			return e.sendingFrom(&place{host: host, slot: heldSlot{slot: slot, holder: holder, reuseUntil: time.Now().Add(e.cfg.slotReuse())}}), 0
		case full:
			e.mu.Lock()
			e.full[host] = time.Now().Add(fullFor)
			e.mu.Unlock()
			return nil, e.giveUp(host)
		}
	}
	return nil, e.giveUp(host)
}

// sendingFrom marks p's request as out from now.
func (e *Engine) sendingFrom(p *place) *place {
	e.mu.Lock()
	e.hostLocked(p.host).sending[p] = time.Now()
	e.mu.Unlock()
	return p
}

// giveUp gives back the place in this process of a delivery that found no shared slot.
func (e *Engine) giveUp(host string) time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	h := e.hostLocked(host)
	h.inFlight--
	h.wakeLocked()
	if now := time.Now(); h.slowLocked(now) {
		return e.parkLocked(h, now)
	}
	return busySnooze
}

// give ends a delivery's place: its shared slot is kept for the host's next delivery while
// it may be reused, else given back.
func (e *Engine) give(ctx context.Context, p *place, latency time.Duration) {
	now := time.Now()
	e.mu.Lock()
	h := e.hostLocked(p.host)
	h.inFlight--
	delete(h.sending, p)
	h.latency = latency
	keep := p.slot.slot != noSlot && now.Before(p.slot.reuseUntil)
	if keep {
		p.slot.idleSince = now
		h.idle = append(h.idle, p.slot)
		if !h.sweeping {
			h.sweeping = true
			time.AfterFunc(slotIdle, func() { e.sweep(p.host) })
		}
	} else if h.inFlight == 0 && len(h.idle) == 0 && !h.sweeping && len(h.waiting) == 0 {
		h.parked = slices.DeleteFunc(h.parked, func(t time.Time) bool { return !t.After(now) })
		if len(h.parked) == 0 {
			delete(e.hosts, p.host)
		}
	}
	h.wakeLocked()
	e.mu.Unlock()
	if !keep {
		e.freeSlots(ctx, p.host, []heldSlot{p.slot})
	}
}

// wakeLocked tells the first delivery in the host's line that a place is free.
func (h *hostState) wakeLocked() {
	if len(h.waiting) > 0 {
		close(h.waiting[0])
		h.waiting = h.waiting[1:]
	}
}

// sweep gives back the host's slots no delivery has used for slotIdle, and comes back
// while some are still kept.
func (e *Engine) sweep(host string) {
	now := time.Now()
	var out []heldSlot
	e.mu.Lock()
	h := e.hosts[host]
	if h == nil {
		e.mu.Unlock()
		return
	}
	h.idle = slices.DeleteFunc(h.idle, func(s heldSlot) bool {
		if now.Sub(s.idleSince) >= slotIdle || !now.Before(s.reuseUntil) {
			out = append(out, s)
			return true
		}
		return false
	})
	h.sweeping = len(h.idle) > 0
	if h.sweeping {
		time.AfterFunc(slotIdle, func() { e.sweep(host) })
	} else if h.inFlight == 0 && len(h.waiting) == 0 {
		delete(e.hosts, host)
	}
	e.mu.Unlock()
	e.freeSlots(context.Background(), host, out)
}

// freeSlots gives shared slots back, even when the delivery's context has ended.
func (e *Engine) freeSlots(ctx context.Context, host string, slots []heldSlot) {
	if len(slots) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	freed := false
	for _, s := range slots {
		if s.slot == noSlot {
			continue
		}
		if err := e.db.FreeHostSlot(ctx, host, s.slot, s.holder); err != nil {
			e.log.Debug("webhook host slot not given back; its lease will end it", "host", host, "err", err)
			continue
		}
		freed = true
	}
	if freed {
		e.mu.Lock()
		delete(e.full, host) // a slot is free now, to this process's knowledge
		e.mu.Unlock()
	}
}
