package payments

import (
	"context"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// attachBoletoClock puts a new boleto on the clock its input names: a clock of the caller's,
// and a connection whose item is on a sandbox connector. ctx comes back carrying the clock,
// so that the boleto's dates, its due-date check and its sandbox payer's steps take the
// clock's time.
func (e *Engine) attachBoletoClock(ctx context.Context, conn *db.BoletoConnectionRow, testClockID *string) (context.Context, *uuid.UUID, error) {
	if testClockID == nil {
		return ctx, nil, nil
	}
	id, err := parseID("testClockId", *testClockID)
	if err != nil {
		return ctx, nil, err
	}
	c, found, err := e.db.Connector(ctx, conn.ConnectorID)
	if err != nil {
		return ctx, nil, err
	}
	if !found || !c.IsSandbox {
		return ctx, nil, model.Fail(model.CodeSandboxOnly, "testClockId is for boletos of sandbox connectors only; boleto connection %s is on connector %d, whose isSandbox is false.", conn.ID, conn.ConnectorID)
	}
	k, err := e.callersClock(ctx, conn.ClientID, id)
	if err != nil {
		return ctx, nil, err
	}
	return model.WithClock(ctx, k), &k.ID, nil
}

// boletoOnClock makes an action on a boleto that lives on a test clock (a cancellation, a
// payment by its PIX code) run in the clock's time; other boletos, and work already on the
// clock (an advance), keep ctx.
func (e *Engine) boletoOnClock(ctx context.Context, b *db.BoletoRow) (context.Context, error) {
	if b.TestClockID == nil {
		return ctx, nil
	}
	if c, ok := model.ClockOf(ctx); ok && c.ID == *b.TestClockID {
		return ctx, nil
	}
	c, found, err := e.db.TestClock(ctx, uuid.Nil, *b.TestClockID, false)
	if err != nil || !found {
		return ctx, err
	}
	return model.WithClock(ctx, model.Clock{ID: c.ID, Now: c.FrozenTime}), nil
}

func (e *Engine) protestDays() int { return int(e.cfg.BoletoProtestAfter / (24 * time.Hour)) }

// nextClockSweep is when, in the clock's time, the daily sweep would next move one of the
// clock's boletos: five past midnight (São Paulo) of the first day a date of one passes, or
// the clock's own time if that day has begun already. due is false when that is after until
// or none of its boletos waits on a date.
func (e *Engine) nextClockSweep(ctx context.Context, tx *db.Tx, c *db.TestClockRow, until time.Time) (at time.Time, due bool, err error) {
	day, found, err := tx.NextClockBoletoDay(ctx, c.ID, e.protestDays())
	if err != nil || !found {
		return time.Time{}, false, err
	}
	at = time.Date(day.Year(), day.Month(), day.Day(), 0, 5, 0, 0, SaoPaulo)
	if at.Before(c.FrozenTime) {
		at = c.FrozenTime
	}
	return at, !at.After(until), nil
}
