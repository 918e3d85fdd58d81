package payments

import (
	"context"

	"ponte/db"
	"ponte/model"
)

// attachPreauthClock puts a new pre-authorization on the clock its input names: a clock of
// the caller's, and a connector whose isSandbox is true. ctx comes back carrying the clock,
// so that the pre-authorization's dates, its payer's decision and the payments made under it
// (and so its limits' periods) take the clock's time.
func (e *Engine) attachPreauthClock(ctx context.Context, p *db.PreauthorizationRow, conn *model.Connector, testClockID *string) (context.Context, error) {
	if testClockID == nil {
		return ctx, nil
	}
	id, err := parseID("testClockId", *testClockID)
	if err != nil {
		return ctx, err
	}
	if !conn.IsSandbox {
		return ctx, model.Fail(model.CodeSandboxOnly, "testClockId is for pre-authorizations on sandbox connectors only; connector %d's isSandbox is false.", conn.ID)
	}
	c, err := e.callersClock(ctx, p.ClientID, id)
	if err != nil {
		return ctx, err
	}
	p.TestClockID = &c.ID
	p.CreatedAt, p.UpdatedAt = c.Now, c.Now
	return model.WithClock(ctx, c), nil
}

// preauthOnClock makes work on a pre-authorization that lives on a test clock (the payer's
// decision, a revocation, a payment under it) run in the clock's time; other
// pre-authorizations, and work already on the clock (an advance), keep ctx.
func (e *Engine) preauthOnClock(ctx context.Context, tx *db.Tx, p *db.PreauthorizationRow) (context.Context, error) {
	return onTestClock(ctx, tx, p.TestClockID)
}
