package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"ponte/model"
)

// fireSandboxEvent is POST /sandbox/events.
func (s *Server) fireSandboxEvent() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, b model.SandboxEventInput) (any, error) {
		return s.mut.FireSandboxEvent(ctx, b)
	})
}

// Stream timing: the defaults, changed by Config for tests.
const (
	// streamHeartbeat is the comment a quiet stream sends, so proxies keep it open and a
	// client that went is noticed by the failed write.
	streamHeartbeat = 15 * time.Second
	// streamPoll is how often a quiet stream reads the outbox (Query.sandboxEvents).
	streamPoll = time.Second
	// streamMaxSeconds bounds a stream, default and most: a client reconnects with
	// Last-Event-ID, and so shows a credential that is still valid.
	streamMaxSeconds = 3600
)

// sandboxEventStream is GET /sandbox/events/stream: Server-Sent Events of the
// application's events as they are written, read through Query.sandboxEvents in a loop.
// Each event is one SSE event named for it, its data the event as GET /events/{id}
// answers it; the last event of each read carries the id to resume from (Last-Event-ID,
// or the cursor parameter). The stream ends when the client goes, after timeout seconds
// (at most an hour), or on a failure, which it reports as an error event first.
func (s *Server) sandboxEventStream(w http.ResponseWriter, r *http.Request) {
	q := (&input{r: r}).query("cursor", "timeout")
	cursor := q.str("cursor")
	if cursor == nil && r.Header.Get("Last-Event-ID") != "" {
		v := r.Header.Get("Last-Event-ID")
		cursor = &v
	}
	limit := q.integer("timeout")
	if limit != nil && (*limit < 1 || *limit > streamMaxSeconds) {
		q.fail("timeout", "must be 1 to %d seconds (got %d).", streamMaxSeconds, *limit)
	}
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	// The first read answers a refusal (credential, cursor) as the error body, before the
	// stream starts.
	batch, err := s.query.SandboxEvents(r.Context(), cursor)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	seconds := streamMaxSeconds
	if limit != nil {
		seconds = *limit
	}
	ctx, cancel := context.WithTimeout(r.Context(), time.Duration(seconds)*time.Second)
	defer cancel()
	rc := http.NewResponseController(w)
	// The server's write time-out is for answers, not for a stream that lasts an hour.
	_ = rc.SetWriteDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // a proxy in front must not hold events back
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write([]byte(": ponte event stream\nretry: 2000\n\n")); err != nil || rc.Flush() != nil {
		return
	}
	heartbeat, poll := s.streamHeartbeat, s.streamPoll
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	for {
		if err := writeBatch(w, batch); err != nil || rc.Flush() != nil {
			return
		}
		if len(batch.Events) < streamBatchFull {
			wait := time.NewTimer(poll)
			for waiting := true; waiting; {
				select {
				case <-ctx.Done():
					wait.Stop()
					return
				case <-beat.C:
					if _, err := w.Write([]byte(": heartbeat\n\n")); err != nil || rc.Flush() != nil {
						wait.Stop()
						return
					}
				case <-wait.C:
					waiting = false
				}
			}
		}
		next, err := s.query.SandboxEvents(ctx, &batch.Cursor)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			e, internal := model.AsError(err)
			if internal {
				s.log.ErrorContext(ctx, "event stream read failed", "err", err)
			}
			b, _ := json.Marshal(e)
			_, _ = w.Write(append(append([]byte("event: error\ndata: "), b...), "\n\n"...))
			_ = rc.Flush()
			return
		}
		batch = next
	}
}

// streamBatchFull is a read's most events (webhooks.StreamBatch): a full one is followed
// by another read at once.
const streamBatchFull = 100

// writeBatch writes a read's events; the last carries the cursor as its id.
func writeBatch(w http.ResponseWriter, b *model.SandboxEventBatch) error {
	for i, ev := range b.Events {
		data, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		out := make([]byte, 0, len(data)+len(ev.Event)+64)
		if i == len(b.Events)-1 {
			out = append(append(append(out, "id: "...), b.Cursor...), '\n')
		}
		out = append(append(append(out, "event: "...), ev.Event...), '\n')
		out = append(append(append(out, "data: "...), data...), "\n\n"...)
		if _, err := w.Write(out); err != nil {
			return err
		}
	}
	return nil
}
