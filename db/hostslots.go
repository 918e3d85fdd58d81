package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// TakeHostSlot takes for holder one of host's slots numbered below slots, free (no row) or
// whose lease ran out, for lease, in one statement: two takers of the same slot cannot
// both win (the second finds the first's row unexpired and gets nothing). A random free
// slot is tried, so concurrent takers seldom collide. ok is false when no slot was taken:
// full tells every slot was taken, else the slot tried was taken meanwhile and another
// try may succeed.
func (c *conn) TakeHostSlot(ctx context.Context, host string, slots int, holder uuid.UUID, lease time.Duration) (slot int, ok, full bool, err error) {
	rows, err := c.pg.Query(ctx, `WITH free AS (
			SELECT s FROM generate_series(0, $3::int - 1) s
			WHERE NOT EXISTS (SELECT FROM webhook_host_slots w WHERE w.host = $1 AND w.slot = s AND w.expires_at > now())
			ORDER BY random() LIMIT 1),
		taken AS (
			INSERT INTO webhook_host_slots (host, slot, holder, expires_at)
			SELECT $1, s, $2, now() + make_interval(secs => $4) FROM free
			ON CONFLICT (host, slot) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
			WHERE webhook_host_slots.expires_at <= now()
			RETURNING slot)
		SELECT (SELECT slot FROM taken), NOT EXISTS (SELECT FROM free)`, host, holder, slots, lease.Seconds())
	if err != nil {
		return 0, false, false, err
	}
	type result struct {
		Slot *int16
		Full bool
	}
	got, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByPos[result])
	if err != nil || got.Slot == nil {
		return 0, false, got.Full, err
	}
	return int(*got.Slot), true, false, nil
}

// FreeHostSlot gives back a slot taken by holder; a slot whose lease ran out and was taken
// by another stays theirs.
func (c *conn) FreeHostSlot(ctx context.Context, host string, slot int, holder uuid.UUID) error {
	_, err := c.pg.Exec(ctx, `DELETE FROM webhook_host_slots WHERE host = $1 AND slot = $2 AND holder = $3`, host, slot, holder)
	return err
}
