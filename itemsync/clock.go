package itemsync

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/model"
)

// Items on test clocks (docs/test-clocks.md): a sandbox item created with
// testClockId is dated by its clock, the periodic automatic sync leaves it alone, and the
// clock's advance runs its automatic sync (payments' advance loop, through the ClockWork
// hook this engine implements).

// inlineKey marks an execution the clock's advance runs itself, in process.
type inlineKey struct{}

// nowIn is the time of work done under ctx: its test clock's time when it carries one,
// else the engine's clock.
func (e *Engine) nowIn(ctx context.Context) time.Time {
	if c, ok := model.ClockOf(ctx); ok {
		return c.Now
	}
	return e.now()
}

// attachItemClock checks the clock a new item's input names, a clock of the caller's for an
// item of a sandbox connector, and returns ctx carrying its time and its id.
func (e *Engine) attachItemClock(ctx context.Context, clientID uuid.UUID, c *model.Connector, testClockID *string) (context.Context, *uuid.UUID, error) {
	if testClockID == nil {
		return ctx, nil, nil
	}
	id, err := uuid.Parse(strings.TrimSpace(*testClockID))
	if err != nil {
		return ctx, nil, model.Fail(model.CodeInvalidParameter, "testClockId must be a test clock's id, a UUID (got %.40q).", *testClockID)
	}
	if !c.IsSandbox {
		return ctx, nil, model.Fail(model.CodeSandboxOnly, "testClockId is for items of sandbox connectors only; connector %d's isSandbox is false.", c.ID)
	}
	k, found, err := e.db.TestClock(ctx, clientID, id, false)
	if err != nil {
		return ctx, nil, err
	}
	if !found {
		return ctx, nil, model.Fail(model.CodeTestClockNotFound, "Test clock %s not found.", id)
	}
	return model.WithClock(ctx, model.Clock{ID: k.ID, Now: k.FrozenTime}), &k.ID, nil
}

// itemClock is the clock an item on one is dated by, at its current time; nil for an item
// in real time, and when ctx already runs on the item's clock (an advance).
func itemClock(ctx context.Context, tx *db.Tx, it *db.ItemRow) (*model.Clock, error) {
	if it.TestClockID == nil {
		return nil, nil
	}
	if c, ok := model.ClockOf(ctx); ok && c.ID == *it.TestClockID {
		return &c, nil
	}
	k, found, err := tx.TestClock(ctx, uuid.Nil, *it.TestClockID, false)
	if err != nil || !found {
		return nil, err
	}
	return &model.Clock{ID: k.ID, Now: k.FrozenTime}, nil
}

// NextClockDue is when, in the clock's time, the next automatic sync of one of its items is
// due, if by until.
func (e *Engine) NextClockDue(ctx context.Context, tx *db.Tx, clockID uuid.UUID, until time.Time) (time.Time, bool, error) {
	return tx.NextClockAutoSync(ctx, clockID, until)
}

// RunClockDue starts the automatic syncs of the clock's items due at the clock time ctx
// carries, triggeredBy SYNC as the periodic sync does, and runs each to its end or to a
// wait for the user before the advance goes on, so the syncs happen in clock order and
// each item's next one is dated from it. Each execution has its job queued a minute later
// too: if this process dies mid-run, River takes the execution up from where it stood.
func (e *Engine) RunClockDue(ctx context.Context, clockID uuid.UUID) error {
	var started []uuid.UUID
	ctx = context.WithValue(ctx, inlineKey{}, true)
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		due, err := tx.LockClockAutoSyncs(ctx, clockID, e.nowIn(ctx), 50)
		if err != nil {
			return err
		}
		for _, it := range due {
			if err := e.startExecution(ctx, tx, it, "SYNC", nil, nil); err != nil {
				return err
			}
			started = append(started, *it.ExecutionID)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range started {
		if err := e.run(ctx, id); err != nil {
			// Left to its queued job: the advance goes on with the clock's other work.
			e.log.Warn("automatic sync on a test clock did not finish in the advance", "clock", clockID, "execution", id, "error", err)
		}
	}
	return nil
}

// executionOpts delays the queued job of an execution the advance runs itself (RunClockDue),
// so that the queue takes it up only if that run never ends.
func executionOpts(ctx context.Context) *river.InsertOpts {
	if inline(ctx) {
		return &river.InsertOpts{ScheduledAt: time.Now().Add(time.Minute)}
	}
	return nil
}

func inline(ctx context.Context) bool {
	v, _ := ctx.Value(inlineKey{}).(bool)
	return v
}

// enqueueTimeout queues the end of an execution's wait for the user at expires. For an item
// on a test clock (ctx runs on it) the job waits on the clock's queue, in clock time and named
// by the clock as payments' clock jobs are, so that real time never ends the wait and the
// advance that passes expires does (RunClockJob). A deletion of the clock hands it back to
// real time, or the item would wait for good.
func (e *Engine) enqueueTimeout(ctx context.Context, tx *db.Tx, executionID uuid.UUID, expires time.Time) error {
	opts := &river.InsertOpts{ScheduledAt: expires}
	if c, ok := model.ClockOf(ctx); ok {
		meta, err := json.Marshal(map[string]string{"testClockId": c.ID.String(), db.ClockJobToRealTime: "true"})
		if err != nil {
			return err
		}
		opts.Queue, opts.Metadata = db.TestClockQueue, meta
	}
	return e.enqueue(ctx, tx, InputTimeoutArgs{ExecutionID: executionID}, opts)
}

// ClockJobKinds are the jobs of this engine that wait on test clocks.
func (e *Engine) ClockJobKinds() []string { return []string{InputTimeoutArgs{}.Kind()} }

// RunClockJob runs one of this engine's jobs on a clock's queue, in the advance, with the
// clock at the job's time in ctx.
func (e *Engine) RunClockJob(ctx context.Context, kind string, args []byte) error {
	if kind != (InputTimeoutArgs{}).Kind() {
		return fmt.Errorf("item engine has no test clock job of kind %s", kind)
	}
	var a InputTimeoutArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return err
	}
	return e.inputTimeout(ctx, a.ExecutionID)
}
