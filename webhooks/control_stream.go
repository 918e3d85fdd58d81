package webhooks

import (
	"context"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// StreamBatch bounds one read of the event stream; a stream that gets a full batch reads
// again at once.
const StreamBatch = 100

// SandboxEvents reads the application's events written after cursor (nil: from now on),
// in commit order (db.EventsAfter), with the cursor to read on from. It serves
// GET /sandbox/events/stream, which calls it in a loop, and GraphQL clients that poll.
//
// Why polling with a cursor rather than LISTEN/NOTIFY: a notification is lost whenever
// its listener is not connected (a replica restarting, a network blip), so a stream would
// need a cursor to catch up anyway; with one, a notification would only shorten the wait.
// A read is one index range scan (events_stream), a stream reads once a second when idle,
// and the number of streams is bounded by the developers watching them; a dedicated
// listening connection per stream, or a shared one fanning out in each process, costs
// more than that for a sandbox tool.
func (e *Engine) SandboxEvents(ctx context.Context, cursor *string) (*model.SandboxEventBatch, error) {
	clientID, err := client(ctx, auth.ControlSandbox)
	if err != nil {
		return nil, err
	}
	var pos db.StreamPosition
	if cursor == nil {
		if pos, err = e.db.StreamStart(ctx); err != nil {
			return nil, err
		}
	} else {
		var ok bool
		if pos, ok = db.ParseStreamPosition(*cursor); !ok {
			return nil, model.Fail(model.CodeInvalidCursor, "cursor %q is not a cursor of the event stream: use one a read returned, or none to start from now.", *cursor)
		}
	}
	rows, err := e.db.EventsAfter(ctx, clientID, pos, StreamBatch)
	if err != nil {
		return nil, err
	}
	out := &model.SandboxEventBatch{Events: make([]*model.Event, len(rows)), Cursor: pos.String()}
	for i, r := range rows {
		out.Events[i] = eventOf(&r.Event)
		out.Cursor = r.Position.String()
	}
	return out, nil
}
