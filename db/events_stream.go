package db

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// StreamPosition is a place in the outbox's commit order (migration 0030): the writing
// transaction's id and the row's order within it. A stream reads the rows after one.
//
// A stream that starts from now also carries the snapshot it started with, until it has
// read past every transaction that snapshot knew of: rows the snapshot saw were committed
// before the stream began, and are skipped even where their transaction's id is above a
// transaction still running then.
type StreamPosition struct {
	XID uint64
	Seq int64
	// Snapshot is pg_current_snapshot()'s text when the stream started ("xmin:xmax:xip,…"),
	// or empty; snapXmax is its xmax.
	Snapshot string
	snapXmax uint64
}

// String is the position as a cursor: "XID.SEQ" in decimal, and ".SNAPSHOT" while it
// carries one.
func (p StreamPosition) String() string {
	s := strconv.FormatUint(p.XID, 10) + "." + strconv.FormatInt(p.Seq, 10)
	if p.Snapshot != "" {
		s += "." + p.Snapshot
	}
	return s
}

// snapshotRE is pg_snapshot's text form; maxSnapshot bounds it (a snapshot lists the
// transactions running when it was taken, at most a few per connection).
var snapshotRE = regexp.MustCompile(`^([0-9]{1,19}):([0-9]{1,19}):([0-9]{1,19}(,[0-9]{1,19})*)?$`)

const maxSnapshot = 64 << 10

// ParseStreamPosition reads a cursor String wrote.
func ParseStreamPosition(s string) (StreamPosition, bool) {
	parts := strings.SplitN(s, ".", 3)
	if len(parts) < 2 {
		return StreamPosition{}, false
	}
	xid, err1 := strconv.ParseUint(parts[0], 10, 63)
	seq, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || seq < 0 {
		return StreamPosition{}, false
	}
	p := StreamPosition{XID: xid, Seq: seq}
	if len(parts) == 3 {
		m := snapshotRE.FindStringSubmatch(parts[2])
		if len(parts[2]) > maxSnapshot || m == nil {
			return StreamPosition{}, false
		}
		xmin, err1 := strconv.ParseUint(m[1], 10, 63)
		xmax, err2 := strconv.ParseUint(m[2], 10, 63)
		if err1 != nil || err2 != nil || xmin > xmax {
			return StreamPosition{}, false
		}
		p.Snapshot, p.snapXmax = parts[2], xmax
	}
	return p, true
}

// after is the position of a row read from p: the snapshot stays while rows it may have
// seen can still follow.
func (p StreamPosition) after(xid uint64, seq int64) StreamPosition {
	next := StreamPosition{XID: xid, Seq: seq}
	if p.Snapshot != "" && xid < p.snapXmax {
		next.Snapshot, next.snapXmax = p.Snapshot, p.snapXmax
	}
	return next
}

// StreamStart is the position of the present: every event committed after this call is
// after it, and none committed before.
func (c *conn) StreamStart(ctx context.Context) (StreamPosition, error) {
	var snap string
	if err := c.pg.QueryRow(ctx, `SELECT pg_current_snapshot()::text`).Scan(&snap); err != nil {
		return StreamPosition{}, err
	}
	xmin, _, _ := strings.Cut(snap, ":")
	p, ok := ParseStreamPosition(xmin + ".0." + snap)
	if !ok {
		return StreamPosition{}, fmt.Errorf("snapshot %q is not pg_snapshot's text", snap)
	}
	return p, nil
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
	var snap *string
	if after.Snapshot != "" {
		snap = &after.Snapshot
	}
	rows, err := c.pg.Query(ctx, `SELECT id, event, item_id, payload, created_at, control, xid::text, seq FROM events
		WHERE client_id = $1 AND xid IS NOT NULL AND (xid, seq) > ($2::text::xid8, $3)
		  AND xid < pg_snapshot_xmin(pg_current_snapshot())
		  AND ($5::text IS NULL OR NOT pg_visible_in_snapshot(xid, $5::text::pg_snapshot))
		ORDER BY xid, seq LIMIT $4`, clientID, strconv.FormatUint(after.XID, 10), after.Seq, limit, snap)
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
		e.Position = after.after(x, e.Position.Seq)
		return e, nil
	})
}
