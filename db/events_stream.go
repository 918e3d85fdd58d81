package db

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// StreamPosition is a place in the outbox's commit order (migration 0030): the writing
// transaction's id and the row's order within it. A stream reads the rows after one.
type StreamPosition struct {
	XID uint64
	Seq int64
}

// String is the position as a cursor: "XID.SEQ" in decimal.
func (p StreamPosition) String() string {
	return strconv.FormatUint(p.XID, 10) + "." + strconv.FormatInt(p.Seq, 10)
}

// ParseStreamPosition reads a cursor String wrote.
func ParseStreamPosition(s string) (StreamPosition, bool) {
	x, q, ok := strings.Cut(s, ".")
	if !ok {
		return StreamPosition{}, false
	}
	xid, err1 := strconv.ParseUint(x, 10, 63)
	seq, err2 := strconv.ParseInt(q, 10, 64)
	if err1 != nil || err2 != nil || seq < 0 {
		return StreamPosition{}, false
	}
	return StreamPosition{XID: xid, Seq: seq}, true
}

// StreamStart is the position of the present: every event committed after this call is
// after it. Events of transactions still running when it is taken are after it too, so a
// stream may begin with events written moments before it started.
func (c *conn) StreamStart(ctx context.Context) (StreamPosition, error) {
	var xmin string
	if err := c.pg.QueryRow(ctx, `SELECT pg_snapshot_xmin(pg_current_snapshot())::text`).Scan(&xmin); err != nil {
		return StreamPosition{}, err
	}
	x, err := strconv.ParseUint(xmin, 10, 64)
	if err != nil {
		return StreamPosition{}, fmt.Errorf("snapshot xmin %q: %w", xmin, err)
	}
	return StreamPosition{XID: x}, nil
}

// StreamedEvent is an outbox row and its position.
type StreamedEvent struct {
	Event
	Position StreamPosition
}

// EventsAfter reads up to limit of clientID's events after position, in commit order. It
// returns only rows of transactions older than every transaction still running: no row can
// commit later and sort before them, so a reader that moves its cursor to the last row
// returned never skips one. A long writing transaction anywhere on the server holds the
// stream back until it ends; the events wait, none is lost.
func (c *conn) EventsAfter(ctx context.Context, clientID uuid.UUID, after StreamPosition, limit int) ([]*StreamedEvent, error) {
	rows, err := c.pg.Query(ctx, `SELECT id, event, item_id, payload, created_at, control, xid::text, seq FROM events
		WHERE client_id = $1 AND xid IS NOT NULL AND (xid, seq) > ($2::text::xid8, $3)
		  AND xid < pg_snapshot_xmin(pg_current_snapshot())
		ORDER BY xid, seq LIMIT $4`, clientID, strconv.FormatUint(after.XID, 10), after.Seq, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*StreamedEvent, error) {
		e := &StreamedEvent{Event: Event{ClientID: clientID}}
		var xid string
		var created time.Time
		if err := r.Scan(&e.ID, &e.Event.Event, &e.ItemID, &e.Payload, &created, &e.Control, &xid, &e.Position.Seq); err != nil {
			return nil, err
		}
		e.CreatedAt = created
		x, err := strconv.ParseUint(xid, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("event xid %q: %w", xid, err)
		}
		e.Position.XID = x
		return e, nil
	})
}
